"""The module circle reader of architecture.py, on small crates planted in a temporary folder
(`python3 -m unittest discover ops/lint`, run by `just lint`)."""

from __future__ import annotations

import tempfile
import textwrap
import unittest
from pathlib import Path

from architecture import (
    check_routes_reach_no_store,
    check_store_areas,
    check_words,
    clock_reads,
    long_functions,
    module_circles,
    wide_generics,
)


class ModuleCircles(unittest.TestCase):
    def plant(self, files: dict[str, str]) -> Path:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        src = Path(folder.name) / "src"
        for name, text in files.items():
            path = src / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text))
        return src

    def circles(self, files: dict[str, str], root: str = "lib.rs") -> list[list[str]]:
        return [modules for modules, _ in module_circles(self.plant(files), root)]

    def test_a_crate_without_a_circle_has_none(self):
        found = self.circles({
            "lib.rs": """
                mod a;
                mod b;
                pub use a::Thing;
                pub use b::{other, Other};
            """,
            "a.rs": "pub struct Thing;\n",
            "b.rs": """
                use crate::a::Thing;
                // crate::b is not a reference, nor is "crate::b::Other" in a string
                pub struct Other(Option<Thing>);
                pub fn other() -> crate::Thing { Thing }
            """,
        })
        self.assertEqual(found, [])

    def test_a_circle_of_use_statements(self):
        found = self.circles({
            "lib.rs": "mod a;\nmod b;\n",
            "a.rs": "use crate::b::B;\npub struct A(B);\n",
            "b.rs": "use crate::a::A;\npub struct B(Box<A>);\n",
        })
        self.assertEqual(found, [["a", "b"]])

    def test_a_circle_through_a_path_in_a_function_body(self):
        found = self.circles({
            "lib.rs": "pub mod a;\npub mod b;\n",
            "a.rs": "pub fn first() -> u8 { crate::b::second() + 1 }\npub const ONE: u8 = 1;\n",
            "b.rs": """
                pub fn second() -> u8 {
                    use crate::a::ONE;
                    ONE
                }
            """,
        })
        self.assertEqual(found, [["a", "b"]])

    def test_a_circle_through_a_generic_argument(self):
        found = self.circles({
            "lib.rs": "mod models;\nmod keys;\npub use models::order::Order;\npub use keys::Key;\n",
            "models/mod.rs": "pub mod order;\n",
            "models/order.rs": "pub struct Order {\n    pub key: Option<crate::keys::Key>,\n}\n",
            "keys.rs": "pub struct Key;\npub fn of(orders: Vec<crate::Order>) -> Vec<Key> { vec![] }\n",
        })
        self.assertEqual(found, [["keys", "models::order"]])

    def test_a_circle_through_super(self):
        found = self.circles({
            "lib.rs": "mod auth;\nmod settings;\n",
            "auth/mod.rs": "pub mod session;\n",
            "auth/session.rs": "pub struct Session(super::super::settings::Settings);\n",
            "settings.rs": "pub struct Settings;\nfn key(s: &crate::auth::session::Session) {}\n",
        })
        self.assertEqual(found, [["auth::session", "settings"]])

    def test_a_circle_through_a_grouped_use(self):
        found = self.circles({
            "lib.rs": "mod a;\nmod b;\nmod c;\n",
            "a.rs": "use crate::{b::{self, B}, c::C as See};\npub struct A;\n",
            "b.rs": "pub struct B;\n",
            "c.rs": "use crate::a::A;\npub struct C;\n",
        })
        self.assertEqual(found, [["a", "c"]])

    def test_a_child_using_a_sibling_through_super(self):
        found = self.circles({
            "lib.rs": "mod parent;\n",
            "parent.rs": "mod one;\nmod two;\n",
            "parent/one.rs": "pub struct One;\npub fn f(_: super::two::Two) {}\n",
            "parent/two.rs": "pub struct Two;\npub fn g(_: super::one::One) {}\n",
        })
        self.assertEqual(found, [["parent::one", "parent::two"]])

    def test_a_parent_and_the_child_that_uses_it(self):
        found = self.circles({
            "lib.rs": "mod error;\n",
            "error.rs": "mod api;\npub use api::Api;\npub struct Shared;\n",
            "error/api.rs": "pub struct Api(super::Shared);\n",
        })
        self.assertEqual(found, [["error", "error::api"]])

    def test_an_inline_module_is_part_of_its_file(self):
        found = self.circles({
            "lib.rs": "mod service;\nmod erasure;\npub use erasure::Erasure;\n",
            "service.rs": "pub(crate) mod bucket {\n    pub const LOGIN: &str = \"login\";\n}\npub fn delete(_: crate::Erasure) {}\n",
            "erasure.rs": "pub struct Erasure;\nimpl Erasure {\n    fn of() { use crate::service::bucket; let _ = bucket::LOGIN; }\n}\n",
        })
        self.assertEqual(found, [["erasure", "service"]])

    def test_test_code_is_not_read(self):
        found = self.circles({
            "lib.rs": "mod a;\nmod b;\nmod c;\n#[cfg(any(test, feature = \"testing\"))]\npub mod testing;\n",
            # a test module
            "a.rs": "pub struct A;\n#[cfg(test)]\nmod tests {\n    use crate::b::B;\n}\n",
            # an item for tests only
            "b.rs": "use crate::a::A;\npub struct B;\n#[cfg(test)]\nfn only_in_tests() -> crate::c::C { todo!() }\n",
            # an item of the test-support feature
            "c.rs": (
                "pub struct C(crate::b::B);\n"
                "#[cfg(feature = \"testing\")]\nimpl C {\n    fn fake() -> crate::testing::T { todo!() }\n}\n"
            ),
            # a test-support module
            "testing.rs": "pub struct T(crate::c::C);\n",
        })
        self.assertEqual(found, [])

    def test_each_edge_of_a_circle_names_a_line(self):
        src = self.plant({
            "lib.rs": "mod a;\nmod b;\n",
            "a.rs": "pub struct A;\n\nfn f() -> crate::b::B { crate::b::B }\n",
            "b.rs": "pub struct B;\nfn g(_: Vec<super::a::A>) {}\n",
        })
        [(modules, evidence)] = module_circles(src)
        self.assertEqual(modules, ["a", "b"])
        self.assertEqual(evidence, ["a -> b: a.rs:3", "b -> a: b.rs:2"])

    def test_a_binary_is_read_from_its_own_root(self):
        found = self.circles(
            {
                "main.rs": "mod cli;\nmod run;\n",
                "cli.rs": "pub fn parse() { crate::run::go() }\n",
                "run.rs": "pub fn go() { crate::cli::parse() }\n",
            },
            root="main.rs",
        )
        self.assertEqual(found, [["cli", "run"]])


