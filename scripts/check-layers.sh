#!/usr/bin/env bash
# Checks that each crate stands in floors, from the code's own imports (outside comments and
# `#[cfg(test)]` code):
# - no circle: no files that import each other in a loop (`crate::a::b` paths and `super::`);
# - no import through the crate root's re-exports: inside a crate, `crate::NAME` must name a
#   module (`crate::rules::position::Position`), never an item that lib.rs re-exports for
#   users (`crate::Position`);
# - no import upward between folders: lib.rs may declare its floors, lowest first, in a line
#   `// Floors: rules < formats < eval, search < interfaces` (modules on one floor separated
#   by commas; top-level files it does not name stand on the ground floor, below them all),
#   and a module then never imports from a module on a higher floor.
# Prints each offence with the file and the import. `--self-test` plants one offence of each
# kind in a scratch crate and checks that each is caught.
#   scripts/check-layers.sh [CRATES_DIR | --self-test]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ "${1:-}" = --self-test ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    src="$tmp/planted/src"
    mkdir -p "$src/rules" "$src/search"
    printf '// Floors: rules < search\npub mod state;\npub mod rules;\npub mod search;\npub use state::State;\n' >"$src/lib.rs"
    printf '//! crate::search is named in a comment only\npub struct State;\n' >"$src/state.rs"
    printf 'pub mod board;\n' >"$src/rules/mod.rs"
    printf 'use crate::state::State;\npub type Board = State;\npub const ORDER: u8 = 0;\npub fn rule(_: &State, _: u8) {}\n' >"$src/rules/board.rs"
    printf 'pub mod tree;\n' >"$src/search/mod.rs"
    printf 'use crate::rules::{board::rule, board::ORDER};\npub fn search(b: &crate::rules::board::Board) { rule(b, ORDER) }\n#[cfg(test)]\nmod tests { use crate::State; }\n' >"$src/search/tree.rs"
    "$0" "$tmp" >/dev/null || { echo "self-test: a crate in floors was refused" >&2; exit 1; }
    expect() { # what a planted change must be refused for
        if out=$("$0" "$tmp" 2>&1); then
            echo "self-test: $1 was not found" >&2
            exit 1
        fi
        grep -q "$2" <<<"$out" || { echo "self-test: $1 not named in: $out" >&2; exit 1; }
    }
    # A circle: the state reaches up into the search, which reaches it through the rules.
    printf 'pub struct State;\npub fn peek() { crate::search::tree::search(&State) }\n' >"$src/state.rs"
    expect "the planted circle state -> search -> rules -> state" "circle"
    printf 'pub struct State;\n' >"$src/state.rs"
    # An import through lib.rs's re-export.
    printf 'use crate::State;\npub type Board = State;\npub const ORDER: u8 = 0;\npub fn rule(_: &State, _: u8) {}\n' >"$src/rules/board.rs"
    expect "the planted import through a re-export (crate::State)" "crate::State"
    printf 'use crate::state::State;\npub type Board = State;\npub const ORDER: u8 = 0;\npub fn rule(_: &State, _: u8) {}\n' >"$src/rules/board.rs"
    # An import upward: the rules (floor 1) use the search (floor 2), no circle.
    printf 'pub mod board;\npub fn deep() -> u8 { crate::search::tree::LIMIT }\n' >"$src/rules/mod.rs"
    printf 'pub const LIMIT: u8 = 3;\n' >>"$src/search/tree.rs"
    expect "the planted import upward (rules -> search)" "upward"
    echo "layers: the self-test's planted circle, re-export import and upward import are found"
    exit 0
fi
crates="${1:-$here/../crates}"
python3 - "$crates" <<'EOF'
import os, re, sys

crates = sys.argv[1]
status = 0


def code_of(text):
    """The text without comments and without `#[cfg(test)]` code (tests may import freely)."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"#\[cfg\(test\)\].*", "", text, flags=re.S)


def module_file(src, parts):
    """The file of module `parts` (a list of names) under src, or None."""
    base = os.path.join(src, *parts)
    for f in (base + ".rs", os.path.join(base, "mod.rs")):
        if os.path.isfile(f):
            return f
    return None


def resolve(src, parts):
    """The deepest module file that `parts` (a crate path) names, and how many parts it took."""
    found, used = None, 0
    for n in range(1, len(parts) + 1):
        f = module_file(src, parts[:n])
        if f is None:
            break
        found, used = f, n
    return found, used


def module_parts(src, f):
    rel = os.path.relpath(f, src)[:-3].split(os.sep)
    return rel[:-1] if rel[-1] == "mod" else rel


def paths_in(code):
    """Every `crate::…` path of the code, groups `crate::{a::b, c}` expanded."""
    out = []
    for m in re.finditer(r"crate::\{([^}]*)\}", code):
        for item in m.group(1).split(","):
            item = item.strip()
            if item:
                out.append(["crate"] + [p for p in item.split("::") if p and p != "{"])
    code = re.sub(r"crate::\{[^}]*\}", "", code)
    for m in re.finditer(r"crate((?:::\w+)+)", code):
        out.append(["crate"] + m.group(1).split("::")[1:])
    return out


for crate in sorted(os.listdir(crates)):
    src = os.path.join(crates, crate, "src")
    lib = os.path.join(src, "lib.rs")
    if not os.path.isfile(lib):
        continue
    lib_text = open(lib, encoding="utf-8").read()
    lib_code = re.sub(r"//[^\n]*", "", lib_text)
    top_modules = set(re.findall(r"^\s*(?:pub(?:\([\w:]+\))?\s+)?mod\s+(\w+)", lib_code, re.M))
    floors = {}
    m = re.search(r"^// Floors:(.*)$", lib_text, re.M)
    if m:
        for rank, group in enumerate(m.group(1).split("<"), start=1):
            for name in re.findall(r"\w+", group):
                floors[name] = rank
    files = []
    for root, _, names in os.walk(src):
        files += [os.path.join(root, n) for n in names if n.endswith(".rs")]
    edges = {}
    for f in sorted(files):
        rel = os.path.relpath(f, src)
        if rel in ("lib.rs", "main.rs"):
            continue
        code = code_of(open(f, encoding="utf-8").read())
        me = module_parts(src, f)
        targets = set()
        for path in paths_in(code):
            parts = path[1:]
            if parts and parts[0] not in top_modules:
                print(f"{crate}: {rel}: imports through the crate root's re-exports: crate::{'::'.join(parts)} (name the module that defines it)")
                status = 1
                continue
            target, _ = resolve(src, parts)
            if target and target != f:
                targets.add(target)
        for m in re.finditer(r"\bsuper((?:::super)*)::(\w+)", code):
            ups = 1 + m.group(1).count("::super")
            parent = me[: len(me) - ups]
            target = module_file(src, parent + [m.group(2)]) or (module_file(src, parent) if parent else None)
            if target and target != f:
                targets.add(target)
        edges[f] = targets
        if floors:
            mine = floors.get(me[0], 0)
            for t in sorted(targets):
                theirs = floors.get(module_parts(src, t)[0], 0)
                if theirs > mine:
                    print(f"{crate}: {rel} imports upward from {os.path.relpath(t, src)} (floor {mine} -> {theirs})")
                    status = 1
    # Circles: strongly connected components of more than one file.
    index, low, stack, on, counter, sccs = {}, {}, [], set(), [0], []

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    for comp in sccs:
        print(f"{crate}: files that import each other in a circle:")
        for v in sorted(comp):
            print("  " + os.path.relpath(v, src))
        status = 1
if status == 0:
    print("layers: no circle, no import through re-exports, no import upward, in any crate")
sys.exit(status)
EOF
