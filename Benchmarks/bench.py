"""`make bench`: shelf against GNU coreutils, tree(1), bash and busybox, and on object storage
against s5cmd, rclone and aws cli, in one run.

Each workload runs shelf and its reference alternately (a warm-up of each, then rounds of
shelf, reference), and reports the median time, the min-max, the peak resident memory and the
median of the per-round ratios shelf / reference. The object-storage section (objectstorage.py)
runs against a local SeaweedFS it starts. The tables go to standard output and to
docs/performance.md.
"""

import argparse
import datetime
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402
import objectstorage  # noqa: E402

NOT_FOUND = 127


class Run:
    """One timed process: wall seconds, peak resident memory in KiB, exit status."""

    def __init__(self, seconds, peak_kib, status):
        self.seconds = seconds
        self.peak_kib = peak_kib
        self.status = status


SPAWN = None  # the path of the compiled Benchmarks/spawn.c, set by main()


def run_once(argv, cwd, env, stdin_path=None, to_pipe=False):
    """Runs `argv` through `spawn` with stdout to /dev/null (or to a pipe drained by cat)."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    report_read, report_write = os.pipe()
    drain = None
    try:
        if to_pipe:
            read_end, write_end = os.pipe()
            drain = subprocess.Popen(["cat"], stdin=read_end, stdout=subprocess.DEVNULL)
            os.close(read_end)
            stdout = write_end
        else:
            stdout = subprocess.DEVNULL
        process = subprocess.Popen([SPAWN, str(report_write)] + argv, cwd=cwd, env=env, stdin=stdin,
                                   stdout=stdout, stderr=subprocess.DEVNULL, pass_fds=(report_write,))
        os.close(report_write)
        report_write = None
        with os.fdopen(report_read) as report:
            line = report.read()
        process.wait()
        if to_pipe:
            os.close(write_end)
            drain.wait()
        if process.returncode != 0 or not line:
            raise RuntimeError(f"spawn failed for {shlex.join(argv)}")
        seconds, peak_kib, status = line.split()
        return Run(float(seconds), int(peak_kib), int(status))
    finally:
        if report_write is not None:
            os.close(report_write)
        if stdin_path:
            stdin.close()


class Workload:
    """A row of the table: shelf's command line against a reference command line."""

    def __init__(self, name, shelf, reference, reference_name, rounds, target=None, cwd=None,
                 stdin=None, to_pipe=False, setup=None, shelf_ok=(0,), reference_ok=(0,)):
        self.name = name
        self.shelf = shelf
        self.reference = reference
        self.reference_name = reference_name
        self.rounds = rounds
        self.target = target
        self.cwd = cwd
        self.stdin = stdin
        self.to_pipe = to_pipe
        self.setup = setup
        self.shelf_ok = shelf_ok
        self.reference_ok = reference_ok


class Result:
    """What one workload measured."""

    def __init__(self, workload, shelf_runs=None, reference_runs=None, note=None):
        self.workload = workload
        self.shelf_runs = shelf_runs or []
        self.reference_runs = reference_runs or []
        self.note = note

    def ratio(self):
        """The median of the per-round ratios shelf / reference."""
        return median_ratio([run.seconds for run in self.shelf_runs],
                            [run.seconds for run in self.reference_runs])

    def met(self):
        if self.note or self.workload.target is None:
            return None
        return self.ratio() <= self.workload.target


def median_ratio(shelf_times, reference_times):
    """The median over rounds of shelf_time / reference_time (rounds pair up in order)."""
    if not shelf_times or len(shelf_times) != len(reference_times):
        raise ValueError("rounds must pair up")
    return statistics.median(s / r for s, r in zip(shelf_times, reference_times))


def describe_times(runs):
    """`median (min-max)` of the runs' wall times, in milliseconds."""
    times = [run.seconds * 1000 for run in runs]
    return f"{_ms(statistics.median(times))} ({_ms(min(times))}–{_ms(max(times))})"


def _ms(value):
    return f"{value:.1f} ms" if value < 100 else f"{value:.0f} ms"


def _mib(kib):
    return f"{kib / 1024:.1f} MiB"


