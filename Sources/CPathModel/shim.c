#define _GNU_SOURCE
#include <sys/sendfile.h>
#include "CPathModel.h"

#include <errno.h>
#include <linux/fs.h>
#include <linux/openat2.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

const unsigned int pathmodel_rename_noreplace = RENAME_NOREPLACE;
const long pathmodel_utime_now = UTIME_NOW;
const long pathmodel_utime_omit = UTIME_OMIT;
const int pathmodel_o_path = O_PATH;
const int pathmodel_seek_data = SEEK_DATA;
const int pathmodel_seek_hole = SEEK_HOLE;

static void pathmodel_fill(const struct statx *sx, pathmodel_stat *out) {
    out->mode = sx->stx_mode;
    out->nlink = sx->stx_nlink;
    out->uid = sx->stx_uid;
    out->gid = sx->stx_gid;
    out->ino = sx->stx_ino;
    out->size = sx->stx_size;
    out->blocks = sx->stx_blocks;
    out->blksize = sx->stx_blksize;
    out->dev = makedev(sx->stx_dev_major, sx->stx_dev_minor);
    out->rdev = makedev(sx->stx_rdev_major, sx->stx_rdev_minor);
    out->atime_sec = sx->stx_atime.tv_sec;
    out->atime_nsec = sx->stx_atime.tv_nsec;
    out->mtime_sec = sx->stx_mtime.tv_sec;
    out->mtime_nsec = sx->stx_mtime.tv_nsec;
    out->ctime_sec = sx->stx_ctime.tv_sec;
    out->ctime_nsec = sx->stx_ctime.tv_nsec;
    out->has_btime = (sx->stx_mask & STATX_BTIME) != 0;
    out->btime_sec = out->has_btime ? sx->stx_btime.tv_sec : 0;
    out->btime_nsec = out->has_btime ? sx->stx_btime.tv_nsec : 0;
}

int pathmodel_statx(int dirfd, const char *path, int follow, pathmodel_stat *out) {
    struct statx sx;
    int flags = AT_STATX_SYNC_AS_STAT | (follow ? 0 : AT_SYMLINK_NOFOLLOW);
    if (statx(dirfd, path, flags, STATX_BASIC_STATS | STATX_BTIME, &sx) != 0) return -1;
    pathmodel_fill(&sx, out);
    return 0;
}

int pathmodel_fstatx(int fd, pathmodel_stat *out) {
    struct statx sx;
    if (statx(fd, "", AT_EMPTY_PATH | AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS | STATX_BTIME, &sx) != 0)
        return -1;
    pathmodel_fill(&sx, out);
    return 0;
}

int pathmodel_syncfs(int fd) {
    return syncfs(fd);
}

int pathmodel_fstatfs(int fd, pathmodel_statfs *out) {
    struct statfs raw;
    if (fstatfs(fd, &raw) != 0) return -1;
    out->block_size = raw.f_frsize > 0 ? (uint64_t)raw.f_frsize : (uint64_t)raw.f_bsize;
    out->total_blocks = raw.f_blocks;
    out->free_blocks = raw.f_bfree;
    out->available_blocks = raw.f_bavail;
    out->total_inodes = raw.f_files;
    out->free_inodes = raw.f_ffree;
    out->io_block_size = (uint64_t)raw.f_bsize;
    out->type = (uint64_t)(unsigned long)raw.f_type;
    unsigned int words[2];
    memcpy(words, &raw.f_fsid, sizeof words);
    out->id = ((uint64_t)words[0] << 32) | words[1];
    out->name_max = (uint64_t)raw.f_namelen;
    return 0;
}

ssize_t pathmodel_copy_file_range(int fd_in, int fd_out, size_t length) {
    return copy_file_range(fd_in, NULL, fd_out, NULL, length, 0);
}

int pathmodel_clone_file(int fd_in, int fd_out) {
    return ioctl(fd_out, FICLONE, fd_in);
}

ssize_t pathmodel_sendfile(int fd_in, int fd_out, size_t length) {
    return sendfile(fd_out, fd_in, NULL, length);
}

int pathmodel_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
                        unsigned int flags) {
    return renameat2(olddirfd, oldpath, newdirfd, newpath, flags);
}

static int pathmodel_openat2(int dirfd, const char *path, int flags, unsigned long long resolve) {
#ifdef SYS_openat2
    struct open_how how = {
        .flags = (unsigned long long)flags,
        .mode = 0,
        .resolve = resolve,
    };
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int pathmodel_openat2_in_root(int dirfd, const char *path, int flags) {
    return pathmodel_openat2(dirfd, path, flags, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
}

int pathmodel_openat2_beneath(int dirfd, const char *path, int flags) {
    return pathmodel_openat2(dirfd, path, flags, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS);
}

int pathmodel_errno(void) { return errno; }

ssize_t pathmodel_getrandom(void *buffer, size_t length) {
    return getrandom(buffer, length, 0);
}

ssize_t pathmodel_getdents64(int fd, void *buffer, size_t length) {
    return syscall(SYS_getdents64, fd, buffer, length);
}

int pathmodel_pipe_cloexec(int ends[2]) { return pipe2(ends, O_CLOEXEC); }
