//! The project's own forced-mate problems (`tests/data/mates.txt`, made by
//! `xiangqi-endgame generate`, see its first line): every mate is the shortest (the mate search
//! proves both the mate and that nothing shorter exists), the proof-number mate search finds
//! the same mates with whole mating lines (and agrees with the full-width one on random
//! endgames), the engine's own selective search finds each at its length within a node budget
//! worth about half a second of the development machine, and the generator makes the same
//! problems again from the same seed. `data/long_mates.txt` holds mates of 17 plies and more,
//! made with `generate --proof-numbers` (its first line says how).

use search_core::{Deadline, IterativeOptions};
use std::process::Command;
use xiangqi_endgame::engine::{find_mate, think, MateSearch, SearchConfig, SearchPosition};
use xiangqi_endgame::mates::parse_problems;
use xiangqi_endgame::proof::{shortest_mate, MateProver};
use xiangqi_endgame::repetition::GameLine;

const PROBLEMS: &str = include_str!("data/mates.txt");
const LONG_PROBLEMS: &str = include_str!("data/long_mates.txt");

#[test]
fn the_problem_set_has_fifty_mates_of_three_to_fifteen_plies() {
    let problems = parse_problems(PROBLEMS).unwrap();
    assert!(problems.len() >= 50);
    assert!(problems.iter().all(|&(_, k)| (2..=8).contains(&k)));
    assert!(problems.iter().any(|&(_, k)| k >= 6), "some long mates too");
}

#[test]
fn every_mate_is_proven_shortest() {
    for (pos, k) in parse_problems(PROBLEMS).unwrap() {
        match find_mate(&pos, 2 * k - 1, None) {
            MateSearch::Mate { moves, .. } => assert_eq!(moves, k, "{pos}"),
            other => panic!("{pos}: {other:?}"),
        }
    }
}

/// Whether `line`, played from `pos`, ends with the side that did not move last mated.
fn ends_in_mate(pos: &xiangqi_endgame::Position, line: &[xiangqi_endgame::Move]) -> bool {
    let mut p = pos.clone();
    let mut moves = Vec::new();
    for &m in line {
        moves.clear();
        xiangqi_endgame::movegen::legal_moves(&p, &mut moves);
        if !moves.contains(&m) {
            return false;
        }
        p.make(m);
    }
    moves.clear();
    xiangqi_endgame::movegen::legal_moves(&p, &mut moves);
    moves.is_empty() && line.len() % 2 == 1
}

#[test]
fn proof_number_search_proves_the_same_shortest_mates_with_whole_lines() {
    for (pos, k) in parse_problems(PROBLEMS).unwrap() {
        match shortest_mate(&pos, 2 * k + 1, None, None) {
            MateSearch::Mate { moves, line, .. } => {
                assert_eq!(moves, k, "{pos}");
                assert_eq!(line.len() as u32, 2 * k - 1, "{pos}");
                assert!(ends_in_mate(&pos, &line), "{pos}: {line:?}");
            }
            other => panic!("{pos}: {other:?}"),
        }
    }
}

#[test]
fn proof_number_and_full_width_mate_searches_agree_on_random_endgames() {
    use rand::SeedableRng;
    let mut rng = search_core::SmallRng::seed_from_u64(5);
    let (mut mates, mut none) = (0, 0);
    for _ in 0..150 {
        let Some(pos) = xiangqi_endgame::mates::random_endgame(&mut rng) else {
            continue;
        };
        let slow = find_mate(&pos, 5, None);
        let fast = shortest_mate(&pos, 5, None, None);
        match (&slow, &fast) {
            (MateSearch::Mate { moves: a, .. }, MateSearch::Mate { moves: b, line, .. }) => {
                assert_eq!(a, b, "{pos}");
                assert!(ends_in_mate(&pos, line), "{pos}: {line:?}");
                mates += 1;
            }
            (MateSearch::NoMate { .. }, MateSearch::NoMate { .. }) => none += 1,
            _ => panic!("{pos}: full width {slow:?}, proof numbers {fast:?}"),
        }
    }
    assert!(mates >= 10 && none >= 10, "{mates} mates, {none} without");
}

#[test]
fn the_engine_finds_every_mate_at_its_length() {
    assert_engine_finds_each_at_its_length(PROBLEMS);
}

#[test]
fn long_mates_are_proven_shortest_by_both_searches_and_found_by_the_engine() {
    let problems = parse_problems(LONG_PROBLEMS).unwrap();
    assert!(problems.len() >= 8);
    assert!(problems.iter().all(|&(_, k)| k >= 9), "17 plies or more");
    for (pos, k) in problems {
        // Made by the proof-number search; the full-width search agrees.
        match find_mate(&pos, 2 * k - 1, None) {
            MateSearch::Mate { moves, .. } => assert_eq!(moves, k, "{pos}"),
            other => panic!("{pos}: {other:?}"),
        }
    }
    assert_engine_finds_each_at_its_length(LONG_PROBLEMS);
}

/// The engine's own selective search (with its mate-by-checks and shorter-mate steps) finds
/// each problem's mate at its length within a million nodes.
fn assert_engine_finds_each_at_its_length(problems: &str) {
    let config = SearchConfig::engine();
    for (pos, k) in parse_problems(problems).unwrap() {
        let mut game = SearchPosition::with_line(pos.clone(), config.eval, GameLine::new(&pos));
        let mut searcher = search_core::Searcher::new(16);
        searcher.options = config.search_options();
        let options = IterativeOptions {
            node_limit: Some(1_000_000),
            deadline: Deadline::none(),
            ..config.iterative_options()
        };
        let d = think(&mut game, &mut searcher, &config, &options, |_| {});
        assert_eq!(d.mate_in, Some(k), "{pos}");
    }
}

#[test]
fn the_generator_makes_the_same_problems_from_the_same_seed() {
    let header = PROBLEMS.lines().next().unwrap();
    let command = header.split(": xiangqi-endgame ").nth(1).unwrap();
    let mut args: Vec<String> = command.split_whitespace().map(String::from).collect();
    let count = args.iter().position(|a| a == "--count").unwrap();
    args[count + 1] = "3".into();
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-endgame"))
        .args(&args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let made = String::from_utf8(out.stdout).unwrap();
    let expected: Vec<&str> = PROBLEMS.lines().skip(1).take(3).collect();
    assert_eq!(made.lines().skip(1).collect::<Vec<_>>(), expected);
}

#[test]
fn mates_by_checks_are_mates_that_check_at_every_move_and_are_never_shorter() {
    let problems = parse_problems(PROBLEMS).unwrap();
    let long = parse_problems(LONG_PROBLEMS).unwrap();
    let (mut by_checks, mut other) = (0, 0);
    for (pos, k) in problems.into_iter().chain(long) {
        let mut prover = MateProver::new(4, Deadline::none(), None).by_checks();
        match prover.shortest_mate(&pos, 41) {
            MateSearch::Mate { moves, line, .. } => {
                assert!(moves >= k, "{pos}: {moves} by checks, {k} at best");
                assert!(ends_in_mate(&pos, &line), "{pos}: {line:?}");
                let mut p = pos.clone();
                for (i, &m) in line.iter().enumerate() {
                    p.make(m);
                    let checks = xiangqi_endgame::movegen::in_check(&p);
                    assert!(i % 2 == 1 || checks, "{pos}: move {m} gives no check");
                }
                by_checks += 1;
            }
            MateSearch::NoMate { .. } => other += 1,
            unknown => panic!("{pos}: {unknown:?}"),
        }
    }
    assert!(
        by_checks >= 10 && other >= 5,
        "{by_checks} by checks, {other} not"
    );
}
