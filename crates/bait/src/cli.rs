//! The command line: `run` (default), `solve`, `replay`, `trace`, `check-trace`.

use crate::agents::{from_spec, run as run_agent};
use crate::level::Level;
use crate::render;
use crate::sim::{action_string, parse_actions, play, ResultLine};
use crate::solve::{max_score_bounds, shortest};
use crate::state::Outcome;
use crate::trace::{check_trace, write_trace};
use crate::vgdl::Game;
use anyhow::{anyhow, bail, Result};
use batch::{output_name, run_batch, write_atomic, CommonArgs};
use clap::{Parser, ValueEnum};
use search_core::{Deadline, Limits};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Debug, clap::Args)]
struct GameArg {
    /// Game description (VGDL); default: the project's own description of Bait.
    #[arg(long, value_name = "FILE")]
    game: Option<PathBuf>,
    /// Print the score as the Java engine does (`Score:5.0`).
    #[arg(long)]
    java_double: bool,
}

/// The GVGAI puzzle game Bait: agents, optimal solutions, replays.
#[derive(Debug, Parser)]
#[command(name = "bait", version, about)]
enum Command {
    /// Run an agent on a level (or every level of a folder): result line and action string.
    Run {
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
    },
    /// Provably optimal plan: the shortest win, or the highest score (then shortest).
    Solve {
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
    },
    /// Grade a class: every student folder of CLASS (outputs directly or in `output/`, one
    /// action string per level in `output_LEVEL.txt`) against every level of INPUT; any
    /// shortest win is accepted (with `--objective max-score`, any win of the best score in the
    /// fewest actions). Writes a CSV report and prints each student's score.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Grade {
        #[command(flatten)]
        class: batch::grade::GradeArgs,
        /// What a correct plan achieves.
        #[arg(long, value_enum, default_value_t = Objective::Shortest)]
        objective: Objective,
        #[command(flatten)]
        game: GameArg,
    },
    /// Validate and replay an action string: the engine's result line.
    Replay {
        /// Level file.
        level: PathBuf,
        /// Actions over U D L R N.
        actions: String,
        /// Draw every step in the terminal.
        #[arg(long)]
        show: bool,
        /// Write a self-contained HTML page animating the replay.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        #[command(flatten)]
        game: GameArg,
    },
    /// Print the engine-format trace (state after every action).
    Trace {
        /// Level file.
        level: PathBuf,
        /// Actions over U D L R N.
        actions: String,
        #[command(flatten)]
        game: GameArg,
    },
    /// Practice levels: random levels of the given size and material, each kept only when the
    /// solver proves it winnable with a shortest win of --min-actions..--max-actions actions.
    /// Writes gen_SEED_N.txt into -o DIR, or prints the levels (blank-line separated).
    Generate {
        /// Seed of the levels (level N of a seed is the same whatever --count).
        #[arg(long, default_value_t = 2024)]
        seed: u64,
        /// Levels to make.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        count: u32,
        /// Rows, border walls included.
        #[arg(long, default_value_t = 7)]
        rows: usize,
        /// Columns, border walls included.
        #[arg(long, default_value_t = 8)]
        cols: usize,
        /// Boxes.
        #[arg(long, default_value_t = 3)]
        boxes: usize,
        /// Holes.
        #[arg(long, default_value_t = 3)]
        holes: usize,
        /// Mushrooms.
        #[arg(long, default_value_t = 1)]
        mushrooms: usize,
        /// Inner walls, percent of the inner cells.
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(0..=60))]
        walls: u32,
        /// Fewest actions of the shortest win (the difficulty).
        #[arg(long, default_value_t = 15)]
        min_actions: usize,
        /// Most actions of the shortest win.
        #[arg(long, default_value_t = 60)]
        max_actions: usize,
        /// States the solver may expand per candidate.
        #[arg(long, default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1..))]
        max_states: u64,
        /// Candidates drawn per level before giving up.
        #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u32).range(1..))]
        tries: u32,
        /// Folder for the level files (default: print them).
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[command(flatten)]
        game: GameArg,
    },
    /// Compare a trace file with the simulator, line by line.
    CheckTrace {
        /// Level file.
        level: PathBuf,
        /// Trace file (`INIT`, `<A> <state>`..., `END` blocks).
        trace: PathBuf,
        #[command(flatten)]
        game: GameArg,
    },
}

/// What `solve` optimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Objective {
    /// Fewest actions to win.
    Shortest,
    /// Highest final score among wins (then fewest actions).
    MaxScore,
}

impl GameArg {
    /// The engine's result line for a final state, its score printed as this run asks.
    fn result_line(&self, state: &crate::state::State) -> String {
        ResultLine {
            state,
            java_double: self.java_double,
        }
        .to_string()
    }
}

