//! Learning: `train` (endgame weights, piece-square tables or activity terms from games) and
//! `train-net` (the network from the engine's own games).

use anyhow::{bail, Result};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The text of every file.
fn read_all(files: &[PathBuf]) -> Result<Vec<String>> {
    files.iter().map(|f| batch::read_text(f)).collect()
}

/// The games files' names, for a weights file's header.
fn file_names(games: &[PathBuf]) -> String {
    let names: Vec<String> = games
        .iter()
        .map(|g| {
            g.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        })
        .collect();
    names.join(" ")
}

/// How `train --tables` and `train --activity` name what they fit.
struct FitNames {
    /// The evaluation the labels are searched with and the fit starts from.
    base: &'static str,
    /// What was fitted, as the summary's errors name it.
    learned: &'static str,
    /// The learned file's header up to the command's options.
    learned_by: &'static str,
}

/// The summary line of a fit to search labels (`train --tables`, `train --activity`) searched
/// to `label_nodes` nodes: the errors against the labels and then against the results.
fn labelled_fit_summary<T>(
    t: &crate::learn::train_tables::LabelledFit<T>,
    label_nodes: u64,
    names: &FitNames,
) -> String {
    let FitNames { base, learned, .. } = names;
    format!(
        "{} positions fitted, {} held back (every tenth game), each labelled by a search of {} \
         nodes with the {base}; logistic scale {:.1}; mean squared error against the labels \
         with the {base} {:.5} (held back {:.5}), with {learned} {:.5} (held back {:.5}); \
         against the held-back games' results: {base} {:.5}, {learned} {:.5}, the labelling \
         search {:.5}",
        t.positions.0,
        t.positions.1,
        label_nodes,
        t.scale,
        t.base_error.0,
        t.base_error.1,
        t.fitted_error.0,
        t.fitted_error.1,
        t.result_error.0,
        t.result_error.1,
        t.result_error.2,
    )
}

/// `train --tables` or `train --activity`: `fit` learns from the games' texts, `text` writes
/// what it learned.
fn train_labelled_cmd<T>(
    games: &[PathBuf],
    output: &Path,
    source: &str,
    options: &crate::learn::train_tables::TableOptions,
    names: &FitNames,
    fit: impl FnOnce(
        &[String],
    ) -> std::result::Result<
        crate::learn::train_tables::LabelledFit<T>,
        (usize, batch::InputError),
    >,
    text: impl FnOnce(&T) -> String,
) -> Result<i32> {
    batch::check_output(output, games)?;
    let texts = read_all(games)?;
    let t = fit(&texts).map_err(|(i, e)| e.in_file(&games[i]))?;
    let summary = labelled_fit_summary(&t, options.label_nodes, names);
    let how = format!(
        "{} --label-nodes {} --every {} {}`.",
        names.learned_by,
        options.label_nodes,
        options.every,
        file_names(games)
    );
    write_learned(output, &how, source, &summary, &text(&t.learned))?;
    println!("{summary}");
    Ok(0)
}

/// A share from 0 to 1.
fn share_arg(s: &str) -> std::result::Result<f64, String> {
    s.parse::<f64>()
        .ok()
        .filter(|v| (0.0..=1.0).contains(v))
        .ok_or_else(|| format!("`{s}` is not a number from 0 to 1"))
}

