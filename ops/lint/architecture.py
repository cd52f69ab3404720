#!/usr/bin/env python3
"""What docs/architecture.md claims about the code, checked (`just lint` runs it):

1. the crate graph drawn in its mermaid diagram is the workspace's, as `cargo metadata` reads it
   (every edge drawn exists, every dependency between our crates is drawn);
2. no domain crate (crates/domain/*) depends, directly or through another crate, on actix,
   sea-orm, reqwest or any adapter crate (crates/adapters/*) or the app;
3. no crate has a module circle, read from the source (`module_circles`, for each lib and bin
   target of the crates under crates/): every .rs file reached from the target's root through
   `mod x;` (and each inline `mod x { }`) is mapped to its module path; code gated to tests is
   not read (`#[cfg(test)]` items and modules, and those of the test-support features
   `testing` and `mocks`); comments and strings are not read. Every `crate::…`, `super::…`,
   `self::…` path, and every path that starts with a child module's name or a name the module
   imports, anywhere in the file (use trees with their nested groups, function bodies, generic
   arguments, types, macro calls), is resolved to the module it names: the longest prefix that
   is a module, then, when the next name is one that module imports (a re-export such as
   `pub use order::Order;` in a parent, or a glob), the module that name comes from. Each
   reference is an edge from the file's module to that module, with these rules:
   - an inline `mod x { }` is part of the file that holds it (a reference into it is a
     reference to its file's module, and what it references is its file's);
   - a `mod x;` declaration is not an edge; a reference to the module itself is none;
   - every other reference is, between siblings (a child's `super::x` where x is a sibling:
     child -> x) as between a child and its parent or any ancestor (`super::Item` of an item
     defined in the parent: child -> parent; a parent's `pub use child::Item`: parent ->
     child). So a parent and its child that use each other are a circle: a parent declares
     and re-exports, its children use their siblings, not it;
   - a reference that leaves the crate (another crate, std, a re-export of one) is no edge.
   Every strongly connected part of more than one module is a circle, reported with its
   modules and one referencing line (file:line) for each edge between them;
4. every service an instance hands its handlers (each `web::Data<…>` field of `Services` and
   its areas in crates/app/src/wiring.rs) is named in it;
5. one clock: no production code reads the system time itself (`Utc::now()`,
   `SystemTime::now()`, `chrono::Utc::now`) or names `SystemClock`, outside the clock's home
   (`CLOCK_HOMES`: the app's `AppClock` and the shared kernel's system clock); read as part 3
   reads (tests and test-support code aside);
6. no production function is longer than 80 lines (`long_functions`: the lines that hold code,
   from `fn` to its closing brace, read as part 3 reads), with no exception;
7. the glossary ("## Words" in the document) names what is there: each file it names exists and
   each Rust name is defined in the sources (`check_words`);
8. no type or function of a domain crate has more than 4 generic type parameters
   (`wide_generics`: those in its `<…>`, lifetimes and consts apart, and a function's `impl
   Trait` parameters; read as part 3 reads);
9. the store is split by area (`check_store_areas`): every table the migrations create has one
   area in the document's "## The store's areas" table, and each production file of
   crates/adapters/store/src names (in its SQL strings and sea-orm entity paths) the tables of
   one area at most, whole-database files (`STORE_AREA_EXEMPT`) aside.

Prints each finding and exits 1 when there is one. Python 3.11 standard library only (and
`cargo metadata`). The module reader's tests plant a circle of each kind:
`python3 -m unittest discover ops/lint`.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
# what a domain crate may never reach
FORBIDDEN_FOR_DOMAIN = re.compile(r"^(actix.*|sea-orm.*|sea-query.*|sqlx.*|reqwest|hyper)$")


def metadata() -> dict:
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def short(name: str) -> str:
    """The name the diagram uses: the package name without the `garden-` prefix."""
    return name.removeprefix("garden-")


def workspace_graph(meta: dict) -> tuple[dict[str, dict], set[tuple[str, str]]]:
    members = set(meta["workspace_members"])
    packages = {p["id"]: p for p in meta["packages"] if p["id"] in members}
    names = {p["name"] for p in packages.values()}
    edges = set()
    for package in packages.values():
        for dep in package["dependencies"]:
            if dep["name"] in names and dep["kind"] is None and dep["name"] != package["name"]:
                edges.add((short(package["name"]), short(dep["name"])))
    return {short(p["name"]): p for p in packages.values()}, edges


def drawn_graph() -> set[tuple[str, str]]:
    text = DOC.read_text()
    block = re.search(r"```mermaid\n(.*?)```", text, re.S)
    if not block:
        return set()
    edges = set()
    for line in block.group(1).splitlines():
        match = re.fullmatch(r"\s*([\w-]+)(?:\[[^\]]*\])?\s*-->\s*([\w-]+)(?:\[[^\]]*\])?\s*", line)
        if match:
            edges.add((match.group(1), match.group(2)))
    return edges


def check_crate_graph(edges: set[tuple[str, str]]) -> list[str]:
    drawn = drawn_graph()
    if not drawn:
        return [f"{DOC.relative_to(ROOT)} has no mermaid crate graph"]
    problems = [f"drawn but not a dependency: {a} --> {b}" for a, b in sorted(drawn - edges)]
    problems += [f"a dependency not drawn: {a} --> {b}" for a, b in sorted(edges - drawn)]
    return problems


def check_domain(meta: dict, crates: dict[str, dict]) -> list[str]:
    """Follows the resolved graph (normal dependencies only) from each domain crate."""
    nodes = {node["id"]: node for node in meta["resolve"]["nodes"]}
    by_id = {p["id"]: p for p in meta["packages"]}
    allowed_ours = {
        name for name, p in crates.items() if "/crates/domain/" in p["manifest_path"]
    }
    problems = []
    for name, package in sorted(crates.items()):
        if "/crates/domain/" not in package["manifest_path"]:
            continue
        seen, stack, path_to = set(), [package["id"]], {package["id"]: [name]}
        while stack:
            current = stack.pop()
            if current in seen:
                continue
            seen.add(current)
            for dep in nodes[current]["deps"]:
                if not any(kind["kind"] is None for kind in dep["dep_kinds"]):
                    continue
                target = by_id[dep["pkg"]]
                via = path_to[current] + [target["name"]]
                ours = short(target["name"]) in crates
                if (ours and short(target["name"]) not in allowed_ours) or FORBIDDEN_FOR_DOMAIN.match(
                    target["name"]
                ):
                    problems.append(f"domain crate {name} depends on {target['name']}: {' -> '.join(via)}")
                    continue
                if dep["pkg"] not in path_to:
                    path_to[dep["pkg"]] = via
                stack.append(dep["pkg"])
    return problems


def circles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan)."""
    graph: dict[str, list[str]] = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    sys.setrecursionlimit(10_000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


# ---------------------------------------------------------------------------------------------
# Part 3: module circles, read from the source.

TOKEN = re.compile(
    r"""
      (?P<line_comment>//[^\n]*)
    | (?P<block_comment>/\*)
    | (?P<raw_string>b?r(?P<hashes>\#*)"(?:.|\n)*?"(?P=hashes))
    | (?P<string>b?"(?:\\.|[^"\\])*")
    | (?P<char>b?'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|.)|[^\\'\n])')
    | (?P<lifetime>'[A-Za-z_]\w*)
    | (?P<ident>(?:r\#)?[A-Za-z_]\w*)
    | (?P<number>\d[\w.]*)
    | (?P<punct>::|->|=>|\S)
    """,
    re.X | re.S,
)


def block_comment_end(text: str, end: int) -> int:
    """Where a block comment opened just before `end` ends (Rust's nest)."""
    depth = 1
    while depth and end < len(text):
        if text.startswith("/*", end):
            depth, end = depth + 1, end + 2
        elif text.startswith("*/", end):
            depth, end = depth - 1, end + 2
        else:
            end += 1
    return end


def tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, line) for a Rust source: comments dropped, string contents kept whole (one
    token), so a path inside a comment, a string or a doc link is not a reference."""
    out, pos, line = [], 0, 1
    while True:
        match = TOKEN.search(text, pos)
        if not match:
            return out
        line += text.count("\n", pos, match.start())
        kind = match.lastgroup if match.lastgroup != "hashes" else "raw_string"
        if match.group("raw_string") is not None:
            kind = "string"
        end = match.end()
        if kind == "block_comment":
            end = block_comment_end(text, end)
        elif kind != "line_comment":
            value = match.group()
            out.append((kind, value.removeprefix("r#") if kind == "ident" else value, line))
        line += text.count("\n", match.start(), end)
        pos = end


def split_top(toks: list[tuple[str, str, int]]) -> list[list[tuple[str, str, int]]]:
    """Splits a token list at the commas outside any bracket."""
    parts, depth, current = [], 0, []
    for tok in toks:
        if tok[1] in "([{":
            depth += 1
        elif tok[1] in ")]}":
            depth -= 1
        if tok[1] == "," and depth == 0:
            parts.append(current)
            current = []
        else:
            current.append(tok)
    if current:
        parts.append(current)
    return parts


TEST_FEATURES = {'"testing"', '"mocks"'}


def test_only(pred: list[tuple[str, str, int]]) -> bool:
    """Whether a `cfg(…)` predicate holds only in test builds: `test`, the test-support
    features (`testing`, `mocks`), `any` of those, `all` with one of them."""
    words = [t[1] for t in pred]
    if words == ["test"]:
        return True
    if len(words) == 3 and words[0] == "feature" and words[1] == "=":
        return words[2] in TEST_FEATURES
    if len(words) > 3 and words[0] in ("any", "all") and words[1] == "(" and words[-1] == ")":
        parts = split_top(pred[2:-1])
        if not parts:
            return False
        return (all if words[0] == "any" else any)(test_only(part) for part in parts)
    return False


def attribute_end(toks: list[tuple[str, str, int]], i: int) -> int:
    """The index after the attribute `#[…]` (or `#![…]`) starting at i."""
    j = i + 1
    if toks[j][1] == "!":
        j += 1
    depth = 0
    while j < len(toks):
        if toks[j][1] in "([{":
            depth += 1
        elif toks[j][1] in ")]}":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return j


def item_end(toks: list[tuple[str, str, int]], i: int) -> int:
    """The index after the item, statement, field or arm starting at i (its attributes
    included): a `;` or `,` outside brackets, or its `{ … }` body; never past a closing bracket
    of what holds it."""
    while i < len(toks) and toks[i][1] == "#" and i + 1 < len(toks) and toks[i + 1][1] == "[":
        i = attribute_end(toks, i)
    is_use = i < len(toks) and toks[i][1] == "use" or (
        i + 1 < len(toks) and toks[i][1] == "pub" and toks[i + 1][1] in ("use", "(")
        and "use" in [t[1] for t in toks[i : i + 8]]
    )
    depth = angle = 0
    while i < len(toks):
        text = toks[i][1]
        if text in "([{":
            depth += 1
        elif text in ")]}":
            if depth == 0:
                return i
            depth -= 1
            if depth == 0 and text == "}" and not is_use:
                return i + 1 + (i + 1 < len(toks) and toks[i + 1][1] in (";", ","))
        elif text == "<":
            angle += 1
        elif text == ">":
            angle = max(angle - 1, 0)
        elif depth == 0 and (text == ";" or (text == "," and angle == 0 and not is_use)):
            return i + 1
        i += 1
    return i


def production_tokens(toks: list[tuple[str, str, int]]) -> tuple[list[tuple[str, str, int]], dict[int, str]]:
    """The tokens without the items gated to test builds (`#[cfg(test)]` and the test-support
    features); also the `#[path = "…"]` of each `mod` (by the index of its `mod` token in the
    result)."""
    out, paths, i, path = [], {}, 0, None
    while i < len(toks):
        if toks[i][1] == "#" and i + 1 < len(toks) and toks[i + 1][1] in ("[", "!"):
            end = attribute_end(toks, i)
            body = toks[i + 2 : end - 1] if toks[i + 1][1] == "[" else toks[i + 3 : end - 1]
            words = [t[1] for t in body]
            if toks[i + 1][1] == "[" and words[:2] == ["cfg", "("] and test_only(body[2:-1]):
                i = item_end(toks, i)
                path = None
                continue
            if words[:2] == ["path", "="] and len(words) == 3:
                path = words[2].strip('"')
            i = end
            continue
        if toks[i][1] == "mod" and path is not None:
            paths[len(out)] = path
            path = None
        out.append(toks[i])
        i += 1
    return out, paths


class Module:
    def __init__(self, path: tuple[str, ...], file: Path) -> None:
        self.path = path
        self.file = file
        # the node it is in the graph: the module of its file (an inline `mod x { }` is part of
        # the file that holds it)
        self.node = path
        self.children: dict[str, tuple[str, ...]] = {}
        self.items: set[str] = set()
        # name -> the path it was imported from, as written (made absolute when asked)
        self.imports: dict[str, list[str]] = {}
        self.globs: list[list[str]] = []
        # every path the module writes: (segments, file, line)
        self.refs: list[tuple[list[str], Path, int]] = []


ITEM_KEYWORDS = {"struct", "enum", "fn", "trait", "type", "const", "static", "union"}


def use_tree(toks, i, prefix, out):
    """Reads one use tree at toks[i]; appends (segments, bound name or '*', line) to out; returns
    the index after it."""
    segs = list(prefix)
    if i < len(toks) and toks[i][1] == "::":  # `use ::extern_crate::…`
        segs.append("::")
        i += 1
    while i < len(toks):
        kind, text, line = toks[i]
        if text == "{":
            i += 1
            while i < len(toks) and toks[i][1] != "}":
                i = use_tree(toks, i, segs, out)
                if i < len(toks) and toks[i][1] == ",":
                    i += 1
            return i + 1
        if text == "*":
            out.append((segs, "*", line))
            return i + 1
        if kind == "ident":
            segs = segs + [text]
            i += 1
            if i < len(toks) and toks[i][1] == "::":
                i += 1
                continue
            bound = text
            if i + 1 < len(toks) and toks[i][1] == "as":
                bound = toks[i + 1][1]
                i += 2
            if text == "self":
                segs = segs[:-1]
                bound = segs[-1] if bound == "self" and segs else bound
            out.append((segs, bound, line))
            return i
        return i + 1
    return i


def read_file(src: Path, file: Path, path: tuple[str, ...], modules: dict[tuple[str, ...], Module]) -> None:
    """Reads one source file into `modules` (its module, the inline modules it holds, and
    through each `mod x;` the files of its children)."""
    toks, mod_paths = production_tokens(tokens(file.read_text()))
    # where `mod x;` looks for x: next to a crate root or a mod.rs, else in a folder named after
    # the file
    own_dir = file.parent if not path or file.name == "mod.rs" else file.with_suffix("")
    stack = [(path, own_dir, -1)]  # module, its folder, the brace depth it opened at
    modules[path] = Module(path, file)
    depth, i = 0, 0
    while i < len(toks):
        kind, text, line = toks[i]
        current, folder, _ = stack[-1]
        module = modules[current]
        prev = toks[i - 1][1] if i else ""
        if text == "{":
            depth += 1
        elif text == "}":
            depth -= 1
            if stack[-1][2] == depth and len(stack) > 1:
                stack.pop()
        elif text == "mod" and i + 2 < len(toks) and toks[i + 1][0] == "ident":
            name, after = toks[i + 1][1], toks[i + 2][1]
            child = current + (name,)
            module.children[name] = child
            if after == "{":
                modules[child] = Module(child, file)
                modules[child].node = module.node
                stack.append((child, folder / name, depth))
                depth += 1
                i += 3
                continue
            if after == ";":
                if i in mod_paths:
                    # `#[path]` is relative to the file's folder, or inside an inline module to
                    # that module's folder
                    candidates = [(file.parent if len(stack) == 1 else folder) / mod_paths[i]]
                else:
                    candidates = [folder / f"{name}.rs", folder / name / "mod.rs"]
                for candidate in candidates:
                    if candidate.is_file():
                        read_file(src, candidate, child, modules)
                        break
            i += 3
            continue
        elif text == "use" and prev != "$":
            leaves: list = []
            i = use_tree(toks, i + 1, [], leaves)
            for segs, bound, line in leaves:
                if not segs or segs[0] == "::":
                    continue
                module.refs.append((segs, file, line))
                if bound == "*":
                    module.globs.append(segs)
                elif bound != "_":
                    module.imports.setdefault(bound, segs)
            continue
        elif text == "macro_rules" and i + 2 < len(toks) and toks[i + 1][1] == "!":
            module.items.add(toks[i + 2][1])
        elif text in ITEM_KEYWORDS and i + 1 < len(toks) and toks[i + 1][0] == "ident" and prev != "::":
            module.items.add(toks[i + 1][1])
        elif kind == "ident" and prev not in ("::", "$", ".") and i + 2 < len(toks) and toks[i + 1][1] == "::" and toks[i + 2][0] == "ident":
            # a path: `a::b::c` (stops before `::<` or anything not a name)
            if prev == "in" and i >= 3 and toks[i - 2][1] == "(" and toks[i - 3][1] == "pub":
                i += 1
                continue
            segs, j = [text], i + 1
            while j + 1 < len(toks) and toks[j][1] == "::" and toks[j + 1][0] == "ident":
                segs.append(toks[j + 1][1])
                j += 2
            module.refs.append((segs, file, line))
            i = j
            continue
        i += 1


class Crate:
    """A crate's modules, read from its source; `edges` are the module graph's edges, each with
    the first line that makes it."""

    def __init__(self, src: Path, root: str = "lib.rs") -> None:
        self.src = src
        self.modules: dict[tuple[str, ...], Module] = {}
        read_file(src, src / root, (), self.modules)
        self._resolving: set = set()
        self.edges: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[Path, int]] = {}
        for module in self.modules.values():
            for segs, file, line in module.refs:
                target = self.resolve(module.path, segs)
                if target is None or self.modules[target].node == module.node:
                    continue
                self.edges.setdefault((module.node, self.modules[target].node), (file, line))

    def absolute(self, here: tuple[str, ...], segs: list[str], depth: int = 0) -> list[str] | None:
        """The path from the crate root a path written in module `here` names, or None when it
        leaves the crate (another crate, std, a local name)."""
        first = segs[0]
        if first == "crate":
            return segs[1:]
        if first == "self":
            return list(here) + segs[1:]
        if first == "super":
            n = 0
            while n < len(segs) and segs[n] == "super":
                n += 1
            return list(here[: max(len(here) - n, 0)]) + segs[n:]
        module = self.modules.get(here)
        if module is None:
            return None
        if first in module.children:
            return list(here) + segs
        if first in module.imports and depth < 16 and (here, first) not in self._resolving:
            self._resolving.add((here, first))
            try:
                base = self.absolute(here, module.imports[first], depth + 1)
            finally:
                self._resolving.discard((here, first))
            return None if base is None else base + segs[1:]
        return None

    def resolve(self, here: tuple[str, ...], segs: list[str], depth: int = 0) -> tuple[str, ...] | None:
        """The module a path written in `here` names: the longest prefix that is a module, then,
        when the next name is one that module imports (a re-export), where that name comes
        from."""
        path = self.absolute(here, segs)
        if path is None:
            return None
        return self.locate(path, depth)

    def locate(self, path: list[str], depth: int = 0) -> tuple[str, ...] | None:
        current: tuple[str, ...] = ()
        for i, name in enumerate(path):
            module = self.modules[current]
            if name in module.children and module.children[name] in self.modules:
                current = module.children[name]
                continue
            if name in module.items or depth > 16:
                return current
            if name in module.imports:
                if (current, name) in self._resolving:
                    return current
                self._resolving.add((current, name))
                try:
                    source = self.absolute(current, module.imports[name])
                    return None if source is None else self.locate(source + path[i + 1 :], depth + 1)
                finally:
                    self._resolving.discard((current, name))
            for glob in module.globs:
                source = self.absolute(current, glob)
                if source is None:
                    continue
                holder = self.locate(source, depth + 1)
                if holder is not None and holder in self.modules:
                    held = self.modules[holder]
                    if name in held.items or name in held.imports or name in held.children:
                        return self.locate(list(holder) + path[i:], depth + 1)
            return current
        return current

    def name(self, path: tuple[str, ...]) -> str:
        return "::".join(path) if path else "crate"


def module_circles(src: Path, root: str = "lib.rs") -> list[tuple[list[str], list[str]]]:
    """The module circles of the crate whose sources are in `src` (from `root`, lib.rs or a
    binary's file): for each, its modules and, for each edge between them, `a -> b: file:line`."""
    crate = Crate(src, root)
    found = []
    for part in circles(set(crate.edges)):
        members = set(part)
        evidence = []
        for (a, b), (file, line) in sorted(crate.edges.items()):
            if a in members and b in members:
                where = file.relative_to(ROOT) if file.is_relative_to(ROOT) else file.relative_to(src)
                evidence.append(f"{crate.name(a)} -> {crate.name(b)}: {where}:{line}")
        found.append(([crate.name(p) for p in part], evidence))
    return found


# The clock's home: the port's system clock and the app's one clock, the only production code
# that may read the system time.
CLOCK_HOMES = {
    "crates/domain/shared/src/clock.rs",
    "crates/app/src/auth/clock.rs",
}


def clock_reads(src: Path, root: str = "lib.rs") -> list[tuple[Path, int, str]]:
    """Where the production code of a crate (read as the module reader reads it: tests and
    test-support code aside, comments and strings too) reads the system time on its own:
    `Utc::now()`, `SystemTime::now()`, `chrono::Utc::now`, or names `SystemClock`."""
    found = []
    crate = Crate(src, root)
    for file in sorted({module.file for module in crate.modules.values()}):
        toks, _ = production_tokens(tokens(file.read_text()))
        for i, (kind, text, line) in enumerate(toks):
            words = [t[1] for t in toks[i : i + 3]]
            if text == "SystemClock":
                found.append((file, line, "SystemClock"))
            elif words in (["Utc", "::", "now"], ["SystemTime", "::", "now"]):
                found.append((file, line, f"{text}::now"))
    return found


def targets(crates: dict[str, dict]) -> list[tuple[str, str, Path, str]]:
    """(package, label, src folder, root file) of each lib and bin target of the crates under
    crates/ whose root is in its src/."""
    found = []
    for name, package in sorted(crates.items()):
        src = Path(package["manifest_path"]).parent / "src"
        if not src.is_relative_to(ROOT / "crates"):
            continue
        for target in package["targets"]:
            if not {"lib", "proc-macro", "bin"} & set(target["kind"]):
                continue
            root = Path(target["src_path"])
            if not root.is_relative_to(src):
                continue
            label = "lib" if "bin" not in target["kind"] else f"bin {target['name']}"
            found.append((package["name"], label, src, str(root.relative_to(src))))
    return found


def check_modules(crates: dict[str, dict]) -> list[str]:
    problems = []
    for package, label, src, root in targets(crates):
        for modules, evidence in module_circles(src, root):
            lines = "".join(f"\n    {edge}" for edge in evidence)
            problems.append(f"module circle in {package} ({label}): {' <-> '.join(modules)}{lines}")
    return problems


def check_clock(crates: dict[str, dict]) -> list[str]:
    """One clock: each place outside the clock's home that reads the system time itself."""
    places: dict[str, list[str]] = {}
    for _, _, src, root in targets(crates):
        for file, line, what in clock_reads(src, root):
            where = str(file.relative_to(ROOT))
            if where not in CLOCK_HOMES and f"{where}:{line}: {what}" not in places.get(where, []):
                places.setdefault(where, []).append(f"{where}:{line}: {what}")
    return [
        f"the system time read outside the clock (crates/app/src/auth/clock.rs): take the "
        f"clock as a port instead" + "".join(f"\n    {place}" for place in found)
        for found in places.values()
    ]


# The most lines of code (lines holding code, comments and blank lines apart) a production
# function may have.
LONG_FUNCTION_LINES = 80


def long_functions(src: Path, root: str = "lib.rs") -> list[tuple[Path, int, str, int]]:
    """(file, line, name, lines) of each production function of a crate longer than
    `LONG_FUNCTION_LINES`, read as `clock_reads` reads; a function's lines are those that hold
    its code, from `fn` to its closing brace (a function inside it counts in both)."""
    found = []
    crate = Crate(src, root)
    for file in sorted({module.file for module in crate.modules.values()}):
        toks, _ = production_tokens(tokens(file.read_text()))
        for i, (_, text, line) in enumerate(toks):
            if text != "fn" or i + 1 >= len(toks) or toks[i + 1][0] != "ident":
                continue
            j, depth = i + 2, 0
            while j < len(toks) and not (depth == 0 and toks[j][1] in ("{", ";")):
                depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(toks[j][1], 0)
                j += 1
            if j == len(toks) or toks[j][1] == ";":
                continue
            end = item_end(toks, j)
            lines = len({tok[2] for tok in toks[i:end]})
            if lines > LONG_FUNCTION_LINES:
                found.append((file, line, toks[i + 1][1], lines))
    return found


def check_long_functions(crates: dict[str, dict]) -> list[str]:
    """No production function over the limit."""
    return [
        f"{file.relative_to(ROOT)}:{line}: fn {name} has {lines} lines of code, over "
        f"{LONG_FUNCTION_LINES}: split it by meaning"
        for _, _, src, root in targets(crates)
        for file, line, name, lines in long_functions(src, root)
    ]


# The most generic type parameters a domain type or function may have (issue 35, item 4): a
# service over more ports names them once in a trait of associated types (`CheckoutPorts`,
# `AccountPorts`, `DisputePorts`), implemented by the app's wiring and the tests' mocks.
MAX_GENERICS = 4
GENERIC_ITEMS = {"struct", "enum", "union", "trait", "type", "fn"}


def generic_params(toks: list[tuple[str, str, int]], i: int) -> tuple[int, int]:
    """(how many generic type parameters, index after them) of the item whose name is at i:
    the type parameters in its `<…>` (lifetimes and consts apart) and, for a function, each
    `impl Trait` among its parameters (an anonymous type parameter)."""
    count, j = 0, i + 1
    if j < len(toks) and toks[j][1] == "<":
        depth, start = 1, j + 1
        j += 1
        while j < len(toks) and depth:
            depth += {"<": 1, ">": -1}.get(toks[j][1], 0)
            j += 1
        for param in split_top(toks[start : j - 1]):
            if param and param[0][0] != "lifetime" and param[0][1] != "const":
                count += 1
    if toks[i - 1][1] == "fn" and j < len(toks) and toks[j][1] == "(":
        depth, k = 0, j
        while k < len(toks):
            depth += {"(": 1, ")": -1}.get(toks[k][1], 0)
            count += toks[k][1] == "impl"
            k += 1
            if depth == 0:
                break
        j = k
    return count, j


def wide_generics(src: Path, root: str = "lib.rs") -> list[tuple[Path, int, str, int]]:
    """(file, line, `kind name`, parameters) of each production type or function of a crate
    with more than `MAX_GENERICS` generic type parameters, read as `clock_reads` reads."""
    found = []
    crate = Crate(src, root)
    for file in sorted({module.file for module in crate.modules.values()}):
        toks, _ = production_tokens(tokens(file.read_text()))
        for i, (_, text, line) in enumerate(toks[:-1]):
            if text not in GENERIC_ITEMS or toks[i + 1][0] != "ident":
                continue
            count, _ = generic_params(toks, i + 1)
            if count > MAX_GENERICS:
                found.append((file, line, f"{text} {toks[i + 1][1]}", count))
    return found


def check_generics(crates: dict[str, dict]) -> list[str]:
    """No domain type or function over `MAX_GENERICS` generic type parameters."""
    problems = []
    for _, _, src, root in targets(crates):
        if not src.is_relative_to(ROOT / "crates" / "domain"):
            continue
        for file, line, what, count in wide_generics(src, root):
            problems.append(
                f"{file.relative_to(ROOT)}:{line}: {what} has {count} generic type parameters, "
                f"over {MAX_GENERICS}: name its ports once in a trait of associated types"
            )
    return problems


def check_services() -> list[str]:
    """Every `web::Data<T>` of `Services` and its areas (the structs of wiring.rs) is named in
    the document (as `T`, or inside a name such as `Option<T>`)."""
    source = (ROOT / "crates" / "app" / "src" / "wiring.rs").read_text()
    text = DOC.read_text()
    problems = []
    for match in re.finditer(r"pub \w+: web::Data<(.+)>,", source):
        inner = re.sub(r"^Option<(.*)>$", r"\1", match.group(1))
        name = inner.split("::")[-1]
        if not re.search(rf"`[^`]*\b{re.escape(name)}\b[^`]*`", text):
            problems.append(f"a service not listed in docs/architecture.md: {name}")
    return problems


def check_words(doc: str | None = None, crates_dir: Path = ROOT / "crates") -> list[str]:
    """The glossary ("## Words" in the document) names what is there: each file or folder it
    names in backticks exists, and each Rust name (`orders::OrderStep`, `Dispatcher`) is defined
    in the sources (a struct, enum, trait, type, fn, const or module of that name)."""
    text = DOC.read_text() if doc is None else doc
    start = text.find("## Words")
    if start < 0:
        return ["docs/architecture.md has no \"## Words\" section (the glossary)"]
    section = text[start : text.find("\n## ", start + 1)]
    sources = "\n".join(path.read_text() for path in crates_dir.rglob("*.rs"))
    defined = set(
        re.findall(r"\b(?:struct|enum|trait|type|fn|const|mod)\s+([A-Za-z_]\w*)", sources)
    )
    roots = [ROOT / part for part in ("", "crates", "crates/adapters", "crates/domain", "crates/app/src")]
    problems = []
    for token in re.findall(r"`([^`]+)`", section):
        if token.startswith(("GET ", "POST ")):
            continue
        if "/" in token:
            if not any((root / token).exists() for root in roots):
                problems.append(f"docs/architecture.md, Words: no file or folder {token}")
        elif re.fullmatch(r"(\w+::)+\w+|[A-Z]\w*", token) and token.split("::")[-1] not in defined:
            problems.append(f"docs/architecture.md, Words: `{token}` is defined nowhere")
    return problems


# The route files that may name the store itself (`Store`, `store::`): the health checks, which
# are about the database. Every other handler goes through a service.
STORE_READERS = {"health.rs"}


def check_routes_reach_no_store(routes: Path = ROOT / "crates" / "app" / "src" / "routes") -> list[str]:
    """No route file but the health checks names the store (docs/architecture.md, "The path of
    a request")."""
    problems = []
    for file in sorted(routes.glob("*.rs")):
        if file.name in STORE_READERS:
            continue
        code, _ = production_tokens(tokens(file.read_text()))
        for at, (kind, value, line) in enumerate(code):
            path = at + 1 < len(code) and code[at + 1][1] == "::"
            if kind == "ident" and (value == "Store" or (value == "store" and path)):
                problems.append(
                    f"a route reaches the store past a service: crates/app/src/routes/{file.name}:{line}"
                )
                break
    return problems


# ---------------------------------------------------------------------------------------------
# Part 8: the store by area. Each table belongs to one area (the table "The store's areas" in the
# document); each file of the store names the tables of one area at most.

STORE_SRC = ROOT / "crates" / "adapters" / "store" / "src"
MIGRATIONS = ROOT / "migrations" / "src"
# The files that are about the whole database, not an area's rows.
STORE_AREA_EXEMPT = {
    "backup.rs": "copies and restores the whole database",
    "connection.rs": "opens the pool and runs the migrations of every table",
    "operations.rs": "the metrics' counts and the empty-database check look at every area once",
    "testing.rs": "test support (the `testing` feature): writes orders straight in for tests",
}
# SQL names its tables after these words (the store writes its SQL keywords in capitals)
SQL_TABLE = re.compile(r"\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+(\w+)")


def store_areas(doc: str | None = None) -> dict[str, str]:
    """table -> area, from the document's "## The store's areas" (rows `| area | `t1`, `t2` |`)."""
    text = DOC.read_text() if doc is None else doc
    start = text.find("## The store's areas")
    if start < 0:
        return {}
    section = text[start : text.find("\n## ", start + 1)]
    areas = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not re.fullmatch(r"\*{0,2}[\w-]+\*{0,2}", cells[0]):
            continue
        for table in re.findall(r"`(\w+)`", cells[1]):
            areas.setdefault(table, cells[0].strip("*"))
    return areas


def migration_tables(migrations: Path = MIGRATIONS) -> set[str]:
    """The tables the migrations create (`.table(OrderLines::Table)` -> order_lines)."""
    found = set()
    for file in migrations.glob("*.rs"):
        for name in re.findall(r"Table::create\(\)\s*\.table\((\w+)::Table\)", file.read_text()):
            found.add(re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower())
    return found


def tables_named(text: str, tables: set[str]) -> dict[str, int]:
    """The tables a Rust file's production code names, each with its first line: in SQL strings
    (after FROM, JOIN, INTO, UPDATE, TABLE), as a whole string (`"mail_jobs"`), and as sea-orm
    entity paths (`entities::orders`, `entities::{orders, products}`)."""
    toks, _ = production_tokens(tokens(text))
    found: dict[str, int] = {}
    for i, (kind, value, line) in enumerate(toks):
        if kind == "string":
            body = value.removeprefix("b").lstrip("r#").strip('"#')
            names = SQL_TABLE.findall(value) + [body]
            for name in names:
                if name in tables:
                    found.setdefault(name, line)
        elif value == "entities" and i + 2 < len(toks) and toks[i + 1][1] == "::":
            if toks[i + 2][0] == "ident":
                names = [toks[i + 2]]
            else:
                names, depth = [], 0
                for j in range(i + 2, len(toks)):
                    depth += {"{": 1, "}": -1}.get(toks[j][1], 0)
                    if depth == 0:
                        break
                    if depth == 1 and toks[j][0] == "ident" and toks[j - 1][1] in ("{", ","):
                        names.append(toks[j])
            for _, name, at in names:
                if name in tables:
                    found.setdefault(name, at)
    return found


def check_store_areas(
    src: Path = STORE_SRC, doc: str | None = None, migrations: Path = MIGRATIONS
) -> list[str]:
    """Every table of the migrations has one area in the document, and each production file of
    the store names the tables of one area at most (`STORE_AREA_EXEMPT` aside)."""
    areas = store_areas(doc)
    if not areas:
        return ["docs/architecture.md has no \"## The store's areas\" table"]
    problems = [
        f"docs/architecture.md, the store's areas: table {table} has no area"
        for table in sorted(migration_tables(migrations) - set(areas))
    ]
    for file in sorted(src.rglob("*.rs")):
        where = file.relative_to(src).as_posix()
        if where in STORE_AREA_EXEMPT:
            continue
        named = tables_named(file.read_text(), set(areas))
        by_area: dict[str, list[str]] = {}
        for table, line in sorted(named.items(), key=lambda item: item[1]):
            by_area.setdefault(areas[table], []).append(f"{table} (line {line})")
        if len(by_area) > 1:
            listed = "; ".join(f"{area}: {', '.join(names)}" for area, names in sorted(by_area.items()))
            problems.append(
                f"crates/adapters/store/src/{where} names the tables of {len(by_area)} areas ({listed}): "
                "one file per area; call the other area's function with the same transaction, or "
                "take its SQL fragment for a join"
            )
    return problems


def main() -> int:
    meta = metadata()
    crates, edges = workspace_graph(meta)
    problems = check_crate_graph(edges) + check_domain(meta, crates) + check_services()
    problems += check_modules(crates)
    problems += check_routes_reach_no_store()
    problems += check_clock(crates) + check_words() + check_generics(crates)
    problems += check_long_functions(crates) + check_store_areas()
    for problem in problems:
        print(problem)
    print(f"architecture: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
