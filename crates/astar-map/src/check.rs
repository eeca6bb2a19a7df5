//! Validating an output file against its map, as a grader would (spec §6).
//!
//! Paths are not unique, so a checker must not diff move strings. It checks the format (line 1
//! an integer, nothing after `-1`, line 2 only `U D L R`), replays the moves under the food rule
//! (every step in bounds, off walls, with food to spend, ending on the station, as many moves as
//! line 1 says), and compares line 1 with the optimum found by its own search, so a `-1` claim
//! is verified too.

use crate::heuristics::HeuristicKind;
use crate::map::{Cell, Dir, Map};
use crate::solve::{solve, SolveOptions};
use batch::grade::Verdict;

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

/// The fewest days to the station (`None`: unreachable), by this tool's own search: what an
/// output file is checked against.
pub fn optimum(map: &Map) -> Option<usize> {
    solve(
        map,
        &SolveOptions {
            heuristic: HeuristicKind::Supply,
            ..Default::default()
        },
    )
    .steps
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
    match judge(map, optimum(map), text) {
        (Verdict::Ok, why) => Ok(why),
        (_, why) => Err(why),
    }
}

/// The verdict on an output file's text given the map's `optimum`: `ok` for any route of the
/// fewest days (or a true `-1`), `wrong` for a valid route that is longer or a false `-1`,
/// `invalid` for a file that breaks the format or a route that breaks the rules.
///
/// ```
/// use astar_map::{check::{judge, optimum}, Map};
/// use batch::grade::Verdict;
/// let map: Map = "2 3 9\n3 0 0\n0 0 4".parse().unwrap();
/// let best = optimum(&map);
/// assert_eq!(judge(&map, best, "3\nRRD\n").0, Verdict::Ok);
/// assert_eq!(judge(&map, best, "3\nDRR\n").0, Verdict::Ok); // another shortest route
/// assert_eq!(judge(&map, best, "5\nRLRRD\n").0, Verdict::Wrong);
/// assert_eq!(judge(&map, best, "3\nUUU\n").0, Verdict::Invalid);
/// ```
pub fn judge(map: &Map, optimum: Option<usize>, text: &str) -> (Verdict, String) {
    let invalid = |why: String| (Verdict::Invalid, why);
    let mut lines = text.lines().map(|l| l.trim_end_matches('\r'));
    let Some(first) = lines.next().map(str::trim) else {
        return invalid("empty output file".into());
    };
    let Ok(claimed) = first.parse::<i64>() else {
        return invalid(format!("line 1: `{first}` is not an integer"));
    };
    let rest: Vec<&str> = lines.collect();
    if claimed == -1 {
        if rest.iter().any(|l| !l.trim().is_empty()) {
            return invalid("line 2: nothing may follow -1".into());
        }
        return match optimum {
            None => (Verdict::Ok, "ok: -1 (the station is unreachable)".into()),
            Some(n) => (
                Verdict::Wrong,
                format!("claims -1 but the station is reachable in {n} days"),
            ),
        };
    }
    if claimed < 0 {
        return invalid(format!("line 1: {claimed} is neither -1 nor a day count"));
    }
    let moves = rest.first().map(|l| l.trim()).unwrap_or("");
    if rest.iter().skip(1).any(|l| !l.trim().is_empty()) {
        return invalid("unexpected text after line 2".into());
    }
    if moves.chars().count() as i64 != claimed {
        return invalid(format!(
            "line 2 has {} moves but line 1 says {claimed}",
            moves.chars().count()
        ));
    }
    match replay(map, moves) {
        Replay::Invalid(why) => invalid(why),
        Replay::Arrived(n) => match optimum {
            Some(best) if best == n => (Verdict::Ok, format!("ok: {n} days, optimal, route valid")),
            Some(best) => (
                Verdict::Wrong,
                format!("route valid but {n} days is not optimal (optimum {best})"),
            ),
            None => invalid("internal: replay arrived but search found no route".into()),
        },
    }
}
