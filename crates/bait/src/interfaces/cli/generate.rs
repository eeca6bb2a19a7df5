//! `generate`: practice levels of a chosen size and material, each proven winnable.

use super::{load_game, GameArg};
use anyhow::{anyhow, Result};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
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
}

impl GenerateArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let GenerateArgs {
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
        } = self;

        let spec = crate::solve::generate::LevelSpec {
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
        let levels =
            crate::solve::generate::generate(&g, &spec, seed, count as usize, tries as usize);
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
}
