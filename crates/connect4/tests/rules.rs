//! The course rules and the engine: `top[]` follows the judge on every board size with the
//! obstacle anywhere, the engine never returns an illegal move, wins and blocks are found, and
//! the 7x6 solver agrees with exhaustive search near the end of random games.

use connect4::bitstate::BitState;
use connect4::engine::{Engine, EngineConfig, GameState};
use connect4::search_game::Searchable;
use connect4::solver7x6::{Position, Solver};
use connect4::Board;
use proptest::prelude::*;

mod common;

/// The judge's `top[y]`, defined independently: one more than the lowest empty cell that is not
/// the obstacle and has only stones or the obstacle below it; 0 when there is none.
fn expected_top(b: &Board, y: usize) -> usize {
    let mut r = b.m;
    while r > 0 {
        let row = r - 1;
        if (row, y) != (b.no_x, b.no_y) && b.at(row, y) == 0 {
            return r;
        }
        r -= 1;
    }
    0
}

/// Boards below the course's sizes (4..6 rows, 4..7 columns), for exhaustive checks.
fn small_board_strategy() -> impl Strategy<Value = (usize, usize, usize, usize)> {
    (4usize..=6, 4usize..=7).prop_flat_map(|(m, n)| (Just(m), Just(n), 0..m, 0..n))
}

