//! Macro-actions: walk (through cells where walking changes nothing but the avatar's cell) to a
//! cell next to something, then take the one action that changes something there (push a box,
//! take the key, eat a mushroom, enter the goal). A win of forty actions is a dozen of them,
//! which is what lets the MCTS agent see far enough and the maximum-score search branch on
//! decisions rather than footsteps.

use crate::rules::level::Level;
use crate::rules::sim::{step, Action};
use crate::rules::state::{Outcome, State};

/// A macro-action: walk to `cell`, then take `action`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Macro {
    /// Where the walk ends.
    pub cell: u8,
    /// The action taken there.
    pub action: Action,
    /// Actions of the walk.
    pub walk: u16,
}

/// Whether `b` differs from `a` only in where the avatar stands (a plain step).
fn only_moved(a: &State, b: &State) -> bool {
    b.outcome == Outcome::Playing
        && b.movers == a.movers
        && b.alive == a.alive
        && b.avatar_type == a.avatar_type
        && b.avatar_alive == a.avatar_alive
        && b.score == a.score
}

/// Breadth-first over plain steps from `s`: for each cell reached, its state and the action
/// that reached it from its parent cell (`None` at the start).
fn walk_region(level: &Level, s: &State) -> Vec<(State, Option<(usize, Action)>)> {
    let mut seen = vec![false; level.rows * level.cols];
    let mut out: Vec<(State, Option<(usize, Action)>)> = vec![(*s, None)];
    seen[s.avatar_cell as usize] = true;
    let mut head = 0;
    while head < out.len() {
        let here = out[head].0;
        for a in Action::MOVES {
            let n = step(level, &here, a);
            if n != here && only_moved(&here, &n) && !seen[n.avatar_cell as usize] {
                seen[n.avatar_cell as usize] = true;
                out.push((n, Some((head, a))));
            }
        }
        head += 1;
    }
    out
}

/// The macro-actions from `s`, with the states they lead to: every action from a cell of the
/// walking region that changes more than the avatar's cell and does not lose.
pub fn macros(level: &Level, s: &State) -> Vec<(Macro, State)> {
    let region = walk_region(level, s);
    let mut depth = vec![0u16; region.len()];
    let mut out = Vec::new();
    for (i, (here, parent)) in region.iter().enumerate() {
        if let Some((p, _)) = parent {
            depth[i] = depth[*p] + 1;
        }
        for a in Action::MOVES {
            let n = step(level, here, a);
            if n != *here && !only_moved(here, &n) && n.outcome != Outcome::Lost {
                let m = Macro {
                    cell: here.avatar_cell,
                    action: a,
                    walk: depth[i],
                };
                out.push((m, n));
            }
        }
    }
    out
}

/// The actions that play macro `m` from `s` (the walk, then the macro's action).
pub fn expand_macro(level: &Level, s: &State, m: Macro) -> Option<Vec<Action>> {
    let region = walk_region(level, s);
    let mut at = region.iter().position(|(st, _)| st.avatar_cell == m.cell)?;
    let mut actions = vec![m.action];
    while let Some((parent, a)) = region[at].1 {
        actions.push(a);
        at = parent;
    }
    actions.reverse();
    Some(actions)
}
