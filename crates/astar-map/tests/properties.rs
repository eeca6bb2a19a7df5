//! Property tests: on random small maps every heuristic (with and without dominance pruning)
//! returns the step count of an exhaustive breadth-first search over (cell, food), every route
//! passes the checker, and the parser never panics on random or mutated input.

use astar_map::check::{check_output, replay, Replay};
use astar_map::generate::{random_map, RandomMap};
use astar_map::map::Cell;
use astar_map::{solve, HeuristicKind, Map, SolveOptions};
use proptest::prelude::*;
use std::collections::VecDeque;

/// The slow, obvious answer: breadth-first search over every (cell, food) state, written
/// independently of the crate's model.
fn exhaustive(map: &Map) -> Option<usize> {
    let t = map.food as usize;
    let idx = |cell: usize, food: usize| cell * (t + 1) + food;
    let mut dist = vec![usize::MAX; map.cells.len() * (t + 1)];
    let mut queue = VecDeque::new();
    dist[idx(map.start, t)] = 0;
    queue.push_back((map.start, t));
    while let Some((cell, food)) = queue.pop_front() {
        let d = dist[idx(cell, food)];
        if cell == map.station {
            return Some(d);
        }
        if food == 0 {
            continue;
        }
        let (r, c) = (cell / map.cols, cell % map.cols);
        let mut next = Vec::new();
        if r > 0 {
            next.push(cell - map.cols);
        }
        if r + 1 < map.rows {
            next.push(cell + map.cols);
        }
        if c > 0 {
            next.push(cell - 1);
        }
        if c + 1 < map.cols {
            next.push(cell + 1);
        }
        for n in next {
            if map.cells[n] == Cell::Wall {
                continue;
            }
            let f = if map.cells[n] == Cell::Supply {
                t
            } else {
                food - 1
            };
            if dist[idx(n, f)] == usize::MAX {
                dist[idx(n, f)] = d + 1;
                queue.push_back((n, f));
            }
        }
    }
    None
}

fn small_map() -> impl Strategy<Value = Map> {
    (
        1usize..9,
        2usize..9,
        0u32..6,
        0.0f64..0.45,
        0.0f64..0.4,
        any::<u64>(),
    )
        .prop_map(|(rows, cols, food, walls, supplies, seed)| {
            random_map(&RandomMap {
                rows,
                cols,
                food,
                walls,
                supplies,
                seed,
            })
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1200))]

    #[test]
    fn every_heuristic_matches_exhaustive_search(map in small_map()) {
        let truth = exhaustive(&map);
        for heuristic in HeuristicKind::ALL {
            for dominance in [true, false] {
                let s = solve(&map, &SolveOptions { heuristic, dominance, ..Default::default() });
                prop_assert_eq!(s.steps, truth, "{:?} dominance={} on\n{}", heuristic, dominance, map);
                if let Some(n) = s.steps {
                    let moves: String = s.moves.iter().map(|d| d.letter()).collect();
                    prop_assert_eq!(replay(&map, &moves), Replay::Arrived(n));
                }
                prop_assert!(check_output(&map, &s.output_text()).is_ok());
            }
        }
    }

    #[test]
    fn display_and_parse_round_trip(map in small_map()) {
        let text = map.to_string();
        prop_assert_eq!(text.parse::<Map>().unwrap(), map.clone());
        // The real files' quirks: CRLF, trailing spaces, no final newline.
        let quirky = text.trim_end().replace('\n', " \r\n");
        prop_assert_eq!(quirky.parse::<Map>().unwrap(), map);
    }

    #[test]
    fn parser_never_panics_on_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = text.parse::<Map>();
    }

    #[test]
    fn parser_never_panics_on_mutated_maps(map in small_map(), edits in prop::collection::vec((any::<usize>(), any::<u8>()), 1..6)) {
        let mut bytes = map.to_string().into_bytes();
        for (pos, b) in edits {
            let i = pos % bytes.len();
            match b % 3 {
                0 => bytes[i] = b"0123456789 \n-x"[b as usize % 14],
                1 => { bytes.remove(i); }
                _ => bytes.insert(i, b"0123456789 \n"[b as usize % 12]),
            }
            if bytes.is_empty() { break; }
        }
        if let Ok(m) = String::from_utf8_lossy(&bytes).parse::<Map>() {
            // Whatever parses must also solve and check without panicking.
            let s = solve(&m, &SolveOptions::default());
            prop_assert!(check_output(&m, &s.output_text()).is_ok());
        }
    }

    #[test]
    fn checker_rejects_wrong_claims(map in small_map()) {
        let s = solve(&map, &SolveOptions::default());
        match s.steps {
            Some(n) => {
                prop_assert!(check_output(&map, "-1\n").is_err());
                let moves: String = s.moves.iter().map(|d| d.letter()).collect();
                // One move short (the truncated-path bug) is rejected.
                let short = format!("{n}\n{}\n", &moves[..n - 1]);
                prop_assert!(check_output(&map, &short).is_err());
            }
            None => prop_assert!(check_output(&map, "3\nRRR\n").is_err()),
        }
    }
}

#[test]
fn handout_example_and_edge_cases() {
    let cases = [
        (
            "5 4 2\n1 0 4 0\n1 0 2 1\n0 2 0 2\n1 0 2 1\n0 3 1 0",
            "5\nURUUU\n",
        ),
        ("1 3 2\n3 0 4", "2\nRR\n"),
        ("1 4 2\n3 0 0 4", "-1\n"),
        ("1 5 2\n3 0 2 0 4", "4\nRRRR\n"),
        ("2 2 5\n3 1\n1 4", "-1\n"),
        ("1 2 0\n3 4", "-1\n"),
    ];
    for (text, expected) in cases {
        let map: Map = text.parse().unwrap();
        let out = solve(&map, &SolveOptions::default()).output_text();
        // Paths are not unique: the day count must match and the route must replay.
        assert_eq!(out.lines().next(), expected.lines().next(), "{text}");
        assert_eq!(out.len(), expected.len());
        assert!(check_output(&map, &out).is_ok());
        assert!(check_output(&map, expected).is_ok());
    }
    // The (cell, incoming direction) trap: the optimum revisits a cell after refilling.
    let map: Map = "3 3 3\n0 0 3\n2 0 1\n1 0 4".parse().unwrap();
    let s = solve(&map, &SolveOptions::default());
    assert_eq!(s.steps, Some(6));
}

#[test]
fn parse_errors_name_the_line() {
    let err = |t: &str| t.parse::<Map>().unwrap_err().to_string();
    assert_eq!(err(""), "1: empty file: expected `M N T`");
    assert_eq!(err("2 2\n"), "1: expected 3 numbers `M N T`, found 2");
    assert_eq!(err("1 2 3\n3 7\n"), "2: bad cell code `7` (expected 0..4)");
    assert_eq!(err("1 2 3\n3 0\n"), "no station (code 4) on the map");
    assert_eq!(
        err("2 2 3\n3 4\n0 3\n"),
        "3: second start at row 1, column 1 (the first is at row 0, column 0)"
    );
    assert_eq!(
        err("1 2 3\n3 4\n1 1\n"),
        "3: unexpected text after the 1 rows of the map"
    );
    assert_eq!(err("2 2 3\n3 4\n"), "expected 2 rows of cells, found 1");
}
