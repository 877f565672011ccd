/* spawn FD COMMAND [ARGS...]: runs COMMAND and reports, on file descriptor FD, its wall time in seconds, its peak
 * resident memory in KiB and its exit status. The benchmark starts every measured process through
 * this small program so that the peak memory reported is the command's own: a child forked by a
 * large parent (Python) would carry the parent's resident size in its high-water mark. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int report = argc >= 3 ? atoi(argv[1]) : -1;
    if (report < 0 || fcntl(report, F_SETFD, FD_CLOEXEC) != 0) {
        fputs("usage: spawn FD COMMAND [ARGS...] (FD: an open descriptor for the results)\n", stderr);
        return 2;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t child = fork();
    if (child < 0) {
        perror("spawn: fork");
        return 2;
    }
    if (child == 0) {
        execvp(argv[2], argv + 2);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(child, &status, 0, &usage) < 0) {
        perror("spawn: wait4");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    dprintf(report, "%.9f %ld %d\n", seconds, usage.ru_maxrss, code);
    return 0;
}
