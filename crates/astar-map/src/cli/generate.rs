//! `generate`: a random map, or a map on a Moving AI grid, in the course format.

use crate::generate::{map_from_grid, parse_movingai, random_map, Placement, RandomMap};
use anyhow::{bail, Context, Result};
use batch::write_atomic;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Rows M of a random map (1 to 10,000).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    rows: u64,
    /// Columns N of a random map (1 to 10,000).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    cols: u64,
    /// Food capacity T.
    #[arg(long, default_value_t = 5)]
    food: u32,
    /// Probability that a cell is a wall (0 to 1).
    #[arg(long, default_value_t = 0.2, value_parser = batch::fraction_arg)]
    walls: f64,
    /// Probability that a free cell is a supply point (0 to 1).
    #[arg(long, default_value_t = 0.1, value_parser = batch::fraction_arg)]
    supplies: f64,
    /// Seed.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    /// Build on a Moving AI `.map` grid instead of a random one.
    #[arg(long, value_name = "FILE.map")]
    movingai: Option<PathBuf>,
    /// Start cell `row,col` on a Moving AI grid (default random).
    #[arg(long, value_parser = parse_pos)]
    start: Option<(usize, usize)>,
    /// Station cell `row,col` on a Moving AI grid (default random).
    #[arg(long, value_parser = parse_pos)]
    station: Option<(usize, usize)>,
    /// Supply cell `row,col` on a Moving AI grid (repeatable; default: random with --supplies).
    #[arg(long = "supply", value_parser = parse_pos)]
    supply_cells: Vec<(usize, usize)>,
    /// Write the map here instead of stdout.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

fn generate(a: &GenerateArgs) -> Result<i32> {
    let map = match &a.movingai {
        Some(file) => {
            let text = batch::read_text(file)?;
            let grid = parse_movingai(&text).map_err(|e| e.in_file(file))?;
            let place = Placement {
                start: a.start,
                station: a.station,
                supplies: a.supply_cells.clone(),
                density: a.supplies,
                food: a.food,
                seed: a.seed,
            };
            map_from_grid(&grid, &place).map_err(|e| e.in_file(file))?
        }
        None => {
            if a.rows * a.cols < 2 {
                bail!("a map needs at least two cells");
            }
            random_map(&RandomMap {
                rows: a.rows as usize,
                cols: a.cols as usize,
                food: a.food,
                walls: a.walls,
                supplies: a.supplies,
                seed: a.seed,
            })
        }
    };
    let text = map.to_string();
    match &a.output {
        Some(path) => write_atomic(path, text.as_bytes()).with_context(|| "writing the map")?,
        None => print!("{text}"),
    }
    Ok(0)
}

impl GenerateArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        generate(&self)
    }
}

fn parse_pos(s: &str) -> Result<(usize, usize), String> {
    let (r, c) = s.split_once(',').ok_or("expected row,col")?;
    Ok((
        r.trim().parse().map_err(|_| format!("bad row `{r}`"))?,
        c.trim().parse().map_err(|_| format!("bad column `{c}`"))?,
    ))
}
