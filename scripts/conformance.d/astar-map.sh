# astar-map: course inputs against expected_steps.tsv, every produced path validated by
# `check`, the constructed edge cases, and the known defects of the saved student outputs.
# Sourced by scripts/conformance.sh (variables: data, bin, tmp; function: check).
am="$data/astar"
if [ -d "$am" ]; then
    "$bin/astar-map" run "$am/input" -o "$tmp/astar" --quiet
    while IFS=$'\t' read -r name _m _n _t steps _src; do
        case "$name" in "#"*|"") continue ;; esac
        got=$(head -n 1 "$tmp/astar/output_${name#input_}.txt" 2>/dev/null)
        [ "$got" = "$steps" ]; check "astar-map $name steps" $? "(expected $steps, got ${got:-nothing})"
        verdict=$("$bin/astar-map" check "$am/input/$name.txt" "$tmp/astar/output_${name#input_}.txt")
        check "astar-map $name check" $? "($verdict)"
    done < "$am/expected_steps.tsv"
    for map in "$am"/constructed/*.txt; do
        base=$(basename "$map")
        case "$base" in expected_*) continue ;; esac
        "$bin/astar-map" run "$map" -o "$tmp/astar-c" --quiet
        out="$tmp/astar-c/output_${base}"
        exp="$am/constructed/expected_$base"
        [ "$(head -n 1 "$out")" = "$(head -n 1 "$exp")" ] && "$bin/astar-map" check "$map" "$out" >/dev/null
        check "astar-map constructed/$base" $? "(expected $(head -n 1 "$exp"), got $(head -n 1 "$out"))"
        "$bin/astar-map" check "$map" "$exp" >/dev/null
        check "astar-map check accepts expected_$base" $? ""
    done
    # The saved student outputs: the checker must accept the clean set and reject the known bugs.
    # PRO-2684 has no output_0; every other file must pass.
    bad=$("$bin/astar-map" check "$am/input" "$am/reference_outputs/PRO-2684_011119-Labs" 2>&1 | grep -c FAIL)
    [ "$bad" = 1 ]; check "astar-map check accepts PRO-2684 outputs 1..10" $? "(failures: $bad, the missing output_0 only)"
    "$bin/astar-map" check "$am/input/input_6.txt" "$am/reference_outputs/zrkqjz_ustc_ai_fundamental/output_6.txt" >/dev/null
    [ $? = 1 ]; check "astar-map check rejects zrkqjz output_6 (food -1 at the station)" $? ""
    "$bin/astar-map" check "$am/input/input_8.txt" "$am/reference_outputs/Melmaphother_USTC-2024-AI-Fundamentals/output_8.txt" >/dev/null
    [ $? = 1 ]; check "astar-map check rejects Melmaphother output_8 (-1, true 29)" $? ""
    unset bad
fi
