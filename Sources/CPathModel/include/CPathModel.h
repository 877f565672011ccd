// System calls that Glibc's Swift module does not expose, as plain prefixed functions.
#ifndef CPATHMODEL_H
#define CPATHMODEL_H

#include <stdint.h>
#include <sys/types.h>

/// What `statx(2)` reports about one file, flattened for Swift.
typedef struct pathmodel_stat {
    uint32_t mode;
    uint32_t nlink;
    uint32_t uid;
    uint32_t gid;
    uint64_t ino;
    uint64_t size;
    uint64_t blocks;
    uint32_t blksize;
    uint64_t dev;
    uint64_t rdev;
    int64_t atime_sec;
    uint32_t atime_nsec;
    int64_t mtime_sec;
    uint32_t mtime_nsec;
    int64_t ctime_sec;
    uint32_t ctime_nsec;
    int64_t btime_sec;
    uint32_t btime_nsec;
    int has_btime;
} pathmodel_stat;

/// statx(2) of `path` relative to `dirfd`; `follow` 0 behaves as lstat. Returns 0 or -1 with errno.
int pathmodel_statx(int dirfd, const char *path, int follow, pathmodel_stat *out);

/// fstat of an open descriptor through statx(AT_EMPTY_PATH).
int pathmodel_fstatx(int fd, pathmodel_stat *out);

/// copy_file_range(2) from the current offsets of both descriptors.
ssize_t pathmodel_copy_file_range(int fd_in, int fd_out, size_t length);

/// syncfs(2), which glibc declares only under _GNU_SOURCE: 0, or -1 with errno set.
int pathmodel_syncfs(int fd);

/// What fstatfs(2) reports about a file system, flattened for Swift.
typedef struct {
    uint64_t block_size;       // f_frsize, or f_bsize where that is 0
    uint64_t total_blocks;     // f_blocks
    uint64_t free_blocks;      // f_bfree
    uint64_t available_blocks; // f_bavail
    uint64_t total_inodes;     // f_files
    uint64_t free_inodes;      // f_ffree
    uint64_t io_block_size;    // f_bsize
    uint64_t type;             // f_type, the file system's magic number
    uint64_t id;               // f_fsid, its two words as one number, the first word high
    uint64_t name_max;         // f_namelen
} pathmodel_statfs;

/// fstatfs(2) of a descriptor (an O_PATH one will do): 0, or -1 with errno set.
int pathmodel_fstatfs(int fd, pathmodel_statfs *out);

/// ioctl(FICLONE): makes `fd_out` share all of `fd_in`'s data (a reflink), on file systems with
/// copy-on-write; 0, or -1 with errno set (EOPNOTSUPP, EXDEV, EINVAL where it cannot).
int pathmodel_clone_file(int fd_in, int fd_out);

/// sendfile(2) from the current offset of `fd_in` (a file that can be mapped) to `fd_out`.
ssize_t pathmodel_sendfile(int fd_in, int fd_out, size_t length);
/// renameat2(2); `flags` is 0 or pathmodel_rename_noreplace.
int pathmodel_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
                        unsigned int flags);

/// RENAME_NOREPLACE: fail with EEXIST instead of replacing the destination.
extern const unsigned int pathmodel_rename_noreplace;

/// O_PATH: open(2) a file only to name it in *at calls (Glibc's Swift module lacks it).
extern const int pathmodel_o_path;
/// lseek(2)'s SEEK_DATA and SEEK_HOLE, which glibc defines only under _GNU_SOURCE.
extern const int pathmodel_seek_data;
extern const int pathmodel_seek_hole;

/// UTIME_NOW: the tv_nsec value that tells utimensat(2) to use the current time.
extern const long pathmodel_utime_now;
/// UTIME_OMIT: the tv_nsec value that tells utimensat(2) to leave that time as it is.
extern const long pathmodel_utime_omit;

/// openat2(2) of `path` with `dirfd` taken as the root directory (RESOLVE_IN_ROOT) and
/// procfs magic links refused (RESOLVE_NO_MAGICLINKS); -1 with ENOSYS where the kernel has none.
int pathmodel_openat2_in_root(int dirfd, const char *path, int flags);

/// openat2(2) of `path` kept beneath `dirfd` (RESOLVE_BENEATH: EXDEV for `..`, an absolute path
/// or a symlink that would leave it) with procfs magic links refused; -1 with ENOSYS where the
/// kernel has none.
int pathmodel_openat2_beneath(int dirfd, const char *path, int flags);

/// getdents64(2): reads directory records (`struct linux_dirent64`) from `fd` into `buffer`;
/// the bytes read, 0 at the end, or -1 with errno set.
ssize_t pathmodel_getdents64(int fd, void *buffer, size_t length);

/// getrandom(2): fills `buffer` with `length` random bytes from the kernel; the count filled,
/// or -1 with errno set.
ssize_t pathmodel_getrandom(void *buffer, size_t length);

/// The errno of the calling thread.
int pathmodel_errno(void);

/// pipe2(2) with O_CLOEXEC (glibc declares pipe2 only under _GNU_SOURCE): 0, or -1 with errno set.
int pathmodel_pipe_cloexec(int ends[2]);

#endif
