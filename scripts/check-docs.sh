#!/usr/bin/env bash
# Keeps the README a front page and the docs linked: fails when README.md is over 12,000 bytes
# or its results table has more than 15 rows, and when a relative link of README.md or docs/
# points to a file that does not exist or to a heading (#anchor) the file does not have
# (GitHub's anchors: the heading lower-cased, punctuation dropped, spaces as hyphens).
# `--self-test` plants a broken link and an oversize README and checks that both are found.
#   scripts/check-docs.sh [ROOT | --self-test]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ "${1:-}" = --self-test ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    mkdir -p "$tmp/docs"
    printf '# T\n\n## Measured results\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nSee [the page](docs/p.md#usage).\n' >"$tmp/README.md"
    printf '# P\n\n## Usage\n\nBack to [the front](../README.md).\n' >"$tmp/docs/p.md"
    "$0" "$tmp" >/dev/null || { echo "self-test: good docs were refused" >&2; exit 1; }
    printf '# P\n\n## How to use\n' >"$tmp/docs/p.md"
    if "$0" "$tmp" >/dev/null 2>&1; then echo "self-test: a link to a missing heading passed" >&2; exit 1; fi
    printf '# P\n\n## Usage\n' >"$tmp/docs/p.md"
    head -c 12001 /dev/zero | tr '\0' 'x' >>"$tmp/README.md"
    if "$0" "$tmp" >/dev/null 2>&1; then echo "self-test: an oversize README passed" >&2; exit 1; fi
    echo "docs: the self-test's broken link and oversize README are found"
    exit 0
fi
root="${1:-$here/..}"
python3 - "$root" <<'EOF'
import os, re, sys

root = sys.argv[1]
status = 0
readme = os.path.join(root, "README.md")
size = os.path.getsize(readme)
if size > 12000:
    print(f"README.md is {size} bytes, over 12,000: move detail to docs/ (results to docs/results.md)")
    status = 1
text = open(readme, encoding="utf-8").read()
m = re.search(r"(?ms)^## Measured results\n(.*?)(?=^## |\Z)", text)
if m:
    rows = [l for l in m.group(1).splitlines() if l.startswith("|")][2:]
    if len(rows) > 15:
        print(f"README.md's results table has {len(rows)} rows, over 15: keep the headline rows, the rest in docs/results.md")
        status = 1


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    out = set()
    counts = {}
    in_code = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        h = re.match(r"^#{1,6}\s+(.*)$", line)
        if h:
            s = slug(h.group(1))
            n = counts.get(s, 0)
            counts[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    return out


pages = [readme]
for d, _, names in os.walk(os.path.join(root, "docs")):
    pages += [os.path.join(d, n) for n in names if n.endswith(".md")]
for page in pages:
    body = open(page, encoding="utf-8").read()
    body = re.sub(r"(?ms)^```.*?^```", "", body)
    for target in re.findall(r"\]\(([^)\s]+)\)", body):
        if re.match(r"^[a-z]+:", target) or target.startswith("#") and False:
            continue
        path, _, anchor = target.partition("#")
        dest = page if path == "" else os.path.normpath(os.path.join(os.path.dirname(page), path))
        rel = os.path.relpath(page, root)
        if not os.path.exists(dest):
            print(f"{rel}: link to {target}: no such file")
            status = 1
            continue
        if anchor and dest.endswith(".md") and anchor not in anchors(dest):
            print(f"{rel}: link to {target}: {os.path.relpath(dest, root)} has no heading #{anchor}")
            status = 1
if status == 0:
    print(f"docs: README.md {size} bytes, every relative link of README.md and docs/ resolves")
sys.exit(status)
EOF
