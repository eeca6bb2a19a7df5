//! The batch loop: run one job per input file, keep going past failures, report, exit status.

use crate::files::{collect_inputs, default_output_dir};
use crate::progress::progress_bar;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Flags every binary accepts (flatten into a clap command with `#[command(flatten)]`).
#[derive(Debug, Clone, clap::Args)]
pub struct CommonArgs {
    /// Output folder (default: the sibling `output/` of the input folder, as in the course).
    #[arg(short, long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Print machine-readable results and statistics as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// Print nothing but errors.
    #[arg(short, long)]
    pub quiet: bool,
    /// Seed of every random choice (same seed, same output).
    #[arg(long, default_value_t = 2024)]
    pub seed: u64,
}

impl CommonArgs {
    /// The output folder for `input` (explicit `--output` or the course default).
    pub fn output_dir(&self, input: &Path) -> PathBuf {
        self.output
            .clone()
            .unwrap_or_else(|| default_output_dir(input, input.is_dir()))
    }
}

/// What happened to one input file.
#[derive(Debug, Serialize)]
pub struct FileResult<T> {
    /// The input file.
    pub input: PathBuf,
    /// The job's result, when it succeeded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<T>,
    /// The error message, when it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The results of a batch, in input order.
#[derive(Debug, Serialize)]
pub struct BatchReport<T> {
    /// One entry per input file.
    pub files: Vec<FileResult<T>>,
}

impl<T> BatchReport<T> {
    /// Number of failed files.
    pub fn failures(&self) -> usize {
        self.files.iter().filter(|f| f.error.is_some()).count()
    }

    /// The one-line summary: `10 files: 10 ok` or `11 files: 10 ok, 1 failed`.
    pub fn summary(&self) -> String {
        let n = self.files.len();
        let bad = self.failures();
        let noun = if n == 1 { "file" } else { "files" };
        if bad == 0 {
            format!("{n} {noun}: {n} ok")
        } else {
            format!("{n} {noun}: {} ok, {bad} failed", n - bad)
        }
    }

    /// Process exit code: 0 when every file succeeded, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        i32::from(self.failures() > 0)
    }
}

impl<T: Serialize> BatchReport<T> {
    /// Ends a batch command as every tool does: with `--json` the report (`files`, `summary`)
    /// on stdout, otherwise the summary line (also under `--quiet` when a file failed); returns
    /// the exit code.
    pub fn finish(&self, common: &CommonArgs) -> anyhow::Result<i32> {
        if common.json {
            let v = serde_json::json!({ "files": self.files, "summary": self.summary() });
            println!("{}", serde_json::to_string_pretty(&v)?);
        } else if !common.quiet || self.failures() > 0 {
            println!("{}", self.summary());
        }
        Ok(self.exit_code())
    }
}

/// Runs `job` on every input under `path` (a file or a folder, natural order, filtered by
/// `accept`), printing each error as `error: <message>` on stderr as it happens and showing a
/// progress bar on a terminal. A failing file never stops the batch.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("batch-run-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("in_2.txt"), "2").unwrap();
/// std::fs::write(dir.join("in_10.txt"), "x").unwrap();
/// let report = batch::run_batch(&dir, |_| true, true, |p| {
///     let text = std::fs::read_to_string(p)?;
///     Ok(text.trim().parse::<u32>()?)
/// }).unwrap();
/// assert_eq!(report.files[0].result, Some(2)); // in_2 before in_10
/// assert!(report.files[1].error.is_some());
/// assert_eq!(report.summary(), "2 files: 1 ok, 1 failed");
/// std::fs::remove_dir_all(dir).unwrap();
/// ```
pub fn run_batch<T>(
    path: &Path,
    accept: impl Fn(&Path) -> bool,
    quiet: bool,
    mut job: impl FnMut(&Path) -> anyhow::Result<T>,
) -> anyhow::Result<BatchReport<T>> {
    let inputs = collect_inputs(path, accept)?;
    let bar = progress_bar(inputs.len() as u64, "files", quiet || inputs.len() < 2);
    let mut files = Vec::with_capacity(inputs.len());
    for input in inputs {
        bar.set_message(
            input
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
        let outcome = job(&input);
        let (result, error) = match outcome {
            Ok(r) => (Some(r), None),
            Err(e) => {
                let msg = crate::text::shown_within(&format!("{e:#}"), crate::text::MESSAGE_CHARS);
                bar.suspend(|| eprintln!("error: {msg}"));
                (None, Some(msg))
            }
        };
        files.push(FileResult {
            input,
            result,
            error,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(BatchReport { files })
}
