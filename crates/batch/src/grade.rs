//! Grading a whole class: one folder per student, each with that student's output files
//! (directly or in an `output/` subfolder), checked input by input by a tool's own validator,
//! which accepts every correct answer. The result is a CSV report (`student,input,verdict,
//! detail`) and a line per student on stdout (or `--json`). A class can be graded in slices
//! (`--shard I/N`, one per machine or array task) that `grade merge` joins into the report one
//! run writes, and every verdict is journalled at once, so a killed run goes on (`--resume`).

mod part;

use crate::csv::csv_field;
use crate::files::natural_cmp;
use crate::shard::Shard;
use crate::text::plural;
use anyhow::{Context, Result};
use part::{Journal, Split};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What a student's answer to one input is worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// A correct answer (any of the correct ones).
    Ok,
    /// Legal but not optimal, or not the best result.
    Wrong,
    /// Unreadable, or an illegal route or move.
    Invalid,
    /// No output file for this input.
    Missing,
}

impl Verdict {
    /// The word used in the report.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Wrong => "wrong",
            Verdict::Invalid => "invalid",
            Verdict::Missing => "missing",
        }
    }

    /// The verdict a report word names.
    ///
    /// ```
    /// use batch::grade::Verdict;
    /// assert_eq!(Verdict::parse("wrong"), Some(Verdict::Wrong));
    /// assert_eq!(Verdict::parse("bogus"), None);
    /// ```
    pub fn parse(word: &str) -> Option<Verdict> {
        [
            Verdict::Ok,
            Verdict::Wrong,
            Verdict::Invalid,
            Verdict::Missing,
        ]
        .into_iter()
        .find(|v| v.as_str() == word)
    }
}

/// One row of the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GradeRow {
    /// The student's folder name.
    pub student: String,
    /// The input file's name.
    pub input: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Why (the validator's words).
    pub detail: String,
}

/// One input as grading sees it: its file name, the name of the output file a student writes
/// for it, and what the validator prepared for it (the optimum, the best result).
pub type GradeInput<P> = (String, String, P);

/// A student's totals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StudentScore {
    /// The student's folder name.
    pub student: String,
    /// Inputs answered correctly.
    pub ok: usize,
    /// Inputs graded.
    pub inputs: usize,
}

/// The students of a class folder: its subfolders in natural order, each with the folder
/// holding its outputs (`output/` inside it when there is one). A name that is not UTF-8 is
/// written with its bytes escaped (see [`escaped_name`]). Entries that are not folders (a
/// plain file, a link that leads nowhere or loops) are left out with a warning on stderr.
pub fn students(class_dir: &Path) -> Result<Vec<Student>> {
    let (students, left_out) = class_entries(class_dir)?;
    for warning in left_out {
        eprintln!("warning: {warning}");
    }
    Ok(students)
}

/// A student: the name of their folder and the folder holding their outputs.
pub type Student = (String, PathBuf);

/// The students of a class folder (as [`students`]) and what was left out, with why.
pub fn class_entries(class_dir: &Path) -> Result<(Vec<Student>, Vec<String>)> {
    let mut out = Vec::new();
    let mut left_out = Vec::new();
    for entry in std::fs::read_dir(class_dir)
        .with_context(|| format!("{}: cannot list the class folder", class_dir.display()))?
    {
        let path = entry?.path();
        let name = escaped_name(path.file_name().unwrap_or_default());
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => {
                left_out.push(format!(
                    "{}: not a folder, so not a student; left out",
                    path.display()
                ));
                continue;
            }
            Err(e) => {
                left_out.push(format!(
                    "{}: cannot be opened ({e}); left out",
                    path.display()
                ));
                continue;
            }
        }
        let outputs = if path.join("output").is_dir() {
            path.join("output")
        } else {
            path
        };
        out.push((name, outputs));
    }
    out.sort_by(|a, b| natural_cmp(&a.0, &b.0));
    Ok((out, left_out))
}

