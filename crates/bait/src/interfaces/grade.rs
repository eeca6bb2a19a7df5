//! Grading action strings: a student's plan for a level is replayed by the simulator and
//! compared with the optimum that `solve` proves, so that every shortest win is accepted, not
//! only the one this tool would print (a level has many).

use crate::rules::level::Level;
use crate::rules::sim::{parse_actions, play};
use crate::rules::state::Outcome;
use crate::solve::{max_score, shortest};
use batch::grade::Verdict;
use search_core::Limits;

/// What a correct plan must reach on a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    /// The fewest actions of a winning plan (of a winning plan with `score`, when set).
    pub length: usize,
    /// With the max-score objective: the highest score of a win.
    pub score: Option<i32>,
}

/// The target on `level`: the shortest win, or with `best_score` the highest-scoring win and
/// the fewest actions that reach it. `None` when the level cannot be won (or the search ran out
/// of its `limits`).
pub fn target(level: &Level, best_score: bool, limits: &Limits) -> Option<Target> {
    let (score, plan) = if best_score {
        max_score(level, limits)
    } else {
        (None, shortest(level, limits))
    };
    if plan.stopped.is_some() || plan.actions.is_empty() {
        return None;
    }
    Some(Target {
        length: plan.actions.len(),
        score: score.filter(|_| best_score),
    })
}

/// The verdict on a student's action string: `ok` for any win of the target's length (and
/// score), `wrong` for a plan that is legal but does not win or wins worse, `invalid` for text
/// that is not an action string.
///
/// ```
/// use bait::grade::{judge, target};
/// use bait::{Level, DEFAULT_GAME};
/// use batch::grade::Verdict;
/// let level = Level::parse(DEFAULT_GAME.parse().unwrap(), "wwwww\nwgAww\nww  w\nw 11w\nwwk w\nwwwww").unwrap();
/// let goal = target(&level, false, &search_core::Limits::none()).unwrap();
/// let shortest = bait::solve::shortest(&level, &search_core::Limits::none());
/// let plan = bait::sim::action_string(&shortest.actions);
/// assert_eq!(judge(&level, goal, &plan).0, Verdict::Ok);
/// assert_eq!(judge(&level, goal, "NNN").0, Verdict::Wrong);
/// assert_eq!(judge(&level, goal, "go east").0, Verdict::Invalid);
/// ```
pub fn judge(level: &Level, target: Target, text: &str) -> (Verdict, String) {
    let actions = match parse_actions(text) {
        Ok(a) if a.is_empty() => return (Verdict::Invalid, "no actions".into()),
        Ok(a) => a,
        Err(e) => return (Verdict::Invalid, e),
    };
    let states = play(level, &actions);
    let last = states.last().expect("play returns the start state");
    let used = states.len() - 1;
    if last.outcome != Outcome::Won {
        let how = if last.outcome == Outcome::Lost {
            "loses"
        } else {
            "does not finish the level"
        };
        return (
            Verdict::Wrong,
            format!("{how} (score {} after {used} actions)", last.score),
        );
    }
    if used < actions.len() {
        return (
            Verdict::Wrong,
            format!(
                "wins after {used} actions but goes on for {} (the shortest win takes {})",
                actions.len(),
                target.length
            ),
        );
    }
    if let Some(best) = target.score {
        if last.score != best {
            return (
                Verdict::Wrong,
                format!("wins with score {}, the best is {best}", last.score),
            );
        }
    }
    let what = if target.score.is_some() {
        "the shortest win with the best score"
    } else {
        "the shortest win"
    };
    if used != target.length {
        return (
            Verdict::Wrong,
            format!("wins in {used} actions, {what} takes {}", target.length),
        );
    }
    (
        Verdict::Ok,
        format!("ok: wins in {used} actions with score {}", last.score),
    )
}