def measure(workload, env):
    """Runs the warm-up and the alternating rounds of one workload."""
    def one(argv, ok):
        if workload.setup:
            workload.setup()
        run = run_once(argv, workload.cwd, env, workload.stdin, workload.to_pipe)
        if run.status == NOT_FOUND and argv is workload.shelf:
            return None
        if run.status not in ok:
            raise RuntimeError(f"{workload.name}: {shlex.join(argv)} exited {run.status}")
        return run

    if one(workload.shelf, workload.shelf_ok) is None:
        return Result(workload, note="not available: shelf has no such command")
    one(workload.reference, workload.reference_ok)
    result = Result(workload)
    for _ in range(workload.rounds):
        result.shelf_runs.append(one(workload.shelf, workload.shelf_ok))
        result.reference_runs.append(one(workload.reference, workload.reference_ok))
    return result


def shelf_c(shelf, command):
    return [shelf, "-c", command]


def workloads(shelf, parts, scratch, quick):
    """The benchmark's rows, in the order of the table."""
    wide, deep, big, script = parts["wide"], parts["deep"], parts["big"], parts["script"]
    large = os.path.join(big, "large.bin")
    stat_names = sorted(name for name in os.listdir(wide) if name.startswith("file-"))[:1000]
    copy_target = os.path.join(scratch, "copy")
    removal_target = os.path.join(scratch, "removal")
    script_work = os.path.join(scratch, "script-work")
    few = 3 if quick else 5

    def clear(path):
        def action():
            if os.path.lexists(path):
                subprocess.run(["rm", "-rf", path], check=True)
        return action

    def fresh_copy_of_deep():
        clear(removal_target)()
        subprocess.run(["cp", "-a", deep, removal_target], check=True)

    def fresh_script_dir():
        clear(script_work)()
        os.makedirs(script_work)
        subprocess.run(["cp", "-a", os.path.join(script, "seed"), script_work], check=True)

    commands = os.path.join(script, "commands.sh")
    rows = [
        Workload("startup", shelf_c(shelf, "pwd"), ["busybox", "sh", "-c", "true"], "busybox sh -c true",
                 rounds=100, target=1.0),
        Workload("startup", shelf_c(shelf, "pwd"), ["bash", "-c", "true"], "bash -c true", rounds=100),
        Workload("script, 10,000 lines", [shelf], ["bash", commands], "bash + coreutils", rounds=3,
                 target=0.02, cwd=script_work, stdin=commands, setup=fresh_script_dir),
        Workload("script, 10,000 lines", [shelf], ["busybox", "sh", commands], "busybox sh", rounds=3,
                 cwd=script_work, stdin=commands, setup=fresh_script_dir),
        Workload("ls -1 wide", shelf_c(shelf, "ls -1 " + wide), ["ls", "-1", wide], "GNU ls", rounds=15,
                 target=0.5),
        Workload("ls -l wide", shelf_c(shelf, "ls -l " + wide), ["ls", "-l", wide], "GNU ls -l", rounds=15,
                 target=0.5),
        Workload("tree deep", shelf_c(shelf, "tree " + deep), ["tree", deep], "tree(1)", rounds=10, target=0.7),
        Workload("tree -a deep", shelf_c(shelf, "tree -a " + deep), ["tree", "-a", deep], "tree(1) -a",
                 rounds=10, target=0.7),
        Workload("find deep", shelf_c(shelf, "find " + deep), ["find", deep], "GNU find", rounds=10,
                 target=0.8, shelf_ok=(0, 1), reference_ok=(0, 1)),
        Workload("du -s deep", shelf_c(shelf, "du -s " + deep), ["du", "-s", deep], "GNU du", rounds=10,
                 target=1.0, shelf_ok=(0, 1), reference_ok=(0, 1)),
        Workload("stat 1,000 files", shelf_c(shelf, "stat " + " ".join(stat_names)), ["stat"] + stat_names,
                 "GNU stat", rounds=15, target=1.0, cwd=wide),
        Workload("cat big > /dev/null", shelf_c(shelf, "cat " + large), ["cat", large], "GNU cat", rounds=few,
                 target=0.6),
        Workload("cat big | cat", shelf_c(shelf, "cat " + large), ["cat", large], "GNU cat", rounds=few,
                 target=0.6, to_pipe=True),
        # Pipelines of built-ins add no process: against bash running the same pipeline of GNU tools.
        Workload("cat big | tail -n 1", shelf_c(shelf, f"cat {large} | tail -n 1"),
                 ["bash", "-c", f"cat {large} | tail -n 1"], "bash, GNU cat | tail", rounds=few, target=1.2),
        Workload("ls wide | head -n 1", shelf_c(shelf, f"ls {wide} | head -n 1"),
                 ["bash", "-c", f"ls {wide} | head -n 1"], "bash, GNU ls | head", rounds=15),
        Workload("cp big", shelf_c(shelf, f"cp {large} {copy_target}"), ["cp", large, copy_target], "GNU cp",
                 rounds=few, target=1.0, setup=clear(copy_target)),
        Workload("cp -r deep", shelf_c(shelf, f"cp -r {deep} {copy_target}"), ["cp", "-r", deep, copy_target],
                 "GNU cp -r", rounds=few, target=1.0, setup=clear(copy_target)),
        Workload("rm -r deep", shelf_c(shelf, "rm -r " + removal_target), ["rm", "-r", removal_target],
                 "GNU rm -r", rounds=few, target=1.0, setup=fresh_copy_of_deep),
    ]
    return rows


