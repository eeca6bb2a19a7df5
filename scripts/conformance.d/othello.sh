# othello: perft from the start against perft.tsv (depths up to 11), and the exact scores of
# every FFO position in ffo-index.tsv. #1..#48 (14..26 empties, about 150 s in all) must be
# solved within OTHELLO_FFO_CAP seconds each (default 120). #49..#59 (26..34 empties) take the
# solver from a fraction of a second (#59) to hours, so each gets OTHELLO_FFO_LONG_CAP seconds
# (default 2, to keep CI short; set it to a few thousand for the full run): a wrong score fails,
# a position not finished in time is listed as skipped (issue #5).
# Sourced by scripts/conformance.sh (variables: data, bin, tmp; function: check).
od="$data/othello"
if [ -d "$od" ]; then
    ob="$bin/othello"
    while IFS=$'\t' read -r depth leaves _rest; do
        case "$depth" in depth|"") continue ;; esac
        [ "$depth" -le 11 ] || continue
        got=$("$ob" perft "$depth" 2>"$tmp/oth.err" | sed -n 's/^perft [0-9]*: //p')
        [ "$got" = "$leaves" ]; check "othello perft $depth" $? "(expected $leaves, got ${got:-nothing}; $(cat "$tmp/oth.err"))"
    done < "$od/perft.tsv"
    while IFS=$'\t' read -r id _src empties side score _moves _n board; do
        case "$id" in ffo_id|"") continue ;; esac
        cap=${OTHELLO_FFO_CAP:-120}
        [ "$id" -ge 49 ] && cap=${OTHELLO_FFO_LONG_CAP:-2}
        out=$(timeout "$cap" "$ob" solve -- "$board $side" 2>/dev/null)
        got=$(echo "$out" | sed -n 's/.* score \([-+0-9]*\).*/\1/p')
        if [ -z "$got" ] && [ "$id" -ge 49 ]; then
            echo "SKIP othello FFO #$id ($empties empties): not solved within the ${cap} s cap (OTHELLO_FFO_LONG_CAP)"
            continue
        fi
        [ "$((got))" = "$score" ]; check "othello FFO #$id ($empties empties)" $? "(expected $score, got ${got:-timeout})"
    done < "$od/ffo-index.tsv"
fi
if [ -d "$od" ]; then
    for g in 1 2; do
        summary=$("$ob" vectors "$od/nju-heuristic-vectors-game$g.tsv" | tail -n 1)
        case "$summary" in *" 0 failed") ok=0 ;; *) ok=1 ;; esac
        check "othello course heuristic along game $g" $ok "($summary)"
    done
fi
if [ -d "$od" ]; then
    summary=$("$ob" nodecounts "$od/nju-search-nodecounts.tsv" | tail -n 1)
    case "$summary" in *" 0 failed") ok=0 ;; *) ok=1 ;; esac
    check "othello course minimax/alpha-beta values and leaf counts" $ok "($summary)"
fi
