// GNU regular expressions with a chosen syntax (the `re_compile_pattern` interface, a GNU
// extension that Glibc's Swift module does not expose), as plain prefixed functions. Imported
// only by ShellCore's RegularExpression.swift.
#ifndef CREGEX_H
#define CREGEX_H

#include <stddef.h>

/// The syntax bits of the regular expression type `name` as `find -regextype` names them
/// (`findutils-default`, `emacs`, `posix-extended`…); -1 for a name it does not know.
long regex_syntax_named(const char *name);

/// Compiles the `length` bytes at `pattern` with the syntax bits `syntax` (from
/// `regex_syntax_named`), ignoring case when `ignoring_case` is not 0. Returns the compiled
/// expression, or NULL with `*error` set to GNU's message. Free it with `regex_free`.
/// Corresponds to `re_compile_pattern(3)`.
void *regex_compile(const char *pattern, size_t length, long syntax, int ignoring_case, const char **error);

/// Whether the whole of the `length` bytes at `text` (NULL when `length` is 0) matches.
/// Corresponds to `re_match(3)`.
int regex_matches_whole(void *compiled, const char *text, size_t length);

/// Frees what `regex_compile` gave. Corresponds to `regfree(3)`.
void regex_free(void *compiled);

#endif
