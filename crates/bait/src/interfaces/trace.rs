//! Traces: the state after every action in the format of the homework engine dumps
//! (`INIT <state>`, then `<A> <state>` per action until game over, then `END`), written by
//! [`write_trace`] and compared line by line by [`check_trace`].

use crate::rules::level::Level;
use crate::rules::sim::{step, trace_state, Action};

/// The trace block for playing `actions` from the start (stops at game over).
///
/// ```
/// use bait::{trace::write_trace, sim::parse_actions, Level, DEFAULT_GAME};
/// let level = Level::parse(DEFAULT_GAME.parse().unwrap(), "wwwww\nwgAww\nww  w\nw 11w\nwwk w\nwwwww").unwrap();
/// let t = write_trace(&level, &parse_actions("L").unwrap());
/// assert_eq!(t.lines().nth(1).unwrap(), "L t=1 s=0 w=NO_WINNER over=false avatar@1,2 box@3,2 box@3,3 goal@1,1 key@4,2");
/// ```
pub fn write_trace(level: &Level, actions: &[Action]) -> String {
    let mut s = level.initial;
    let mut out = format!("INIT {}\n", trace_state(level, &s));
    for &a in actions {
        if s.over() {
            break;
        }
        s = step(level, &s, a);
        out.push_str(&format!("{} {}\n", a.letter(), trace_state(level, &s)));
    }
    out.push_str("END\n");
    out
}

/// Replays every block of a trace file and compares each line; returns the number of blocks
/// and lines checked, or the first difference (`line N: expected ..., got ...`).
pub fn check_trace(level: &Level, text: &str) -> Result<(usize, usize), String> {
    let mut blocks = 0;
    let mut lines = 0;
    let mut state = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("INIT ") {
            let s = level.initial;
            let got = trace_state(level, &s);
            if got != rest {
                return Err(format!("line {n}: expected `{rest}`, got `{got}`"));
            }
            state = Some(s);
            blocks += 1;
        } else if line == "END" {
            state = None;
        } else {
            let (a, rest) = line
                .split_once(' ')
                .ok_or_else(|| format!("line {n}: not `<action> <state>`"))?;
            let action = a
                .chars()
                .next()
                .and_then(Action::from_letter)
                .filter(|_| a.len() == 1)
                .ok_or_else(|| format!("line {n}: `{a}` is not an action"))?;
            let s = state.ok_or_else(|| format!("line {n}: action outside a block"))?;
            let next = step(level, &s, action);
            let got = trace_state(level, &next);
            if got != rest {
                return Err(format!(
                    "line {n}: after {a}, expected `{rest}`, got `{got}`"
                ));
            }
            state = Some(next);
        }
        lines += 1;
    }
    Ok((blocks, lines))
}
