//! # batch
//!
//! The plumbing every assignment binary shares, written once: a path argument that may be a
//! file or a folder ([`collect_inputs`], natural order), the course's default output folder
//! ([`default_output_dir`]), atomic writes ([`write_atomic`]), errors that name file and line
//! ([`InputError`]), the common flags ([`CommonArgs`]: `--output`, `--json`, `--quiet`,
//! `--seed`), progress bars that only appear on a terminal ([`progress_bar`]) and a batch
//! runner that keeps going past a bad file and ends with a one-line summary ([`run_batch`]).

mod cli;
mod errors;
mod files;
mod progress;
mod runner;

pub use cli::{cores, exit_code, output_name, run_main, with_default_subcommand};
pub use errors::InputError;
pub use files::{
    collect_inputs, default_output_dir, is_txt_input, natural_cmp, parse_file, read_text,
    write_atomic,
};
pub use progress::progress_bar;
pub use runner::{run_batch, BatchReport, CommonArgs, FileResult};
