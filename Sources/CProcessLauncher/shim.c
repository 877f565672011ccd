#define _GNU_SOURCE
#include "CProcessLauncher.h"

int launcher_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int launcher_addtcsetpgrp(posix_spawn_file_actions_t *actions, int fd) {
    return posix_spawn_file_actions_addtcsetpgrp_np(actions, fd);
}
