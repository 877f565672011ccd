"""Tests of scripts/startup-order: which names it takes from a callgrind profile."""

import importlib.machinery
import importlib.util
import os
import unittest

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "startup-order")
loader = importlib.machinery.SourceFileLoader("startup_order", PATH)
spec = importlib.util.spec_from_loader("startup_order", loader)
startup_order = importlib.util.module_from_spec(spec)
loader.exec_module(startup_order)


class StartupOrderTests(unittest.TestCase):
    def test_functions_and_callees_in_first_appearance_once_each_without_addresses(self):
        profile = "\n".join([
            "events: Ir",
            "fl=(1) ???",
            "fn=(1) shelf_main",
            "0 12",
            "cfn=(2) $s9ShellCore5ShellC3runyyF",
            "calls=1 0",
            "fn=(2)",
            "fn=(3) 0x0000000000401000",
            "cfn=(1)",
            "fn=(4) _int_malloc",
            "fn=(1)",
        ])
        self.assertEqual(
            startup_order.functions(profile), ["shelf_main", "$s9ShellCore5ShellC3runyyF", "_int_malloc"])


if __name__ == "__main__":
    unittest.main()
