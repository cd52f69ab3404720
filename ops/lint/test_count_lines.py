"""The counting rules of count_lines.py, on a small planted workspace."""

from __future__ import annotations

import tempfile
import textwrap
import unittest
from pathlib import Path

from count_lines import count, count_file, table

LIB = '''\
//! The crate's doc: not a line of code.

/* a block comment
   over two lines */
mod service;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

/// A doc comment.
pub fn one() -> u8 {
    // a comment

    1 // a comment after code still counts
}

pub const TEXT: &str = "a string
// over lines, which are code";

#[cfg(feature = "testing")]
impl Fake {
    fn fake() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_one() {
        assert_eq!(one(), 1);
    }
}
'''
# production: `mod service;`, the 3 lines of `one` that hold code, the 2 lines of TEXT = 6
# test: the `#[cfg(any…)]` and `pub mod testing;` (2), the gated impl (4), the tests module (8)

SERVICE = '''\
pub fn two() -> u8 {
    2
}

#[cfg(test)]
fn only_for_tests() {}

#[cfg(test)]
#[path = "service_tests.rs"]
mod tests;
'''
# production 3; test: the gated fn (2) and the gated `mod tests;` with its attributes (3)


class CountLines(unittest.TestCase):
    def plant(self, files: dict[str, str]) -> Path:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        root = Path(folder.name)
        for name, text in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return root

    def test_a_file_counts_code_apart_from_comments_blanks_and_test_code(self):
        self.assertEqual(count_file(LIB)[:2], (6, 14))
        self.assertEqual(count_file(SERVICE), (3, 5, ["service_tests.rs"]))

    def test_a_workspace_counts_each_crate_by_group(self):
        root = self.plant({
            "crates/domain/shop/Cargo.toml": '[package]\nname = "garden-shop"\n',
            "crates/domain/shop/src/lib.rs": LIB,
            "crates/domain/shop/src/service.rs": SERVICE,
            "crates/domain/shop/src/service_tests.rs": "use super::*;\n\n#[test]\nfn two() {}\n",
            "crates/domain/shop/src/testing.rs": "pub struct Fake;\n",
            "crates/domain/shop/src/testing/more.rs": "pub struct More;\n",
            "crates/domain/shop/tests/api.rs": "#[test]\nfn api() {}\n",
            "crates/domain/shop/benches/b.rs": "fn main() {}\n",
            "crates/app/Cargo.toml": '[package]\nname = "garden-app"\n',
            "crates/app/src/lib.rs": "pub fn a() {}\npub fn b() {}\n",
            "crates/app/src/routes/mod.rs": "// only a comment\n",
            "crates/dto/Cargo.toml": '[package]\nname = "garden-dto"\n',
            "crates/dto/src/lib.rs": "pub struct Dto;\n",
            "crates/adapters/store/Cargo.toml": '[package]\nname = "garden-store"\n',
            "crates/adapters/store/src/lib.rs": "pub struct Store;\n#[cfg(test)]\nmod tests {}\n",
            "crates/adapters/store/examples/demo.rs": "fn main() {}\n",
        })
        numbers = count(root)
        rows = {r["crate"]: (r["group"], r["production"], r["test"]) for r in numbers["crates"]}
        self.assertEqual(rows, {
            "garden-app": ("app", 2, 0),
            "garden-dto": ("dto", 1, 0),
            "garden-store": ("adapters", 1, 2),
            # lib 6 + service 3; tests: lib 14, service 5, service_tests 3, testing 1 + 1,
            # tests/ 2, benches/ 1
            "garden-shop": ("domain", 9, 27),
        })
        self.assertEqual(numbers["total"], {"production": 13, "test": 29})
        self.assertEqual(numbers["app_and_dto_production"], 3)
        self.assertTrue(numbers["app_and_dto_smaller_than_domain"])
        self.assertIn("| **domain** | subtotal | **9** | **27** |", table(numbers))
        self.assertIn("app + dto production 3 < domain 9: yes", table(numbers))


if __name__ == "__main__":
    unittest.main()
