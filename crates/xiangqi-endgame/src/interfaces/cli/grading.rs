//! Checking and grading answers (`check`, `grade`) and the report's pruning table (`compare`).

use crate::board::piece::Color;
use crate::course::course_io::{answer_line, YOrigin};
use crate::eval::EvalKind;
use crate::rules::fen::parse_board_file;
use crate::rules::movegen::legal_moves;
use crate::search::config::SearchConfig;
use crate::search::engine::fixed_depth;
use crate::search::search_position::Rules;
use anyhow::Result;
use batch::output_name;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// A board file or a folder of N.txt.
    input: PathBuf,
    /// An answer file or a folder of output_N.txt.
    output: PathBuf,
    #[command(flatten)]
    grading: GradingArgs,
}

impl CheckArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        check(&self.input, &self.output, &self.grading)
    }
}

#[derive(Debug, clap::Args)]
pub struct GradeClassArgs {
    #[command(flatten)]
    class: batch::grade::GradeArgs,
    #[command(flatten)]
    grading: GradingArgs,
}

impl GradeClassArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let GradeClassArgs { class, grading } = self;
        class.run("xiangqi-endgame", |input, class, report| {
            let files = batch::collect_inputs(input, batch::is_txt_input)?;
            let mut boards = Vec::new();
            for file in &files {
                let text = batch::read_text(file)?;
                boards.push(parse_board_file(&text).map_err(|e| e.in_file(file))?);
            }
            let config = grading.search_config();
            let context = format!(
                "xiangqi-endgame grade --depth {} --y-origin {:?}",
                grading.depth, grading.y_origin
            );
            batch::grade::grade_class(
                &context,
                &files,
                class,
                |i| {
                    Ok((
                        &boards[i],
                        crate::course::grade::move_values(&boards[i], &config),
                    ))
                },
                |(pos, values), text| {
                    crate::course::grade::judge(pos, values, text, grading.y_origin)
                },
                report,
            )
        })
    }
}

/// How answers are judged.
#[derive(Debug, clap::Args)]
pub struct GradingArgs {
    /// Search depth in plies at which the best result is decided (2 to 12; `run`'s default
    /// depth, so that its answers are judged at the depth they were chosen).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(2..=12))]
    depth: u32,
    /// Where y = 0 is in the answers: bottom (red's back rank, the course rule) or top.
    #[arg(long, value_enum, default_value_t = YOrigin::Bottom)]
    y_origin: YOrigin,
}

impl GradingArgs {
    /// The search that decides the best result: the grading depth, no clock.
    fn search_config(&self) -> SearchConfig {
        SearchConfig {
            depth: self.depth,
            time: None,
            ..Default::default()
        }
    }
}

/// Every board under `input` with the answer file name and the values of its moves.
fn graded_boards(
    input: &Path,
    grading: &GradingArgs,
) -> Result<Vec<batch::grade::GradeInput<crate::course::grade::Board>>> {
    let config = grading.search_config();
    let mut boards = Vec::new();
    for file in batch::collect_inputs(input, batch::is_txt_input)? {
        let pos = parse_board_file(&batch::read_text(&file)?).map_err(|e| e.in_file(&file))?;
        let values = crate::course::grade::move_values(&pos, &config);
        let name = file
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        boards.push((name.clone(), output_name(&name, "txt"), (pos, values)));
    }
    Ok(boards)
}

/// `xiangqi-endgame check`: one verdict line per answer file; exit 1 if any is not ok.
fn check(input: &Path, output: &Path, grading: &GradingArgs) -> Result<i32> {
    let boards = graded_boards(input, grading)?;
    let single = !input.is_dir();
    let mut bad = 0;
    for (_, answer_name, (pos, values)) in &boards {
        let file = if single {
            output.to_path_buf()
        } else {
            output.join(answer_name)
        };
        let (verdict, detail) = match batch::read_text(&file) {
            Ok(text) => crate::course::grade::judge(pos, values, &text, grading.y_origin),
            Err(e) => (batch::grade::Verdict::Missing, format!("{e:#}")),
        };
        bad += usize::from(verdict != batch::grade::Verdict::Ok);
        if verdict == batch::grade::Verdict::Ok {
            println!("{}: {detail}", file.display());
        } else {
            println!("{}: {}: {detail}", file.display(), verdict.as_str());
        }
    }
    Ok(i32::from(bad > 0))
}

#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// Board file or folder.
    input: PathBuf,
    /// Depths to compare, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = vec![3, 4])]
    depths: Vec<u32>,
    /// Move rules.
    #[arg(long, value_enum, default_value_t = Rules::Legal)]
    rules: Rules,
    /// Skip unpruned searches larger than this many nodes (estimated from the pruned one).
    #[arg(long, default_value_t = 200_000_000)]
    max_minimax_nodes: u64,
}

impl CompareArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        compare(
            &self.input,
            &self.depths,
            self.rules,
            self.max_minimax_nodes,
        )
    }
}

fn compare(input: &Path, depths: &[u32], rules: Rules, max_minimax: u64) -> Result<i32> {
    let files = batch::collect_inputs(input, batch::is_txt_input)?;
    println!("| input | depth | alpha-beta nodes | ms | move | minimax nodes | ms | move | nodes saved |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for f in files {
        let pos = parse_board_file(&batch::read_text(&f)?).map_err(|e| e.in_file(&f))?;
        let name = f
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if pos.king(Color::Black).is_none() || pos.king(Color::Red).is_none() {
            println!("| {name} | – | a king is missing: the game is over | | | | | | |");
            continue;
        }
        let mut last_ratio = 1.0f64;
        for &depth in depths {
            let ab = fixed_depth(&pos, depth, true, rules, EvalKind::Course);
            let line = |m: Option<crate::board::square::Move>| {
                m.map_or("-".into(), |m| {
                    answer_line(&pos, m, YOrigin::Bottom).trim_end().to_string()
                })
            };
            // Estimate minimax's size from the branching factor to skip hopeless runs.
            let mut moves = Vec::new();
            legal_moves(&pos, &mut moves);
            let estimate = (moves.len().max(2) as f64).powi(depth as i32) * last_ratio.max(0.5);
            let (mm_nodes, mm_ms, mm_move, saved) = if estimate <= max_minimax as f64 {
                let mm = fixed_depth(&pos, depth, false, rules, EvalKind::Course);
                last_ratio = mm.stats.nodes as f64 / (moves.len().max(2) as f64).powi(depth as i32);
                (
                    mm.stats.nodes.to_string(),
                    format!("{:.1}", mm.stats.elapsed.as_secs_f64() * 1e3),
                    line(mm.best),
                    format!(
                        "{:.1}%",
                        100.0 * (1.0 - ab.stats.nodes as f64 / mm.stats.nodes as f64)
                    ),
                )
            } else {
                ("skipped".into(), "".into(), "".into(), "".into())
            };
            println!(
                "| {name} | {depth} | {} | {:.1} | {} | {mm_nodes} | {mm_ms} | {mm_move} | {saved} |",
                ab.stats.nodes,
                ab.stats.elapsed.as_secs_f64() * 1e3,
                line(ab.best)
            );
        }
    }
    Ok(0)
}
