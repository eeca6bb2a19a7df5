//! connect4 benchmarks: MCTS rollouts per second on an empty 12x12 board with the obstacle (and
//! a whole engine move on the same budget), the engine's wins-only proof search on bitboards
//! (positions per second), its proof-number search on a deep win and on middle-game positions
//! (nodes per second), and the 7x6 solver on Pascal Pons' test sets (read from
//! ../shared/data when present, never copied into the repository; his published mean times are
//! in the spec), and the fill-up game with frozen threats that `analyze` shows (nodes per
//! second).
#![allow(missing_docs)]

#[path = "../tests/common/mod.rs"]
mod common;

use connect4::analyze::analyze;
use connect4::bit_search::{proof_searcher, BitSearch};
use connect4::bitstate::BitState;
use connect4::engine::{Engine, EngineConfig, GameState, TacticalRollout};
use connect4::solver7x6::{Position, Solver};
use connect4::zugzwang::FillUpSolver;
use connect4::Board;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use search_core::{Mcts, MctsConfig, ProofSearch, Searcher, WIN_BOUND};
use std::path::Path;
use std::time::Duration;

fn mcts(c: &mut Criterion) {
    let mut g = c.benchmark_group("mcts_12x12");
    g.throughput(Throughput::Elements(2000));
    // The simulations alone: UCT with tactical rollouts on bitboards, from an empty board, as
    // the engine plays them, with last good replies (what learning them costs) and without
    // the stacked-threat tactics (what they cost), and with the positions of the tree pooled
    // (what the transposition table costs).
    for (name, last_good_reply, stacked_threats, transpositions) in [
        ("2000_rollouts", false, true, false),
        ("2000_rollouts_with_last_good_reply", true, true, false),
        ("2000_rollouts_without_stacked_threats", false, false, false),
        ("2000_rollouts_with_transpositions", false, true, true),
    ] {
        g.bench_function(name, |b| {
            let root = BitState::from_game(&GameState::new(Board::new(12, 12, 5, 6), 1));
            b.iter(|| {
                let mut tree = Mcts::new(
                    root,
                    MctsConfig {
                        max_iterations: Some(2000),
                        seed: 7,
                        transpositions,
                        ..Default::default()
                    },
                );
                let mut rollout = TacticalRollout::default();
                rollout.last_good_reply = last_good_reply;
                rollout.stacked_threats = stacked_threats;
                tree.search(&mut rollout)
            })
        });
    }
    // A whole engine decision on the same budget: the tactical alpha-beta screen included.
    g.bench_function("2000_iterations_engine_move", |b| {
        b.iter(|| {
            let mut e = Engine::new(EngineConfig {
                iterations: Some(2000),
                time: Duration::from_secs(60),
                ..Default::default()
            });
            e.choose(&GameState::new(Board::new(12, 12, 5, 6), 1))
        })
    });
    g.finish();
}