fn board_strategy() -> impl Strategy<Value = (usize, usize, usize, usize)> {
    (9usize..=12, 9usize..=12).prop_flat_map(|(m, n)| (Just(m), Just(n), 0..m, 0..n))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn top_follows_the_judge_and_moves_are_legal((m, n, no_x, no_y) in board_strategy(), picks in prop::collection::vec(any::<usize>(), 0..150)) {
        let mut b = Board::new(m, n, no_x, no_y);
        let mut player = 1;
        for p in picks {
            let open: Vec<usize> = (0..n).filter(|&y| b.can_play(y)).collect();
            if open.is_empty() {
                break;
            }
            let y = open[p % open.len()];
            let x = b.landing_row(y).unwrap();
            prop_assert!(b.is_legal(x, y));
            prop_assert_ne!((x, y), (no_x, no_y));
            b.play(y, player);
            player = 3 - player;
        }
        for y in 0..n {
            prop_assert_eq!(b.top()[y], expected_top(&b, y), "column {}", y);
        }
        prop_assert_eq!(b.at(no_x, no_y), 0, "nobody ever plays on the obstacle");
    }

    #[test]
    fn bitboards_play_the_same_game_as_the_course_board((m, n, no_x, no_y) in board_strategy(), picks in prop::collection::vec(any::<usize>(), 0..150)) {
        use search_core::MctsState;
        let mut g = GameState::new(Board::new(m, n, no_x, no_y), 1);
        let mut bits = BitState::from_game(&g);
        for p in picks {
            prop_assert_eq!(bits, BitState::from_game(&g));
            prop_assert_eq!(bits.result(), g.result);
            let (mut safe, mut fast) = (Vec::new(), Vec::new());
            if g.result.is_none() {
                g.safe_columns(&mut safe);
            }
            bits.legal_moves(&mut fast);
            prop_assert_eq!(&fast, &safe);
            if g.result.is_some() {
                break;
            }
            let me = g.to_move;
            let win = (0..n).find(|&y| g.board.would_win(y, me));
            let threat = (0..n).find(|&y| g.board.would_win(y, 3 - me));
            match bits.forced_column() {
                Some(y) if win.is_some() => prop_assert!(g.board.would_win(y, me)),
                Some(y) => prop_assert!(threat.is_some() && g.board.would_win(y, 3 - me)),
                None => prop_assert!(win.is_none() && threat.is_none()),
            }
            let open: Vec<usize> = (0..n).filter(|&y| g.board.can_play(y)).collect();
            // A column is wasteful when its stone would fill the cell right below one of the
            // mover's own winning cells.
            let wasteful = open.iter().filter(|&&y| {
                g.board.cell_above_landing(y).is_some_and(|x| g.board.wins_with(x, y, me))
            });
            prop_assert_eq!(bits.wasteful_columns(), wasteful.fold(0u32, |m, &y| m | 1 << y));
            // The proof-number search's hint counts exactly the columns the proofs search.
            let mut searched = Vec::new();
            bits.search_columns(&mut searched);
            prop_assert_eq!(bits.search_column_count() as usize, searched.len());
            // The positions kept while ordering are those the moves reach, keys included.
            let mut children = [bits; connect4::board::MAX_COLUMNS];
            let mut listed = Vec::new();
            bits.search_children(&mut listed, &mut children);
            prop_assert_eq!(&listed, &searched);
            for &y in &listed {
                let mut played = bits;
                played.play(y);
                prop_assert_eq!(children[y], played);
                prop_assert_eq!(children[y].key(), played.key());
            }
            // The key kept move by move is the key of the stones from scratch.
            prop_assert_eq!(bits.key(), BitState::from_game(&g).key());
            let y = open[p % open.len()];
            g.play(y);
            bits.play(y);
        }
    }

    #[test]
    fn incremental_hash_equals_the_hash_from_scratch((m, n, no_x, no_y) in board_strategy(), picks in prop::collection::vec(any::<usize>(), 0..60), undo in 0usize..60) {
        use search_core::Game;
        let start = GameState::new(Board::new(m, n, no_x, no_y), 1);
        let mut game = Searchable::new(start.clone());
        let mut plain = start;
        let mut played = Vec::new();
        let mut seen = std::collections::HashMap::new();
        for p in picks {
            if plain.result.is_some() { break; }
            let open: Vec<usize> = (0..n).filter(|&y| plain.board.can_play(y)).collect();
            let y = open[p % open.len()];
            game.play(y);
            plain.play(y);
            played.push(y);
            prop_assert_eq!(game.hash(), Searchable::new(plain.clone()).hash());
            seen.insert(game.hash(), plain.board.to_string());
        }
        // Undoing restores the earlier keys exactly.
        let back = undo.min(played.len());
        for _ in 0..back {
            let y = played.pop().unwrap();
            game.undo(y);
        }
        let mut replay = GameState::new(Board::new(m, n, no_x, no_y), 1);
        for &y in &played { replay.play(y); }
        prop_assert_eq!(game.hash(), Searchable::new(replay).hash());
        // Different positions met along the way got different keys.
        prop_assert_eq!(seen.len(), seen.values().collect::<std::collections::HashSet<_>>().len());
    }

    #[test]
    fn bit_search_plays_the_positions_it_keeps_exactly((m, n, no_x, no_y) in board_strategy(), steps in prop::collection::vec((0u8..4, any::<usize>()), 0..200)) {
        // Moves generated at a ply are played from the positions kept then; moves played
        // without generating, undos and regenerating after them must never reach a stale one.
        use connect4::bit_search::BitSearch;
        use search_core::Game;
        let start = BitState::from_game(&GameState::new(Board::new(m, n, no_x, no_y), 1));
        let mut game = BitSearch::new(start);
        let mut reference = vec![start];
        let mut moves = Vec::new();
        for (action, pick) in steps {
            let here = *reference.last().unwrap();
            match action {
                0 | 1 if here.result().is_none() => {
                    moves.clear();
                    if action == 0 {
                        game.generate_moves(&mut moves);
                    } else {
                        moves = here.playable_columns();
                    }
                    let y = moves[pick % moves.len()];
                    game.play(y);
                    let mut next = here;
                    next.play(y);
                    reference.push(next);
                }
                2 if reference.len() > 1 => {
                    reference.pop();
                    game.undo(0);
                }
                _ => {
                    moves.clear();
                    game.generate_moves(&mut moves);
                }
            }
            let expected = *reference.last().unwrap();
            prop_assert_eq!(*game.state(), expected);
            prop_assert_eq!(game.hash(), expected.key());
        }
    }

    #[test]
    fn table_search_equals_plain_alpha_beta((m, n, no_x, no_y) in board_strategy(), picks in prop::collection::vec(any::<usize>(), 0..80)) {
        // The engine's screen and endgame solver run search-core's table search over
        // `Searchable`; with a sound hash it must agree with plain alpha-beta.
        let mut s = GameState::new(Board::new(m, n, no_x, no_y), 1);
        for p in picks {
            if s.result.is_some() { break; }
            let open: Vec<usize> = (0..n).filter(|&y| s.board.can_play(y)).collect();
            s.play(open[p % open.len()]);
        }
        let plain = search_core::alphabeta(&mut Searchable::new(s.clone()), 4).score;
        let mut searcher = search_core::Searcher::new(1);
        let table = searcher.search_root(&mut Searchable::new(s.clone()), 4, -search_core::INF, search_core::INF);
        prop_assert_eq!(table, plain);
    }

    #[test]
    fn engine_moves_are_always_legal((m, n, no_x, no_y) in board_strategy(), picks in prop::collection::vec(any::<usize>(), 0..100), seed in any::<u64>()) {
        let mut s = GameState::new(Board::new(m, n, no_x, no_y), 1);
        for p in picks {
            if s.result.is_some() { break; }
            let open: Vec<usize> = (0..n).filter(|&y| s.board.can_play(y)).collect();
            s.play(open[p % open.len()]);
        }
        if s.result.is_none() {
            let mut e = Engine::new(EngineConfig { iterations: Some(60), seed, ..Default::default() });
            let y = e.choose(&s);
            let x = s.board.landing_row(y);
            prop_assert!(x.is_some_and(|x| s.board.is_legal(x, y)));
        }
    }
}

/// The engine with its tree's transpositions pooled keeps the tree from move to move (the
/// holders of positions move with it): whole games on boards with the obstacle in the bottom
/// and top rows stay legal to the end.
#[test]
fn engine_with_transpositions_plays_whole_games_legally() {
    for (m, n, no_x, no_y, seed) in [(9, 9, 8, 4, 1u64), (10, 9, 0, 0, 2)] {
        let config = |seed| EngineConfig {
            time: std::time::Duration::from_millis(15),
            transpositions: true,
            seed,
            ..Default::default()
        };
        let mut engines = [Engine::new(config(seed)), Engine::new(config(seed + 10))];
        let mut s = GameState::new(Board::new(m, n, no_x, no_y), 1);
        let mut plies = 0;
        while s.result.is_none() {
            let y = engines[plies % 2].choose(&s);
            let x = s.board.landing_row(y);
            assert!(
                x.is_some_and(|x| s.board.is_legal(x, y)),
                "ply {plies}: column {y}"
            );
            s.play(y);
            plies += 1;
        }
        assert!(plies >= 7);
    }
}

