//! The engine against slow, obvious search: on hand-made endgames and on random sparse
//! positions, whatever forced mate in one or two moves plain minimax (legal moves, no pruning,
//! no table, no extensions; 2k plies, since it sees "no legal move" only one ply after the
//! mating move) proves, the engine finds with the same length, and every short mate the engine
//! claims is confirmed by minimax.

use proptest::prelude::*;
use search_core::{mate_distance, minimax};
use xiangqi_endgame::engine::{decide, find_mate, MateSearch, Rules, SearchConfig, SearchPosition};
use xiangqi_endgame::eval::EvalKind;
use xiangqi_endgame::{Color, Kind, Piece, Position, Square};

fn brute_force_mate(pos: &Position, depth: u32) -> Option<u32> {
    let mut g = SearchPosition::new(pos.clone(), Rules::Legal, EvalKind::Course);
    let r = minimax(&mut g, depth);
    mate_distance(r.score)
        .filter(|_| r.score > 0)
        .map(|p| p.div_ceil(2))
}

#[test]
fn hand_made_mates_in_one() {
    // Each is checked by plain minimax too; several are "stalemates", which lose in xiangqi.
    for fen in [
        "4k4/R8/9/9/9/9/9/9/9/1R1K5 w",
        "3k5/9/9/9/9/9/9/9/4R4/4K4 w",
        "4k4/9/4P4/9/9/9/9/9/9/3RK4 w",
        "5k3/9/9/9/9/9/9/9/3R5/3RK4 w",
        "4ka3/4a4/9/9/9/9/9/2N6/9/3K1R3 w",
    ] {
        let pos: Position = fen.parse().unwrap();
        let d = decide(&pos, &SearchConfig::default(), |_| {});
        assert_eq!(d.mate_in, Some(1), "{fen}");
        assert_eq!(brute_force_mate(&pos, 2), Some(1), "{fen}");
        // The move the engine picks really ends the game: black has no legal move after it.
        let mut after = pos.clone();
        after.make(d.mv.unwrap());
        let mut replies = Vec::new();
        xiangqi_endgame::movegen::legal_moves(&after, &mut replies);
        assert!(
            replies.is_empty(),
            "{fen}: {} leaves black {} moves",
            d.mv.unwrap(),
            replies.len()
        );
    }
}

