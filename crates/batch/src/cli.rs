//! Command-line helpers shared by the binaries.

use std::ffi::OsString;
use std::io::Write;

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

/// Parses the process arguments as the clap command line `P`, with `default` inserted as the
/// subcommand when the first argument is none of `P`'s subcommands ([`with_default_subcommand`]
/// over the subcommands clap knows, so a new one is never missing from a hand-kept list).
pub fn parse_with_default_subcommand<P: clap::Parser>(default: &str) -> P {
    let command = P::command();
    let known: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
    P::parse_from(with_default_subcommand(
        std::env::args_os().collect(),
        &known,
        default,
    ))
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

/// CPU time this process has used so far, all threads, user and system (`None` where the
/// system does not say): with the wall time, what tells a parallel run's speed-up from its cost.
///
/// ```
/// let before = batch::process_cpu_time();
/// let spin: u64 = (0..2_000_000u64).map(|i| i ^ (i >> 3)).sum();
/// assert!(spin > 0);
/// if let (Some(a), Some(b)) = (before, batch::process_cpu_time()) {
///     assert!(b >= a);
/// }
/// ```
pub fn process_cpu_time() -> Option<std::time::Duration> {
    #[cfg(unix)]
    {
        rusage_self()
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(unix)]
#[allow(unsafe_code)]
fn rusage_self() -> Option<std::time::Duration> {
    // SAFETY: `getrusage` only writes the struct it is given, which is plain data.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return None;
        }
        usage
    };
    let time = |t: libc::timeval| {
        std::time::Duration::from_secs(t.tv_sec.max(0) as u64)
            + std::time::Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    Some(time(usage.ru_utime) + time(usage.ru_stime))
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
///
/// A full output device (`> /dev/full`) makes Rust's printing macros panic; here that ends the
/// program with `error: failed printing to stdout: …` on stderr (when stderr can take it) and
/// exit code 1, not a panic message and exit 101. Any other panic is left as it is.
pub fn run_main(body: impl FnOnce() -> anyhow::Result<i32>) -> i32 {
    restore_default_sigpipe();
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if print_failure(info.payload()).is_none() {
            default_hook(info);
        }
    }));
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(result) => exit_code(result),
        Err(payload) => match print_failure(payload.as_ref()) {
            Some(message) => {
                let _ = writeln!(std::io::stderr(), "error: {message}");
                1
            }
            None => std::panic::resume_unwind(payload),
        },
    }
}

/// The message of a panic raised by `print!`/`eprint!` failing to write, if it is one.
fn print_failure(payload: &(dyn std::any::Any + Send)) -> Option<&str> {
    let message = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())?;
    message.starts_with("failed printing to").then_some(message)
}

#[cfg(unix)]
#[allow(unsafe_code)]
pub(crate) fn restore_default_sigpipe() {
    // SAFETY: `signal` only changes this process's disposition of SIGPIPE to the default; no
    // handler code of ours runs, and it is called before any thread or output is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
pub(crate) fn restore_default_sigpipe() {}

/// The process exit code for a command's result: its own code, or 2 after printing
/// `error: <message with causes>` on stderr.
pub fn exit_code(result: anyhow::Result<i32>) -> i32 {
    match result {
        Ok(code) => code,
        Err(e) => {
            // Not `eprintln!`: a full stderr must not turn an error into a panic.
            let _ = writeln!(
                std::io::stderr(),
                "error: {}",
                crate::text::shown_within(&format!("{e:#}"), crate::text::MESSAGE_CHARS)
            );
            2
        }
    }
}

/// A clap value parser for a time in seconds: a finite number from 0 to 1,000,000 (about 11
/// days), so that `inf`, `NaN` or `1e300` are refused with a message instead of overflowing a
/// clock.
///
/// ```
/// assert_eq!(batch::seconds_arg("2.5"), Ok(2.5));
/// assert!(batch::seconds_arg("inf").is_err());
/// assert!(batch::seconds_arg("NaN").is_err());
/// assert!(batch::seconds_arg("-1").is_err());
/// ```
pub fn seconds_arg(text: &str) -> Result<f64, String> {
    number_in(text, 0.0, 1e6, "a number of seconds")
}

/// A clap value parser for a fraction: a finite number from 0 to 1.
///
/// ```
/// assert_eq!(batch::fraction_arg("0.2"), Ok(0.2));
/// assert!(batch::fraction_arg("NaN").is_err());
/// assert!(batch::fraction_arg("1.5").is_err());
/// ```
pub fn fraction_arg(text: &str) -> Result<f64, String> {
    number_in(text, 0.0, 1.0, "a fraction")
}

fn number_in(text: &str, low: f64, high: f64, what: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && (low..=high).contains(v))
        .ok_or_else(|| {
            format!(
                "`{}` is not {what} from {low} to {high}",
                crate::text::shown(text)
            )
        })
}
