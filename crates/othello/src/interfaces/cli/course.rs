//! The course's own subcommands: the batch job `run`, `generate`, `perft`, the checks of its
//! heuristic and node-count tables (`vectors`, `nodecounts`), a fixed-depth `search`, the
//! `timing-table` and `eval`.

use crate::rules::perft::perft;
use crate::rules::position::Position;
use anyhow::{anyhow, Result};
use std::time::Instant;
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// An `.obf` or `.timing` file, or a folder of them.
    input: std::path::PathBuf,
    #[command(flatten)]
    common: batch::CommonArgs,
}

impl RunArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let RunArgs { input, common } = self;

        run(&input, &common)
    }
}

#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Empty squares of the positions, comma-separated (1 to 40).
    #[arg(long, value_delimiter = ',', required = true,
          value_parser = clap::value_parser!(u32).range(1..=40))]
    empties: Vec<u32>,
    /// Positions per number of empties.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    count: u64,
    /// Seed of the games.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
}

impl GenerateArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let lines = crate::interfaces::run::generate_positions(
            &self.empties,
            self.count as usize,
            self.seed,
        );
        for line in lines {
            println!("{line}");
        }
        Ok(0)
    }
}

#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// Depth in plies.
    depth: u32,
    /// Start position (OBF board and side); default: the standard start.
    #[arg(allow_hyphen_values = true)]
    position: Option<String>,
    /// Moves to play first, like f5d6c3.
    #[arg(long)]
    moves: Option<String>,
}

impl PerftArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let PerftArgs {
            depth,
            position,
            moves,
        } = self;

        let mut p = match position {
            Some(s) => s.parse::<Position>().map_err(|e| anyhow!(e))?,
            None => Position::default(),
        };
        if let Some(m) = moves {
            p = p.play_sequence(&m).map_err(|e| anyhow!(e))?;
        }
        let t = Instant::now();
        let n = perft(&p, depth);
        let secs = t.elapsed().as_secs_f64();
        println!("perft {depth}: {n}");
        eprintln!(
            "{secs:.3} s, {:.1} M leaves/s",
            n as f64 / secs.max(1e-9) / 1e6
        );
        Ok(0)
    }
}

#[derive(Debug, clap::Args)]
pub struct VectorsArgs {
    /// The TSV file.
    file: std::path::PathBuf,
}

impl VectorsArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let VectorsArgs { file } = self;

        let text = batch::read_text(&file)?;
        let (mut ok, mut bad) = (0, 0);
        let mut p = Position::default();
        for (i, line) in text.lines().enumerate().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            if cols.len() < 10 {
                continue;
            }
            let mv = cols[0].split(':').nth(1).unwrap_or("");
            if mv != "start" {
                let m: crate::rules::position::Move = mv
                    .parse()
                    .map_err(|e| anyhow!("{}:{}: {e}", file.display(), i + 1))?;
                if !p.is_legal(m) {
                    return Err(anyhow!(
                        "{}:{}: {mv} is illegal here",
                        file.display(),
                        i + 1
                    ));
                }
                p = p.play(m);
            }
            let got = row(&p);
            let want = cols[1..10].join("\t");
            if got == want {
                ok += 1;
            } else {
                bad += 1;
                println!(
                    "{}:{}: expected {want}\n    got {got}",
                    file.display(),
                    i + 1
                );
            }
        }
        println!("{ok} passed, {bad} failed");
        if ok + bad == 0 {
            return Err(anyhow!("{}: no rows to check", file.display()));
        }
        Ok(i32::from(bad > 0))
    }
}

#[derive(Debug, clap::Args)]
pub struct NodecountsArgs {
    /// The TSV file.
    file: std::path::PathBuf,
}

impl NodecountsArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let NodecountsArgs { file } = self;

        use crate::search::deciders::{search, Algorithm, MoveOrder};
        let text = batch::read_text(&file)?;
        let (mut ok, mut bad) = (0, 0);
        for (i, line) in text.lines().enumerate().skip(1) {
            let c: Vec<&str> = line.split('\t').collect();
            if c.len() < 6 {
                continue;
            }
            let moves = c[0].split_once(':').map_or("", |m| m.1);
            let p = Position::default()
                .play_sequence(moves)
                .map_err(|e| anyhow!("{}:{}: {e}", file.display(), i + 1))?;
            let depth: u32 = c[1]
                .parse()
                .map_err(|_| anyhow!("{}:{}: bad depth", file.display(), i + 1))?;
            let (mv, mr) = search(&p, depth, Algorithm::Minimax, MoveOrder::Course);
            let (av, ar) = search(&p, depth, Algorithm::Alphabeta, MoveOrder::Course);
            let got = format!("{mv}.0\t{}\t{av}.0\t{}", mr.stats.leaves, ar.stats.leaves);
            let want = c[2..6].join("\t");
            if got == want {
                ok += 1;
            } else {
                bad += 1;
                println!("{}:{}: expected {want}, got {got}", file.display(), i + 1);
            }
        }
        println!("{ok} passed, {bad} failed");
        if ok + bad == 0 {
            return Err(anyhow!("{}: no rows to check", file.display()));
        }
        Ok(i32::from(bad > 0))
    }
}

