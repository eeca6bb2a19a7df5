//! Tools over plans and traces: `grade` (a class's plans), `replay` (a plan drawn step by step),
//! `trace` (the engine's state dump) and `check-trace` (a dump compared with the simulator).

use super::run::Objective;
use super::{is_level_file, load_game, load_level, GameArg};
use crate::interfaces::render;
use crate::interfaces::trace::{check_trace, write_trace};
use crate::rules::sim::{parse_actions, play};
use anyhow::{anyhow, Result};
use batch::write_atomic;
use search_core::Limits;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct GradeClassArgs {
    #[command(flatten)]
    class: batch::grade::GradeArgs,
    /// What a correct plan achieves.
    #[arg(long, value_enum, default_value_t = Objective::Shortest)]
    objective: Objective,
    #[command(flatten)]
    game: GameArg,
}

impl GradeClassArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let (objective, game) = (self.objective, self.game);
        self.class.run("bait", |input, class, report| {
            let g = load_game(&game)?;
            let files = batch::collect_inputs(input, is_level_file)?;
            let mut levels = Vec::new();
            for file in &files {
                levels.push(load_level(&g, file)?);
            }
            let max_score = objective == Objective::MaxScore;
            let prepare = |i: usize| {
                let goal = crate::interfaces::grade::target(&levels[i], max_score, &Limits::none())
                    .ok_or_else(|| {
                        anyhow!(
                            "{}: the level cannot be won: nothing to grade against",
                            files[i].display()
                        )
                    })?;
                Ok((&levels[i], goal))
            };
            let context = format!(
                "bait grade --objective {objective:?} --game {:?}",
                game.game
            );
            batch::grade::grade_class(
                &context,
                &files,
                class,
                prepare,
                |(lvl, goal), text| crate::interfaces::grade::judge(lvl, *goal, text),
                report,
            )
        })
    }
}

/// A level and a plan over it, as `replay` and `trace` take them.
#[derive(Debug, clap::Args)]
struct PlanArgs {
    /// Level file.
    level: PathBuf,
    /// Actions over U D L R N.
    actions: String,
    #[command(flatten)]
    game: GameArg,
}

impl PlanArgs {
    /// The level and the parsed actions.
    fn load(
        &self,
    ) -> Result<(
        crate::rules::level::Level,
        Vec<crate::rules::action::Action>,
    )> {
        let g = load_game(&self.game)?;
        let lvl = load_level(&g, &self.level)?;
        let acts = parse_actions(&self.actions).map_err(|e| anyhow!(e))?;
        Ok((lvl, acts))
    }
}

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    plan: PlanArgs,
    /// Draw every step in the terminal.
    #[arg(long)]
    show: bool,
    /// Write a self-contained HTML page animating the replay.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

impl ReplayArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let (lvl, acts) = self.plan.load()?;
        let states = play(&lvl, &acts);
        let used = states.len() - 1;
        if self.show {
            print!("{}", render::show(&lvl, &states, &acts[..used]));
        }
        if let Some(file) = &self.html {
            let title = format!("Bait replay: {}", self.plan.level.display());
            write_atomic(
                file,
                render::html(&lvl, &states, &acts[..used], &title).as_bytes(),
            )?;
        }
        let last = states.last().expect("the start");
        println!("{}", self.plan.game.result_line(last));
        if used < acts.len() {
            eprintln!(
                "note: the game ended after {used} of {} actions",
                acts.len()
            );
        }
        Ok(0)
    }
}

#[derive(Debug, clap::Args)]
pub struct TraceArgs {
    #[command(flatten)]
    plan: PlanArgs,
}

impl TraceArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let (lvl, acts) = self.plan.load()?;
        print!("{}", write_trace(&lvl, &acts));
        Ok(0)
    }
}

#[derive(Debug, clap::Args)]
pub struct CheckTraceArgs {
    /// Level file.
    level: PathBuf,
    /// Trace file (`INIT`, `<A> <state>`..., `END` blocks).
    trace: PathBuf,
    #[command(flatten)]
    game: GameArg,
}

impl CheckTraceArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let CheckTraceArgs { level, trace, game } = self;

        let g = load_game(&game)?;
        let lvl = load_level(&g, &level)?;
        match check_trace(&lvl, &batch::read_text(&trace)?) {
            Ok((0, _)) => {
                println!("FAIL: {}: no trace to check", trace.display());
                Ok(1)
            }
            Ok((blocks, lines)) => {
                println!("ok: {blocks} blocks, {lines} lines identical");
                Ok(0)
            }
            Err(e) => {
                println!("FAIL: {}: {e}", trace.display());
                Ok(1)
            }
        }
    }
}