fn train_net_cmd(
    output: &Path,
    options: &crate::learn::train_net::NetOptions,
    data: Option<&Path>,
    records: &[crate::notation::pgn::Game],
) -> Result<i32> {
    use crate::learn::train_net::{fit_network, positions_from_text, positions_to_text};
    let started = Instant::now();
    let cpu_before = batch::process_cpu_time();
    let positions = match data {
        Some(file) if file.exists() => {
            let text = batch::read_text(file)?;
            let (flags, positions) = positions_from_text(&text).map_err(|e| e.in_file(file))?;
            if flags != options.data_flags() {
                bail!(
                    "{}: the positions were made with `{flags}`, not `{}`: pass the same options",
                    file.display(),
                    options.data_flags()
                );
            }
            eprintln!(
                "{} labelled positions read from {}",
                positions.len(),
                file.display()
            );
            positions
        }
        _ => {
            let mut positions = crate::learn::train_net::self_play_positions(options, records);
            if let Some(r) = &options.records {
                let bar = batch::progress_bar(records.len() as u64, "games labelled", false);
                positions.extend(crate::learn::train_net::record_positions(
                    records,
                    r,
                    options.play,
                    options.threads,
                    options.games,
                    &|| bar.inc(1),
                ));
                bar.finish_and_clear();
            }
            if let Some(file) = data {
                batch::write_atomic(file, positions_to_text(&positions, options).as_bytes())?;
                eprintln!(
                    "{} labelled positions written to {}",
                    positions.len(),
                    file.display()
                );
            }
            positions
        }
    };
    let games_secs = started.elapsed().as_secs_f64();
    let mut t = fit_network(&positions, options)?;
    let cpu = match (cpu_before, batch::process_cpu_time()) {
        (Some(a), Some(b)) => format!("{:.0} s of CPU", (b - a).as_secs_f64()),
        _ => "CPU time unknown".to_string(),
    };
    let stages = ["opening", "middlegame", "endgame", "all"];
    let per_stage: Vec<String> = stages
        .iter()
        .zip(&t.label_error)
        .map(|(name, (a, b))| format!("{name} {a:.5} -> {b:.5}"))
        .collect();
    let description = format!(
        "Made by `xiangqi-endgame train-net {} --epochs {} --result-weight {}` in {:.0} s wall ({:.0} s of it making or reading the positions), \
         {cpu}: {} samples fitted (each position as it is and with its files mirrored) and {} positions held back (every tenth game), labels from the \
         searches blended with the results, logistic scale {:.1}; epoch {} kept. \
         Held-back squared error against the search labels, piece-square evaluation -> with \
         the network: {}. Against the held-back results: {:.5} -> {:.5} (the labelling \
         searches {:.5}). Largest quantisation difference on the held-back positions: {:.1}.",
        options.data_flags(),
        options.epochs,
        options.result_weight,
        started.elapsed().as_secs_f64(),
        games_secs,
        t.positions.0,
        t.positions.1,
        t.scale,
        t.epoch,
        per_stage.join(", "),
        t.result_error.0,
        t.result_error.1,
        t.result_error.2,
        t.quantisation_error,
    );
    t.network.description = description.clone();
    batch::write_atomic(output, &t.network.to_bytes())?;
    println!("{description}");
    Ok(0)
}

/// Writes what `train` learned: `# ` header lines (how, where the games came from, the
/// summary), then `body`.
fn write_learned(output: &Path, how: &str, source: &str, summary: &str, body: &str) -> Result<()> {
    let mut file = format!("# {how}\n");
    if !source.is_empty() {
        file.push_str(&format!("# The games: {source}\n"));
    }
    file.push_str(&format!("# {summary}\n{body}"));
    batch::write_atomic(output, file.as_bytes())
}

fn train_cmd(games: &[PathBuf], output: &Path, source: &str) -> Result<i32> {
    batch::check_output(output, games)?;
    let texts = read_all(games)?;
    let t = crate::learn::train::fit(&texts).map_err(|(i, e)| e.in_file(&games[i]))?;
    let summary = format!(
        "{} positions fitted, {} held back (every tenth game); logistic scale {:.1}; mean squared \
         error with the course evaluation {:.5} (held back {:.5}), with these weights {:.5} \
         (held back {:.5})",
        t.positions.0,
        t.positions.1,
        t.scale,
        t.course_error.0,
        t.course_error.1,
        t.fitted_error.0,
        t.fitted_error.1
    );
    let how = format!(
        "Endgame weights learned by `xiangqi-endgame train {}` (Texel's method).",
        file_names(games)
    );
    write_learned(output, &how, source, &summary, &t.weights.to_text())?;
    println!("{summary}");
    print!("{}", t.weights.to_text());
    Ok(0)
}

#[derive(Debug, clap::Args)]
pub struct TrainArgs {
    /// The games (one file or more).
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// Where to write the weights.
    #[arg(short, long)]
    output: PathBuf,
    /// How the games were made, written into the weights file's header.
    #[arg(long, default_value = "")]
    source: String,
    /// Learn piece-square tables by phase, labelled by deeper searches, instead of the
    /// endgame weights.
    #[arg(long, group = "labelled")]
    tables: bool,
    /// Learn the activity terms' weights on top of the built-in piece-square tables,
    /// labelled by deeper searches with the engine's own evaluation.
    #[arg(long, group = "labelled")]
    activity: bool,
    /// With --tables or --activity: nodes of the search that labels each position.
    #[arg(long, default_value_t = 20_000, requires = "labelled", value_parser = clap::value_parser!(u64).range(1..))]
    label_nodes: u64,
    /// With --tables or --activity: keep every N-th quiet position.
    #[arg(long, default_value_t = 2, requires = "labelled", value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// With --tables or --activity: threads for the labelling searches (what is learned
    /// does not depend on it; default: all cores).
    #[arg(long, requires = "labelled", value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
}

