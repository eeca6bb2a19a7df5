//! # batch
//!
//! The plumbing every assignment binary shares, written once: a path argument that may be a
//! file or a folder ([`collect_inputs`], natural order), the course's default output folder
//! ([`default_output_dir`]), atomic writes ([`write_atomic`]), errors that name file and line
//! ([`InputError`]), the common flags ([`CommonArgs`]: `--output`, `--json`, `--quiet`,
//! `--seed`), progress bars that only appear on a terminal ([`progress_bar`]), an ordered
//! parallel map ([`parallel_map`]), a batch runner that keeps going past a bad file and ends with
//! a one-line summary ([`run_batch`]), and slices of work for clusters ([`Shard`]).

mod child;
mod cli;
mod csv;
mod errors;
mod files;
#[cfg(feature = "fuzz")]
pub mod fuzz;
pub mod grade;
mod output;
mod parallel;
mod progress;
mod runner;
mod score;
mod shard;
#[cfg(feature = "testing")]
pub mod testing;
mod text;

pub use child::{LineProcess, WaitError, MAX_CHILD_LINE};
pub use cli::{
    cores, exit_code, fraction_arg, output_name, parse_with_default_subcommand, process_cpu_time,
    run_main, seconds_arg, with_default_subcommand,
};
pub use csv::{csv_field, csv_line, csv_records};
pub use errors::InputError;
pub use files::{
    check_writable, collect_inputs, default_output_dir, files_below, is_txt_input, named_files,
    natural_cmp, parse_file, read_text, same_file, total_bytes, write_atomic,
};
pub use output::check_output;
pub use parallel::parallel_map;
pub use progress::progress_bar;
pub use runner::{run_batch, BatchReport, CommonArgs, FileResult};
pub use score::{paired_ci95, AnswerTimes, MatchScore};
pub use shard::{Shard, ShardCover};
pub use text::{
    key_index, normalize_text, num_max, parse_count, plural, read_line_capped, shown, shown_within,
    whole_numbers, MAX_FILE_BYTES, MAX_LINE_BYTES, MESSAGE_CHARS, SHOWN_CHARS,
};