/// A file name as text without losing anything: UTF-8 as it is, except that `\` is written
/// `\\` and each byte that is not UTF-8 `\xNN`, so two different names never print the same.
///
/// ```
/// use batch::grade::escaped_name;
/// assert_eq!(escaped_name("ann".as_ref()), "ann");
/// assert_eq!(escaped_name(r"a\b".as_ref()), r"a\\b");
/// # #[cfg(unix)] {
/// use std::os::unix::ffi::OsStrExt;
/// let bad = std::ffi::OsStr::from_bytes(b"bad\xff\xfe");
/// assert_eq!(escaped_name(bad), r"bad\xff\xfe");
/// # }
/// ```
pub fn escaped_name(name: &std::ffi::OsStr) -> String {
    let bytes = name.as_encoded_bytes();
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(&chunk.valid().replace('\\', "\\\\"));
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

/// The longest detail a report row keeps, in characters: a validator may quote an answer, and
/// an answer may be a file of any size.
pub const MAX_DETAIL_CHARS: usize = 500;

/// The verdict on one student's output file for one input: `missing` without the file,
/// `invalid` when it is not a regular file (a folder, a FIFO that would block the read, a
/// device) or cannot be read, else `check`'s; the detail cut to [`MAX_DETAIL_CHARS`].
fn judge_file<P>(
    dir: &Path,
    output_name: &str,
    prepared: &P,
    check: &impl Fn(&P, &str) -> (Verdict, String),
) -> (Verdict, String) {
    let file = dir.join(output_name);
    let (verdict, detail) = match std::fs::metadata(&file) {
        Err(_) => (Verdict::Missing, format!("no {output_name}")),
        Ok(meta) if !meta.is_file() => (
            Verdict::Invalid,
            format!("{output_name} is not a regular file"),
        ),
        Ok(_) => match crate::files::read_text(&file) {
            Ok(text) => check(prepared, &text),
            Err(e) => (Verdict::Invalid, format!("{e:#}")),
        },
    };
    match detail.char_indices().nth(MAX_DETAIL_CHARS) {
        Some((cut, _)) => {
            let rest = detail[cut..].chars().count();
            (
                verdict,
                format!("{}… ({rest} more characters)", &detail[..cut]),
            )
        }
        None => (verdict, detail),
    }
}

/// The report's folder, resolved; an error when it does not exist (a mistyped path is not
/// created silently).
fn check_report_folder(report: &Path) -> Result<PathBuf> {
    let folder = match report.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    folder.canonicalize().map_err(|_| {
        anyhow::anyhow!(
            "--report {}: the folder {} does not exist; create it first",
            report.display(),
            folder.display()
        )
    })
}

/// Refuses a report path that would overwrite what is graded (an input, a file in the class
/// folder), something that is not a regular file (a device, a FIFO), or a path in a folder
/// that does not exist: [`crate::check_output`]'s rules, with the class folder among the
/// inputs.
fn check_report_path(report: &Path, inputs: &[PathBuf], class_dir: &Path) -> Result<()> {
    // Where the report would be: its folder resolved, its own name kept.
    let folder = check_report_folder(report)?;
    let resolved = folder.join(report.file_name().unwrap_or_default());
    if let Ok(class) = class_dir.canonicalize() {
        if resolved.starts_with(&class) {
            anyhow::bail!(
                "--report {}: inside the class folder {}, where it would overwrite or add to \
                 a student's work; write it elsewhere",
                report.display(),
                class_dir.display()
            );
        }
    }
    if let Some(input) = inputs.iter().find(|i| crate::files::same_file(i, report)) {
        anyhow::bail!(
            "--report {}: that is the input {}",
            report.display(),
            input.display()
        );
    }
    let protected: Vec<&Path> = inputs
        .iter()
        .map(PathBuf::as_path)
        .chain([class_dir])
        .collect();
    crate::output::check_output(report, &protected)
}

/// Grades a class, or the slice `args.shard` of it, and writes the report (or the slice's part
/// file for `grade merge`); returns the exit code, 0 once the class is graded whatever the
/// grades.
///
/// `files` are the inputs (a student writes `output_N.txt` for `input_N.txt`, `N.txt` and so
/// on); `prepare(i)` readies input `i` for judging (solves it: the optimum, the move values)
/// and is called only for the inputs this slice grades, once each; `check` gives the verdict
/// of one output file's text. `context` names what the verdicts depend on besides the inputs'
/// names and contents and the students (the tool and its grading options), so that slices of
/// different runs never merge and a journal is never resumed by another run.
///
/// With at least as many inputs as slices, slice I takes the inputs I, I+N, I+2N… whole, so
/// that each input is prepared once; with fewer, the slices are consecutive runs of the
/// answers taken input by input, each preparing one or two inputs. Each verdict is appended to
/// `REPORT.journal` as it is found; `args.resume` goes on from it after a kill.
pub fn grade_class<P>(
    context: &str,
    files: &[PathBuf],
    class_dir: &Path,
    mut prepare: impl FnMut(usize) -> Result<P>,
    check: impl Fn(&P, &str) -> (Verdict, String),
    args: &ReportArgs,
) -> Result<i32> {
    let students = students(class_dir)?;
    let student_names: Vec<&str> = students.iter().map(|s| s.0.as_str()).collect();
    let mut context = context.to_string();
    let mut inputs = Vec::new();
    for file in files {
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        let bytes =
            std::fs::read(file).with_context(|| format!("{}: cannot read", file.display()))?;
        let _ = write!(context, "\n{name} {:016x}", part::fnv1a(bytes));
        inputs.push((name.to_string(), crate::cli::output_name(&name, "txt")));
    }
    let input_names: Vec<&str> = inputs.iter().map(|i| i.0.as_str()).collect();
    let split = Split::new(
        args.shard.unwrap_or(Shard::WHOLE),
        &context,
        &student_names,
        &input_names,
    );
    check_report_path(&args.report, files, class_dir)?;
    let mut journal = Journal::open(&args.report, &split, args.resume)?;
    let bar = crate::progress::progress_bar(split.units().count() as u64, "answers", args.json);
    bar.set_position(journal.len() as u64);
    for (i, (_, output_name)) in inputs.iter().enumerate() {
        let todo: Vec<usize> = split
            .units_of_input(i)
            .filter(|&u| !journal.has(u))
            .collect();
        if todo.is_empty() {
            continue;
        }
        let prepared = prepare(i)?;
        for unit in todo {
            let dir = &students[unit / inputs.len()].1;
            let (verdict, detail) = judge_file(dir, output_name, &prepared, &check);
            journal.record(unit, verdict, &detail)?;
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let (units, rows): (Vec<usize>, Vec<GradeRow>) = journal
        .verdicts()
        .map(|(unit, verdict, detail)| {
            let row = GradeRow {
                student: student_names[unit / inputs.len()].to_string(),
                input: input_names[unit % inputs.len()].to_string(),
                verdict,
                detail: detail.to_string(),
            };
            (unit, row)
        })
        .unzip();
    let code = if args.shard.is_none() {
        finish_grading(&rows, &args.report, args.json)?
    } else {
        crate::files::write_atomic(&args.report, split.part_text(&units, &rows).as_bytes())?;
        if args.json {
            let v = serde_json::json!({
                "shard": split.shard.to_string(), "rows": rows, "report": args.report });
            println!("{}", serde_json::to_string_pretty(&v)?);
        } else {
            let counts = verdict_counts(&rows, true);
            println!(
                "shard {}: {}{}: part in {}",
                split.shard,
                plural(rows.len(), "answer graded", "answers graded"),
                if counts.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", counts.join(", "))
                },
                args.report.display()
            );
        }
        0
    };
    journal.remove()?;
    Ok(code)
}

/// Joins the part files of every slice of one split class into the report (and the summary)
/// that grading the class in one run gives, byte for byte. A missing, repeated or unfinished
/// slice, or parts of different runs, is an error that names it.
pub fn merge_parts(parts: &[PathBuf], report: &Path, json: bool, tool: &str) -> Result<i32> {
    check_report_folder(report)?;
    crate::output::check_output(report, parts)?;
    let rows = part::merge(parts, report, tool)?;
    finish_grading(&rows, report, json)
}

/// The report as CSV: the header `student,input,verdict,detail`, then one row per student and
/// input (fields quoted where they hold a comma, a quote or a line break; a name a spreadsheet
/// would read as a formula, starting with `=`, `+`, `-` or `@`, written after a `'`).
///
/// ```
/// use batch::grade::{report_csv, GradeRow, Verdict};
/// let rows = [GradeRow { student: "ann".into(), input: "input_1.txt".into(),
///     verdict: Verdict::Wrong, detail: "9 days, not optimal (optimum 7)".into() }];
/// assert_eq!(report_csv(&rows),
///     "student,input,verdict,detail\nann,input_1.txt,wrong,\"9 days, not optimal (optimum 7)\"\n");
/// ```
pub fn report_csv(rows: &[GradeRow]) -> String {
    let mut out = String::from("student,input,verdict,detail\n");
    for r in rows {
        r.write_csv(&mut out, true);
    }
    out
}

/// A name as a report cell: with a `'` before it when a spreadsheet would read it as a formula
/// (a student folder named `=HYPERLINK(…)`).
fn inert(name: &str) -> std::borrow::Cow<'_, str> {
    if name.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        std::borrow::Cow::Owned(format!("'{name}"))
    } else {
        std::borrow::Cow::Borrowed(name)
    }
}

