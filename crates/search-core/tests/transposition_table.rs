//! The packed transposition table against a plain model: whatever it still holds for a key is
//! exactly the last result stored for that key (score, bound, depth clamped to a byte, and the
//! last best move given), in both the one-slot and the two-way layout, across searches. The
//! shared table holds, slot for slot, what the owned one holds, and no thread ever reads an
//! entry torn by another.

use proptest::prelude::*;
use search_core::{Bound, SharedTable, TranspositionTable, Transpositions};
use std::collections::HashMap;

#[derive(Debug, Clone)]
enum Op {
    Store {
        key: u64,
        depth: i16,
        score: i32,
        bound: u8,
        mv: Option<u8>,
    },
    NewSearch,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (0u64..24, -3i16..300, -64i32..=64, 0u8..3, proptest::option::of(0u8..64))
            .prop_map(|(key, depth, score, bound, mv)| Op::Store { key, depth, score, bound, mv }),
        1 => Just(Op::NewSearch),
    ]
}

proptest! {
    #[test]
    fn holds_only_the_last_result_of_each_key(ops in proptest::collection::vec(op(), 1..200), two_way: bool) {
        let mut tt: TranspositionTable<u8> = TranspositionTable::with_entries(8);
        tt.set_two_way(two_way);
        // Per key: (score, bound, depth as stored, the last move given, whether the last store
        // gave one).
        let mut last: HashMap<u64, (i32, Bound, i16, Option<u8>, bool)> = HashMap::new();
        for op in ops {
            match op {
                Op::NewSearch => tt.new_search(),
                Op::Store { key, depth, score, bound, mv } => {
                    let bound = [Bound::Exact, Bound::Lower, Bound::Upper][bound as usize];
                    tt.store(key, depth, 0, score, bound, mv);
                    let kept_mv = mv.or_else(|| last.get(&key).and_then(|l| l.3));
                    last.insert(key, (score, bound, depth.min(127), kept_mv, mv.is_some()));
                }
            }
            for (&key, &(score, bound, depth, mv, given)) in &last {
                if let Some(e) = tt.probe(key, 0) {
                    prop_assert_eq!((e.key, e.score, e.bound, e.depth), (key, score, bound, depth));
                    // A store without a move keeps the slot's move only while the slot still
                    // held the key; otherwise the move is lost, never another key's.
                    prop_assert!(e.mv == mv || e.mv.is_none() && !given);
                }
            }
        }
    }
}

proptest! {
    #[test]
    fn the_shared_table_keeps_what_the_owned_one_keeps(ops in proptest::collection::vec(op(), 1..300), two_way: bool, ply in 0u32..4) {
        let mut owned: TranspositionTable<u8> = TranspositionTable::with_entries(8);
        let mut shared: SharedTable<u8> = SharedTable::with_entries(8);
        owned.set_two_way(two_way);
        shared.set_two_way(two_way);
        for op in ops {
            match op {
                Op::NewSearch => {
                    owned.new_search();
                    Transpositions::new_search(&mut shared);
                }
                Op::Store { key, depth, score, bound, mv } => {
                    let bound = [Bound::Exact, Bound::Lower, Bound::Upper][bound as usize];
                    let score = if score > 60 { search_core::WIN - score } else { score };
                    owned.store(key, depth, ply, score, bound, mv);
                    shared.store(key, depth, ply, score, bound, mv);
                }
            }
            for key in 0..24 {
                prop_assert_eq!(owned.probe(key, ply), shared.probe(key, ply), "key {}", key);
            }
        }
    }
}

/// Two threads store, over and over, entries whose score, depth and move are all functions of
/// the key into a table of a few slots, while probing: every entry read belongs to its key.
#[test]
fn no_thread_reads_an_entry_torn_by_another() {
    let table: SharedTable<u16> = SharedTable::with_entries(4);
    let entry_of = |key: u64| (key as i32 * 7 - 3000, (key % 100) as i16, (key * 13) as u16);
    std::thread::scope(|scope| {
        for t in 0..2u64 {
            let table = table.share();
            scope.spawn(move || {
                for i in 0..400_000u64 {
                    let key = (i * 2 + t) % 997 + 1;
                    let (score, depth, mv) = entry_of(key);
                    table.store(key, depth, 0, score, Bound::Exact, Some(mv));
                    let probed = (i * 3 + t) % 997 + 1;
                    if let Some(e) = table.probe(probed, 0) {
                        let (score, depth, mv) = entry_of(probed);
                        assert_eq!(
                            (e.key, e.score, e.depth, e.mv),
                            (probed, score, depth, Some(mv))
                        );
                    }
                }
            });
        }
    });
}

#[test]
fn a_mebibyte_holds_65536_slots_of_sixteen_bytes() {
    // A move of up to two bytes packs a slot into 16 bytes, two to an aligned half cache line.
    assert_eq!(
        TranspositionTable::<u8>::with_megabytes(1).capacity(),
        1 << 16
    );
    assert_eq!(
        TranspositionTable::<[u8; 2]>::with_megabytes(1).capacity(),
        1 << 16
    );
}
