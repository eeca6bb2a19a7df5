//! The project's own forced-mate problems (`tests/data/mates.txt`, made by
//! `xiangqi-endgame generate`, see its first line): every mate is the shortest (the mate search
//! proves both the mate and that nothing shorter exists), the engine's own selective search
//! finds each at its length within a node budget worth about half a second of the development
//! machine, and the generator makes the same problems again from the same seed.

use search_core::{Deadline, IterativeOptions};
use std::process::Command;
use xiangqi_endgame::engine::{find_mate, think, MateSearch, SearchConfig, SearchPosition};
use xiangqi_endgame::eval::EvalKind;
use xiangqi_endgame::mates::parse_problems;
use xiangqi_endgame::repetition::GameLine;

const PROBLEMS: &str = include_str!("data/mates.txt");

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

#[test]
fn the_engine_finds_every_mate_at_its_length() {
    let config = SearchConfig::engine();
    for (pos, k) in parse_problems(PROBLEMS).unwrap() {
        let mut game =
            SearchPosition::with_line(pos.clone(), EvalKind::Course, GameLine::new(&pos));
        let mut searcher = search_core::Searcher::new(16);
        searcher.options = config.search_options();
        let options = IterativeOptions {
            node_limit: Some(1_000_000),
            deadline: Deadline::none(),
            ..config.iterative_options()
        };
        let d = think(&mut game, &mut searcher, &options, |_| {});
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