/// A random sparse endgame: both kings in their palaces, 1..=2 red attackers and 0..=2 black
/// defenders, red to move, black not in check.
fn random_position() -> impl Strategy<Value = Option<Position>> {
    let red_kinds = prop::collection::vec(
        (
            prop::sample::select(vec![Kind::Chariot, Kind::Horse, Kind::Cannon, Kind::Pawn]),
            0usize..90,
        ),
        1..=2,
    );
    let black_kinds = prop::collection::vec(
        (
            prop::sample::select(vec![Kind::Advisor, Kind::Elephant, Kind::Pawn, Kind::Horse]),
            0usize..90,
        ),
        0..=2,
    );
    (0usize..9, 0usize..9, red_kinds, black_kinds).prop_map(|(rk, bk, reds, blacks)| {
        let mut pos = Position::empty(Color::Red);
        pos.set(
            Square::new(7 + rk / 3, 3 + rk % 3),
            Some(Piece::new(Color::Red, Kind::King)),
        );
        pos.set(
            Square::new(bk / 3, 3 + bk % 3),
            Some(Piece::new(Color::Black, Kind::King)),
        );
        for (color, list) in [(Color::Red, &reds), (Color::Black, &blacks)] {
            for &(kind, sq) in list.iter() {
                let sq = Square(sq as u8);
                if pos.at(sq).is_none() {
                    pos.set(sq, Some(Piece::new(color, kind)));
                }
            }
        }
        // Only positions the rules allow: re-parse the FEN (rejects black in check, kings
        // facing each other and pieces off their legal squares are fine for this purpose).
        pos.to_string().parse::<Position>().ok()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn engine_mates_agree_with_minimax(pos in random_position()) {
        let Some(pos) = pos else { return Ok(()) };
        let truth = brute_force_mate(&pos, 4);
        let d = decide(&pos, &SearchConfig { depth: 5, time: None, ..Default::default() }, |_| {});
        if let Some(n) = truth {
            prop_assert_eq!(d.mate_in, Some(n), "{}", pos);
        }
        if let Some(n) = d.mate_in {
            if n <= 2 {
                prop_assert_eq!(truth, Some(n), "{}", pos);
            }
        }
        // The move is always legal.
        if let Some(m) = d.mv {
            let mut legal = Vec::new();
            xiangqi_endgame::movegen::legal_moves(&pos, &mut legal);
            prop_assert!(legal.contains(&m));
        }
    }

    /// The mate search is exact: it finds every mate plain minimax proves (shortest first),
    /// its "no mate" is minimax's, and its line replays to a position with no legal move.
    #[test]
    fn mate_search_agrees_with_minimax(pos in random_position()) {
        let Some(pos) = pos else { return Ok(()) };
        let truth = brute_force_mate(&pos, 4);
        match find_mate(&pos, 3, None) {
            MateSearch::Mate { moves, line, .. } => {
                prop_assert_eq!(truth, Some(moves), "{}", pos);
                prop_assert_eq!(line.len() as u32, 2 * moves - 1);
                let mut p = pos.clone();
                let mut legal = Vec::new();
                for m in line {
                    legal.clear();
                    xiangqi_endgame::movegen::legal_moves(&p, &mut legal);
                    prop_assert!(legal.contains(&m), "{} in {}", m, pos);
                    p.make(m);
                }
                legal.clear();
                xiangqi_endgame::movegen::legal_moves(&p, &mut legal);
                prop_assert!(legal.is_empty(), "{}", pos);
            }
            MateSearch::NoMate { plies, .. } => {
                prop_assert_eq!(plies, 3);
                prop_assert_eq!(truth, None, "{}", pos);
            }
            MateSearch::Unknown { .. } => prop_assert!(false, "no time limit was set"),
        }
    }

    /// The engine's selective search (null move, reductions, pruning) still finds the short
    /// mates plain minimax proves.
    #[test]
    fn selective_engine_finds_short_mates(pos in random_position()) {
        let Some(pos) = pos else { return Ok(()) };
        if let Some(n) = brute_force_mate(&pos, 4) {
            let config = SearchConfig { depth: 6, time: None, ..SearchConfig::engine() };
            let d = decide(&pos, &config, |_| {});
            prop_assert_eq!(d.mate_in, Some(n), "{}", pos);
        }
    }

    #[test]
    fn fen_round_trips(pos in random_position()) {
        if let Some(pos) = pos {
            let text = pos.to_string();
            prop_assert_eq!(text.parse::<Position>().unwrap().to_string(), text);
        }
    }
}

#[test]
fn no_pruning_and_pruning_agree() {
    let pos: Position = "2bak4/4a4/4b4/9/9/9/9/9/4C4/3KR4 w".parse().unwrap();
    for depth in 1..=3 {
        let ab =
            xiangqi_endgame::engine::fixed_depth(&pos, depth, true, Rules::Legal, EvalKind::Course);
        let mm = xiangqi_endgame::engine::fixed_depth(
            &pos,
            depth,
            false,
            Rules::Legal,
            EvalKind::Course,
        );
        assert_eq!(ab.score, mm.score);
        assert!(ab.stats.nodes <= mm.stats.nodes);
    }
}

#[test]
fn framework_rules_end_the_game_by_capturing_the_king() {
    // Under the framework rules a king may be left attacked; the search then takes it.
    let pos: Position = "3k5/9/9/9/9/9/9/9/9/R3K4 w".parse().unwrap();
    let config = SearchConfig {
        rules: Rules::Framework,
        depth: 3,
        time: None,
        ..Default::default()
    };
    let d = decide(&pos, &config, |_| {});
    assert!(d.mv.is_some());
    let list = xiangqi_endgame::framework::moves(&pos, Color::Red);
    assert!(list.iter().any(|m| Some(m.mv) == d.mv));
}

/// The slow, obvious legality filter: every pseudo-legal move tested.
fn slow_legal(pos: &Position) -> Vec<xiangqi_endgame::Move> {
    let mut moves = Vec::new();
    xiangqi_endgame::movegen::pseudo_legal(pos, &mut moves);
    moves.retain(|&m| xiangqi_endgame::movegen::is_legal(pos, m));
    moves
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The fast filter (which tests only moves that can expose the king) keeps exactly the
    /// moves the slow one keeps, along random games from the start and on sparse endgames.
    #[test]
    fn fast_legality_equals_testing_every_move(choices in prop::collection::vec(any::<u16>(), 0..120), pos in random_position()) {
        let mut p: Position = xiangqi_endgame::START_FEN.parse().unwrap();
        let mut fast = Vec::new();
        for c in choices {
            fast.clear();
            xiangqi_endgame::movegen::legal_moves(&p, &mut fast);
            prop_assert_eq!(&fast, &slow_legal(&p), "{}", p);
            let mut captures = Vec::new();
            xiangqi_endgame::movegen::legal_captures(&p, &mut captures);
            let slow_captures: Vec<_> = fast.iter().copied().filter(|m| p.at(m.to).is_some()).collect();
            prop_assert_eq!(captures, slow_captures);
            if fast.is_empty() {
                break;
            }
            p.make(fast[c as usize % fast.len()]);
        }
        if let Some(pos) = pos {
            fast.clear();
            xiangqi_endgame::movegen::legal_moves(&pos, &mut fast);
            prop_assert_eq!(fast, slow_legal(&pos), "{}", pos);
        }
    }
}

/// Found by `selective_engine_finds_short_mates` on CI: the black horse is pinned on the
/// kings' file, so after the chariot's quiet move and the forced king move black has no move
/// at all, which loses in xiangqi without being check. Reverse futility pruning returned black's
/// static value (a chariot down, far above beta) at that node before any move was generated.
#[test]
fn selective_engine_finds_a_mate_by_leaving_no_move() {
    assert_selective_engine_mates_in_two("9/5k3/5n3/R8/9/9/9/5K3/9/9 w - - 0 1");
}

/// Found by `selective_engine_finds_short_mates` with more cases: red's quiet king move sets up
/// the chariot's mate, but black's null move passed, and red's reply to the pass was searched
/// to depth 0, where the quiescence search stood pat instead of seeing the mate in one.
#[test]
fn selective_engine_sees_a_mate_threat_behind_a_pass() {
    assert_selective_engine_mates_in_two("3k4n/9/9/R8/9/9/8n/3N5/9/3K5 w - - 0 1");
}

/// Minimax proves a mate in 2 in `fen`, and the engine's selective search finds it at depth 6.
fn assert_selective_engine_mates_in_two(fen: &str) {
    let pos: Position = fen.parse().unwrap();
    assert_eq!(brute_force_mate(&pos, 4), Some(2));
    let config = SearchConfig {
        depth: 6,
        time: None,
        ..SearchConfig::engine()
    };
    let d = decide(&pos, &config, |_| {});
    assert_eq!(d.mate_in, Some(2), "{d:?}");
}
