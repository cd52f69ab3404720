"""The shipped server carries no code enabled only for tests (issue 35, item 9): no crate among
the normal dependencies of the `garden-shop` binary (the `garden-app` package without its
dev-dependencies) is built with a `testing` or `mocks` feature. `cargo tree` resolves the
features as `cargo build` does, without building anything."""

import re
import subprocess
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEST_ONLY = {"testing", "mocks"}
FEATURE = re.compile(r'^(\S+) feature "([^"]+)"')


def test_only_features(tree: str) -> set[str]:
    """The `crate/feature` pairs of `cargo tree -e features --prefix none` output whose
    feature is one tests alone may enable."""
    found = set()
    for line in tree.splitlines():
        match = FEATURE.match(line)
        if match and match.group(2) in TEST_ONLY:
            found.add(f"{match.group(1)}/{match.group(2)}")
    return found


class ShippedFeatures(unittest.TestCase):
    def test_the_reader_sees_a_test_only_feature(self):
        planted = 'garden-store feature "testing"\ngarden-shared feature "default"\nshared feature "mocks" (*)\n'
        self.assertEqual(test_only_features(planted), {"garden-store/testing", "shared/mocks"})

    def test_the_server_is_built_without_test_only_features(self):
        tree = subprocess.run(
            ["cargo", "tree", "--locked", "-p", "garden-app", "-e", "normal,features", "--prefix", "none"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        self.assertIn("garden-store", tree, "cargo tree lists the server's dependencies")
        self.assertEqual(test_only_features(tree), set(), "enabled for the shipped server")


if __name__ == "__main__":
    unittest.main()
