//! Perft against the published counts (chessprogramming.org "Chinese Chess Perft Results").
//! Depths are capped to keep the test run short; `scripts/conformance.sh` goes deeper.

use xiangqi_endgame::{perft::perft, Position};

const POSITIONS: &[(&str, &[u64])] = &[
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        &[44, 1920, 79_666, 3_290_240],
    ),
    (
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        &[38, 1128, 43_929, 1_339_047],
    ),
    (
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        &[7, 281, 8620, 326_201],
    ),
    (
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        &[25, 424, 9850, 202_884, 4_739_553],
    ),
    (
        "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
        &[28, 516, 14_808, 395_483],
    ),
    (
        "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
        &[21, 364, 7626, 162_837, 3_500_505],
    ),
];

#[test]
fn published_perft_counts() {
    for (fen, counts) in POSITIONS {
        let mut p: Position = fen.parse().unwrap();
        for (d, &expected) in counts.iter().enumerate() {
            assert_eq!(
                perft(&mut p, d as u32 + 1),
                expected,
                "{fen} depth {}",
                d + 1
            );
        }
        assert_eq!(p.to_string(), *fen, "make/unmake restored the position");
    }
}

#[test]
fn hash_is_restored_and_matches_a_fresh_parse() {
    let fen = POSITIONS[1].0;
    let mut p: Position = fen.parse().unwrap();
    let h0 = p.hash();
    let mut moves = Vec::new();
    xiangqi_endgame::movegen::legal_moves(&p, &mut moves);
    for m in moves {
        p.make(m);
        let fresh: Position = p.to_string().parse().unwrap();
        assert_eq!(p.hash(), fresh.hash(), "incremental hash after {m}");
        p.unmake();
        assert_eq!(p.hash(), h0);
    }
}

/// The piece counts and crossed pawns the evaluation reads, counted from the board square by
/// square (the slow, obvious way).
fn census_by_scan(p: &Position) -> Vec<u32> {
    use xiangqi_endgame::{Color, Kind, Square};
    let mut out = Vec::new();
    for color in [Color::Red, Color::Black] {
        for kind in Kind::ALL {
            out.push(
                (0..90u8)
                    .filter(|&i| {
                        p.at(Square(i))
                            .is_some_and(|x| x.color == color && x.kind == kind)
                    })
                    .count() as u32,
            );
        }
        let crossed = (0..90u8)
            .map(Square)
            .filter(|&s| {
                p.at(s)
                    .is_some_and(|x| x.color == color && x.kind == Kind::Pawn)
                    && !xiangqi_endgame::movegen::own_side(color, s)
            })
            .count();
        out.push(crossed as u32);
    }
    out
}

fn census(p: &Position) -> Vec<u32> {
    use xiangqi_endgame::{Color, Kind};
    let mut out = Vec::new();
    for color in [Color::Red, Color::Black] {
        out.extend(Kind::ALL.map(|k| p.count_of(color, k)));
        out.push(p.crossed_pawns(color));
    }
    out
}

#[test]
fn piece_census_follows_make_and_unmake_along_random_games() {
    use rand::{Rng, SeedableRng};
    let mut rng = search_core::SmallRng::seed_from_u64(11);
    let mut moves = Vec::new();
    for game in 0..40 {
        let mut p: Position = POSITIONS[game % POSITIONS.len()].0.parse().unwrap();
        let start = census(&p);
        assert_eq!(start, census_by_scan(&p));
        let mut played = 0;
        for _ in 0..120 {
            moves.clear();
            xiangqi_endgame::movegen::legal_moves(&p, &mut moves);
            if moves.is_empty() {
                break;
            }
            p.make(moves[rng.random_range(0..moves.len())]);
            played += 1;
            assert_eq!(census(&p), census_by_scan(&p), "{p}");
        }
        for _ in 0..played {
            p.unmake();
        }
        assert_eq!(census(&p), start);
    }
}

/// The obvious answer to [`movegen::lands_attacked`](xiangqi_endgame::movegen::lands_attacked):
/// make the move and look for a pseudo-legal reply that captures on its square.
fn lands_attacked_by_replies(p: &Position, mv: xiangqi_endgame::Move) -> bool {
    let mut after = p.clone();
    after.make(mv);
    let mut replies = Vec::new();
    xiangqi_endgame::movegen::pseudo_legal(&after, &mut replies);
    replies.iter().any(|r| r.to == mv.to)
}

#[test]
fn lands_attacked_agrees_with_the_replies_along_random_games() {
    use rand::{Rng, SeedableRng};
    let mut rng = search_core::SmallRng::seed_from_u64(12);
    let mut moves = Vec::new();
    let (mut checked, mut attacked) = (0, 0);
    for game in 0..40 {
        let mut p: Position = POSITIONS[game % POSITIONS.len()].0.parse().unwrap();
        for _ in 0..120 {
            moves.clear();
            xiangqi_endgame::movegen::legal_moves(&p, &mut moves);
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let fast = xiangqi_endgame::movegen::lands_attacked(&p, mv);
                assert_eq!(fast, lands_attacked_by_replies(&p, mv), "{p} {mv}");
                checked += 1;
                attacked += fast as u32;
            }
            p.make(moves[rng.random_range(0..moves.len())]);
        }
    }
    // Both answers occur often enough for the comparison to mean something.
    assert!(checked > 50_000 && attacked > 5_000, "{checked} {attacked}");
}
