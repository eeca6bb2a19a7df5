//! The course's batch job: `run` (the default), red's move for every board with its move lists
//! and the board drawn, and `perft`.

use crate::board::piece::Color;
use crate::course::course_io::{answer_line, YOrigin};
use crate::eval::EvalKind;
use crate::interfaces::svg;
use crate::rules::fen::{board_text, parse_board_file};
use crate::rules::framework::{self, ScoredMove};
use crate::rules::movegen::legal_moves;
use crate::rules::perft::{divide, perft};
use crate::rules::position::Position;
use crate::search::config::SearchConfig;
use crate::search::engine::{decide, Decision};
use crate::search::search_position::Rules;
use anyhow::{bail, Result};
use batch::{output_name, run_batch, write_atomic, CommonArgs};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// A board file (10 lines of 9 characters), a folder of them, or a FEN with --fen.
    input: String,
    #[command(flatten)]
    common: CommonArgs,
    /// Treat INPUT as a FEN string.
    #[arg(long)]
    fen: bool,
    /// Deepest search iteration in plies.
    #[arg(long, default_value_t = 7)]
    depth: u32,
    /// Time budget per position in seconds (0 for none).
    #[arg(long, default_value_t = 10.0, value_parser = batch::seconds_arg)]
    time: f64,
    /// Move rules for the search and the move lists.
    #[arg(long, value_enum, default_value_t = Rules::Legal)]
    rules: Rules,
    /// Evaluation.
    #[arg(long, value_enum, default_value_t = EvalKind::Course)]
    eval: EvalKind,
    /// Plain minimax to exactly --depth (no pruning, no table), for comparison.
    #[arg(long)]
    no_prune: bool,
    /// Where y = 0 is in the answer: bottom (red's back rank, the course rule) or top.
    #[arg(long, value_enum, default_value_t = YOrigin::Bottom)]
    y_origin: YOrigin,
    /// Folder for the move lists (default: `move/` beside an output folder named `output`, as
    /// the course lays them out, else `move/` inside the output folder).
    #[arg(long, value_name = "DIR")]
    moves_dir: Option<PathBuf>,
    /// Print nodes, depth and time per position on stderr.
    #[arg(long)]
    stats: bool,
    /// Write an SVG of the board with the move (a file for one input, a folder for many).
    #[arg(long, value_name = "PATH")]
    svg: Option<PathBuf>,
}

impl RunArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        run(&self)
    }
}

#[derive(serde::Serialize)]
struct RunResult {
    input: String,
    output: Option<PathBuf>,
    fen: String,
    answer: Option<String>,
    uci: Option<String>,
    score: i32,
    mate_in: Option<u32>,
    game_over: Option<String>,
    pv: Vec<String>,
    stats: search_core::GameStats,
}

/// Where the move lists go by default: `move/` beside an output folder named `output` (the
/// course's layout, `output/` and `move/` side by side), else `move/` inside it, so that a
/// run never writes outside the folder it was given.
fn moves_dir_for(out_dir: &std::path::Path) -> PathBuf {
    match (out_dir.file_name(), out_dir.parent()) {
        (Some(name), Some(parent)) if name == "output" => parent.join("move"),
        _ => out_dir.join("move"),
    }
}