#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// Depth in plies (the root move is ply 1).
    depth: u32,
    /// Moves from the start, like f5f6e6.
    #[arg(long, default_value = "")]
    moves: String,
    /// Minimax, alpha-beta or MTD(f).
    #[arg(long, value_enum, default_value_t = crate::search::deciders::Algorithm::Alphabeta)]
    algo: crate::search::deciders::Algorithm,
    /// Write the search tree as Graphviz DOT (and SVG when `dot` is installed) into DIR.
    #[arg(long, value_name = "DIR")]
    trace: Option<std::path::PathBuf>,
    /// Move order of the searches: the course framework's, or fewest replies first.
    #[arg(long, value_enum, default_value_t = crate::search::deciders::MoveOrder::Course)]
    order: crate::search::deciders::MoveOrder,
}

impl SearchArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let SearchArgs {
            depth,
            moves,
            algo,
            trace,
            order,
        } = self;

        let p = Position::default()
            .play_sequence(&moves)
            .map_err(|e| anyhow!(e))?;
        if let Some(dir) = trace {
            let traced = crate::interfaces::trace::trace_search(
                &p,
                depth,
                algo,
                order,
                crate::search::deciders::HeuristicKind::Course,
            );
            eprintln!(
                "{}",
                crate::interfaces::trace::write_trace(&dir, &p, &traced)?
            );
        }
        let t = Instant::now();
        let (value, r) = crate::search::deciders::search(&p, depth, algo, order);
        println!(
            "value {value} (black's side), best {}, {} leaves, {} nodes, {:.1} ms",
            r.best.map_or("-".into(), |m| m.to_string()),
            r.stats.leaves,
            r.stats.nodes,
            t.elapsed().as_secs_f64() * 1e3
        );
        Ok(0)
    }
}

#[derive(Debug, clap::Args)]
pub struct TimingTableArgs {
    /// Depths, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = vec![2, 3, 4, 5, 6])]
    depths: Vec<u32>,
    /// Self-play games per cell.
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Stop measuring a cell after this many seconds.
    #[arg(long, default_value_t = 20.0)]
    cap: f64,
    /// Move order of the searches: the course framework's, or fewest replies first.
    #[arg(long, value_enum, default_value_t = crate::search::deciders::MoveOrder::Course)]
    order: crate::search::deciders::MoveOrder,
    /// Seed of the tie-breaks.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
}

impl TimingTableArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let TimingTableArgs {
            depths,
            games,
            cap,
            order,
            seed,
        } = self;

        print!(
            "{}",
            crate::interfaces::play::timing_table(
                &depths,
                order,
                games,
                seed,
                std::time::Duration::from_secs_f64(cap)
            )
        );
        Ok(0)
    }
}

#[derive(Debug, clap::Args)]
pub struct EvalArgs {
    /// Moves like f5f6e6.
    #[arg(default_value = "")]
    moves: String,
}

impl EvalArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let EvalArgs { moves } = self;

        let p = Position::default()
            .play_sequence(&moves)
            .map_err(|e| anyhow!(e))?;
        println!("board\tside\tstatus\tpiece\tmove\tcorner\tstability\theuristic\tactions");
        println!("{}", row(&p));
        Ok(0)
    }
}

/// `othello run`: every job file under `input`, one output file each, and the summary line.
fn run(input: &std::path::Path, common: &batch::CommonArgs) -> Result<i32> {
    use crate::interfaces::run::{is_job_file, output_file_name, run_job};
    let out_dir = common.output_dir(input);
    let report = batch::run_batch(input, is_job_file, common.quiet, |path| {
        let output = run_job(path, &batch::read_text(path)?)?;
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let out = out_dir.join(output_file_name(&name));
        batch::write_atomic(&out, output.text.as_bytes())?;
        if !common.quiet && !common.json {
            println!("{name} -> {}: {}", out.display(), output.summary);
        }
        Ok(output)
    })?;
    report.finish(common)
}

/// One row of the course vectors table for `p`.
fn row(p: &Position) -> String {
    let t = crate::eval::course::terms(p);
    let text = p.to_string();
    let (board, side) = text.split_at(64);
    let actions: Vec<String> = crate::eval::course::actions(p)
        .into_iter()
        .map(crate::eval::course::action_text)
        .collect();
    format!(
        "{board}\t{}\t{:?}\t{}\t{}\t{}\t{}\t{}.0\t{}",
        side.trim(),
        t.status,
        t.piece,
        t.mobility,
        t.corner,
        t.stability,
        t.heuristic,
        actions.join(" ")
    )
}
