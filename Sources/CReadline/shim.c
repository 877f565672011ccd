// GNU readline behind prefixed functions. Signal handling stays here: the SIGINT, SIGTERM and
// SIGHUP handlers only set flags, and the getc hook ends readline's line when it sees one.

#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE

#include "CReadline.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>

#include <readline/history.h>
#include <readline/readline.h>

static volatile sig_atomic_t interrupted = 0;
static volatile sig_atomic_t terminating_signal = 0;

static shelf_rl_completer completer = NULL;
static void *completer_context = NULL;

/// The current completion, as the Swift completer reported it.
static struct {
    int start;
    char *common;
    char **replacements;
    char **displays;
    int count;
    int capacity;
    /// The display names of the matches handed to readline, in the same order.
    const char **shown;
    int shown_count;
} completion;

/// Whether readline has the terminal (in raw mode) right now.
static volatile sig_atomic_t reading = 0;

static void on_interrupt(int signal) {
    (void)signal;
    interrupted = 1;
}

/// SIGTERM, SIGHUP: stop as Ctrl-C stops (a copy removes its temporary file), then exit.
/// readline gives the terminal back as it returns. (History is already on disk: it is appended
/// after every line.)
static void on_termination(int signal) {
    terminating_signal = signal;
    interrupted = 1;
}

/// Reads one byte for readline. A pending Ctrl-C makes readline return (READERR); other
/// signals readline tracks (SIGWINCH) are handled and the read is retried.
static int shelf_getc(FILE *stream) {
    for (;;) {
        if (interrupted) return READERR;
        unsigned char byte;
        ssize_t count = read(fileno(stream), &byte, 1);
        if (count == 1) return byte;
        if (count == 0) return EOF;
        if (errno != EINTR) return EOF;
        if (interrupted) return READERR;
        if (rl_pending_signal()) rl_check_signals();
    }
}

static void completion_reset(void) {
    for (int i = 0; i < completion.count; i++) {
        free(completion.replacements[i]);
        free(completion.displays[i]);
    }
    free(completion.common);
    completion.common = NULL;
    completion.count = 0;
    completion.start = -1;
    completion.shown_count = 0;
}

/// `replacement` (which replaces line[completion.start, cursor)) rewritten to replace
/// line[start, cursor) instead, as readline will; NULL when the two do not agree.
static char *relative_to(const char *replacement, int start) {
    int ours = completion.start;
    if (ours == start) return strdup(replacement);
    if (ours < start) {
        size_t length = (size_t)(start - ours);
        if (strncmp(replacement, rl_line_buffer + ours, length) != 0) return NULL;
        return strdup(replacement + length);
    }
    size_t length = (size_t)(ours - start);
    char *result = malloc(length + strlen(replacement) + 1);
    memcpy(result, rl_line_buffer + start, length);
    strcpy(result + length, replacement);
    return result;
}

static char **attempt_completion(const char *text, int start, int end) {
    (void)end;
    rl_attempted_completion_over = 1;
    rl_completion_suppress_append = 1;
    rl_filename_completion_desired = 0;
    rl_filename_quoting_desired = 0;
    completion_reset();
    if (completer == NULL) return NULL;
    completer(rl_line_buffer, rl_end, rl_point, completer_context);
    if (completion.count == 0 || completion.start < 0) return NULL;
    char **matches = calloc((size_t)completion.count + 2, sizeof *matches);
    free((void *)completion.shown);
    completion.shown = calloc((size_t)completion.count + 1, sizeof *completion.shown);
    completion.shown_count = 0;
    int used = 1;
    for (int i = 0; i < completion.count; i++) {
        char *match = relative_to(completion.replacements[i], start);
        if (match == NULL) continue;
        matches[used++] = match;
        completion.shown[completion.shown_count++] = completion.displays[i];
    }
    if (used == 1) {
        free(matches);
        return NULL;
    }
    if (used == 2) {
        matches[0] = matches[1];
        matches[1] = NULL;
        return matches;
    }
    char *common = completion.common ? relative_to(completion.common, start) : NULL;
    matches[0] = common ? common : strdup(text);
    return matches;
}

/// The columns `text` takes on the terminal, as far as the locale can tell.
static int display_width(const char *text) {
    size_t length = mbstowcs(NULL, text, 0);
    if (length == (size_t)-1) return (int)strlen(text);
    wchar_t *wide = calloc(length + 1, sizeof *wide);
    mbstowcs(wide, text, length + 1);
    int width = wcswidth(wide, length);
    free(wide);
    return width < 0 ? (int)strlen(text) : width;
}