fn run(a: &RunArgs) -> Result<i32> {
    let config = SearchConfig {
        depth: a.depth,
        time: (a.time > 0.0).then(|| Duration::from_secs_f64(a.time)),
        rules: a.rules,
        eval: a.eval,
        prune: !a.no_prune,
        ..Default::default()
    };
    if a.fen {
        let pos: Position = a.input.parse().map_err(|e| anyhow::anyhow!("FEN: {e}"))?;
        let d = decide(&pos, &config, |_| {});
        let r = report(&pos, &d, "fen", None, a);
        if a.common.json {
            println!("{}", serde_json::to_string_pretty(&r)?);
        } else {
            print!("{}", board_text(&pos));
            println!(
                "{}",
                r.answer.as_deref().unwrap_or("no legal move").trim_end()
            );
        }
        if let Some(path) = &a.svg {
            write_atomic(path, svg::render(&pos, d.mv, &caption(&r)).as_bytes())?;
        }
        if let Some(dir) = &a.common.output {
            // The answer as a course output file, as for a board file named `fen`.
            let out = dir.join("output_fen.txt");
            let line = r.answer.as_deref().unwrap_or("no legal move\n");
            write_atomic(&out, line.as_bytes())?;
            if !a.common.quiet && !a.common.json {
                eprintln!("wrote {}", out.display());
            }
        }
        return Ok(0);
    }
    let input = PathBuf::from(&a.input);
    let out_dir = a.common.output_dir(&input);
    let moves_dir = a
        .moves_dir
        .clone()
        .unwrap_or_else(|| moves_dir_for(&out_dir));
    let single = input.is_file();
    let report_all = run_batch(&input, batch::is_txt_input, a.common.quiet, |path| {
        let pos = parse_board_file(&batch::read_text(path)?).map_err(|e| e.in_file(path))?;
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let stem = name
            .rsplit_once('.')
            .map_or(name.as_str(), |s| s.0)
            .to_string();
        let d = decide(&pos, &config, |_| {});
        let out = out_dir.join(output_name(&name, "txt"));
        let mut r = report(&pos, &d, &name, Some(out.clone()), a);
        match &r.answer {
            Some(line) => write_atomic(&out, line.as_bytes())?,
            None => bail!(
                "{}: red has no legal move (the game is lost)",
                path.display()
            ),
        }
        for color in [Color::Red, Color::Black] {
            let file = moves_dir.join(format!(
                "{}_{stem}.txt",
                if color == Color::Red { "red" } else { "black" }
            ));
            write_atomic(
                &file,
                framework::print_moves(&move_list(&pos, color, a.rules)).as_bytes(),
            )?;
        }
        if let Some(svg_path) = &a.svg {
            let target = if single {
                svg_path.clone()
            } else {
                svg_path.join(output_name(&name, "svg"))
            };
            write_atomic(&target, svg::render(&pos, d.mv, &caption(&r)).as_bytes())?;
        }
        if a.stats {
            eprintln!(
                "{name}: depth {}, {} nodes, {:.1} ms, {:.0} nodes/s, score {}{}",
                d.stats.depth,
                d.stats.nodes,
                d.stats.elapsed.as_secs_f64() * 1e3,
                d.stats.nodes_per_second(),
                d.score,
                d.mate_in
                    .map_or(String::new(), |m| format!(" (mate in {m})"))
            );
        }
        if !a.common.quiet && !a.common.json {
            print!("{name}\n{}", board_text(&pos));
            let note = d
                .mate_in
                .map_or(String::new(), |m| format!("   mate in {m}"));
            let over = d
                .game_over
                .as_ref()
                .map_or(String::new(), |g| format!("   ({g})"));
            println!(
                "-> {}{note}{over}\n",
                r.answer.as_deref().unwrap_or("").trim_end()
            );
        }
        r.input = name;
        Ok(r)
    })?;
    report_all.finish(&a.common)
}

fn caption(r: &RunResult) -> String {
    let mut c = r.answer.clone().unwrap_or_default().trim_end().to_string();
    if let Some(m) = r.mate_in {
        c.push_str(&format!("  — mate in {m}"));
    }
    c
}

fn report(
    pos: &Position,
    d: &Decision,
    input: &str,
    output: Option<PathBuf>,
    a: &RunArgs,
) -> RunResult {
    RunResult {
        input: input.to_string(),
        output,
        fen: pos.to_string(),
        answer: d.mv.map(|m| answer_line(pos, m, a.y_origin)),
        uci: d.mv.map(|m| m.to_string()),
        score: d.score,
        mate_in: d.mate_in,
        game_over: d.game_over.clone(),
        pv: d.pv.iter().map(|m| m.to_string()).collect(),
        stats: d.stats,
    }
}

/// The move list of `color` in framework scan order: all framework moves, or (standard rules)
/// those that are legal.
pub fn move_list(pos: &Position, color: Color, rules: Rules) -> Vec<ScoredMove> {
    let list = framework::moves(pos, color);
    match rules {
        Rules::Framework => list,
        Rules::Legal => {
            let mut p = pos.clone();
            p.set_side(color);
            let mut legal = Vec::new();
            legal_moves(&p, &mut legal);
            list.into_iter().filter(|m| legal.contains(&m.mv)).collect()
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// Position in FEN (quote it).
    fen: String,
    /// Depth in plies.
    depth: u32,
    /// Also print the count below each root move.
    #[arg(long)]
    divide: bool,
}

impl PerftArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        perft_cmd(&self.fen, self.depth, self.divide)
    }
}

fn perft_cmd(fen: &str, depth: u32, show_divide: bool) -> Result<i32> {
    let mut pos: Position = fen.parse().map_err(|e| anyhow::anyhow!("FEN: {e}"))?;
    let t = Instant::now();
    let total = if show_divide {
        let parts = divide(&mut pos, depth);
        for (m, n) in &parts {
            println!("{m}: {n}");
        }
        parts.iter().map(|p| p.1).sum()
    } else {
        perft(&mut pos, depth)
    };
    let secs = t.elapsed().as_secs_f64();
    println!("perft {depth}: {total}");
    eprintln!(
        "{:.3} s, {:.1} M leaves/s",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(0)
}