/// Writes a level's plan, as its action string, to OUT_DIR/output_LEVEL.txt.
fn write_plan(out_dir: &Path, level_name: &str, actions: &[crate::sim::Action]) -> Result<()> {
    let text = format!("{}\n", action_string(actions));
    write_atomic(
        &out_dir.join(output_name(level_name, "txt")),
        text.as_bytes(),
    )
}

fn load_game(g: &GameArg) -> Result<Game> {
    match &g.game {
        Some(p) => batch::parse_file(p),
        None => crate::DEFAULT_GAME
            .parse()
            .map_err(|e| anyhow!("built-in game description: {e}")),
    }
}

fn load_level(game: &Game, path: &Path) -> Result<Level> {
    let text = batch::read_text(path)?;
    Level::parse(game.clone(), &text).map_err(|e| e.in_file(path).into())
}

/// Level files: `.txt` files that are not game descriptions.
fn is_level_file(p: &Path) -> bool {
    batch::is_txt_input(p) && std::fs::read_to_string(p).is_ok_and(|t| !t.contains("BasicGame"))
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    batch::run_main(|| dispatch(batch::parse_with_default_subcommand("run")))
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

fn dispatch(cli: Command) -> Result<i32> {
    match cli {
        Command::Generate {
            seed,
            count,
            rows,
            cols,
            boxes,
            holes,
            mushrooms,
            walls,
            min_actions,
            max_actions,
            max_states,
            tries,
            output,
            game,
        } => {
            let spec = crate::generate::LevelSpec {
                rows,
                cols,
                boxes,
                holes,
                mushrooms,
                wall_percent: walls,
                min_actions,
                max_actions,
                max_states,
            };
            spec.check().map_err(|e| anyhow!(e))?;
            let g = load_game(&game)?;
            let levels = crate::generate::generate(&g, &spec, seed, count as usize, tries as usize);
            let mut failed = 0;
            for (i, level) in levels.iter().enumerate() {
                let Some(level) = level else {
                    eprintln!(
                        "level {}: no candidate of {tries} had a shortest win of {min_actions}..{max_actions} actions",
                        i + 1
                    );
                    failed += 1;
                    continue;
                };
                let name = format!("gen_{seed}_{}.txt", i + 1);
                eprintln!(
                    "{name}: shortest win {} actions ({} candidates drawn)",
                    level.shortest, level.tries
                );
                match &output {
                    // write_atomic makes the folder.
                    Some(dir) => batch::write_atomic(&dir.join(&name), level.text.as_bytes())?,
                    None => {
                        if i > 0 {
                            println!();
                        }
                        print!("{}", level.text);
                    }
                }
            }
            Ok(i32::from(failed > 0))
        }
        Command::Run {
            level,
            agent,
            game,
            common,
        } => {
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
        Command::Solve {
            level,
            objective,
            max_states,
            time,
            game,
            common,
        } => {
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
        Command::Replay {
            level,
            actions,
            show,
            html,
            game,
        } => {
            let g = load_game(&game)?;
            let lvl = load_level(&g, &level)?;
            let acts = parse_actions(&actions).map_err(|e| anyhow!(e))?;
            let states = play(&lvl, &acts);
            let used = states.len() - 1;
            if show {
                print!("{}", render::show(&lvl, &states, &acts[..used]));
            }
            if let Some(file) = html {
                let title = format!("Bait replay: {}", level.display());
                write_atomic(
                    &file,
                    render::html(&lvl, &states, &acts[..used], &title).as_bytes(),
                )?;
            }
            let last = states.last().expect("the start");
            println!("{}", game.result_line(last));
            if used < acts.len() {
                eprintln!(
                    "note: the game ended after {used} of {} actions",
                    acts.len()
                );
            }
            Ok(0)
        }
        Command::Grade {
            class,
            objective,
            game,
        } => class.run(|input, class, report| {
            let g = load_game(&game)?;
            let files = batch::collect_inputs(input, is_level_file)?;
            let mut levels = Vec::new();
            for file in &files {
                levels.push(load_level(&g, file)?);
            }
            let max_score = objective == Objective::MaxScore;
            let prepare = |i: usize| {
                let goal = crate::grade::target(&levels[i], max_score, &Limits::none())
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
                |(lvl, goal), text| crate::grade::judge(lvl, *goal, text),
                report,
            )
        }),
        Command::Trace {
            level,
            actions,
            game,
        } => {
            let g = load_game(&game)?;
            let lvl = load_level(&g, &level)?;
            let acts = parse_actions(&actions).map_err(|e| anyhow!(e))?;
            print!("{}", write_trace(&lvl, &acts));
            Ok(0)
        }
        Command::CheckTrace { level, trace, game } => {
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
}
