//! Validating an output file against its map, as a grader would (spec §6).
//!
//! Paths are not unique, so a checker must not diff move strings. It checks the format (line 1
//! an integer, nothing after `-1`, line 2 only `U D L R`), replays the moves under the food rule
//! (every step in bounds, off walls, with food to spend, ending on the station, as many moves as
//! line 1 says), and compares line 1 with the optimum found by its own search, so a `-1` claim
//! is verified too.

use crate::map::{Cell, Dir, Map};
use crate::solve::{solve, SolveOptions};
use crate::HeuristicKind;

/// The outcome of replaying a move string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replay {
    /// The walk ends on the station after this many moves.
    Arrived(usize),
    /// The walk breaks the rules; the reason says where and how.
    Invalid(String),
}

/// Replays `moves` from the start with T food.
///
/// ```
/// use astar_map::{check::replay, check::Replay, Map};
/// let map: Map = "1 4 2\n3 0 0 4".parse().unwrap();
/// assert_eq!(replay(&map, "RRR"), Replay::Invalid("step 3 (R): no food left at row 0, column 2".into()));
/// ```
pub fn replay(map: &Map, moves: &str) -> Replay {
    let mut cell = map.start;
    let mut food = map.food;
    for (i, ch) in moves.chars().enumerate() {
        let n = i + 1;
        let (r, c) = map.pos(cell);
        let Some(dir) = Dir::from_letter(ch) else {
            return Replay::Invalid(format!("step {n}: `{ch}` is not one of U D L R"));
        };
        if food == 0 {
            return Replay::Invalid(format!(
                "step {n} ({ch}): no food left at row {r}, column {c}"
            ));
        }
        match map.step(cell, dir) {
            Some(t) => cell = t,
            None => {
                return Replay::Invalid(format!(
                    "step {n} ({ch}) from row {r}, column {c} leaves the map or hits a wall"
                ))
            }
        }
        food = if map.cells[cell] == Cell::Supply {
            map.food
        } else {
            food - 1
        };
    }
    if cell != map.station {
        let (r, c) = map.pos(cell);
        return Replay::Invalid(format!(
            "the walk ends at row {r}, column {c}, not on the station"
        ));
    }
    Replay::Arrived(moves.chars().count())
}

/// Checks an output file's text against the map; `Ok` carries a one-line summary.
///
/// ```
/// use astar_map::{check::check_output, Map};
/// let map: Map = "3 3 3\n0 0 3\n2 0 1\n1 0 4".parse().unwrap();
/// assert!(check_output(&map, "6\nLDLRDR\n").is_ok());
/// assert!(check_output(&map, "-1\n").unwrap_err().contains("reachable in 6"));
/// ```
pub fn check_output(map: &Map, text: &str) -> Result<String, String> {
    let mut lines = text.lines().map(|l| l.trim_end_matches('\r'));
    let first = lines.next().ok_or("empty output file")?.trim();
    let claimed: i64 = first
        .parse()
        .map_err(|_| format!("line 1: `{first}` is not an integer"))?;
    let optimum = solve(
        map,
        &SolveOptions {
            heuristic: HeuristicKind::Supply,
            ..Default::default()
        },
    )
    .steps;
    let rest: Vec<&str> = lines.collect();
    if claimed == -1 {
        if rest.iter().any(|l| !l.trim().is_empty()) {
            return Err("line 2: nothing may follow -1".into());
        }
        return match optimum {
            None => Ok("ok: -1 (the station is unreachable)".into()),
            Some(n) => Err(format!(
                "claims -1 but the station is reachable in {n} days"
            )),
        };
    }
    if claimed < 0 {
        return Err(format!("line 1: {claimed} is neither -1 nor a day count"));
    }
    let moves = rest.first().map(|l| l.trim()).unwrap_or("");
    if rest.iter().skip(1).any(|l| !l.trim().is_empty()) {
        return Err("unexpected text after line 2".into());
    }
    if moves.chars().count() as i64 != claimed {
        return Err(format!(
            "line 2 has {} moves but line 1 says {claimed}",
            moves.chars().count()
        ));
    }
    match replay(map, moves) {
        Replay::Invalid(why) => Err(why),
        Replay::Arrived(n) => match optimum {
            Some(best) if best == n => Ok(format!("ok: {n} days, optimal, route valid")),
            Some(best) => Err(format!(
                "route valid but {n} days is not optimal (optimum {best})"
            )),
            None => Err("internal: replay arrived but search found no route".into()),
        },
    }
}
