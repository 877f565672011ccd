"""Deterministic benchmark corpus for `make bench`.

Builds, under a root directory, the four parts the benchmark reads:

- ``wide``: one directory with 100,000 empty files (a few names with spaces, Japanese, accents);
- ``deep``: about 10,000 directories, 100,000 files and 1,000 symlinks at depths 1-12, with a
  hidden ``.git``-like bulk, names with spaces, CJK, NFC/NFD twins, non-UTF-8 bytes, and
  dangling and looping links;
- ``big``: one 1 GiB file and 1,000 files of 1 MiB;
- ``script``: a 10,000-line command script valid for both shelf and bash with coreutils, with the
  small seed tree it works on.

The same scale and seed always give the same names, shapes and bytes. A part that is already
complete (its stamp file matches) is left as it is, so reruns start at once.
"""

import os
import random
import shutil
import sys
import unicodedata

STAMP = ".corpus-stamp"
VERSION = 1

SPECIAL_NAMES = [
    "with space.txt",
    "two  spaces",
    "日本語のファイル.txt",
    "café.txt",
    "naïve résumé.md",
    "Ünïcödé",
    "-leading-dash",
]


class Scale:
    """Sizes of every part; ``full`` is the benchmark, ``quick`` is for trying it out."""

    def __init__(self, wide_files, deep_dirs, deep_files, deep_links, big_bytes, small_files, small_bytes,
                 script_lines):
        self.wide_files = wide_files
        self.deep_dirs = deep_dirs
        self.deep_files = deep_files
        self.deep_links = deep_links
        self.big_bytes = big_bytes
        self.small_files = small_files
        self.small_bytes = small_bytes
        self.script_lines = script_lines

    def key(self):
        return repr(sorted(vars(self).items()))


FULL = Scale(100_000, 10_000, 100_000, 1_000, 1 << 30, 1_000, 1 << 20, 10_000)
QUICK = Scale(5_000, 500, 5_000, 100, 16 << 20, 50, 1 << 20, 1_000)


def _stamp_ok(path, scale, part):
    try:
        with open(os.path.join(path, STAMP)) as handle:
            return handle.read() == f"{VERSION} {part} {scale.key()}\n"
    except OSError:
        return False


def _write_stamp(path, scale, part):
    with open(os.path.join(path, STAMP), "w") as handle:
        handle.write(f"{VERSION} {part} {scale.key()}\n")


def _fresh(path):
    if os.path.lexists(path):
        shutil.rmtree(path)
    os.makedirs(path)


def _touch(path):
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644))


def build_wide(root, scale):
    """One directory of ``scale.wide_files`` empty files."""
    path = os.path.join(root, "wide")
    if _stamp_ok(path, scale, "wide"):
        return path
    _fresh(path)
    rng = random.Random(1)
    names = set(SPECIAL_NAMES)
    while len(names) < scale.wide_files:
        names.add(f"file-{rng.randrange(10 ** 9):09d}.{rng.choice(['txt', 'swift', 'md', 'json', 'png'])}")
    for name in sorted(names):
        _touch(os.path.join(path, name))
    _write_stamp(path, scale, "wide")
    return path


def _deep_names(rng, count):
    """Directory-entry names as bytes: mostly plain, some with spaces, CJK, accents and raw bytes."""
    pool = ["src", "lib", "docs", "test", "build", "assets", "日本", "写真", "data set", "Café"]
    names = []
    for index in range(count):
        kind = rng.randrange(40)
        if kind == 0:
            names.append(f"{rng.choice(pool)} {index}".encode())
        elif kind == 1:
            names.append(f"ファイル{index}".encode())
        elif kind == 2:
            names.append(b"raw-\xff\xfe-" + str(index).encode())
        else:
            names.append(f"{rng.choice(pool)}{index}".encode())
    return names


