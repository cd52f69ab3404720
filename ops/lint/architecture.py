#!/usr/bin/env python3
"""What docs/architecture.md claims about the code, checked (`just lint` runs it):

1. the crate graph drawn in its mermaid diagram is the workspace's, as `cargo metadata` reads it
   (every edge drawn exists, every dependency between our crates is drawn);
2. no domain crate (crates/domain/*) depends, directly or through another crate, on actix,
   sea-orm, reqwest or any adapter crate (crates/adapters/*) or the app;
3. no crate has a module circle: the "uses" edges between its modules, as cargo-modules draws
   them (`cargo modules dependencies --no-fns --no-types --no-traits`), form no cycle;
4. every service an instance hands its handlers (each `web::Data<…>` field of `Services` in
   crates/app/src/wiring.rs) is named in it.

Prints each finding and exits 1 when there is one. Python 3.11 standard library only; part 3
needs cargo-modules (`.ci/run` installs it).
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


def module_edges(package: str, target: list[str]) -> set[tuple[str, str]]:
    out = subprocess.run(
        ["cargo", "modules", "dependencies", "--package", package, *target,
         "--no-fns", "--no-types", "--no-traits", "--no-externs", "--no-sysroot", "--no-owns"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    edges = set()
    for match in re.finditer(r'"([^"]+)"\s*->\s*"([^"]+)"\s*\[label="uses"', out):
        a, b = match.group(1), match.group(2)
        if a != b:
            edges.add((a, b))
    return edges


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


def check_modules(crates: dict[str, dict]) -> list[str]:
    problems = []
    for name, package in sorted(crates.items()):
        kinds = {kind for t in package["targets"] for kind in t["kind"]}
        targets = []
        if "lib" in kinds or "proc-macro" in kinds:
            targets.append(["--lib"])
        for t in package["targets"]:
            if "bin" in t["kind"]:
                targets.append(["--bin", t["name"]])
        for target in targets:
            for part in circles(module_edges(package["name"], target)):
                problems.append(f"module circle in {package['name']} ({' '.join(target)}): {' <-> '.join(part)}")
    return problems


def check_services() -> list[str]:
    """Every `web::Data<T>` of `Services` is named in the document (as `T`, or inside a name
    such as `Option<T>`)."""
    source = (ROOT / "crates" / "app" / "src" / "wiring.rs").read_text()
    start = source.index("pub struct Services {")
    struct = source[start : source.index("\n}\n", start)]
    text = DOC.read_text()
    problems = []
    for match in re.finditer(r"pub \w+: web::Data<(.+)>,", struct):
        inner = re.sub(r"^Option<(.*)>$", r"\1", match.group(1))
        name = inner.split("::")[-1]
        if not re.search(rf"`[^`]*\b{re.escape(name)}\b[^`]*`", text):
            problems.append(f"a service not listed in docs/architecture.md: {name}")
    return problems


def main() -> int:
    meta = metadata()
    crates, edges = workspace_graph(meta)
    problems = check_crate_graph(edges) + check_domain(meta, crates) + check_services()
    if "--no-modules" not in sys.argv:
        problems += check_modules(crates)
    for problem in problems:
        print(problem)
    print(f"architecture: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
