#!/usr/bin/env python3
"""The workspace's lines of Rust, per crate: production and test (issue 35, "cut, not moved").

Crates are grouped: app (crates/app), dto (crates/dto), adapters (crates/adapters/*), domain
(crates/domain/*). For each crate:

- production lines: the non-blank lines of src/**/*.rs that are not only comment (`//`, `///`,
  `//!`, `/* … */`), outside the test code below;
- test lines, counted the same way: each file's test module (from the `#[cfg(test)]` of its
  `mod tests` to the end of the file), any other item or module gated to tests
  (`#[cfg(test)]`) or to the test-support features (`#[cfg(feature = "testing")]`,
  `#[cfg(any(test, feature = "testing"))]`, the `mocks` feature alike), the files such a
  gated `mod x;` declares (and the files under them), files named testing.rs or mocks.rs or
  under a testing/ or mocks/ folder, and everything in tests/ and benches/.

examples/ and build.rs are in neither. Prints a markdown table with a subtotal per group, the
total of the four groups, and whether app + dto is smaller than domain; `--json` prints the same
numbers for a program. `--root DIR` counts another checkout (default: this one). Python 3.11
standard library only.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from architecture import TOKEN, attribute_end, block_comment_end, item_end, test_only

ROOT = Path(__file__).resolve().parents[2]
GROUPS = ("app", "dto", "adapters", "domain")


def scan(text: str) -> tuple[list[tuple[str, str, int]], set[int]]:
    """The tokens (kind, text, first line) of a Rust file, comments dropped, and the lines that
    hold any of them (a string over several lines holds each)."""
    toks, code, pos, line = [], set(), 0, 1
    while True:
        match = TOKEN.search(text, pos)
        if not match:
            return toks, code
        line += text.count("\n", pos, match.start())
        kind = "string" if match.group("raw_string") is not None else match.lastgroup
        end = match.end()
        if kind == "block_comment":
            end = block_comment_end(text, end)
        spans = text.count("\n", match.start(), end)
        if kind not in ("line_comment", "block_comment"):
            toks.append((kind, match.group(), line))
            code.update(range(line, line + spans + 1))
        line += spans
        pos = end


def count_file(text: str) -> tuple[int, int, list[str]]:
    """(production lines, test lines, the files its test-gated `mod x;` declarations name, as
    written: `x` or a `#[path]`)."""
    toks, code = scan(text)
    test_lines: set[int] = set()
    gated_files: list[str] = []
    last_line = max(code, default=0)
    i = 0
    while i < len(toks):
        if toks[i][1] == "#" and i + 1 < len(toks) and toks[i + 1][1] == "[":
            end = attribute_end(toks, i)
            body = toks[i + 2 : end - 1]
            if [t[1] for t in body[:2]] == ["cfg", "("] and test_only(body[2:-1]):
                stop = item_end(toks, i)
                item = toks[i:stop]
                words = [t[1] for t in item]
                first = toks[i][2]
                mod_at = next((k for k, w in enumerate(words) if w == "mod"), None)
                path = next(
                    (item[k + 2][1].strip('"') for k in range(len(item) - 3)
                     if words[k] == "path" and words[k + 1] == "=" and words[k - 1] == "["),
                    None,
                )
                if mod_at is not None and mod_at + 2 < len(words) and words[mod_at + 2] == ";":
                    gated_files.append(path or words[mod_at + 1])
                if mod_at is not None and mod_at + 1 < len(words) and words[mod_at + 1] == "tests":
                    last = last_line
                else:
                    last = toks[stop - 1][2] if stop > i else first
                test_lines.update(n for n in range(first, last + 1) if n in code)
                i = stop
                continue
            i = end
            continue
        i += 1
    return len(code - test_lines), len(test_lines), gated_files


def is_support(file: Path, src: Path) -> bool:
    parts = file.relative_to(src).parts
    return file.name in ("testing.rs", "mocks.rs") or any(p in ("testing", "mocks") for p in parts[:-1])


def count_crate(folder: Path) -> tuple[int, int]:
    """(production, test) lines of the crate in `folder`."""
    src = folder / "src"
    production = test = 0
    files = sorted(src.rglob("*.rs")) if src.is_dir() else []
    counted = {file: count_file(file.read_text()) for file in files}
    # the files and folders declared by a test-gated `mod x;`
    gated: set[Path] = set()
    for file, (_, _, names) in counted.items():
        own = file.parent if file.name in ("lib.rs", "main.rs", "mod.rs") else file.with_suffix("")
        for name in names:
            if name.endswith(".rs"):
                gated.add((file.parent / name).resolve())
            else:
                gated.update({(own / f"{name}.rs").resolve(), (own / name).resolve()})
    for file, (prod, tests, _) in counted.items():
        whole = file.resolve()
        if is_support(file, src) or any(whole == g or g in whole.parents for g in gated):
            test += prod + tests
        else:
            production += prod
            test += tests
    for extra in ("tests", "benches"):
        for file in sorted((folder / extra).rglob("*.rs")) if (folder / extra).is_dir() else []:
            prod, tests, _ = count_file(file.read_text())
            test += prod + tests
    return production, test


def crates(root: Path) -> list[tuple[str, str, Path]]:
    """(name, group, folder) of each crate under crates/."""
    found = []
    for manifest in sorted((root / "crates").glob("**/Cargo.toml")):
        folder = manifest.parent
        if "target" in folder.relative_to(root).parts:
            continue
        rel = folder.relative_to(root / "crates").parts
        group = rel[0]
        if group not in GROUPS:
            continue
        name = re.search(r'^name\s*=\s*"([^"]+)"', manifest.read_text(), re.M)
        found.append((name.group(1) if name else folder.name, group, folder))
    return found


def count(root: Path) -> dict:
    rows = []
    for name, group, folder in crates(root):
        production, test = count_crate(folder)
        rows.append({"crate": name, "group": group, "production": production, "test": test})
    rows.sort(key=lambda r: (GROUPS.index(r["group"]), r["crate"]))
    groups = {
        g: {
            "production": sum(r["production"] for r in rows if r["group"] == g),
            "test": sum(r["test"] for r in rows if r["group"] == g),
        }
        for g in GROUPS
    }
    total = {k: sum(groups[g][k] for g in GROUPS) for k in ("production", "test")}
    http = groups["app"]["production"] + groups["dto"]["production"]
    return {
        "crates": rows,
        "groups": groups,
        "total": total,
        "app_and_dto_production": http,
        "app_and_dto_smaller_than_domain": http < groups["domain"]["production"],
    }


def table(numbers: dict) -> str:
    lines = ["| crate | group | production | test |", "|---|---|---:|---:|"]
    for group in GROUPS:
        for row in numbers["crates"]:
            if row["group"] == group:
                lines.append(f"| {row['crate']} | {group} | {row['production']:,} | {row['test']:,} |")
        sub = numbers["groups"][group]
        lines.append(f"| **{group}** | subtotal | **{sub['production']:,}** | **{sub['test']:,}** |")
    total = numbers["total"]
    lines.append(f"| **app + dto + adapters + domain** | total | **{total['production']:,}** | **{total['test']:,}** |")
    domain = numbers["groups"]["domain"]["production"]
    verdict = "yes" if numbers["app_and_dto_smaller_than_domain"] else "no"
    lines.append("")
    lines.append(
        f"app + dto production {numbers['app_and_dto_production']:,} < domain {domain:,}: {verdict}"
    )
    return "\n".join(lines)


def main() -> int:
    args = sys.argv[1:]
    root = ROOT
    if "--root" in args:
        root = Path(args[args.index("--root") + 1]).resolve()
    numbers = count(root)
    print(json.dumps(numbers, indent=2) if "--json" in args else table(numbers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