impl GradeRow {
    /// Appends the row as a CSV line: the report's (names made `inert` for spreadsheets), or
    /// the part file's after its unit (names as they are, for the merge to write the report).
    fn write_csv(&self, out: &mut String, report: bool) {
        let name = |n: &'_ str| {
            if report {
                csv_field(&inert(n)).into_owned()
            } else {
                csv_field(n).into_owned()
            }
        };
        let _ = writeln!(
            out,
            "{},{},{},{}",
            name(&self.student),
            name(&self.input),
            self.verdict.as_str(),
            csv_field(&self.detail)
        );
    }
}

/// Each student's score, in the order of the rows.
pub fn scores(rows: &[GradeRow]) -> Vec<StudentScore> {
    let mut out: Vec<StudentScore> = Vec::new();
    for r in rows {
        if out.last().is_none_or(|s| s.student != r.student) {
            out.push(StudentScore {
                student: r.student.clone(),
                ok: 0,
                inputs: 0,
            });
        }
        let s = out.last_mut().expect("just pushed");
        s.inputs += 1;
        s.ok += usize::from(r.verdict == Verdict::Ok);
    }
    out
}

/// The options every `grade` command has (flatten into its clap arguments).
#[derive(Debug, Clone, clap::Args)]
pub struct ReportArgs {
    /// The CSV report (with --shard, this slice's part file for `grade merge`).
    #[arg(long, default_value = "grades.csv")]
    pub report: PathBuf,
    /// Print the rows and scores as JSON instead of a line per student.
    #[arg(long)]
    pub json: bool,
    /// Grade only slice I of N of the class's answers (I from 1), for several machines or
    /// cluster array tasks; `grade merge` joins the parts into the whole report.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Go on from the journal a killed run left beside the report (REPORT.journal).
    #[arg(long)]
    pub resume: bool,
}