#[derive(Debug, clap::Args)]
pub struct TrainNetArgs {
    /// The network file to write.
    #[arg(short, long)]
    output: PathBuf,
    /// Self-play games (0 with --from-pgn: the recorded games' positions alone).
    #[arg(long, default_value_t = 4000)]
    games: u64,
    /// Nodes per move of the self-play searches.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Random plies of every opening.
    #[arg(long, default_value_t = 8)]
    opening_plies: usize,
    /// The engine that plays the games (both sides): `piece-square` (the engine before
    /// the network) or `selective` (the engine with the built-in network).
    #[arg(long, value_enum, default_value_t = crate::play::selfplay::Engine::PieceSquare)]
    play: crate::play::selfplay::Engine,
    /// Seed of the openings, the initial weights and the order of the samples.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Passes over the data.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..))]
    epochs: u64,
    /// The game result's share of each label (the search score's is the rest).
    #[arg(long, default_value_t = 0.0, value_parser = share_arg)]
    result_weight: f64,
    /// Threads for the games (the data does not depend on it; default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// Read the labelled positions from this file instead of playing the games, or, when
    /// it does not exist yet, write them to it (`FEN;score;result;game` lines).
    #[arg(long, value_name = "FILE")]
    data: Option<PathBuf>,
    /// Recorded games (PGN files or folders: master games) whose quiet positions are labelled
    /// too, each by a search of --label-nodes blended with the game's recorded result.
    #[arg(long, value_name = "PGN", num_args = 1..)]
    from_pgn: Vec<PathBuf>,
    /// Nodes of the search labelling each position of --from-pgn.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    label_nodes: u64,
    /// Keep every this many quiet positions of each recorded game.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1000))]
    every: u64,
    /// Start the self-play games from the recorded games' openings (8 to 12 plies) instead
    /// of random plies.
    #[arg(long, requires = "from_pgn")]
    record_openings: bool,
}

impl TrainArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        if !self.tables && !self.activity {
            return train_cmd(&self.games, &self.output, &self.source);
        }
        let options = crate::learn::train_tables::TableOptions {
            label_nodes: self.label_nodes,
            every: self.every as usize,
            threads: self.threads.map_or_else(batch::cores, |t| t as usize),
            quiet: false,
        };
        let (games, output, source) = (&self.games, &self.output, &self.source);
        if self.tables {
            let names = FitNames {
                base: "course evaluation",
                learned: "these tables",
                learned_by:
                    "Piece-square tables by phase learned by `xiangqi-endgame train --tables",
            };
            let fit = |texts: &[String]| crate::learn::train_tables::fit_tables(texts, &options);
            train_labelled_cmd(games, output, source, &options, &names, fit, |t| {
                t.to_text()
            })
        } else {
            let names = FitNames {
                base: "piece-square evaluation",
                learned: "these weights",
                learned_by: "Activity weights (opening, endgame; sixteenths of a unit per count) \
                             learned by `xiangqi-endgame train --activity",
            };
            let fit =
                |texts: &[String]| crate::learn::train_activity::fit_activity(texts, &options);
            train_labelled_cmd(games, output, source, &options, &names, fit, |t| {
                t.to_text()
            })
        }
    }
}

impl TrainNetArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        if self.games == 0 && self.from_pgn.is_empty() {
            bail!("--games 0 needs --from-pgn: there would be no positions to learn from");
        }
        let records = if self.from_pgn.is_empty() {
            Vec::new()
        } else {
            let files = crate::notation::collection::pgn_files(&self.from_pgn)?;
            let c = crate::notation::collection::read(&files, None, &|_| {})?;
            for r in &c.rejected {
                eprintln!("rejected: {}", c.describe(r));
            }
            c.games.into_iter().map(|(_, g)| g).collect()
        };
        let options = crate::learn::train_net::NetOptions {
            games: self.games as usize,
            nodes: self.nodes,
            opening_plies: self.opening_plies,
            play: self.play,
            seed: self.seed,
            threads: self.threads.map_or_else(batch::cores, |t| t as usize),
            epochs: self.epochs as usize,
            result_weight: self.result_weight,
            quiet: false,
            record_openings: self.record_openings,
            records: (!records.is_empty()).then_some(crate::learn::train_net::RecordOptions {
                nodes: self.label_nodes,
                every: self.every as usize,
                games: records.len(),
            }),
        };
        let inputs: Vec<&Path> = self
            .from_pgn
            .iter()
            .map(|p| p.as_path())
            .chain(self.data.as_deref())
            .collect();
        batch::check_output(&self.output, &inputs)?;
        train_net_cmd(&self.output, &options, self.data.as_deref(), &records)
    }
}