class OneClock(unittest.TestCase):
    def test_the_system_time_is_found_in_production_code_only(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        src = Path(folder.name) / "src"
        src.mkdir()
        (src / "lib.rs").write_text(textwrap.dedent("""\
            mod stamp;
            // Utc::now() in a comment, "SystemTime::now()" in a string
            pub fn now() -> chrono::DateTime<chrono::Utc> {
                chrono::Utc::now()
            }
            #[cfg(test)]
            mod tests {
                fn t() { let _ = chrono::Utc::now(); }
            }
        """))
        (src / "stamp.rs").write_text(
            "use shared::SystemClock;\nfn at() { let _ = std::time::SystemTime::now(); }\n"
        )
        found = [(file.name, line, what) for file, line, what in clock_reads(src)]
        self.assertEqual(found, [
            ("lib.rs", 4, "Utc::now"),
            ("stamp.rs", 1, "SystemClock"),
            ("stamp.rs", 2, "SystemTime::now"),
        ])


if __name__ == "__main__":
    unittest.main()


class RoutesReachNoStore(unittest.TestCase):
    def routes(self, files: dict[str, str]) -> list[str]:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        routes = Path(folder.name)
        for name, text in files.items():
            (routes / name).write_text(textwrap.dedent(text))
        return check_routes_reach_no_store(routes)

    def test_only_the_health_checks_name_the_store(self):
        found = self.routes({
            "health.rs": "use store::Store;\nfn ready(db: web::Data<Store>) {}\n",
            "products.rs": "// the store is behind store::Store\nfn show(catalog: web::Data<ShopCatalog>) {}\n",
            "orders.rs": "fn show() {\n    let rows = store::orders::all();\n}\n",
            "media.rs": "fn pic(m: web::Data<MediaStore>, s: web::Data<Store>) {}\n",
        })
        self.assertEqual(len(found), 2, found)
        self.assertTrue(any(problem.endswith("orders.rs:2") for problem in found), found)
        self.assertTrue(any(problem.endswith("media.rs:1") for problem in found), found)


class NoLongFunction(unittest.TestCase):
    def test_a_function_over_80_lines_of_code_is_found_in_production_code_only(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        src = Path(folder.name) / "src"
        src.mkdir()

        def code(lines: int) -> str:
            # blank lines and comments do not count
            return "    let x = 1;\n\n    // a comment\n" * lines

        # with its `fn` line and its closing brace: 80 lines, then 81, then 202 in a test
        (src / "lib.rs").write_text(
            "pub trait Port {\n    fn declared(&self);\n}\n"
            f"pub fn at_the_limit() {{\n{code(78)}}}\n"
            f"pub fn over_it() {{\n{code(79)}}}\n"
            f"#[cfg(test)]\nmod tests {{\n    fn long_test() {{\n{code(200)}    }}\n}}\n"
        )
        found = [(file.name, name, lines) for file, _, name, lines in long_functions(src)]
        self.assertEqual(found, [("lib.rs", "over_it", 81)])


class FewGenerics(unittest.TestCase):
    def test_a_type_or_function_over_four_generic_parameters_is_found_in_production_code_only(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        src = Path(folder.name) / "src"
        src.mkdir()
        (src / "lib.rs").write_text(textwrap.dedent("""
            pub struct Four<'a, A, B, C, D, const N: usize>(&'a (A, B, C, D));
            pub struct Checkout<O, P, R, C, B = NoBlocklist> { o: O, p: P, r: R, c: C, b: B }
            pub trait CheckoutPorts { type Orders: Into<Vec<u8>>; }
            pub fn apply<K: CheckoutPorts, A, G>(k: &K, a: A, g: G, f: impl Fn(u8) -> bool) {}
            pub fn wide<K, A, G, H>(x: impl Into<K>, y: Option<impl Copy>) -> impl Copy {}
            pub enum Either<L, R, S, T, U> { L(L), R(R, S, T, U) }
            #[cfg(test)]
            mod tests {
                fn mocked<A, B, C, D, E, F>() {}
            }
        """))
        found = [(file.name, what, count) for file, _, what, count in wide_generics(src)]
        self.assertEqual(found, [
            ("lib.rs", "struct Checkout", 5),
            ("lib.rs", "fn wide", 6),
            ("lib.rs", "enum Either", 5),
        ])


class Glossary(unittest.TestCase):
    def test_a_word_naming_what_is_not_there_is_found(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        crates = Path(folder.name)
        (crates / "orders" / "src").mkdir(parents=True)
        (crates / "orders" / "src" / "lib.rs").write_text("pub struct OrderStep;\npub mod lifecycle {}\n")
        doc = textwrap.dedent("""
            ## Words
            | **step** | `orders::OrderStep`, `orders::lifecycle`, `order_events`, `GET /api/x` |
            | **gone** | `orders::Vanished`, `Missing`, `ops/lint/no_such_file.py` |
            ## The crates
            `orders::AlsoMissing` is outside the section
        """)
        found = check_words(doc, crates)
        self.assertEqual(len(found), 3, found)
        for word in ("orders::Vanished", "Missing", "ops/lint/no_such_file.py"):
            self.assertTrue(any(word in problem for problem in found), (word, found))
        self.assertEqual(check_words("no glossary", crates), [
            'docs/architecture.md has no "## Words" section (the glossary)'
        ])


class StoreByArea(unittest.TestCase):
    DOC = textwrap.dedent("""
        ## The store's areas
        | Area | Tables |
        |---|---|
        | orders | `orders`, `order_lines` |
        | catalog | `products` |
        | promo | `promo_codes` |
        ## Next
    """)

    def check(self, files: dict[str, str]) -> list[str]:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        src, migrations = Path(folder.name) / "src", Path(folder.name) / "migrations"
        migrations.mkdir()
        (migrations / "m1.rs").write_text(
            "Table::create()\n    .table(Orders::Table)\nTable::create().table(OrderLines::Table)\n"
            "Table::create().table(Products::Table)\nTable::create().table(PromoCodes::Table)\n"
        )
        for name, text in files.items():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            (src / name).write_text(textwrap.dedent(text))
        return check_store_areas(src, self.DOC, migrations)

    def test_a_file_naming_two_areas_tables_fails(self):
        problems = self.check({
            "orders.rs": """
                use crate::entities::{order_lines, orders as rows};
                // UPDATE products in a comment is no reference
                const SQL: &str = "UPDATE orders SET status = ? WHERE id = ?";
                #[cfg(test)]
                mod tests { const T: &str = "SELECT * FROM products"; }
            """,
            "catalog/stock.rs": """
                const TAKE: &str = "UPDATE products SET stock = stock - ? WHERE id = ?";
                fn f() { let _ = crate::entities::products::Entity::find(); }
            """,
            "mixed.rs": """
                use crate::entities::products;
                fn redeem() -> &'static str {
                    "UPDATE promo_codes SET uses = uses + 1 \\
                     WHERE id IN (SELECT promo_code_id FROM orders WHERE id = ?)"
                }
            """,
        })
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("mixed.rs names the tables of 3 areas", problems[0])
        for named in ("catalog: products (line 2)", "orders: orders (line 4)", "promo: promo_codes (line 4)"):
            self.assertIn(named, problems[0])

    def test_a_table_without_an_area(self):
        self.DOC = self.DOC.replace("| promo | `promo_codes` |\n", "")
        problems = self.check({"orders.rs": 'const A: &str = "DELETE FROM orders";\n'})
        self.assertEqual(problems, ["docs/architecture.md, the store's areas: table promo_codes has no area"])