/// What every tool's `grade` takes: `grade INPUT CLASS [report options]`, or `grade merge
/// PARTS…` (flatten it into the command; the variant carries
/// `#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]`).
#[derive(Debug, Clone, clap::Args)]
pub struct GradeArgs {
    #[command(subcommand)]
    #[allow(missing_docs)]
    pub merge: Option<GradeCommand>,
    /// The inputs: one file, or a folder of them.
    #[arg(required = true)]
    pub input: Option<PathBuf>,
    /// One folder per student (its answers directly in it or in `output/`).
    #[arg(required = true)]
    pub class: Option<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub report: ReportArgs,
}

impl GradeArgs {
    /// Runs `grade merge` (of `tool`'s part files), or `grade(INPUT, CLASS, report options)`;
    /// returns the exit code.
    pub fn run(
        &self,
        tool: &str,
        grade: impl FnOnce(&Path, &Path, &ReportArgs) -> Result<i32>,
    ) -> Result<i32> {
        match (&self.merge, &self.input, &self.class) {
            (Some(merge), _, _) => merge.run(tool),
            (None, Some(input), Some(class)) => grade(input, class, &self.report),
            _ => anyhow::bail!("`grade` needs INPUT and CLASS"),
        }
    }
}

/// `grade merge`: the subcommand every `grade` command has (flatten it as the command's
/// optional subcommand).
#[derive(Debug, Clone, clap::Subcommand)]
pub enum GradeCommand {
    /// Join the part files of a sharded grading run into one report.
    ///
    /// Join the part files of every slice (`grade … --shard I/N --report PART`) into the
    /// report one unsplit run writes.
    Merge {
        /// The part files, one per slice, in any order.
        #[arg(required = true, num_args = 1..)]
        parts: Vec<PathBuf>,
        /// The CSV report to write.
        #[arg(long, default_value = "grades.csv")]
        report: PathBuf,
        /// Print the rows and scores as JSON instead of a line per student.
        #[arg(long)]
        json: bool,
    },
}

