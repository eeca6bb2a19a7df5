//! Move generation against published perft counts and a slow square-by-square generator; the
//! endgame solver against exhaustive minimax on positions with few empty squares.

use othello::bitboard::{flips, flips_scalar, last_flip_count, legal_moves, legal_moves_scalar};
use othello::endgame::{last_empties, searcher, searchers, solve, solve_parallel};
use othello::perft::perft;
use othello::stability::stable_discs;
use othello::{Move, Position};
use proptest::prelude::*;

#[test]
fn published_perft_counts() {
    // Passes count as plies; a finished game is one leaf.
    let expected = [4u64, 12, 56, 244, 1396, 8200, 55_092, 390_216, 3_005_288];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(
            perft(&Position::default(), d as u32 + 1),
            n,
            "depth {}",
            d + 1
        );
    }
}

/// The obvious generator: try every empty square and walk each direction step by step.
fn slow_flips(me: u64, opp: u64, sq: usize) -> u64 {
    let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
    let mut all = 0;
    for (dr, dc) in [
        (0, 1),
        (0, -1),
        (1, 0),
        (-1, 0),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ] {
        let (mut rr, mut cc, mut line) = (r + dr, c + dc, 0u64);
        while (0..8).contains(&rr) && (0..8).contains(&cc) && opp >> (rr * 8 + cc) & 1 == 1 {
            line |= 1 << (rr * 8 + cc);
            rr += dr;
            cc += dc;
        }
        if (0..8).contains(&rr) && (0..8).contains(&cc) && me >> (rr * 8 + cc) & 1 == 1 {
            all |= line;
        }
    }
    all
}

fn random_position() -> impl Strategy<Value = Position> {
    prop::collection::vec(any::<u8>(), 0..60).prop_map(|picks| {
        let mut p = Position::default();
        for k in picks {
            if p.game_over() {
                break;
            }
            let m = p.moves();
            if m == 0 {
                p = p.play(Move::Pass);
                continue;
            }
            let n = m.count_ones() as usize;
            let mut bits = m;
            for _ in 0..(k as usize % n) {
                bits &= bits - 1;
            }
            p = p.play(Move::Square(bits.trailing_zeros() as u8));
        }
        p
    })
}

