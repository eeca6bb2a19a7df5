# connect4: the 7x6 solver against Pascal Pons' five test sets (1000 positions each), with
# mean time and positions explored per set (his published figures are in the spec).
# Sourced by scripts/conformance.sh (variables: data, bin, tmp; function: check).
cd4="$data/connect4"
if [ -d "$cd4" ]; then
    for set in Test_L3_R1 Test_L2_R1 Test_L2_R2 Test_L1_R1 Test_L1_R2; do
        [ -f "$cd4/$set" ] || continue
        summary=$(timeout 900 "$bin/connect4" solve "$cd4/$set" --check 2>"$tmp/c4.err" | tail -n 1)
        [ "$summary" = "1000 passed, 0 failed" ]
        check "connect4 solve $set" $? "($summary; $(cut -d: -f2- "$tmp/c4.err"))"
    done
fi