/// The engine on two threads (a helper tree beside the main one, their root visits summed):
/// whole games stay legal, and on a fixed iteration budget the moves are the same from run to
/// run (the helper's counts are read only once it has finished).
#[test]
fn engine_on_two_threads_plays_legally_and_reproducibly() {
    let play = |config: EngineConfig, seed: u64| {
        let mut engines = [
            Engine::new(EngineConfig { seed, ..config }),
            Engine::new(EngineConfig {
                seed: seed + 10,
                ..config
            }),
        ];
        let mut s = GameState::new(Board::new(9, 10, 8, 3), 1);
        let mut moves = Vec::new();
        while s.result.is_none() {
            let y = engines[moves.len() % 2].choose(&s);
            let x = s.board.landing_row(y);
            assert!(
                x.is_some_and(|x| s.board.is_legal(x, y)),
                "ply {}: column {y}",
                moves.len()
            );
            s.play(y);
            moves.push(y);
        }
        assert!(moves.len() >= 7);
        moves
    };
    let timed = EngineConfig {
        time: std::time::Duration::from_millis(15),
        threads: 2,
        ..Default::default()
    };
    play(timed, 3);
    let fixed = EngineConfig {
        time: std::time::Duration::from_secs(60),
        iterations: Some(300),
        ..timed
    };
    assert_eq!(play(fixed, 4), play(fixed, 4));
}

#[test]
fn obstacle_in_the_top_row_fills_the_column_one_stone_early() {
    let mut b = Board::new(9, 9, 0, 4);
    for k in 0..7 {
        b.play(4, 1 + (k % 2) as u8);
    }
    assert_eq!(b.top()[4], 2);
    b.play(4, 1); // row 1: skips the obstacle in row 0
    assert_eq!(b.top()[4], 0);
    assert!(!b.can_play(4));
}

#[test]
fn engine_blocks_a_single_threat() {
    let mut b = Board::new(10, 10, 0, 0);
    for y in [5, 6, 7] {
        b.play(y, 2);
    }
    b.play(0, 1);
    b.play(1, 1);
    let mut e = Engine::new(EngineConfig {
        iterations: Some(300),
        ..Default::default()
    });
    let y = e.choose(&GameState::new(b, 1));
    assert!(y == 4 || y == 8, "must block, played {y}");
}