def completion_rows(completion_bench, wide):
    """The completer's own time in `wide`, measured in-process by shelf-bench."""
    rows = []
    for label, prefix in (("Tab after `ls ` in wide (all match)", ""), ("Tab after `ls file-1` in wide", "file-1")):
        output = subprocess.run([completion_bench, wide, "ls " + prefix, "20"], check=True,
                                capture_output=True, text=True).stdout.split()
        values = [float(value) for value in output]
        rows.append((label, statistics.median(values), min(values), max(values)))
    return rows


def machine_description(root):
    cpu = "unknown CPU"
    with open("/proc/cpuinfo") as handle:
        for line in handle:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    fs = subprocess.run(["stat", "-f", "-c", "%T", root], capture_output=True, text=True).stdout.strip()
    return f"{os.cpu_count()} cores, {cpu}, Linux {platform.release()}, corpus on {fs} ({root})"


def tool_versions(shelf):
    lines = []
    for argv in (["ls", "--version"], ["tree", "--version"], ["bash", "--version"], ["busybox"]):
        output = subprocess.run(argv, capture_output=True, text=True).stdout.splitlines()
        lines.append(output[0] if output else argv[0])
    return lines


def render_object_storage(section):
    """The object-storage table: each tool's times, the best peer and shelf's ratio to it."""
    if isinstance(section, str):
        return [f"Object storage: {section}.", ""]
    if not section:
        return []
    peers = [tool for tool in section[0].runs if tool != "shelf"]
    out = ["Object storage, against one local SeaweedFS (`weed mini`) started for the run; the ratio is "
           "the median over rounds of shelf / the best peer (lowest median) in the same round.\n"]
    out.append("| workload | shelf | " + " | ".join(peers) + " | best peer | ratio | shelf peak | best peer peak |")
    out.append("|---|---|" + "---|" * len(peers) + "---|---|---|---|")
    for result in section:
        best, ratio = result.shelf_and_best_peer()
        cells = [describe_times(result.runs[tool]) for tool in ["shelf"] + peers]
        peak = _mib(max(run.peak_kib for run in result.runs["shelf"]))
        best_peak = _mib(max(run.peak_kib for run in result.runs[best])) if best else ""
        out.append(f"| {result.row.name} | " + " | ".join(cells) +
                   f" | {best or ''} | {f'{ratio:.3f}' if best else ''} | {peak} | {best_peak} |")
    out.append("")
    return out


def render(results, completions, peak_growth, machine, versions, command, elapsed, object_storage=None):
    out = []
    out.append("# Performance\n")
    out.append("Written by `make bench` (Benchmarks/bench.py); rerun with:\n")
    out.append(f"    {command}\n")
    out.append(f"Measured {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on {machine}; "
               f"the whole run took {elapsed / 60:.1f} minutes. Times are wall-clock per process (median "
               "and min–max over the rounds); the ratio is the median over rounds of shelf / reference, "
               "each round running both back to back; peak is the largest resident set of any round. "
               "References: " + "; ".join(versions) + ".\n")
    if results:
        out.append("| workload | reference | shelf | reference | ratio | target | met | shelf peak | reference peak |")
        out.append("|---|---|---|---|---|---|---|---|---|")
    for result in results:
        workload = result.workload
        target = f"≤ {workload.target}" if workload.target is not None else ""
        if result.note:
            out.append(f"| {workload.name} | {workload.reference_name} | {result.note} | | | {target} | | | |")
            continue
        met = {True: "yes", False: "**no**", None: ""}[result.met()]
        out.append(f"| {workload.name} | {workload.reference_name} | {describe_times(result.shelf_runs)} | "
                   f"{describe_times(result.reference_runs)} | {result.ratio():.3f} | {target} | {met} | "
                   f"{_mib(max(run.peak_kib for run in result.shelf_runs))} | "
                   f"{_mib(max(run.peak_kib for run in result.reference_runs))} |")
    out.append("")
    if completions:
        out.append("| completer, in-process | median | min–max | target | met |")
        out.append("|---|---|---|---|---|")
        for label, middle, low, high in completions:
            out.append(f"| {label} | {middle:.1f} ms | {low:.1f}–{high:.1f} ms | ≤ 60 ms | "
                       f"{'yes' if middle <= 60 else '**no**'} |")
        out.append("")
    out += render_object_storage(object_storage)
    if peak_growth:
        small, large, small_count, large_count = peak_growth
        out.append(f"Peak memory of `shelf -c 'tree -a'` on a tree of {small_count:,} entries: {_mib(small)}; "
                   f"on {large_count:,} entries: {_mib(large)}.\n")
    return "\n".join(out)