/// Asks readline's question before a long list; 1 for yes.
static int ask_display_all(int count) {
    rl_crlf();
    fprintf(rl_outstream, "Display all %d possibilities? (y or n)", count);
    fflush(rl_outstream);
    for (;;) {
        int key = rl_read_key();
        if (key == 'y' || key == 'Y' || key == ' ') return 1;
        if (key == 'n' || key == 'N' || key == 0x7F || key == 0x07 || key == EOF || key == READERR) return 0;
        rl_ding();
    }
}

/// Lists the choices by their display names (a file's name, not the whole quoted replacement).
static void display_matches(char **matches, int count, int longest) {
    (void)longest;
    char **names = calloc((size_t)count + 2, sizeof *names);
    int width = 0;
    for (int i = 1; i <= count; i++) {
        const char *name = matches[i];
        if (i - 1 < completion.shown_count && completion.shown[i - 1]) name = completion.shown[i - 1];
        names[i] = (char *)name;
        int w = display_width(name);
        if (w > width) width = w;
    }
    names[0] = matches[0];
    if (rl_completion_query_items > 0 && count >= rl_completion_query_items && !ask_display_all(count)) {
        rl_crlf();
    } else {
        rl_display_match_list(names, count, width);
    }
    free(names);
    rl_forced_update_display();
}

void shelf_rl_initialize(shelf_rl_completer function, void *context) {
    completer = function;
    completer_context = context;
    completion.start = -1;
    rl_readline_name = "shelf";
    rl_catch_signals = 0;
    rl_catch_sigwinch = 1;
    rl_getc_function = shelf_getc;
    rl_attempted_completion_function = attempt_completion;
    rl_completion_display_matches_hook = display_matches;
    rl_completer_word_break_characters = " \t\n;&|>";
    rl_basic_word_break_characters = " \t\n;&|>";
    rl_completer_quote_characters = NULL;
    rl_filename_quote_characters = NULL;
    rl_completion_query_items = 100;
    rl_sort_completion_matches = 0;
    rl_ignore_completion_duplicates = 0;
    shelf_rl_catch_interrupt();
    using_history();
}

void shelf_rl_catch_interrupt(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: a blocked read returns EINTR and sees the flag
    sigaction(SIGINT, &action, NULL);
    action.sa_handler = on_termination;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    // A parent may have started us with these blocked; the handlers are of no use then.
    sigset_t caught;
    sigemptyset(&caught);
    sigaddset(&caught, SIGINT);
    sigaddset(&caught, SIGTERM);
    sigaddset(&caught, SIGHUP);
    sigprocmask(SIG_UNBLOCK, &caught, NULL);
}

shelf_rl_outcome shelf_rl_readline(const char *prompt, char **line) {
    *line = NULL;
    reading = 1;
    char *text = readline(prompt);
    reading = 0;
    if (terminating_signal) {
        free(text);
        return shelf_rl_end;
    }
    if (interrupted) {
        free(text);
        fputs("^C\n", rl_outstream ? rl_outstream : stdout);
        fflush(rl_outstream ? rl_outstream : stdout);
        return shelf_rl_interrupt;
    }
    if (text == NULL) return shelf_rl_end;
    *line = text;
    return shelf_rl_line;
}

void shelf_rl_free(char *line) { free(line); }

int shelf_rl_interrupted(void) { return interrupted != 0; }

void shelf_rl_clear_interrupt(void) {
    if (!terminating_signal) interrupted = 0;
}

int shelf_rl_terminating_signal(void) { return terminating_signal; }

void shelf_rl_add_history(const char *line) { add_history(line); }

int shelf_rl_read_history(const char *path) { return read_history(path); }

int shelf_rl_append_history(int count, const char *path) { return append_history(count, path); }

int shelf_rl_truncate_history(const char *path, int lines) { return history_truncate_file(path, lines); }

void shelf_rl_stifle_history(int count) { stifle_history(count); }

int shelf_rl_history_length(void) { return history_length; }

const char *shelf_rl_history_entry(int index) {
    HIST_ENTRY *entry = history_get(history_base + index);
    return entry ? entry->line : NULL;
}

void shelf_rl_completion_set_start(int start) { completion.start = start; }

void shelf_rl_completion_add(const char *replacement, const char *display, int is_common_prefix) {
    if (is_common_prefix) {
        free(completion.common);
        completion.common = strdup(replacement);
        return;
    }
    if (completion.count == completion.capacity) {
        completion.capacity = completion.capacity ? completion.capacity * 2 : 64;
        completion.replacements = realloc(completion.replacements, (size_t)completion.capacity * sizeof(char *));
        completion.displays = realloc(completion.displays, (size_t)completion.capacity * sizeof(char *));
    }
    completion.replacements[completion.count] = strdup(replacement);
    completion.displays[completion.count] = display ? strdup(display) : NULL;
    completion.count++;
}

int shelf_rl_terminal_width(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) return 0;
    return size.ws_col;
}
