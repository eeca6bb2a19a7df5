//! Playing levels: `run` (an agent on every level, the default) and `solve` (the provably optimal
//! plan, shortest or highest-scoring).

use super::{is_level_file, load_game, load_level, GameArg};
use crate::agents::{from_spec, run as run_agent};
use crate::rules::sim::{action_string, play};
use crate::rules::state::Outcome;
use crate::solve::{max_score_bounds, shortest};
use anyhow::{anyhow, bail, Result};
use batch::{output_name, run_batch, write_atomic, CommonArgs};
use clap::ValueEnum;
use search_core::{Deadline, Limits};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Level file or folder.
    level: PathBuf,
    /// Agent: dfs, dls:DEPTH[:MS], astar, bfs, mcts:MS (the homework's sample UCT),
    /// mcts-guided:MS (UCT over macro-actions guided by the push-aware bound).
    #[arg(long, default_value = "astar")]
    agent: String,
    #[command(flatten)]
    game: GameArg,
    #[command(flatten)]
    common: CommonArgs,
}

impl RunArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let RunArgs {
            level,
            agent,
            game,
            common,
        } = self;

        let g = load_game(&game)?;
        from_spec(&agent, common.seed).map_err(|e| anyhow!(e))?;
        let out_dir = common.output_dir(&level);
        let report = run_batch(&level, is_level_file, common.quiet, |path| {
            let lvl = load_level(&g, path)?;
            let mut a = from_spec(&agent, common.seed).map_err(|e| anyhow!(e))?;
            let r = run_agent(&lvl, a.as_mut());
            let line = game.result_line(&r.state);
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            write_plan(&out_dir, &name, &r.actions)?;
            if !common.quiet && !common.json {
                println!(
                    "{name} [{agent}]: {line}  ({:.2} s, slowest decision {:.1} ms)",
                    r.elapsed.as_secs_f64(),
                    r.slowest.as_secs_f64() * 1e3
                );
            }
            Ok(Outcome2 {
                level: name,
                result: line,
                win: r.state.outcome == Outcome::Won,
                score: r.state.score,
                actions: action_string(&r.actions),
                max_score: None,
                seconds: r.elapsed.as_secs_f64(),
                expanded: None,
            })
        })?;
        report.finish(&common)
    }
}

#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// Level file or folder.
    level: PathBuf,
    /// What to optimise.
    #[arg(long, value_enum, default_value_t = Objective::Shortest)]
    objective: Objective,
    /// Give up after expanding this many states.
    #[arg(long)]
    max_states: Option<u64>,
    /// Give up after this many seconds.
    #[arg(long, value_parser = batch::seconds_arg)]
    time: Option<f64>,
    #[command(flatten)]
    game: GameArg,
    #[command(flatten)]
    common: CommonArgs,
}

impl SolveArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let SolveArgs {
            level,
            objective,
            max_states,
            time,
            game,
            common,
        } = self;

        let g = load_game(&game)?;
        let out_dir = common.output_dir(&level);
        let report = run_batch(&level, is_level_file, common.quiet, |path| {
            let lvl = load_level(&g, path)?;
            let limits = Limits {
                max_expanded: max_states,
                deadline: time.map_or(Deadline::none(), |t| {
                    Deadline::after(Duration::from_secs_f64(t))
                }),
            };
            let t = std::time::Instant::now();
            let (best, plan, bounds) = match objective {
                Objective::Shortest => {
                    let p = shortest(&lvl, &limits);
                    (None, p, None)
                }
                Objective::MaxScore => max_score_bounds(&lvl, &limits),
            };
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if plan.stopped.is_some() {
                let proved = bounds.map_or("; nothing proved".to_string(), |b| {
                    if b.lower == b.upper {
                        return format!(
                            "; proved: the maximum score is {}, but the shortest plan \
                         reaching it was not; a win scoring {} in {} actions: {}",
                            b.lower,
                            b.lower,
                            b.witness.len(),
                            action_string(&b.witness)
                        );
                    }
                    format!(
                        "; proved: the maximum score is between {} and {} (no win scores \
                     more); a win scoring {}: {}",
                        b.lower,
                        b.upper,
                        b.lower,
                        action_string(&b.witness)
                    )
                });
                bail!(
                    "{name}: budget exhausted after {} states in {:.1} s{proved}",
                    plan.stats.expanded,
                    t.elapsed().as_secs_f64()
                );
            }
            if plan.actions.is_empty() {
                bail!("{name}: no winning play exists");
            }
            let states = play(&lvl, &plan.actions);
            let last = states.last().expect("the start");
            let line = game.result_line(last);
            write_plan(&out_dir, &name, &plan.actions)?;
            if !common.quiet && !common.json {
                println!(
                    "{name}: {} actions, score {}: {}\n  {line}  ({:.2} s, {} states expanded)",
                    plan.actions.len(),
                    plan.score,
                    action_string(&plan.actions),
                    t.elapsed().as_secs_f64(),
                    plan.stats.expanded
                );
            }
            Ok(Outcome2 {
                level: name,
                result: line,
                win: true,
                score: plan.score,
                actions: action_string(&plan.actions),
                max_score: best,
                seconds: t.elapsed().as_secs_f64(),
                expanded: Some(plan.stats.expanded),
            })
        })?;
        report.finish(&common)
    }
}

/// Writes a level's plan, as its action string, to OUT_DIR/output_LEVEL.txt.
fn write_plan(
    out_dir: &Path,
    level_name: &str,
    actions: &[crate::rules::sim::Action],
) -> Result<()> {
    let text = format!("{}\n", action_string(actions));
    write_atomic(
        &out_dir.join(output_name(level_name, "txt")),
        text.as_bytes(),
    )
}

#[derive(serde::Serialize)]
struct Outcome2 {
    level: String,
    result: String,
    win: bool,
    score: i32,
    actions: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_score: Option<i32>,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    expanded: Option<u64>,
}

/// What `solve` optimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Objective {
    /// Fewest actions to win.
    Shortest,
    /// Highest final score among wins (then fewest actions).
    MaxScore,
}
