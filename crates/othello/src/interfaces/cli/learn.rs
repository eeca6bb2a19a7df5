//! Learning the pattern weights: `train` (self-play rounds, expert games, the cached samples).

use anyhow::{anyhow, Result};
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct TrainArgs {
    /// Where to write the weights.
    #[arg(long, default_value = "patterns.bin")]
    out: std::path::PathBuf,
    /// Games to play in each round.
    #[arg(long, default_value_t = 40_000, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Positions with at most this many empties are solved exactly (8 to 22).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(8..=22))]
    solve_empties: u32,
    /// Rounds of self-play: the first plays with the improved evaluation (or --from's
    /// weights), each later one with the previous round's weights; the last round's weights
    /// are written. 0 with --from-games: fit on the expert games alone.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=10))]
    rounds: u32,
    /// Expert games (WTHOR .wtb, Logistello's .gam, GGF; files or folders) whose positions
    /// every fit uses besides the rounds' own: labelled by the solver from --solve-empties,
    /// before that by WTHOR's theoretical score or the game's first solved value or result,
    /// blended with --search-label of the engine's --search-depth search.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    from_games: Vec<std::path::PathBuf>,
    /// Play the first round on these weights (a file `othello train` wrote) instead of
    /// the improved evaluation.
    #[arg(long, value_name = "WEIGHTS")]
    from: Option<std::path::PathBuf>,
    /// Rounds played on weights use the NBoard engine's midgame search to this depth
    /// (with Multi-ProbCut, and the solver's moves once solved); 0: depth-3 alpha-beta.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=12))]
    search_depth: u32,
    /// With --search-depth, label each position not yet solved with this share of its
    /// search's value and the rest of the game's exact value (0 to 1; 0: the game's alone).
    #[arg(long, default_value_t = 0.0, value_parser = batch::fraction_arg)]
    search_label: f64,
    /// Fit each round's weights on the labelled positions of its last K rounds together
    /// (more positions for the same weights), not on its own alone.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10))]
    fit_rounds: u32,
    /// Fit each round as a change to the weights its games were played on (--from's, then
    /// the previous round's): the ridge pulls toward them instead of toward zero, so what
    /// the round's games see rarely keeps its earlier value.
    #[arg(long)]
    refine: bool,
    /// Keep each round's labelled positions in DIR/roundK.samples (and the settings that
    /// made them in DIR/roundK.settings; other settings are refused): read them from there
    /// when the file exists (instead of playing), write them there otherwise.
    #[arg(long, value_name = "DIR")]
    samples: Option<std::path::PathBuf>,
    /// Conjugate-gradient iterations per stage (0 would write weights of zero).
    #[arg(long, default_value_t = crate::learn::train::Fit::default().iterations,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    iterations: u32,
    /// Ridge penalty on the squared weights (0 or more).
    #[arg(long, default_value_t = crate::learn::train::Fit::default().ridge, value_parser = ridge_arg)]
    ridge: f64,
    /// Threads playing games (the games do not depend on it; default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Print the error table as JSON.
    #[arg(long)]
    json: bool,
}

impl TrainArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        train(&self)
    }

    fn generate(&self) -> crate::learn::train::Generate {
        crate::learn::train::Generate {
            games: self.games,
            seed: self.seed,
            solve_empties: self.solve_empties,
            threads: self.jobs.unwrap_or_else(batch::cores),
            search_label: self.search_label,
        }
    }
}