fn proofs(c: &mut Criterion) {
    // From the empty board nobody can force a win within a few plies, so the search explores
    // the whole depth-limited tree that forced moves and safe moves leave.
    let state = BitState::from_game(&GameState::new(Board::new(12, 12, 5, 6), 1));
    let depth = 9;
    let search = || {
        let mut searcher: Searcher<BitSearch> = proof_searcher(8);
        let v = searcher.search_root(&mut BitSearch::new(state), depth, WIN_BOUND - 1, WIN_BOUND);
        (v, searcher.stats.nodes)
    };
    let (_, nodes) = search();
    let mut g = c.benchmark_group("bit_search_12x12");
    g.throughput(Throughput::Elements(nodes));
    g.sample_size(20);
    // The engine's screen question at one depth: can the side to move force a win?
    g.bench_function(format!("wins_only_depth_{depth}_{nodes}_positions"), |b| {
        b.iter(search)
    });
    g.finish();
    // A deep proof from one of the engine's games (the rules test of the same position): on an
    // 11x11 board 61 plies in, the side to move wins in 29 plies, found by deepening.
    let (start, moves) = (common::deep_win_start(), common::DEEP_WIN_MOVES);
    let mut g = c.benchmark_group("bit_search_deep");
    g.sample_size(10);
    g.bench_function("win_in_29_plies_11x11", |b| {
        b.iter(|| analyze(&start, &moves, moves.len(), Duration::from_secs(60)).unwrap())
    });
    // The same question for the engine's deep proofs: proof-number search, fresh table.
    let end = BitState::from_game(&common::deep_win_position());
    g.bench_function("proof_number_search_win_11x11", |b| {
        b.iter(|| {
            let mut deep: ProofSearch<BitSearch> = ProofSearch::new(16);
            let proved = deep.prove(&mut BitSearch::new(end));
            (proved, deep.nodes())
        })
    });
    g.finish();
    // Proof-number search's speed in the middle game, where the engine's refutations run:
    // both questions (does the side to move win, is it lost) on eight positions, each from a
    // fresh 16 MiB table and stopped after 100,000 nodes (most are not settled by then).
    let positions: Vec<BitState> = common::midgame_positions()
        .iter()
        .map(BitState::from_game)
        .collect();
    let prove_all = || {
        positions
            .iter()
            .map(|&s| {
                let mut deep: ProofSearch<BitSearch> = ProofSearch::new(16);
                let mut game = BitSearch::new(s);
                deep.budget_mut().node_limit = Some(MIDGAME_NODES);
                deep.prove(&mut game);
                deep.budget_mut().node_limit = Some(deep.nodes() + MIDGAME_NODES);
                deep.prove_loss(&mut game);
                deep.nodes()
            })
            .sum::<u64>()
    };
    let mut g = c.benchmark_group("proof_number_search_midgame");
    g.throughput(Throughput::Elements(prove_all()));
    g.sample_size(10);
    g.bench_function("8_positions_both_questions", |b| b.iter(prove_all));
    g.finish();
}

/// The fill-up game of the eight middle-game positions and the deep win's position, solved by
/// one solver with `analyze`'s budget of a million nodes each, as `analyze` asks it of every
/// position of a game.
fn fill_up(c: &mut Criterion) {
    let mut positions: Vec<BitState> = common::midgame_positions()
        .iter()
        .map(BitState::from_game)
        .collect();
    positions.push(BitState::from_game(&common::deep_win_position()));
    let mut solver = FillUpSolver::default();
    let mut solve_all = || {
        positions
            .iter()
            .map(|s| {
                solver.solve(s, 1_000_000);
                solver.nodes()
            })
            .sum::<u64>()
    };
    let nodes = solve_all();
    let mut g = c.benchmark_group("fill_up_game");
    g.throughput(Throughput::Elements(nodes));
    g.bench_function(format!("9_positions_{nodes}_nodes"), |b| {
        b.iter(&mut solve_all)
    });
    g.finish();
}

/// Node budget of each question in the `proof_number_search_midgame` bench.
const MIDGAME_NODES: u64 = 100_000;

fn solver(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/connect4");
    let mut g = c.benchmark_group("solver_7x6");
    g.sample_size(10);
    for set in ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"] {
        let Ok(text) = std::fs::read_to_string(dir.join(set)) else {
            eprintln!("{set}: not found, skipped");
            continue;
        };
        let positions: Vec<Position> = text
            .lines()
            .take(100)
            .map(|l| Position::parse(l.split(' ').next().unwrap()).unwrap())
            .collect();
        g.throughput(Throughput::Elements(positions.len() as u64));
        let mut s = Solver::default();
        g.bench_function(format!("{set}_first_100"), |b| {
            b.iter(|| positions.iter().map(|p| s.solve(p, false)).sum::<i32>())
        });
    }
    g.finish();
}

criterion_group!(benches, mcts, proofs, fill_up, solver);
criterion_main!(benches);