def count_entries(path):
    total = 0
    for _, directories, files in os.walk(path):
        total += len(directories) + len(files)
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shelf", required=True, help="the shelf executable to measure")
    parser.add_argument("--completion-bench", required=True, help="the shelf-bench executable")
    parser.add_argument("--spawn", required=True, help="the compiled Benchmarks/spawn.c")
    parser.add_argument("--root", default="/dev/shm/shelf-bench" if os.path.isdir("/dev/shm") else
                        "/tmp/shelf-bench", help="where the corpus lives")
    parser.add_argument("--quick", action="store_true", help="a small corpus and few rounds, to try it out")
    parser.add_argument("--only", help="run only workloads whose name contains this text")
    parser.add_argument("--output", help="the Markdown file to write the table to")
    parser.add_argument("--section", choices=("all", "local", "s3"), default="all",
                        help="the local rows and the completer, the object-storage rows, or both")
    arguments = parser.parse_args()
    local = arguments.section in ("all", "local")

    missing = [tool for tool in ("ls", "tree", "bash", "busybox", "find", "du", "stat", "cat", "cp", "rm")
               if shutil.which(tool) is None]
    if missing and local:
        sys.exit("make bench: missing reference tools: " + ", ".join(missing) +
                 " (on Debian: apt-get install tree busybox)")

    global SPAWN
    SPAWN = os.path.abspath(arguments.spawn)
    began = time.perf_counter()
    shelf = os.path.abspath(arguments.shelf)
    scale = corpus.QUICK if arguments.quick else corpus.FULL
    root = os.path.join(arguments.root, "quick" if arguments.quick else "full")
    scratch = os.path.join(root, "scratch")
    os.makedirs(scratch, exist_ok=True)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "TZ": "UTC",
           "HOME": scratch, "XDG_STATE_HOME": os.path.join(scratch, "state")}

    results = []
    completions = []
    peak_growth = None
    if local:
        print(f"building the corpus under {root} ...", flush=True)
        parts = corpus.build_all(root, scale)
        for workload in workloads(shelf, parts, scratch, arguments.quick):
            if arguments.only and arguments.only not in workload.name:
                continue
            print(f"{workload.name} vs {workload.reference_name} ...", flush=True)
            results.append(measure(workload, env))
        completions = completion_rows(os.path.abspath(arguments.completion_bench), parts["wide"])

        if not arguments.quick and not arguments.only:
            small_parts = corpus.build_all(os.path.join(arguments.root, "quick"), corpus.QUICK)
            peaks = []
            for tree_root in (small_parts["deep"], parts["deep"]):
                runs = [run_once(shelf_c(shelf, "tree -a " + tree_root), None, env) for _ in range(3)]
                peaks.append(max(run.peak_kib for run in runs))
            peak_growth = (peaks[0], peaks[1], count_entries(small_parts["deep"]), count_entries(parts["deep"]))

    object_storage = None
    versions = tool_versions(shelf) if local else []
    if arguments.section in ("all", "s3"):
        object_storage = objectstorage.run_section(
            shelf, os.path.join(root, "s3"), objectstorage.QUICK if arguments.quick else objectstorage.FULL,
            1 if arguments.quick else 3, env, run_once, only=arguments.only,
            log=lambda line: print(line, flush=True))
        versions += objectstorage.peer_versions()

    command = "make bench" + (" QUICK=1" if arguments.quick else "") + \
        (f" SECTION={arguments.section}" if arguments.section != "all" else "")
    table = render(results, completions, peak_growth, machine_description(root), versions, command,
                   time.perf_counter() - began, object_storage)
    print(table)
    if arguments.output:
        with open(arguments.output, "w") as handle:
            handle.write(table)
    subprocess.run(["rm", "-rf", scratch], check=True)


if __name__ == "__main__":
    main()
