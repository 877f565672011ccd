// For the interactive tests: start a program on a new pseudo-terminal.
#ifndef CPSEUDOTERMINAL_H
#define CPSEUDOTERMINAL_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (NULL-terminated) in directory `cwd`, in a new session
/// whose controlling terminal is a new pseudo-terminal of `columns` x `rows`, with SIGINT at its
/// default. Stores the terminal's master side in *master and the child in *pid.
/// Returns 0 or an errno.
int pty_spawn(const char *path, char *const argv[], char *const envp[], const char *cwd,
              unsigned short columns, unsigned short rows, int *master, pid_t *pid);

/// Starts `path` with `argv` and `envp` (NULL-terminated) in directory `cwd` (any bytes), with
/// standard input, output and error opened from the files `input`, `output` and `errors` (the
/// latter two created or truncated). Stores the child in *pid. Returns 0 or an errno.
int spawn_with_files(const char *path, char *const argv[], char *const envp[], const char *cwd,
                     const char *input, const char *output, const char *errors, pid_t *pid);

#endif
