"""Tests of scripts/setup: what it finds missing, and what it says when it cannot install."""

import os
import subprocess
import tempfile
import unittest

SETUP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "setup")


def run_setup(root, uid):
    environment = dict(os.environ, SHELF_SETUP_ROOT=root, SHELF_SETUP_UID=str(uid))
    return subprocess.run([SETUP], env=environment, capture_output=True, text=True, stdin=subprocess.DEVNULL)


def make_machine(root, present):
    """Makes the files of `present` (paths below root) exist, executable."""
    for path in present:
        full = os.path.join(root, path.lstrip("/"))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as file:
            file.write("")
        os.chmod(full, 0o755)


class SetupTests(unittest.TestCase):
    def test_a_user_is_told_the_exact_install_line_for_what_is_missing(self):
        rows = [
            ("nothing installed", [], "libreadline-dev tree tmux less"),
            ("only the header", ["/usr/include/readline/readline.h"], "tree tmux less"),
            ("tree in /bin", ["/bin/tree", "/bin/less"], "libreadline-dev tmux"),
        ]
        for name, present, missing in rows:
            with self.subTest(name), tempfile.TemporaryDirectory() as root:
                make_machine(root, present)
                result = run_setup(root, uid=1000)
                self.assertEqual(result.returncode, 1)
                self.assertEqual(
                    result.stderr,
                    f"shelf needs: {missing}\ninstall them with: sudo apt-get install -y {missing}\n",
                )

    def test_nothing_is_done_when_everything_is_there(self):
        with tempfile.TemporaryDirectory() as root:
            make_machine(
                root, ["/usr/include/readline/readline.h", "/usr/bin/tree", "/usr/bin/tmux", "/usr/bin/less"]
            )
            for uid in (0, 1000):
                result = run_setup(root, uid)
                self.assertEqual((result.returncode, result.stdout, result.stderr), (0, "", ""))


if __name__ == "__main__":
    unittest.main()
