//! Grading a whole class: one folder per student, each with that student's output files
//! (directly or in an `output/` subfolder), checked input by input by a tool's own validator,
//! which accepts every correct answer. The result is a CSV report (`student,input,verdict,
//! detail`), a line per student on stdout (or `--json`), and one unreadable student folder never
//! stops the class.

use crate::natural_cmp;
use anyhow::{Context, Result};
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
/// holding its outputs (`output/` inside it when there is one).
pub fn students(class_dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(class_dir)
        .with_context(|| format!("{}: cannot list the class folder", class_dir.display()))?
    {
        let path = entry?.path();
        if !path.is_dir() {
            continue;
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let outputs = if path.join("output").is_dir() {
            path.join("output")
        } else {
            path
        };
        out.push((name, outputs));
    }
    out.sort_by(|a, b| natural_cmp(&a.0, &b.0));
    Ok(out)
}

/// Grades every student of `class_dir` on every prepared input: `inputs` holds each input's
/// name, the name of the output file a student must write for it, and what the validator
/// prepared for it (the optimum, the best result); `check` gives the verdict of one output
/// file's text. A missing file is `missing`, an unreadable one `invalid`.
pub fn grade_class<P>(
    inputs: &[GradeInput<P>],
    class_dir: &Path,
    check: impl Fn(&P, &str) -> (Verdict, String),
) -> Result<Vec<GradeRow>> {
    let mut rows = Vec::new();
    for (student, dir) in students(class_dir)? {
        for (input, output_name, prepared) in inputs {
            let file = dir.join(output_name);
            let (verdict, detail) = if !file.exists() {
                (Verdict::Missing, format!("no {output_name}"))
            } else {
                match crate::read_text(&file) {
                    Ok(text) => check(prepared, &text),
                    Err(e) => (Verdict::Invalid, format!("{e:#}")),
                }
            };
            rows.push(GradeRow {
                student: student.clone(),
                input: input.clone(),
                verdict,
                detail,
            });
        }
    }
    Ok(rows)
}

/// The report as CSV: the header `student,input,verdict,detail`, then one row per student and
/// input (fields quoted where they hold a comma, a quote or a line break).
///
/// ```
/// use batch::grade::{report_csv, GradeRow, Verdict};
/// let rows = [GradeRow { student: "ann".into(), input: "input_1.txt".into(),
///     verdict: Verdict::Wrong, detail: "9 days, not optimal (optimum 7)".into() }];
/// assert_eq!(report_csv(&rows),
///     "student,input,verdict,detail\nann,input_1.txt,wrong,\"9 days, not optimal (optimum 7)\"\n");
/// ```
pub fn report_csv(rows: &[GradeRow]) -> String {
    let field = |s: &str| {
        if s.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let mut out = String::from("student,input,verdict,detail\n");
    for r in rows {
        let _ = writeln!(
            out,
            "{},{},{},{}",
            field(&r.student),
            field(&r.input),
            r.verdict.as_str(),
            field(&r.detail)
        );
    }
    out
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
    /// The CSV report.
    #[arg(long, default_value = "grades.csv")]
    pub report: PathBuf,
    /// Print the rows and scores as JSON instead of a line per student.
    #[arg(long)]
    pub json: bool,
}

/// Writes the report (atomically) and prints the per-student summary (or, with `--json`, the
/// rows and scores); returns the exit code: 0 once the class is graded, whatever the grades.
pub fn finish_grading(rows: &[GradeRow], args: &ReportArgs) -> Result<i32> {
    let (report, json) = (args.report.as_path(), args.json);
    crate::write_atomic(report, report_csv(rows).as_bytes())?;
    let scores = scores(rows);
    if json {
        let v = serde_json::json!({ "rows": rows, "scores": scores, "report": report });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(0);
    }
    for s in &scores {
        let mut counts = Vec::new();
        for v in [Verdict::Wrong, Verdict::Invalid, Verdict::Missing] {
            let n = rows
                .iter()
                .filter(|r| r.student == s.student && r.verdict == v)
                .count();
            if n > 0 {
                counts.push(format!("{n} {}", v.as_str()));
            }
        }
        let rest = if counts.is_empty() {
            String::new()
        } else {
            format!(" ({})", counts.join(", "))
        };
        println!("{}: {}/{} ok{rest}", s.student, s.ok, s.inputs);
    }
    println!(
        "{} students, {} inputs each: report in {}",
        scores.len(),
        scores.first().map_or(0, |s| s.inputs),
        report.display()
    );
    Ok(0)
}