def build_deep(root, scale):
    """A tree of ``scale.deep_dirs`` directories at depths 1-12 with files, links and oddities."""
    path = os.path.join(root, "deep")
    if _stamp_ok(path, scale, "deep"):
        return path
    _fresh(path)
    rng = random.Random(2)
    base = path.encode()
    directories = [(base, 0)]
    bulk = scale.deep_dirs // 20
    # A hidden .git-like bulk: objects/xx/ fan-out directories full of hash-named files.
    git = base + b"/.git"
    os.makedirs(git + b"/objects")
    os.makedirs(git + b"/refs/heads")
    for index in range(bulk):
        fan = git + b"/objects/" + f"{index:02x}".encode()
        os.mkdir(fan)
        directories.append((fan, 3))
    for name in _deep_names(rng, scale.deep_dirs - bulk - 3):
        while True:
            parent, depth = rng.choice(directories)
            if depth < 12 and not parent.startswith(git):
                break
        child = parent + b"/" + name
        os.mkdir(child)
        directories.append((child, depth + 1))
    files = []
    for index in range(scale.deep_files):
        parent, _ = rng.choice(directories)
        if parent.startswith(git):
            name = f"{rng.getrandbits(152):038x}".encode()
        else:
            name = f"f{index}.{rng.choice(['c', 'h', 'swift', 'txt', 'json'])}".encode()
        file = parent + b"/" + name
        with open(file, "wb") as handle:
            handle.write(b"x" * rng.choice([0, 0, 10, 100, 1000, 5000]))
        files.append(file)
    # NFC/NFD twins side by side.
    for index in range(10):
        parent, _ = directories[1 + bulk + index]
        for form in ("NFC", "NFD"):
            _touch(parent + b"/" + unicodedata.normalize(form, f"é{index}.txt").encode())
    # Symlinks: most to files and directories, some dangling, some looping.
    for index in range(scale.deep_links):
        parent, _ = rng.choice(directories)
        link = parent + b"/" + f"link{index}".encode()
        kind = index % 20
        if kind == 0:
            os.symlink(b"does-not-exist", link)
        elif kind == 1:
            os.symlink(b".", link)
        elif kind == 2:
            os.symlink(f"link{index}-loop".encode(), link)
            os.symlink(f"link{index}".encode(), link + b"-loop")
        elif kind == 3:
            os.symlink(os.path.relpath(rng.choice(directories)[0], parent), link)
        else:
            os.symlink(os.path.relpath(rng.choice(files), parent), link)
    _write_stamp(path, scale, "deep")
    return path


def _fill(path, size, rng):
    block = bytes(rng.getrandbits(8) for _ in range(1 << 16))
    with open(path, "wb") as handle:
        remaining = size
        while remaining:
            chunk = min(remaining, len(block))
            handle.write(block[:chunk])
            remaining -= chunk


def build_big(root, scale):
    """One large file and many 1 MiB files."""
    path = os.path.join(root, "big")
    if _stamp_ok(path, scale, "big"):
        return path
    _fresh(path)
    rng = random.Random(3)
    _fill(os.path.join(path, "large.bin"), scale.big_bytes, rng)
    small = os.path.join(path, "small")
    os.mkdir(small)
    for index in range(scale.small_files):
        _fill(os.path.join(small, f"part{index:04d}.bin"), scale.small_bytes, rng)
    _write_stamp(path, scale, "big")
    return path


SCRIPT_BLOCK = [
    "mkdir -p w/d{i}/a/b",
    "cp seed/notes.txt w/d{i}/a/b/copy.txt",
    "stat w/d{i}/a/b/copy.txt",
    "ls w/d{i}/a",
    "cat w/d{i}/a/b/copy.txt",
    "mv w/d{i}/a/b/copy.txt w/d{i}/a/moved.txt",
    "cd w/d{i}",
    "ls -l a",
    "cd ../..",
    "rm -r w/d{i}",
]


def build_script(root, scale):
    """The command script and the seed tree it runs on (``script/seed``)."""
    path = os.path.join(root, "script")
    if _stamp_ok(path, scale, "script"):
        return path
    _fresh(path)
    seed = os.path.join(path, "seed")
    os.makedirs(os.path.join(seed, "sub"))
    with open(os.path.join(seed, "notes.txt"), "w") as handle:
        handle.write("".join(f"line {n} of the seed notes\n" for n in range(20)))
    for name in ("a.txt", "b.txt", "sub/c.txt"):
        with open(os.path.join(seed, name), "w") as handle:
            handle.write(name + "\n")
    lines = []
    index = 0
    while len(lines) < scale.script_lines:
        lines.extend(line.format(i=index) for line in SCRIPT_BLOCK)
        index += 1
    with open(os.path.join(path, "commands.sh"), "w") as handle:
        handle.write("\n".join(lines[:scale.script_lines]) + "\n")
    _write_stamp(path, scale, "script")
    return path


def build_all(root, scale):
    """Builds every part under ``root``; returns a dict of part name to path."""
    os.makedirs(root, exist_ok=True)
    return {
        "wide": build_wide(root, scale),
        "deep": build_deep(root, scale),
        "big": build_big(root, scale),
        "script": build_script(root, scale),
    }


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[2] not in ("full", "quick"):
        sys.exit("usage: corpus.py ROOT full|quick")
    for part, where in build_all(sys.argv[1], FULL if sys.argv[2] == "full" else QUICK).items():
        print(f"{part}: {where}")
