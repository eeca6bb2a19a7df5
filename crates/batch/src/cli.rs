//! Command-line helpers shared by the binaries.

use std::ffi::OsString;

/// The process arguments with `default` inserted as the subcommand when the first argument is
/// not one of `known` (nor a help or version flag), so that `tool INPUT` means
/// `tool run INPUT` as the course's usage expects.
///
/// ```
/// use batch::with_default_subcommand;
/// let args = |v: &[&str]| v.iter().map(Into::into).collect::<Vec<std::ffi::OsString>>();
/// let known = ["run", "check"];
/// assert_eq!(with_default_subcommand(args(&["t", "input/"]), &known, "run"), args(&["t", "run", "input/"]));
/// assert_eq!(with_default_subcommand(args(&["t", "check", "a"]), &known, "run"), args(&["t", "check", "a"]));
/// assert_eq!(with_default_subcommand(args(&["t", "--help"]), &known, "run"), args(&["t", "--help"]));
/// ```
pub fn with_default_subcommand(
    args: Vec<OsString>,
    known: &[&str],
    default: &str,
) -> Vec<OsString> {
    let first = args.get(1).map(|a| a.to_string_lossy().into_owned());
    match first.as_deref() {
        None => args,
        Some(a)
            if known.contains(&a) || ["-h", "--help", "-V", "--version", "help"].contains(&a) =>
        {
            args
        }
        Some(_) => {
            let mut out = args;
            out.insert(1, default.into());
            out
        }
    }
}

/// The output file name for an input file name: `input_3.txt` gives `output_3.txt` (the
/// course's naming); other names get an `output_` prefix and the extension `ext`.
///
/// ```
/// use batch::output_name;
/// assert_eq!(output_name("input_3.txt", "txt"), "output_3.txt");
/// assert_eq!(output_name("7.txt", "txt"), "output_7.txt");
/// assert_eq!(output_name("maze.map", "txt"), "output_maze.txt");
/// ```
pub fn output_name(input_file_name: &str, ext: &str) -> String {
    let stem = input_file_name
        .rsplit_once('.')
        .map_or(input_file_name, |(s, _)| s);
    match stem.strip_prefix("input") {
        Some(rest) => format!("output{rest}.{ext}"),
        None => format!("output_{stem}.{ext}"),
    }
}

/// Cores available to this process (at least one): the default number of parallel jobs.
///
/// ```
/// assert!(batch::cores() >= 1);
/// ```
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs a command-line program's body and returns its process exit code (see [`exit_code`]).
///
/// First it gives `SIGPIPE` back its default action on Unix, as `cat` or `grep` have it: when
/// the reader of our standard output goes away (`othello perft 9 | head -1`, `grep -q`), the
/// process ends quietly instead of panicking with "failed printing to stdout: Broken pipe",
/// which is what Rust programs do by default because the runtime ignores that signal.
///
/// ```
/// assert_eq!(batch::run_main(|| Ok(3)), 3);
/// assert_eq!(batch::run_main(|| Err(anyhow::anyhow!("bad input"))), 2);
/// ```
pub fn run_main(body: impl FnOnce() -> anyhow::Result<i32>) -> i32 {
    restore_default_sigpipe();
    exit_code(body())
}

#[cfg(unix)]
#[allow(unsafe_code)]
fn restore_default_sigpipe() {
    // SAFETY: `signal` only changes this process's disposition of SIGPIPE to the default; no
    // handler code of ours runs, and it is called before any thread or output is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_default_sigpipe() {}

/// The process exit code for a command's result: its own code, or 2 after printing
/// `error: <message with causes>` on stderr.
pub fn exit_code(result: anyhow::Result<i32>) -> i32 {
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            2
        }
    }
}