fn brute(p: &Position) -> i32 {
    if p.game_over() {
        return p.final_score();
    }
    let m = p.moves();
    if m == 0 {
        return -brute(&p.play(Move::Pass));
    }
    let mut best = -1000;
    let mut bits = m;
    while bits != 0 {
        let s = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        best = best.max(-brute(&p.play(Move::Square(s))));
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn fast_moves_and_flips_equal_the_slow_generator(p in random_position()) {
        let empty = !(p.me | p.opp);
        let mut slow_moves = 0u64;
        for sq in 0..64 {
            if empty >> sq & 1 == 1 {
                let f = slow_flips(p.me, p.opp, sq);
                prop_assert_eq!(flips(p.me, p.opp, sq as u32), f);
                prop_assert_eq!(flips_scalar(p.me, p.opp, sq as u32), f);
                if f != 0 {
                    slow_moves |= 1 << sq;
                }
            }
        }
        prop_assert_eq!(legal_moves(p.me, p.opp), slow_moves);
        prop_assert_eq!(legal_moves_scalar(p.me, p.opp), slow_moves);
    }

    #[test]
    fn last_flip_count_equals_the_flips_on_a_full_board(me in any::<u64>(), sq in 0u32..64) {
        let me = me & !(1 << sq);
        let opp = !me & !(1 << sq);
        prop_assert_eq!(last_flip_count(me, sq), slow_flips(me, opp, sq as usize).count_ones());
        prop_assert_eq!(last_flip_count(opp, sq), slow_flips(opp, me, sq as usize).count_ones());
    }

    #[test]
    fn obf_round_trips(p in random_position()) {
        prop_assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn solver_equals_exhaustive_minimax(p in random_position()) {
        if p.empties() > 9 {
            return Ok(());
        }
        let s = solve(&p, &mut searcher(1));
        prop_assert_eq!(s.score, brute(&p), "{}", p);
        if let Some(mv) = s.best {
            prop_assert_eq!(-brute(&p.play(mv)), s.score);
        }
    }
}

/// Random games (moves picked by `picks`) played until `empties` squares are left.
fn position_with_empties(empties: u32, picks: Vec<u8>) -> Position {
    let mut p = Position::default();
    let mut k = 0;
    while p.empties() > empties && !p.game_over() {
        let m = p.moves();
        if m == 0 {
            p = p.play(Move::Pass);
            continue;
        }
        let mut bits = m;
        for _ in 0..picks[k % picks.len()] as usize % m.count_ones() as usize {
            bits &= bits - 1;
        }
        p = p.play(Move::Square(bits.trailing_zeros() as u8));
        k += 1;
    }
    p
}

/// Positions of random games with 1 to `max_empties` squares left.
fn late_position(max_empties: u32) -> impl Strategy<Value = Position> {
    (1..=max_empties, prop::collection::vec(any::<u8>(), 1..64))
        .prop_map(|(empties, picks)| position_with_empties(empties, picks))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn solver_equals_exhaustive_minimax_near_the_end(p in late_position(10)) {
        let s = solve(&p, &mut searcher(1));
        prop_assert_eq!(s.score, brute(&p), "{}", p);
    }

    #[test]
    fn parallel_solver_equals_exhaustive_minimax(
        p in late_position(10),
        threads in 2usize..=3,
    ) {
        let mut searchers = searchers(threads, 1).unwrap();
        let s = solve_parallel(&p, &mut searchers).unwrap();
        prop_assert_eq!(s.score, brute(&p), "{}", p);
        // The move named achieves the score.
        if let Some(mv) = s.best {
            prop_assert_eq!(-brute(&p.play(mv)), s.score, "{} {}", p, mv);
        }
    }

    #[test]
    fn last_empties_solver_is_fail_soft_correct(
        p in late_position(9),
        alpha in -66i32..64,
        width in 1i32..20,
    ) {
        let beta = alpha + width;
        let truth = brute(&p);
        let v = last_empties(&p, alpha, beta, &mut 0);
        if truth <= alpha {
            prop_assert!(v <= alpha && v >= truth, "{} in ({}, {}): {} vs {}", p, alpha, beta, v, truth);
        } else if truth >= beta {
            prop_assert!(v >= beta && v <= truth, "{} in ({}, {}): {} vs {}", p, alpha, beta, v, truth);
        } else {
            prop_assert_eq!(v, truth, "{}", p);
        }
    }
}

/// Checks every continuation of `p` to the end of the game: no disc of `stable_own` (the side
/// to move's) or `stable_other` ever changes colour. `own` is the side to move's discs.
fn stable_discs_survive(p: &Position, stable_own: u64, stable_other: u64) -> bool {
    if p.me & stable_own != stable_own || p.opp & stable_other != stable_other {
        return false;
    }
    if p.game_over() {
        return true;
    }
    let m = p.moves();
    if m == 0 {
        return stable_discs_survive(&p.play(Move::Pass), stable_other, stable_own);
    }
    let mut bits = m;
    while bits != 0 {
        let sq = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        if !stable_discs_survive(&p.play(Move::Square(sq)), stable_other, stable_own) {
            return false;
        }
    }
    true
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn stable_discs_never_flip_in_any_continuation(p in late_position(8)) {
        let (own, other) = (stable_discs(p.me, p.opp), stable_discs(p.opp, p.me));
        prop_assert!(stable_discs_survive(&p, own, other), "{}", p);
    }
}

#[test]
fn stable_discs_include_corners_and_full_lines() {
    // Late in a game most of the board is settled: the count is far from trivial.
    let p = position_with_empties(4, vec![3, 1, 4, 1, 5, 9, 2, 6]);
    let stable = stable_discs(p.me, p.opp) | stable_discs(p.opp, p.me);
    let corners = (p.me | p.opp) & othello::bitboard::CORNERS;
    assert_eq!(stable & corners, corners, "{p}");
    assert!(stable.count_ones() >= 20, "{p}: {}", stable.count_ones());
}

#[test]
fn last_empties_accepts_a_finished_game_with_many_empty_squares() {
    // A wipe-out: white has no disc left with 59 squares empty; the winner gets the empties.
    let p: Position = format!("{}{} X", "X".repeat(5), "-".repeat(59))
        .parse()
        .unwrap();
    assert!(p.game_over());
    assert_eq!(last_empties(&p, -64, 64, &mut 0), brute(&p));
}

#[test]
fn late_positions_are_solved_exactly() {
    // Random games played to 9 empties from fixed move sequences, checked by brute force.
    let mut p = Position::default();
    let mut k = 0usize;
    while p.empties() > 9 && !p.game_over() {
        let m = p.moves();
        p = if m == 0 {
            p.play(Move::Pass)
        } else {
            let n = m.count_ones() as usize;
            let mut bits = m;
            for _ in 0..(k * 7 + 3) % n {
                bits &= bits - 1;
            }
            p.play(Move::Square(bits.trailing_zeros() as u8))
        };
        k += 1;
    }
    let s = solve(&p, &mut searcher(4));
    assert_eq!(s.score, brute(&p));
}

#[test]
fn parallel_solve_with_the_pre_search_agrees_with_one_thread() {
    // 18 empties: the ordering pre-search runs, and the threads put off busy moves from 12.
    let p = position_with_empties(18, (0u8..64).map(|i| i.wrapping_mul(37)).collect());
    assert_eq!(p.empties(), 18);
    let one = solve(&p, &mut searcher(4));
    let mut two = searchers(2, 4).unwrap();
    let s = solve_parallel(&p, &mut two).unwrap();
    assert_eq!(s.score, one.score, "{p}");
    let mv = s.best.expect("a move");
    let after = solve(&p.play(mv), &mut searcher(4));
    assert_eq!(
        -after.score, s.score,
        "{p}: {mv} does not achieve the score"
    );
}

mod course_heuristic {
    use othello::course::{actions, terms, Status};
    use othello::{Color, Position};
    use proptest::prelude::*;

    #[test]
    fn worked_examples() {
        let at = |m: &str| terms(&Position::default().play_sequence(m).unwrap());
        assert_eq!(at("").heuristic, 0);
        assert_eq!(at("f5").heuristic, 3);
        let t = at("f5f6");
        assert_eq!(
            (t.piece, t.mobility, t.stability, t.heuristic),
            (0, -1, -2, -10)
        );
        assert_eq!(at("f5f6e6").heuristic, 37);
        let order: Vec<String> = actions(&Position::default())
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(order, ["d3", "c4", "f5", "e6"]); // rank 1 to 8, files h to a
    }

    proptest! {
        #[test]
        fn swapping_colours_negates_every_term(picks in prop::collection::vec(any::<u8>(), 0..40)) {
            let mut p = Position::default();
            for k in picks {
                let m = p.moves();
                if m == 0 { break; }
                let mut bits = m;
                for _ in 0..(k as usize % m.count_ones() as usize) { bits &= bits - 1; }
                p = p.play(othello::Move::Square(bits.trailing_zeros() as u8));
            }
            let swapped = Position { me: p.me, opp: p.opp, side: if p.side == Color::Black { Color::White } else { Color::Black } };
            let (a, b) = (terms(&p), terms(&swapped));
            prop_assert_eq!((a.piece, a.mobility, a.corner, a.stability, a.heuristic), (-b.piece, -b.mobility, -b.corner, -b.stability, -b.heuristic));
            if a.status == Status::Ongoing { prop_assert_eq!(b.status, Status::Ongoing); }
        }
    }
}

mod matches {
    use othello::deciders::{Decider, HeuristicKind, MoveOrder};
    use othello::matchplay::{run, MatchOptions, Player};

    #[test]
    fn matches_are_reproducible_and_searching_beats_random() {
        let a = Player {
            decider: Decider::AlphaBeta(2),
            heuristic: HeuristicKind::Improved,
            order: MoveOrder::Mobility,
        };
        let b = Player {
            decider: Decider::Random,
            heuristic: HeuristicKind::Course,
            order: MoveOrder::Course,
        };
        let (a, b) = (a.into(), b.into());
        let options = |jobs| MatchOptions {
            games: 10,
            seed: 7,
            jobs,
            ..Default::default()
        };
        let r1 = run(&a, &b, &options(2), || {}).unwrap();
        let r2 = run(&a, &b, &options(1), || {}).unwrap();
        assert_eq!(
            (r1.wins, r1.draws, r1.losses),
            (r2.wins, r2.draws, r2.losses)
        );
        assert_eq!(r1.games, 10);
        assert!(r1.wins >= 8, "alpha-beta should beat random: {r1:?}");
        assert!(r1.ci95.0 <= r1.score_rate && r1.score_rate <= r1.ci95.1);
        assert_eq!((r1.openings, r1.opening_plies), (5, 8));
    }

    #[test]
    fn a_matchs_openings_differ_even_turned_or_reflected() {
        use othello::matchplay::distinct_openings;
        use othello::position::Position;
        use std::collections::HashSet;
        // Four plies from the start reach 244 lines but only 60 games up to symmetry (an
        // exhaustive count here): the openings of 200 pairs use all 60, then repeat.
        fn after(p: Position, plies: usize, out: &mut HashSet<Position>) {
            if plies == 0 {
                out.insert(p.canonical());
                return;
            }
            let mut moves = Vec::new();
            p.push_moves(&mut moves);
            for m in moves {
                after(p.play(m), plies - 1, out);
            }
        }
        let mut all = HashSet::new();
        after(Position::default(), 4, &mut all);
        assert_eq!(all.len(), 60);
        let (openings, distinct) = distinct_openings(5, 200, 4, None).unwrap();
        assert_eq!((openings.len(), distinct), (200, 60));
        let drawn: HashSet<Position> = openings.iter().map(|p| p.canonical()).collect();
        assert_eq!(drawn, all);
        // Eight plies reach 67,245 games: 500 pairs, 500 different ones, the same for a seed.
        let mut eight = HashSet::new();
        after(Position::default(), 8, &mut eight);
        assert_eq!(eight.len(), 67_245);
        let (openings, distinct) = distinct_openings(5, 500, 8, None).unwrap();
        assert_eq!(distinct, 500);
        assert!(openings.iter().all(|p| p.empties() == 52));
        let canon: HashSet<Position> = openings.iter().map(|p| p.canonical()).collect();
        assert_eq!(canon.len(), 500);
        assert!(canon.is_subset(&eight));
        assert_eq!(distinct_openings(5, 500, 8, None).unwrap().0, openings);
        assert_ne!(distinct_openings(6, 500, 8, None).unwrap().0, openings);
    }

    #[test]
    fn balanced_openings_are_valued_near_even() {
        use othello::matchplay::{distinct_openings, opening_value};
        use std::collections::HashSet;
        let (openings, distinct) = distinct_openings(3, 12, 8, Some(2)).unwrap();
        assert_eq!(distinct, 12);
        for p in &openings {
            assert!(opening_value(p).abs() <= 200, "{p}: {}", opening_value(p));
        }
        let canon: HashSet<_> = openings.iter().map(|p| p.canonical()).collect();
        assert_eq!(canon.len(), 12);
        // Some draws were turned away: without the bound the first openings differ.
        let (any, _) = distinct_openings(3, 12, 8, None).unwrap();
        assert_ne!(any, openings);
        assert!(any.iter().any(|p| opening_value(p).abs() > 200));
        // One ply reaches a single game up to symmetry: four pairs play it four times.
        let (one, distinct) = distinct_openings(3, 4, 1, None).unwrap();
        assert_eq!((distinct, one.len()), (1, 4));
    }

    #[test]
    fn canonical_forms_agree_with_a_square_by_square_symmetry() {
        use othello::position::Position;
        // The slow, obvious way: each of the eight maps of (file, rank), square by square.
        fn image(b: u64, k: usize) -> u64 {
            let mut out = 0;
            for s in 0..64 {
                if b >> s & 1 == 1 {
                    let (mut f, mut r) = (s % 8, s / 8);
                    if k & 4 != 0 {
                        std::mem::swap(&mut f, &mut r);
                    }
                    if k & 1 != 0 {
                        f = 7 - f;
                    }
                    if k & 2 != 0 {
                        r = 7 - r;
                    }
                    out |= 1 << (r * 8 + f);
                }
            }
            out
        }
        for (n, p) in Position::random_game(11)
            .chain(Position::random_game(12))
            .enumerate()
        {
            let slow = (0..8)
                .map(|k| (image(p.me, k), image(p.opp, k)))
                .min()
                .unwrap();
            let c = p.canonical();
            assert_eq!((c.me, c.opp), slow, "position {n}");
            assert_eq!(c.side, p.side);
        }
    }
}

mod terminal_play {
    use othello::deciders::{Decider, HeuristicKind, MoveOrder};
    use othello::play::{human_game, Computer};

    #[test]
    fn illegal_input_is_refused_and_the_computer_answers() {
        let mut out = Vec::new();
        let dir = std::env::temp_dir().join(format!("othello-play-trace-{}", std::process::id()));
        let computer = Computer {
            decider: Decider::AlphaBeta(2),
            heuristic: HeuristicKind::Course,
            order: MoveOrder::Course,
            seed: 1,
            trace: Some(dir.clone()),
        };
        let r = human_game(&computer, true, "a1\nd3\n".as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("illegal move; legal: d3 c4 f5 e6"), "{text}");
        assert!(text.contains("computer plays "), "{text}");
        assert!(text.contains("game abandoned"));
        assert_eq!(r, 0);
        // The computer's one turn (turn 2, after d3) left its search tree, drawn.
        let dot = std::fs::read_to_string(dir.join("turn2.dot")).unwrap();
        assert!(dot.starts_with("digraph"), "{dot}");
        assert!(dir.join("turn2.svg").exists());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn random_against_random_finishes_with_a_result() {
        let mut out = Vec::new();
        // The "human" never types; the game is abandoned at once, without a panic.
        let computer = Computer {
            decider: Decider::Random,
            heuristic: HeuristicKind::Course,
            order: MoveOrder::Course,
            seed: 3,
            trace: None,
        };
        let r = human_game(&computer, false, "".as_bytes(), &mut out).unwrap();
        assert_eq!(r, 0);
        assert!(String::from_utf8(out).unwrap().contains("computer plays"));
    }
}

mod table_deciders {
    use othello::deciders::{decide, search, Algorithm, Decider, HeuristicKind, MoveOrder};
    use othello::Position;
    use rand::SeedableRng;

    #[test]
    fn mtdf_and_time_limited_deciders_return_legal_moves() {
        let mut rng = search_core::SmallRng::seed_from_u64(1);
        let p = Position::default().play_sequence("f5f6e6f4e3").unwrap();
        for spec in [
            "mtdf:4",
            "id:30",
            "mcts:30",
            "alphabeta:3",
            "minimax:2",
            "random",
        ] {
            let d: Decider = spec.parse().unwrap();
            for order in [MoveOrder::Course, MoveOrder::Mobility] {
                let m = decide(&p, d, HeuristicKind::Improved, order, &mut rng);
                assert!(p.is_legal(m), "{spec} chose {m}");
            }
        }
        assert!("id:x".parse::<Decider>().is_err());
        assert!("greedy".parse::<Decider>().is_err());
    }

    #[test]
    fn the_engines_cheap_order_near_the_horizon_changes_the_work_not_the_value() {
        use othello::nboard::{engine_game, midgame_options};
        fn search<G: search_core::Game>(mut game: G, depth: u32) -> (search_core::Score, u64) {
            let mut s = search_core::Searcher::new(1);
            s.options = midgame_options();
            let score = s.search_root(&mut game, depth, -search_core::INF, search_core::INF);
            (score, s.stats.nodes)
        }
        let mut different_work = false;
        for moves in ["f5d6c3d3c4", "f5f6e6f4e3c5c4"] {
            let p = Position::default().play_sequence(moves).unwrap();
            for depth in 2..=6 {
                // The course game with the learned evaluation, fastest-first at every node.
                let fastest_first =
                    othello::deciders::CourseGame::with_heuristic(p, HeuristicKind::Pattern)
                        .with_order(MoveOrder::Mobility);
                let (value, nodes) = search(fastest_first, depth);
                let (cheap_value, cheap_nodes) = search(engine_game(p), depth);
                assert_eq!(cheap_value, value, "{moves} depth {depth}");
                different_work |= nodes != cheap_nodes;
            }
        }
        assert!(different_work, "the cheap order is a different search");
    }

    #[test]
    fn move_order_changes_the_work_not_the_value() {
        for moves in ["", "f5d6c3d3c4", "f5f6e6f4e3"] {
            let p = Position::default().play_sequence(moves).unwrap();
            for depth in 1..=5 {
                let (course, _) = search(&p, depth, Algorithm::Minimax, MoveOrder::Course);
                let (ab_course, rc) = search(&p, depth, Algorithm::Alphabeta, MoveOrder::Course);
                let (ab_mobility, rm) =
                    search(&p, depth, Algorithm::Alphabeta, MoveOrder::Mobility);
                assert_eq!(
                    (ab_course, ab_mobility),
                    (course, course),
                    "{moves} depth {depth}"
                );
                // Every ordering visits some leaves; the orders are genuinely different searches.
                assert!(rc.stats.leaves > 0 && rm.stats.leaves > 0);
            }
        }
    }
}

mod traces {
    use othello::deciders::CourseGame;
    use othello::trace::{to_dot, Traced};
    use othello::Position;

    #[test]
    fn the_trace_records_every_leaf_and_the_root_value() {
        let p = Position::default().play_sequence("f5f6").unwrap();
        for prune in [false, true] {
            let mut t = Traced::new(p, CourseGame::new(p));
            let r = if prune {
                search_core::alphabeta(&mut t, 3)
            } else {
                search_core::minimax(&mut t, 3)
            };
            let nodes = t.nodes();
            let leaves = nodes
                .iter()
                .filter(|n| n.children.is_empty() && n.leaf.is_some())
                .count() as u64;
            assert_eq!(leaves, r.stats.leaves);
            assert_eq!(nodes.len() as u64, r.stats.nodes);
            let dot = to_dot(&nodes, r.best, "t", prune);
            assert!(dot.contains(&format!("root\\nvalue {}", r.score)), "{dot}");
            assert_eq!(dot.contains("cut off"), prune);
        }
    }

    #[test]
    fn mtdf_traces_show_each_pass_and_the_table_hits() {
        use othello::deciders::{search, Algorithm, MoveOrder};
        use othello::trace::trace_search;
        let p = Position::default().play_sequence("f5d6").unwrap();
        let traced = trace_search(
            &p,
            3,
            Algorithm::Mtdf,
            MoveOrder::Course,
            othello::deciders::HeuristicKind::Course,
        );
        let (value, r) = search(&p, 3, Algorithm::Mtdf, MoveOrder::Course);
        let (ab, _) = search(&p, 3, Algorithm::Alphabeta, MoveOrder::Course);
        assert_eq!(value, ab);
        assert_eq!(traced.best, r.best);
        // One subtree per pass (at least one per depth), labelled with depth and window.
        let passes =
            traced.dot.matches("\\ndepth ").count() + traced.dot.matches("\"depth ").count();
        assert!(passes >= 3, "{}", traced.dot);
        assert!(traced.dot.contains("table hit"));
        assert!(traced.svg.unwrap().contains("table hit"));
    }

    /// Parses "[a, b]" with +inf/-inf.
    fn window(text: &str) -> (i32, i32) {
        let inner = text.trim_start_matches('[').trim_end_matches(']');
        let (a, b) = inner.split_once(", ").unwrap();
        let parse = |x: &str| match x {
            "+inf" => search_core::INF,
            "-inf" => -search_core::INF,
            x => x.parse().unwrap(),
        };
        (parse(a), parse(b))
    }

    #[test]
    fn edge_windows_replay_the_search() {
        // Each root child, searched again on its own with the window on its edge, returns the
        // value the trace shows for it: the windows are the ones alpha-beta used.
        let p = Position::default().play_sequence("f5d6c3").unwrap();
        let depth = 4;
        let mut t = Traced::new(p, CourseGame::new(p));
        let r = search_core::alphabeta(&mut t, depth);
        let nodes = t.nodes();
        let dot = to_dot(&nodes, r.best, "t", true);
        let label = |id: usize| -> String {
            let start = dot.find(&format!("  n{id} [label=\"")).unwrap();
            dot[start..].lines().next().unwrap().to_string()
        };
        let mut checked = 0;
        for &c in &nodes[0].children {
            let edge = dot
                .lines()
                .find(|l| l.starts_with(&format!("  n0 -> n{c} ")))
                .unwrap();
            let w = &edge[edge.find("label=\"").unwrap() + 7..];
            let (a, b) = window(&w[..w.find('"').unwrap()]);
            let mv = nodes[c].mv.unwrap();
            let mut g = CourseGame::new(p.play(mv));
            let v = search_core::alphabeta_window(&mut g, depth - 1, a, b).score;
            let shown = label(c);
            let shown = shown.split("value ").nth(1).unwrap();
            let shown: i32 = shown
                .trim_start_matches(">= ")
                .split(['\\', '"'])
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(v, shown, "child {mv} window [{a}, {b}]");
            checked += 1;
        }
        assert!(checked >= 3);
    }
}