/// Exhaustive negamax in Pons' score convention, for positions with few empty cells.
fn brute(p: &Position) -> i32 {
    let cells = 42;
    if p.moves() == 42 {
        return 0;
    }
    let mut best = -100;
    for col in 0..7 {
        if !p.can_play(col) {
            continue;
        }
        let v = if p.is_winning_move(col) {
            (cells + 1 - p.moves() as i32) / 2
        } else {
            let mut c = *p;
            c.play_col(col);
            -brute(&c)
        };
        best = best.max(v);
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn solver_equals_exhaustive_search_near_the_end(picks in prop::collection::vec(0usize..7, 60)) {
        // Play random non-winning moves until 10 cells are left.
        let mut seq = String::new();
        let mut p = Position::default();
        for pick in picks {
            if p.moves() >= 32 { break; }
            let col = (0..7).map(|k| (pick + k) % 7).find(|&c| p.can_play(c) && !p.is_winning_move(c));
            let Some(col) = col else { return Ok(()) };
            p.play_col(col);
            seq.push(char::from(b'1' + col as u8));
        }
        if p.moves() < 32 { return Ok(()); }
        let parsed = Position::parse(&seq).unwrap();
        let mut s = Solver::default();
        let truth = brute(&parsed);
        prop_assert_eq!(s.solve(&parsed, false), truth, "{}", seq);
        // `--weak`: only the sign, also when the side to move wins at once.
        prop_assert_eq!(s.solve(&parsed, true), truth.signum(), "{} weak", seq);
        // Pons' `-a` per column, and its `--weak` form: the signs, winning columns included.
        let strong = s.analyze(&parsed, false);
        prop_assert_eq!(strong.iter().flatten().max().copied(), Some(truth), "{} analyze", seq);
        let signs = strong.map(|v| v.map(i32::signum));
        prop_assert_eq!(s.analyze(&parsed, true), signs, "{} analyze weak", seq);
    }
}

/// Exhaustive value of a course position for the side to move: 1 win, 0 draw, -1 loss.
fn exact(s: &GameState) -> i32 {
    match s.result {
        Some(0) => return 0,
        Some(w) => return if w == s.to_move { 1 } else { -1 },
        None => {}
    }
    let mut best = -2;
    for y in (0..s.board.n).filter(|&y| s.board.can_play(y)) {
        let mut c = s.clone();
        c.play(y);
        best = best.max(-exact(&c));
        if best == 1 {
            break;
        }
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn engine_keeps_proven_wins_near_the_end(picks in prop::collection::vec(any::<usize>(), 200), seed in any::<u64>()) {
        // A 9x9 board filled at random until at most 10 cells are left.
        let mut s = GameState::new(Board::new(9, 9, 4, 4), 1);
        for p in picks {
            let empty: usize = s.board.top().iter().sum();
            if s.result.is_some() || empty <= 10 {
                break;
            }
            let open: Vec<usize> = (0..9).filter(|&y| s.board.can_play(y)).collect();
            s.play(open[p % open.len()]);
        }
        if s.result.is_some() || exact(&s) != 1 {
            return Ok(());
        }
        let mut e = Engine::new(EngineConfig { iterations: Some(200), seed, ..Default::default() });
        let y = e.choose(&s);
        let mut after = s.clone();
        after.play(y);
        prop_assert_eq!(-exact(&after), 1, "the engine threw away a won position");
    }
}

#[test]
fn searchable_generates_each_open_column_once_centre_first() {
    use search_core::Game;
    for n in 9..=12 {
        let g = Searchable::new(GameState::new(Board::new(9, n, 0, 0), 1));
        let mut moves = Vec::new();
        g.generate_moves(&mut moves);
        let mut sorted = moves.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "n = {n}: {moves:?}");
        let dist = |y: usize| (2 * y as i32 - n as i32 + 1).abs();
        assert!(
            moves.windows(2).all(|w| dist(w[0]) <= dist(w[1])),
            "{moves:?}"
        );
    }
}

#[test]
fn wins_only_search_proves_the_same_forced_win() {
    use search_core::{alphabeta, mate_distance};
    // Player 1, to move, has b..d on the bottom row with a and e open: it wins at once.
    let mut b = Board::new(9, 9, 0, 0);
    for y in [1, 2] {
        b.play(y, 1);
        b.play(y, 2);
    }
    b.play(3, 1);
    b.play(8, 2);
    let state = GameState::new(b, 1);
    let full = alphabeta(&mut Searchable::new(state.clone()), 4);
    let bare = alphabeta(&mut Searchable::wins_only(state), 4);
    assert_eq!(mate_distance(full.score), Some(1));
    assert_eq!(bare.score, full.score);
    assert!(bare.best == Some(0) || bare.best == Some(4));
}

#[test]
fn a_deep_zugzwang_win_is_proven_with_its_distance() {
    // The position of `common::DEEP_WIN_MOVES`: the second player, to move, forces four in a
    // row in exactly 29 plies. Proven in about 0.25 s in release; the engine has to see this
    // deep at 1 s per move.
    use connect4::analyze::{analyze, Proof};
    let (start, moves) = (common::deep_win_start(), common::DEEP_WIN_MOVES);
    let verdicts = analyze(
        &start,
        &moves,
        moves.len(),
        std::time::Duration::from_secs(60),
    );
    let last = verdicts.unwrap()[0];
    assert_eq!((last.ply, last.to_move), (61, 2));
    assert_eq!(
        last.proof,
        Proof::Win {
            winner: 2,
            plies: 29
        }
    );
}

#[test]
fn analysis_on_a_short_budget_still_proves_the_deep_win() {
    // 2 s per position: alpha-beta's half may not reach 29 plies, but then proof-number
    // search proves the win (in about 20 ms) without its distance. Either way, never "open".
    // (0.4 s was not enough on a machine whose cores other processes held.)
    use connect4::analyze::{analyze, Proof};
    let (start, moves) = (common::deep_win_start(), common::DEEP_WIN_MOVES);
    let budget = std::time::Duration::from_millis(2000);
    let last = analyze(&start, &moves, moves.len(), budget).unwrap()[0];
    match last.proof {
        Proof::Win { winner, plies } => assert_eq!((winner, plies), (2, 29)),
        Proof::WinBeyond { winner, searched } => assert!(winner == 2 && searched < 29),
        other => panic!("not proven: {other:?}"),
    }
}

#[test]
fn proof_number_search_proves_the_deep_zugzwang_win() {
    // The 29-ply win of `common::DEEP_WIN_MOVES`, proven by the engine's deep proofs (in about
    // 20 ms in release; alpha-beta takes ten times longer), with a move that keeps it.
    use connect4::bit_search::BitSearch;
    use search_core::{Game, ProofResult, ProofSearch};
    let mut game = BitSearch::new(BitState::from_game(&common::deep_win_position()));
    let mut deep = ProofSearch::new(16);
    assert_eq!(deep.prove(&mut game), ProofResult::Proven);
    let y = deep.winning_move(&mut game).expect("a winning move");
    // After it the first player, to move, is lost: it cannot force a win itself.
    game.play(y);
    assert_ne!(deep.prove(&mut game), ProofResult::Proven);
}

#[test]
fn rollouts_let_the_second_player_follow_up() {
    use connect4::engine::TacticalRollout;
    use rand::SeedableRng;
    use search_core::{MctsState, Rollout, SmallRng};
    // The first player has just played column 4 of an empty 9x9 board (obstacle in a corner).
    let mut s = BitState::from_game(&GameState::new(Board::new(9, 9, 0, 8), 1));
    s.play(4);
    let choices = |s: &BitState, follow_up: f64| {
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let mut rollout = TacticalRollout::with_follow_up(follow_up);
        (0..200)
            .map(|seed| rollout.choose(s, &moves, &mut SmallRng::seed_from_u64(seed)))
            .collect::<Vec<usize>>()
    };
    // Always on top of that stone when it is sure to; at random otherwise.
    assert!(choices(&s, 1.0).iter().all(|&y| y == 4));
    let random = choices(&s, 0.0);
    assert!(random.iter().any(|&y| y != 4) && random.contains(&4));
    // The first player never follows up for its own sake.
    s.play(2);
    assert!(choices(&s, 1.0).iter().any(|&y| y != 2));
}

#[test]
fn rollouts_cash_in_stacked_threats_and_never_hand_one_over() {
    use connect4::engine::TacticalRollout;
    use rand::SeedableRng;
    use search_core::{MctsState, Rollout, SmallRng};
    // Player 1 owns the third and fourth cells of the empty column 4 of a 9x9 board.
    let g = common::played(
        GameState::new(Board::new(9, 9, 0, 0), 1),
        &[2, 3, 3, 5, 6, 5, 5, 0, 5, 0, 6, 8, 7],
    );
    let choices = |s: &BitState, stacked_threats: bool| {
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let mut rollout = TacticalRollout::with_follow_up(0.0);
        rollout.stacked_threats = stacked_threats;
        (0..300)
            .map(|seed| rollout.choose(s, &moves, &mut SmallRng::seed_from_u64(seed)))
            .collect::<Vec<usize>>()
    };
    // Player 2 to move: column 4 is safe one ply ahead, and loses in three.
    let s = BitState::from_game(&g);
    assert!(!choices(&s, true).contains(&4));
    assert!(choices(&s, false).contains(&4));
    // Once the bottom cell is filled, player 1 plays column 4 at once (without the rule it
    // would not even consider it: the cell is right below its own threat).
    let s = BitState::from_game(&common::played(g, &[4]));
    assert!(choices(&s, true).iter().all(|&y| y == 4));
    assert!(!choices(&s, false).contains(&4));
}

#[test]
fn rollouts_replay_the_reply_that_won_and_forget_it_when_it_loses() {
    use connect4::engine::TacticalRollout;
    use rand::SeedableRng;
    use search_core::{MctsState, Rollout, SmallRng};
    // Player 1 has just played column 4 of an empty 9x9 board; every answer is safe.
    let mut s = BitState::from_game(&GameState::new(Board::new(9, 9, 0, 8), 1));
    s.play(4);
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let choices = |rollout: &mut TacticalRollout, s: &BitState| {
        (0..50)
            .map(|seed| rollout.choose(s, &moves, &mut SmallRng::seed_from_u64(seed)))
            .collect::<Vec<usize>>()
    };
    // No follow-up, so the answers are random until one wins a simulation (reward 0 for
    // player 1).
    let mut rollout = TacticalRollout::with_follow_up(0.0);
    rollout.last_good_reply = true;
    let reply = rollout.choose(&s, &moves, &mut SmallRng::seed_from_u64(7));
    rollout.simulation_done(0.0);
    assert!(choices(&mut rollout, &s).iter().all(|&y| y == reply));
    // Only after that stone: after another first move the answers are random again.
    let mut other = BitState::from_game(&GameState::new(Board::new(9, 9, 0, 8), 1));
    other.play(2);
    assert!(choices(&mut rollout, &other).iter().any(|&y| y != reply));
    // The reply loses a simulation (player 1 wins): it is forgotten.
    rollout.simulation_done(1.0);
    assert!(choices(&mut rollout, &s).iter().any(|&y| y != reply));
    // Switched off (the engine's default), the policy learns nothing.
    let mut plain = TacticalRollout::with_follow_up(0.0);
    let first = plain.choose(&s, &moves, &mut SmallRng::seed_from_u64(7));
    plain.simulation_done(0.0);
    assert!(choices(&mut plain, &s).iter().any(|&y| y != first));
}

/// Sign of a search score: 1 proven win, -1 proven loss, 0 otherwise.
fn proven(score: search_core::Score) -> i32 {
    match search_core::mate_distance(score) {
        Some(_) => score.signum(),
        None => 0,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn bitboard_proofs_equal_exhaustive_search_near_the_end((m, n, no_x, no_y) in small_board_strategy(), picks in prop::collection::vec(any::<usize>(), 40)) {
        // The engine's screen and endgame search run on `BitSearch`, which searches only wins,
        // forced blocks and safe moves: to the end of the game it must give the exact result.
        use connect4::bit_search::BitSearch;
        use search_core::{ProofResult, ProofSearch};
        // Random moves that do not end the game until at most 12 cells are left, on boards
        // small enough for the check (the bitboards are the same code for every size).
        let mut s = GameState::new(Board::new(m, n, no_x, no_y), 1);
        for p in picks {
            let empty: usize = s.board.top().iter().sum();
            if empty <= 12 {
                break;
            }
            let quiet: Vec<GameState> = (0..n)
                .filter(|&y| s.board.can_play(y))
                .map(|y| { let mut c = s.clone(); c.play(y); c })
                .filter(|c| c.result.is_none())
                .collect();
            if quiet.is_empty() {
                break;
            }
            s = quiet[p % quiet.len()].clone();
        }
        let empty: usize = s.board.top().iter().sum();
        prop_assume!(empty <= 13, "every move ends the game early");
        // The engine's configuration (static move order, table away from the leaves).
        let mut searcher = connect4::bit_search::proof_searcher(1);
        let mut game = BitSearch::new(BitState::from_game(&s));
        let score = searcher.search_root(&mut game, empty as u32 + 1, -search_core::INF, search_core::INF);
        prop_assert_eq!(proven(score), exact(&s));
        // Proof-number search (the engine's deep proofs) answers "does the side to move win?".
        let mut deep = ProofSearch::new(1);
        prop_assert_eq!(deep.prove(&mut game) == ProofResult::Proven, exact(&s) == 1);
        if let Some(y) = deep.winning_move(&mut game) {
            let mut after = s.clone();
            after.play(y);
            prop_assert_eq!(-exact(&after), 1, "winning move {}", y);
        }
        // The same holds for every position after one move (the screen's and the
        // refutations' question).
        for y in (0..n).filter(|&y| s.result.is_none() && s.board.can_play(y)) {
            let mut after = s.clone();
            after.play(y);
            let mut game = BitSearch::new(BitState::from_game(&after));
            let score = searcher.search_root(&mut game, empty as u32, -search_core::INF, search_core::INF);
            prop_assert_eq!(proven(score), exact(&after), "after column {}", y);
            let lost = deep.prove(&mut game) == ProofResult::Proven;
            prop_assert_eq!(lost, exact(&after) == 1, "proof-number search after column {}", y);
        }
    }
}

#[test]
fn position_keys_tell_every_single_stone_apart() {
    // One stone of either player on any cell of a 12x12 board: 288 positions, 288 keys. (A key
    // that folded the 256-bit sets into 64 bits before mixing made some of them collide.)
    let (m, n) = (12, 12);
    let mut keys = std::collections::HashMap::new();
    for cell in 0..m * n {
        for value in [1, 2] {
            let mut cells = vec![0; m * n];
            cells[cell] = value;
            let board =
                Board::from_course_unchecked(m, n, &[m as i32; 12], &cells, 0, 0, 2).unwrap();
            let key = BitState::from_game(&GameState::new(board, 1)).key();
            if let Some(other) = keys.insert(key, (cell, value)) {
                panic!("cell {cell} value {value} has the key of {other:?}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn analysis_proofs_equal_exhaustive_search(
        (m, n, no_x, no_y) in small_board_strategy(),
        picks in prop::collection::vec(any::<usize>(), 60),
    ) {
        // A random game on a small board, analysed from the position with at most 11 empty
        // cells: every position must be proven, and proven right.
        use connect4::analyze::{analyze, losing_move, Proof};
        let mut s = GameState::new(Board::new(m, n, no_x, no_y), 1);
        let mut start = None;
        let mut moves = Vec::new();
        for p in picks {
            if s.result.is_some() {
                break;
            }
            let empty: usize = s.board.top().iter().sum();
            if empty <= 11 && start.is_none() {
                start = Some(s.clone());
            }
            let open: Vec<usize> = (0..n).filter(|&y| s.board.can_play(y)).collect();
            let y = open[p % open.len()];
            if start.is_some() {
                moves.push(y);
            }
            s.play(y);
        }
        let Some(start) = start else { return Ok(()) };
        let verdicts = analyze(&start, &moves, 0, std::time::Duration::from_secs(10)).unwrap();
        prop_assert_eq!(verdicts.len(), moves.len() + 1);
        let mut g = start.clone();
        for (i, v) in verdicts.iter().enumerate() {
            prop_assert_eq!(v.to_move, g.to_move);
            let value = exact(&g);
            match v.proof {
                Proof::Win { winner, .. } | Proof::WinBeyond { winner, .. } => prop_assert_eq!(if winner == g.to_move { 1 } else { -1 }, value),
                Proof::Draw => prop_assert_eq!(value, 0),
                Proof::Over { winner } => {
                    prop_assert_eq!(g.result, Some(winner.unwrap_or(0)));
                }
                Proof::Open { .. } => prop_assert!(false, "position {} not proven", i),
            }
            if let Some(&y) = moves.get(i) {
                g.play(y);
            }
        }
        // The deciding move turns a position that is not a win for the eventual winner into one.
        if let Some(k) = losing_move(&verdicts) {
            let winner = match verdicts.last().unwrap().proof {
                Proof::Over { winner: Some(w) } | Proof::Win { winner: w, .. } => w,
                _ => unreachable!(),
            };
            let won_by = |p: &Proof| matches!(*p, Proof::Win { winner: w, .. } if w == winner)
                || matches!(*p, Proof::Over { winner: Some(w) } if w == winner);
            prop_assert!(!won_by(&verdicts[k].proof));
            prop_assert!(verdicts[k + 1..].iter().all(|v| won_by(&v.proof)));
        }
    }
}

#[test]
fn engine_steers_clear_of_refuted_favourites() {
    // A sharp position from one of the project's own matches (11x11, obstacle in the top row,
    // 12 plies in): eight of the eleven moves lose by force (proof-number search proves each
    // in 0.4 s or less from a fresh table; the other three stay unproven after 5 s each), and
    // MCTS favours lost moves one after another. Every move the engine may play must survive
    // a proof search several times larger than its own.
    use connect4::bit_search::BitSearch;
    use search_core::{Game, ProofResult, ProofSearch};
    let (g, y) = engine_move_on_fixed_budget(
        Board::new(11, 11, 0, 4),
        &[5, 5, 6, 4, 5, 5, 3, 3, 4, 4, 2, 4],
    );
    let mut game = BitSearch::new(BitState::from_game(&g));
    let mut deep = ProofSearch::new(64);
    deep.budget_mut().node_limit = Some(2_000_000);
    game.play(y);
    assert_ne!(
        deep.prove(&mut game),
        ProofResult::Proven,
        "played {y}, a lost move"
    );
}

#[test]
fn engine_keeps_proving_a_deep_win_that_mcts_does_not_favour() {
    // A position from one of the project's own matches (10x10, obstacle at row 7, column 8,
    // 20 plies in): the first player, to move, forces a win, which proof-number search proves
    // from a fresh table in about 166,000 nodes, more than the 100,000 of the engine's first
    // attempt on a fixed budget; MCTS favours a move that does not win. The attempt's second
    // share after MCTS must finish the proof, so the move played has to win: after it the
    // opponent is proven lost by a separate, larger search.
    use connect4::bit_search::BitSearch;
    use search_core::{Game, ProofResult, ProofSearch};
    let moves = [5, 3, 3, 5, 3, 3, 6, 7, 6, 3, 5, 5, 6, 6, 2, 5, 3, 5, 5, 6];
    let (g, y) = engine_move_on_fixed_budget(Board::new(10, 10, 7, 8), &moves);
    let mut game = BitSearch::new(BitState::from_game(&g));
    game.play(y);
    let mut deep = ProofSearch::new(64);
    deep.budget_mut().node_limit = Some(5_000_000);
    assert_eq!(
        deep.prove_loss(&mut game),
        ProofResult::Proven,
        "played {y}, which does not win by force"
    );
}

/// The position after `moves` on `board` (the first player moving first) and the engine's
/// choice there on a fixed budget of 4,000 iterations (reproducible).
fn engine_move_on_fixed_budget(board: Board, moves: &[usize]) -> (GameState, usize) {
    let g = common::played(GameState::new(board, 1), moves);
    // The time limit still applies to a fixed budget: a generous one keeps it from cutting
    // the iterations short on a loaded machine.
    let mut e = Engine::new(EngineConfig {
        time: std::time::Duration::from_secs(60),
        iterations: Some(4000),
        ..Default::default()
    });
    let y = e.choose(&g);
    (g, y)
}

/// Whether the side to move in `s` wins within `plies` (1 or 3) whatever the opponent does,
/// by exhaustive search on the course board.
fn wins_within(s: &GameState, plies: u32) -> bool {
    (0..s.board.n)
        .filter(|&y| s.board.can_play(y))
        .any(|y| wins_with_move(s, y, plies))
}

/// Whether column `y` wins for the side to move in `s` within `plies` (1 or 3) whatever the
/// opponent does.
fn wins_with_move(s: &GameState, y: usize, plies: u32) -> bool {
    let mut after = s.clone();
    after.play(y);
    match after.result {
        Some(w) => w == s.to_move,
        None if plies <= 1 => false,
        None => {
            let replies: Vec<usize> = (0..after.board.n)
                .filter(|&r| after.board.can_play(r))
                .collect();
            !replies.is_empty()
                && replies.iter().all(|&r| {
                    let mut next = after.clone();
                    next.play(r);
                    next.result.is_none() && wins_within(&next, plies - 2)
                })
        }
    }
}

/// The empty cells column `y` fills, from its landing cell up (the obstacle skipped).
fn column_cells(b: &Board, y: usize) -> Vec<usize> {
    let mut b = b.clone();
    let mut cells = Vec::new();
    while let Some(x) = b.landing_row(y) {
        cells.push(x);
        b.play(y, 3); // a filler that belongs to neither player
    }
    cells
}

/// The stacked-threat columns the rollouts use equal their definition on the course board
/// (the second and third cells of a column the mover's and not the opponent's second; the
/// third and fourth the opponent's and not the mover's third), and they are the tactic they
/// claim: a winning column wins in three plies by exhaustive search, and after a losing column
/// the opponent wins in three unless the move made a threat of its own. Every position of 1,000
/// seeded games of rollout-like players on random course boards; both kinds must turn up often.
#[test]
fn stacked_threat_columns_win_and_lose_in_three_plies() {
    use rand::{Rng, SeedableRng};
    let mut rng = search_core::SmallRng::seed_from_u64(7);
    let (mut wins_checked, mut losses_checked) = (0, 0);
    for _ in 0..1000 {
        let (m, n) = (rng.random_range(9..=12), rng.random_range(9..=12));
        let (no_x, no_y) = (rng.random_range(0..m), rng.random_range(0..n));
        let mut g = GameState::new(Board::new(m, n, no_x, no_y), 1);
        while g.result.is_none() {
            let bits = BitState::from_game(&g);
            let (winning, losing) = bits.stacked_threat_columns();
            let (me, opp) = (g.to_move, 3 - g.to_move);
            for y in 0..n {
                let c = column_cells(&g.board, y);
                let owns = |k: usize, p: u8| c.get(k).is_some_and(|&x| g.board.wins_with(x, y, p));
                let expected = owns(1, me) && !owns(1, opp) && owns(2, me);
                assert_eq!(winning >> y & 1 == 1, expected, "winning column {y}");
                let expected = owns(2, opp) && !owns(2, me) && owns(3, opp);
                assert_eq!(losing >> y & 1 == 1, expected, "losing column {y}");
                if bits.forced_column().is_some() || !g.board.can_play(y) {
                    continue;
                }
                if winning >> y & 1 == 1 {
                    assert!(wins_with_move(&g, y, 3), "column {y} should win in three");
                    wins_checked += 1;
                }
                let mut after = g.clone();
                after.play(y);
                let own_threat = (0..n).any(|w| after.board.would_win(w, me));
                if losing >> y & 1 == 1 && after.result.is_none() && !own_threat {
                    assert!(wins_within(&after, 3), "column {y} should lose in three");
                    losses_checked += 1;
                }
            }
            // Players that win, block and otherwise play at random among the moves that do
            // not hand over a win above, as in the rollouts: games long enough to stack threats.
            let y = g.forced_move().unwrap_or_else(|| {
                let mut safe = Vec::new();
                g.safe_columns(&mut safe);
                safe[rng.random_range(0..safe.len())]
            });
            g.play(y);
        }
    }
    assert!(
        wins_checked >= 100 && losses_checked >= 100,
        "{wins_checked} wins, {losses_checked} losses checked"
    );
}

/// Plays one rollout from `s` with `rollout` and the rng seeded with `seed`: the columns.
fn rollout_columns(
    s: &BitState,
    rollout: &mut connect4::engine::TacticalRollout,
    seed: u64,
) -> Vec<usize> {
    use rand::SeedableRng;
    use search_core::{MctsState, Rollout, SmallRng};
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut s, mut moves, mut played) = (*s, Vec::new(), Vec::new());
    while s.result().is_none() {
        moves.clear();
        s.legal_moves(&mut moves);
        let y = rollout.choose(&s, &moves, &mut rng);
        s.play(y);
        played.push(y);
    }
    rollout.simulation_done(s.terminal_reward().expect("the game is over"));
    played
}

#[test]
fn rollouts_play_the_same_whatever_the_labels() {
    // The course's interfaces call their own side 2 whether it moved first or not, so the
    // same game reaches the engine with either labelling: its simulations must not care.
    // Each board gets a random opening (up to 30 stones), then the same rollouts from the
    // position as reached with player 1 moving first and with player 2 moving first.
    use connect4::engine::TacticalRollout;
    use rand::{Rng, SeedableRng};
    let mut rng = search_core::SmallRng::seed_from_u64(11);
    // Stones played on top of the last one: follow-ups among them.
    let mut same_column_replies = 0;
    for game in 0..300 {
        let (m, n) = (rng.random_range(9..=12), rng.random_range(9..=12));
        let board = Board::new(m, n, rng.random_range(0..m), rng.random_range(0..n));
        let mut opening = Vec::new();
        let mut g = GameState::new(board.clone(), 1);
        for _ in 0..rng.random_range(0..=30) {
            let mut safe = Vec::new();
            g.safe_columns(&mut safe);
            if g.result.is_some() || safe.is_empty() {
                break;
            }
            let y = safe[rng.random_range(0..safe.len())];
            g.play(y);
            opening.push(y);
        }
        if g.result.is_some() {
            continue;
        }
        let first_is_1 = BitState::from_game(&g);
        let first_is_2 = BitState::from_game(&common::played(GameState::new(board, 2), &opening));
        assert_eq!(first_is_1.to_move(), 3 - first_is_2.to_move());
        for last_good_reply in [false, true] {
            let mut rollouts = [TacticalRollout::default(), TacticalRollout::default()];
            for r in &mut rollouts {
                r.last_good_reply = last_good_reply;
            }
            for seed in 0..20 {
                let a = rollout_columns(&first_is_1, &mut rollouts[0], seed);
                let b = rollout_columns(&first_is_2, &mut rollouts[1], seed);
                assert_eq!(a, b, "game {game}, opening {opening:?}, seed {seed}");
                same_column_replies += a.windows(2).filter(|w| w[0] == w[1]).count();
            }
        }
    }
    assert!(
        same_column_replies > 1000,
        "{same_column_replies} stones on top of the last one"
    );
}

#[test]
fn engine_chooses_the_same_whatever_the_labels() {
    // The whole engine on a fixed budget (screen, proof-number searches, MCTS): the same
    // move on the course's middle-game positions whichever label moved first.
    let choose = |g: &GameState| {
        // A time limit that never binds: only the iterations decide (reproducible).
        let mut e = Engine::new(EngineConfig {
            time: std::time::Duration::from_secs(60),
            iterations: Some(2000),
            ..Default::default()
        });
        e.choose(g)
    };
    let first_is_1 = common::midgame_positions_with_first_mover(1);
    let first_is_2 = common::midgame_positions_with_first_mover(2);
    for (i, (a, b)) in first_is_1.iter().zip(&first_is_2).enumerate() {
        assert_eq!(choose(a), choose(b), "{}", common::MIDGAME_POSITIONS[i]);
    }
}
