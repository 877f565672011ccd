// The process-creation calls that Glibc's Swift module does not expose (they are GNU
// extensions), as plain prefixed functions. Imported only by ShellCore's ProcessLauncher.swift.
#ifndef CPROCESSLAUNCHER_H
#define CPROCESSLAUNCHER_H

#include <spawn.h>

/// Adds a change of directory to `path` to the child's file actions, before the ones added
/// after it. Returns 0 or an errno. Corresponds to `posix_spawn_file_actions_addchdir_np(3)`.
int launcher_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// Adds to the child's file actions making its process group the foreground one of the terminal
/// `fd` (done with the child's signals blocked, so it never stops on SIGTTOU). Returns 0 or an
/// errno. Corresponds to `posix_spawn_file_actions_addtcsetpgrp_np(3)`.
int launcher_addtcsetpgrp(posix_spawn_file_actions_t *actions, int fd);

#endif
