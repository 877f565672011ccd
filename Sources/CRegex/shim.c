#define _GNU_SOURCE
#include "CRegex.h"

#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

long regex_syntax_named(const char *name) {
    static const struct {
        const char *name;
        long syntax;
    } types[] = {
        {"findutils-default", RE_SYNTAX_EMACS | RE_DOT_NEWLINE},
        {"ed", RE_SYNTAX_ED},
        {"emacs", RE_SYNTAX_EMACS},
        {"gnu-awk", RE_SYNTAX_GNU_AWK},
        {"grep", RE_SYNTAX_GREP},
        {"posix-awk", RE_SYNTAX_POSIX_AWK},
        {"awk", RE_SYNTAX_AWK},
        {"posix-basic", RE_SYNTAX_POSIX_BASIC},
        {"posix-egrep", RE_SYNTAX_POSIX_EGREP},
        {"egrep", RE_SYNTAX_EGREP},
        {"posix-extended", RE_SYNTAX_POSIX_EXTENDED},
        {"posix-minimal-basic", RE_SYNTAX_POSIX_MINIMAL_BASIC},
        {"sed", RE_SYNTAX_SED},
    };
    for (size_t index = 0; index < sizeof types / sizeof types[0]; index++) {
        if (strcmp(types[index].name, name) == 0) return types[index].syntax;
    }
    return -1;
}

// re_compile_pattern reads its syntax from a process-wide variable: compile one at a time.
static pthread_mutex_t syntax_lock = PTHREAD_MUTEX_INITIALIZER;

void *regex_compile(const char *pattern, size_t length, long syntax, int ignoring_case, const char **error) {
    struct re_pattern_buffer *buffer = calloc(1, sizeof *buffer);
    if (buffer == NULL) {
        *error = "memory exhausted";
        return NULL;
    }
    pthread_mutex_lock(&syntax_lock);
    reg_syntax_t previous = re_syntax_options;
    re_syntax_options = (reg_syntax_t)syntax | (ignoring_case ? RE_ICASE : 0);
    const char *message = re_compile_pattern(pattern, length, buffer);
    re_syntax_options = previous;
    pthread_mutex_unlock(&syntax_lock);
    if (message != NULL) {
        regfree(buffer);
        free(buffer);
        *error = message;
        return NULL;
    }
    return buffer;
}

int regex_matches_whole(void *compiled, const char *text, size_t length) {
    struct re_pattern_buffer *buffer = compiled;
    if (text == NULL) text = "";  // an empty text may come without an address
    return re_match(buffer, text, (regoff_t)length, 0, NULL) == (regoff_t)length;
}

void regex_free(void *compiled) {
    regfree(compiled);
    free(compiled);
}
