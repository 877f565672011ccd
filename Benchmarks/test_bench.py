"""Tests for the benchmark's corpus generator and arithmetic (run by `make test`)."""

import os
import tempfile
import unittest

import bench
import corpus
import objectstorage

TINY = corpus.Scale(wide_files=40, deep_dirs=60, deep_files=200, deep_links=40, big_bytes=100_000,
                    small_files=3, small_bytes=1000, script_lines=25)


def snapshot(root):
    """Every path under root with its kind and size or link target."""
    entries = []
    for directory, directories, files in os.walk(os.fsencode(root)):
        for name in directories + files:
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, os.fsencode(root))
            if os.path.islink(path):
                entries.append((relative, "link", os.readlink(path)))
            elif os.path.isdir(path):
                entries.append((relative, "dir", None))
            else:
                entries.append((relative, "file", os.path.getsize(path)))
    return sorted(entries)


class CorpusTests(unittest.TestCase):
    def test_same_scale_gives_the_same_corpus(self):
        with tempfile.TemporaryDirectory() as first, tempfile.TemporaryDirectory() as second:
            corpus.build_all(first, TINY)
            corpus.build_all(second, TINY)
            self.assertEqual(snapshot(first), snapshot(second))

    def test_parts_have_the_promised_shape(self):
        with tempfile.TemporaryDirectory() as root:
            parts = corpus.build_all(root, TINY)
            wide = os.listdir(parts["wide"])
            self.assertEqual(len([n for n in wide if n != corpus.STAMP]), TINY.wide_files)
            self.assertIn("日本語のファイル.txt", wide)
            entries = snapshot(parts["deep"])
            names = [entry[0] for entry in entries]
            self.assertTrue(any(b"\xff" in name for name in names), "a name that is not UTF-8")
            self.assertTrue(any(name.startswith(b".git/objects/") for name in names))
            links = [entry for entry in entries if entry[1] == "link"]
            self.assertEqual(len(links), TINY.deep_links + TINY.deep_links // 20)
            depth = max(name.count(b"/") for name in names)
            self.assertLessEqual(depth, 13)
            self.assertEqual(os.path.getsize(os.path.join(parts["big"], "large.bin")), TINY.big_bytes)
            with open(os.path.join(parts["script"], "commands.sh")) as handle:
                self.assertEqual(len(handle.read().splitlines()), TINY.script_lines)

    def test_a_complete_part_is_reused(self):
        with tempfile.TemporaryDirectory() as root:
            wide = corpus.build_wide(root, TINY)
            marker = os.path.join(wide, "marker")
            corpus._touch(marker)
            corpus.build_wide(root, TINY)
            self.assertTrue(os.path.exists(marker))


class ArithmeticTests(unittest.TestCase):
    def test_median_of_per_round_ratios(self):
        cases = {
            "odd rounds": ([1.0, 2.0, 3.0], [2.0, 2.0, 2.0], 1.0),
            "pairs by round, not by sorted time": ([1.0, 4.0], [4.0, 1.0], 2.125),
            "single round": ([0.5], [2.0], 0.25),
        }
        for name, (shelf, reference, expected) in cases.items():
            with self.subTest(name):
                self.assertAlmostEqual(bench.median_ratio(shelf, reference), expected)

    def test_rounds_must_pair_up(self):
        with self.assertRaises(ValueError):
            bench.median_ratio([1.0], [1.0, 2.0])

    def test_time_description(self):
        runs = [bench.Run(seconds, 0, 0) for seconds in (0.002, 0.001, 0.150)]
        self.assertEqual(bench.describe_times(runs), "2.0 ms (1.0 ms–150 ms)")


class ObjectStorageTests(unittest.TestCase):
    def test_ratio_to_the_best_peer(self):
        cases = {
            "the peer with the lowest median, by round": (
                [1.0, 2.0, 3.0], {"s5cmd": [2.0, 2.0, 2.0], "aws": [4.0, 4.0, 4.0]}, ("s5cmd", 1.0)),
            "one fast round does not make a peer best": (
                [1.0, 1.0, 1.0], {"s5cmd": [0.1, 5.0, 5.0], "rclone": [2.0, 2.0, 2.0]}, ("rclone", 0.5)),
            "no peer installed": ([1.0], {}, (None, None)),
        }
        for name, (shelf, peers, expected) in cases.items():
            with self.subTest(name):
                self.assertEqual(objectstorage.ratio_to_best(shelf, peers), expected)

    def test_every_row_has_a_command_for_every_tool(self):
        rows = objectstorage.rows("/bin/shelf", objectstorage.QUICK, "/tmp/scratch", "/tmp/small", "/tmp/big",
                                  seed=lambda prefix: None)
        self.assertEqual(len(rows), 7)
        for row in rows:
            for tool in ("shelf",) + objectstorage.PEERS:
                with self.subTest(row=row.name, tool=tool):
                    argv = row.argv(tool, 1)
                    self.assertEqual(argv[0], "/bin/shelf" if tool == "shelf" else tool)
                    self.assertTrue(any("bench" in argument for argument in argv), "names the bucket")

    def test_uploads_and_deletions_use_a_new_prefix_each_run(self):
        rows = objectstorage.rows("/bin/shelf", objectstorage.QUICK, "/tmp/scratch", "/tmp/small", "/tmp/big",
                                  seed=lambda prefix: None)
        for row in (rows[0], rows[6]):
            with self.subTest(row.name):
                self.assertNotEqual(row.argv("shelf", 1), row.argv("shelf", 2))


if __name__ == "__main__":
    unittest.main()