/// `othello train`: the expert games' positions (labelled, or read back from `--samples`),
/// then rounds of games (played, or read back) and fits; the last fit's weights written to
/// `--out`, its error table printed beside the starting weights' on the same held-back games.
fn train(args: &TrainArgs) -> Result<i32> {
    use crate::learn::train::{fit_from, generate, stage_errors, Player, Sample};
    let inputs: Vec<&std::path::Path> = args
        .from
        .iter()
        .chain(&args.from_games)
        .map(|p| p.as_path())
        .collect();
    batch::check_output(&args.out, &inputs)?;
    if args.rounds == 0 && args.from_games.is_empty() {
        return Err(anyhow!(
            "--rounds 0 needs --from-games: there is nothing to fit"
        ));
    }
    let opts = args.generate();
    let fit_opts = crate::learn::train::Fit {
        iterations: args.iterations,
        ridge: args.ridge,
    };
    // The starting weights, and for the samples' settings their hash (not their path).
    let (mut weights, from_hash) = match &args.from {
        Some(f) => {
            let bytes = std::fs::read(f).map_err(|e| anyhow!("{}: {e}", f.display()))?;
            let w = crate::eval::pattern::Weights::from_bytes(&bytes)
                .map_err(|e| anyhow!("{}: {}", f.display(), e.0))?;
            let mut h = search_core::hash::FastHasher::default();
            std::hash::Hasher::write(&mut h, &bytes);
            (Some(w), Some(std::hash::Hasher::finish(&h)))
        }
        None => (None, None),
    };
    let start = weights.clone();
    let expert = if args.from_games.is_empty() {
        Vec::new()
    } else {
        expert_samples(args, weights.as_ref(), from_hash)?
    };
    // The labelled positions of the rounds a fit still uses.
    let mut recent: std::collections::VecDeque<Vec<Sample>> = std::collections::VecDeque::new();
    let mut fitted: Option<(crate::eval::pattern::Weights, Vec<Sample>)> = None;
    let together = |recent: &std::collections::VecDeque<Vec<Sample>>| -> Vec<Sample> {
        expert
            .iter()
            .chain(recent.iter().flatten())
            .copied()
            .collect()
    };
    if args.rounds == 0 {
        let t = Instant::now();
        let samples = together(&recent);
        let bar = batch::progress_bar(crate::eval::pattern::STAGES as u64, "stages", false);
        let prior = weights.as_ref().filter(|_| args.refine);
        let (w, _) = fit_from(&samples, &fit_opts, prior, &|| bar.inc(1));
        bar.finish_and_clear();
        eprintln!(
            "fitted on the expert games in {:.1} s",
            t.elapsed().as_secs_f64()
        );
        fitted = Some((w, samples));
    }
    for round in 1..=args.rounds {
        let t = Instant::now();
        let cache = args
            .samples
            .as_ref()
            .map(|d| d.join(format!("round{round}.samples")));
        // What the round's games depend on, kept beside its samples: the games, the seed, the
        // exact-solve depth, and after round 1 the fit that made the players' weights.
        let mut made_with = format!(
            "games {} seed {} solve-empties {}",
            opts.games, opts.seed, opts.solve_empties
        );
        if let Some(h) = from_hash {
            made_with += &format!(" from-weights {h:016x}");
        }
        if args.search_depth > 0 {
            made_with += &format!(" search-depth {}", args.search_depth);
            if opts.search_label > 0.0 {
                made_with += &format!(" search-label {}", opts.search_label);
            }
        }
        if !args.from_games.is_empty() {
            made_with += " from-games";
        }
        if round > 1 {
            made_with += &format!(
                " iterations {} ridge {}",
                fit_opts.iterations, fit_opts.ridge
            );
            // The players' weights were fitted on this many rounds.
            let fitted_on = args.fit_rounds.min(round - 1);
            if fitted_on > 1 {
                made_with += &format!(" fit-rounds {fitted_on}");
            }
            if args.refine {
                made_with += " refine";
            }
        }
        let samples = cached_samples(cache.as_deref(), &made_with, || {
            let evaluator = weights.as_ref().map(crate::eval::pattern::Evaluator::new);
            let player = match (evaluator.as_ref(), args.search_depth) {
                (None, _) => Player::Improved,
                (Some(e), 0) => Player::Weights(e),
                (Some(e), depth) => Player::Search { weights: e, depth },
            };
            let round_opts = crate::learn::train::Generate {
                seed: opts.seed ^ u64::from(round - 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                ..opts
            };
            let bar = batch::progress_bar(u64::from(opts.games), "games", false);
            let samples = generate(&round_opts, player, &|| bar.inc(1));
            bar.finish_and_clear();
            samples
        })?;
        eprintln!(
            "round {round}: {} labelled positions in {:.1} s",
            samples.len(),
            t.elapsed().as_secs_f64()
        );
        let t = Instant::now();
        let bar = batch::progress_bar(crate::eval::pattern::STAGES as u64, "stages", false);
        recent.push_back(samples);
        if recent.len() > args.fit_rounds as usize {
            recent.pop_front();
        }
        let samples = together(&recent);
        let prior = weights.as_ref().filter(|_| args.refine);
        let (w, _) = fit_from(&samples, &fit_opts, prior, &|| bar.inc(1));
        bar.finish_and_clear();
        eprintln!(
            "round {round}: fitted in {:.1} s",
            t.elapsed().as_secs_f64()
        );
        weights = Some(w.clone());
        fitted = Some((w, samples));
    }
    let (weights, samples) = fitted.expect("at least one fit");
    batch::write_atomic(&args.out, &weights.to_bytes())?;
    eprintln!("wrote {}", args.out.display());
    // The error on the last fit's held-back games, and the starting weights' (or the shipped
    // ones') on the same positions.
    let report = stage_errors(&weights, &samples);
    let before = stage_errors(
        start
            .as_ref()
            .unwrap_or_else(|| crate::eval::pattern::weights()),
        &samples,
    );
    if args.json {
        #[derive(serde::Serialize)]
        struct Report<'a> {
            fitted: &'a [crate::learn::train::StageError],
            before: &'a [crate::learn::train::StageError],
        }
        println!(
            "{}",
            serde_json::to_string_pretty(&Report {
                fitted: &report,
                before: &before
            })?
        );
    } else {
        let was = if args.from.is_some() {
            "--from's"
        } else {
            "shipped"
        };
        println!(
            "| empties | training positions | held back | RMSE (discs) | MAE | RMS of labels | {was} RMSE |"
        );
        println!("|---|---|---|---|---|---|---|");
        for (r, b) in report.iter().zip(&before) {
            println!(
                "| {}-{} | {} | {} | {:.2} | {:.2} | {:.2} | {:.2} |",
                r.empties.0, r.empties.1, r.train, r.held_back, r.rmse, r.mae, r.rms_label, b.rmse
            );
        }
    }
    Ok(0)
}

