#!/usr/bin/env bash
# Fails when the modules of a crate import each other in a circle. Each crate is meant to stand
# in floors (the state at the bottom, the rules above it, the searches above those, the
# interfaces on top), so its import graph must have no loop. A module is a file `src/NAME.rs`
# or a folder `src/NAME/`; it depends on every module it names as `crate::NAME` (directly, in
# a `crate::{…}` group, or through an item `lib.rs` re-exports from it), outside comments and
# `#[cfg(test)]` code. Prints each circle found. `--self-test` checks that a planted circle
# (through a re-exported item and a grouped import) is caught.
#   scripts/check-layers.sh [CRATES_DIR | --self-test]
set -euo pipefail
if [ "${1:-}" = --self-test ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    mkdir -p "$tmp/planted/src"
    printf 'pub mod state;\npub mod rules;\npub mod search;\npub use state::State;\n' >"$tmp/planted/src/lib.rs"
    printf '// crate::search is named in a comment only\npub struct State;\n' >"$tmp/planted/src/state.rs"
    printf 'use crate::State;\npub type Board = State;\npub const ORDER: u8 = 0;\npub fn rule(_: &State, _: u8) {}\n' >"$tmp/planted/src/rules.rs"
    printf 'use crate::{rules::rule, rules::ORDER};\npub fn search(b: &crate::rules::Board) { rule(b, ORDER) }\n' >"$tmp/planted/src/search.rs"
    "$0" "$tmp" >/dev/null || { echo "self-test: a crate without a circle was refused" >&2; exit 1; }
    printf 'pub struct State;\npub fn peek() { crate::search::search(&State) }\n' >"$tmp/planted/src/state.rs"
    if out=$("$0" "$tmp" 2>&1); then
        echo "self-test: the planted circle state -> search -> rules -> state was not found" >&2
        exit 1
    fi
    for m in state rules search; do
        grep -qx "  $m" <<<"$out" || { echo "self-test: $m is not named in: $out" >&2; exit 1; }
    done
    echo "layers: the self-test's planted circle is found"
    exit 0
fi
crates="${1:-$(dirname "$0")/../crates}"
status=0
for src in "$crates"/*/src; do
    crate=$(basename "$(dirname "$src")")
    edges=$(perl -e '
        use strict; use warnings;
        my $src = shift;
        sub slurp { local $/; open my $f, "<", $_[0] or die "$_[0]: $!"; my $t = <$f>; $t }
        # Items lib.rs re-exports, by the module they come from.
        my %home;
        my $lib = slurp("$src/lib.rs");
        while ($lib =~ /pub use (\w+)::\{([^}]*)\}/g) {
            my $m = $1;
            for (split /,/, $2) { my @w = /(\w+)/g; $home{$w[-1]} = $m if @w; }
        }
        $home{$2} = $1 while $lib =~ /pub use (\w+)::(\w+);/g;
        my %deps;
        my @files = split /\n/, `find "$src" -name "*.rs"`;
        for my $file (@files) {
            (my $rel = $file) =~ s{^\Q$src\E/}{};
            my ($top) = $rel =~ m{^(\w+)};
            next if $top eq "lib" || $top eq "main";
            my $text = slurp($file);
            $text =~ s{//[^\n]*}{}g;
            $text =~ s/#\[cfg\(test\)\].*//s;
            my %names;
            $names{$1} = 1 while $text =~ /crate::(\w+)/g;
            while ($text =~ /crate::\{([^}]*)\}/g) {
                $names{$1} = 1 for $1 =~ /(?:^|[,{\s])(\w+)/g;
            }
            for my $n (keys %names) {
                my $m = $home{$n} // $n;
                $deps{$top}{$m} = 1 if $m ne $top;
            }
            $deps{$top} //= {};
        }
        for my $m (sort keys %deps) {
            print "$m $m\n";
            for my $d (sort keys %{ $deps{$m} }) {
                print "$d $m\n" if exists $deps{$d};
            }
        }
    ' "$src")
    if ! out=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null); then
        echo "$crate: modules that import each other in a circle:" >&2
        printf '%s\n' "$out" | sed -n 's/^tsort: //p' | grep -v "input contains a loop" | sed 's/^/  /' >&2
        status=1
    fi
done
[ "$status" = 0 ] && echo "layers: no import circle in any crate"
exit "$status"