impl GradeCommand {
    /// Runs it on `tool`'s part files; returns the exit code.
    pub fn run(&self, tool: &str) -> Result<i32> {
        match self {
            GradeCommand::Merge {
                parts,
                report,
                json,
            } => merge_parts(parts, report, *json, tool),
        }
    }
}

/// How many of `rows` have each verdict, as `3 wrong` (the `ok` count first when asked), for
/// the verdicts that occur.
fn verdict_counts(rows: &[GradeRow], with_ok: bool) -> Vec<String> {
    let mut verdicts = vec![Verdict::Wrong, Verdict::Invalid, Verdict::Missing];
    if with_ok {
        verdicts.insert(0, Verdict::Ok);
    }
    verdicts
        .into_iter()
        .filter_map(|v| {
            let n = rows.iter().filter(|r| r.verdict == v).count();
            (n > 0).then(|| format!("{n} {}", v.as_str()))
        })
        .collect()
}

/// Writes the report (atomically) and prints the per-student summary (or, with `--json`, the
/// rows and scores); returns the exit code: 0 once the class is graded, whatever the grades.
fn finish_grading(rows: &[GradeRow], report: &Path, json: bool) -> Result<i32> {
    crate::files::write_atomic(report, report_csv(rows).as_bytes())?;
    let scores = scores(rows);
    if json {
        let v = serde_json::json!({ "rows": rows, "scores": scores, "report": report });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(0);
    }
    let mut rest = rows;
    for s in &scores {
        let (mine, others) = rest.split_at(s.inputs);
        rest = others;
        let counts = verdict_counts(mine, false);
        let counts = if counts.is_empty() {
            String::new()
        } else {
            format!(" ({})", counts.join(", "))
        };
        println!("{}: {}/{} ok{counts}", s.student, s.ok, s.inputs);
    }
    println!(
        "{}, {} each: report in {}",
        plural(scores.len(), "student", "students"),
        plural(scores.first().map_or(0, |s| s.inputs), "input", "inputs"),
        report.display()
    );
    Ok(0)
}