/// The samples kept at `cache` when it exists and was made with `made_with` (an error when
/// with other settings), else `make`'s, written there.
fn cached_samples(
    cache: Option<&std::path::Path>,
    made_with: &str,
    make: impl FnOnce() -> Vec<crate::learn::train::Sample>,
) -> Result<Vec<crate::learn::train::Sample>> {
    use crate::learn::train::{samples_from_bytes, samples_to_bytes};
    let settings_file = |f: &std::path::Path| f.with_extension("settings");
    if let Some(f) = cache.filter(|f| f.exists()) {
        let recorded = std::fs::read_to_string(settings_file(f)).unwrap_or_default();
        let recorded = match recorded.trim() {
            "" => "settings not recorded",
            r => r,
        };
        if recorded != made_with {
            return Err(anyhow!(
                "{} was made with `{recorded}`, not `{made_with}`: use another \
                 --samples directory, or remove the file to make it again",
                f.display(),
            ));
        }
        let bytes = std::fs::read(f).map_err(|e| anyhow!("{}: {e}", f.display()))?;
        return samples_from_bytes(&bytes).map_err(|e| anyhow!("{}: {e}", f.display()));
    }
    let samples = make();
    if let Some(f) = cache {
        batch::write_atomic(f, &samples_to_bytes(&samples))?;
        batch::write_atomic(&settings_file(f), format!("{made_with}\n").as_bytes())?;
    }
    Ok(samples)
}

/// The expert games' labelled positions (`--from-games`), read back from `--samples` when
/// they were made with the same games and settings.
fn expert_samples(
    args: &TrainArgs,
    weights: Option<&crate::eval::pattern::Weights>,
    from_hash: Option<u64>,
) -> Result<Vec<crate::learn::train::Sample>> {
    let t = Instant::now();
    let archive = super::games::read_archives(&args.from_games, false)?;
    let labels = crate::learn::expert::Labels {
        solve_empties: args.solve_empties,
        search_depth: args.search_depth,
        search_label: args.search_label,
        threads: args.jobs.unwrap_or_else(batch::cores),
    };
    // What the labels depend on: the games (their count and moves' hash) and the settings.
    let mut h = search_core::hash::FastHasher::default();
    for g in &archive.games {
        std::hash::Hasher::write(&mut h, &g.record.squares);
        std::hash::Hasher::write_i32(&mut h, g.record.black_diff);
    }
    let mut made_with = format!(
        "expert games {} hash {:016x} solve-empties {}",
        archive.games.len(),
        std::hash::Hasher::finish(&h),
        labels.solve_empties
    );
    if labels.search_depth > 0 && labels.search_label > 0.0 {
        made_with += &format!(
            " search-depth {} search-label {}",
            labels.search_depth, labels.search_label
        );
        if let Some(h) = from_hash {
            made_with += &format!(" from-weights {h:016x}");
        }
    }
    let cache = args.samples.as_ref().map(|d| d.join("games.samples"));
    let samples = cached_samples(cache.as_deref(), &made_with, || {
        let evaluator = weights.map(crate::eval::pattern::Evaluator::new);
        let evaluator = evaluator
            .as_ref()
            .unwrap_or_else(|| crate::eval::pattern::evaluator());
        let bar = batch::progress_bar(archive.games.len() as u64, "games", false);
        let s =
            crate::learn::expert::label_games(&archive.games, &labels, evaluator, &|| bar.inc(1));
        bar.finish_and_clear();
        s
    })?;
    eprintln!(
        "expert games: {} games, {} labelled positions in {:.1} s",
        archive.games.len(),
        samples.len(),
        t.elapsed().as_secs_f64()
    );
    Ok(samples)
}

/// `--ridge`: a finite penalty, 0 or more (NaN would write weights of NaN).
fn ridge_arg(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if r.is_finite() && r >= 0.0 => Ok(r),
        _ => Err(format!("`{text}` is not a finite number of 0 or more")),
    }
}
