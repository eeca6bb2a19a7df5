//! The files of a split grading run: each slice's part file (its verdicts as CSV under a line
//! naming the split) and the journal a run appends each verdict to the moment it is found.

use super::{GradeRow, Verdict};
use crate::csv::csv_records;
use crate::shard::Shard;
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The column names of a part file, after its header line.
const PART_COLUMNS: &str = "unit,student,input,verdict,detail";

/// Which answers a slice grades. Answer `unit` is the row it has in the whole report (student
/// by student, input by input). Preparing an input is the costly step, so with at least as
/// many inputs as slices, slice I takes whole inputs, dealt round-robin (I, I+N, …: courses
/// number their inputs from easy to hard, and dealing spreads the hard ones); with fewer, the
/// slices are consecutive runs of the answers taken input by input, so that each prepares one
/// or two inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Split {
    pub shard: Shard,
    /// The tool that grades (`astar-map`, `bait`, `xiangqi-endgame`): a part merges only with
    /// its own tool's.
    tool: String,
    students: usize,
    inputs: usize,
    /// What was graded (tool and options, student and input names), hashed: slices of
    /// different runs never merge.
    fingerprint: String,
}

/// FNV-1a, 64 bits: a hash that is the same on every machine and build.
pub(super) fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Most answers (students times inputs) a part file may announce: a class of 100,000 students
/// and 100 inputs, well beyond any course, so that a forged header cannot make a merge
/// allocate without bound.
pub const MAX_UNITS: usize = 10_000_000;

impl Split {
    pub fn new(shard: Shard, context: &str, students: &[&str], inputs: &[&str]) -> Split {
        let tool = context
            .split_whitespace()
            .next()
            .unwrap_or("grade")
            .to_string();
        let mut text = format!("{context}\0");
        for name in students.iter().chain([&"\0"]).chain(inputs) {
            text.push_str(name);
            text.push('\n');
        }
        Split {
            shard,
            tool,
            students: students.len(),
            inputs: inputs.len(),
            fingerprint: format!("{:016x}", fnv1a(text.bytes())),
        }
    }

    /// The first line of the journal, and of the part file before its checksum.
    fn header(&self) -> String {
        format!(
            "# grade part {} of {}: {} students x {} inputs, fingerprint {}",
            self.shard, self.tool, self.students, self.inputs, self.fingerprint
        )
    }

    /// The split a header names, or why it names none (counts beyond [`MAX_UNITS`] included).
    fn parse_header(line: &str) -> Result<Split, String> {
        let form = || "its first line is not `# grade part I/N of TOOL: …`".to_string();
        let rest = line.strip_prefix("# grade part ").ok_or_else(form)?;
        let (shard, rest) = rest.split_once(" of ").ok_or_else(form)?;
        let (tool, rest) = rest.split_once(": ").ok_or_else(form)?;
        let (students, rest) = rest.split_once(" students x ").ok_or_else(form)?;
        let (inputs, fingerprint) = rest.split_once(" inputs, fingerprint ").ok_or_else(form)?;
        let fingerprint = fingerprint.split(", rows ").next().unwrap_or(fingerprint);
        let count = |t: &str| t.parse::<usize>().map_err(|_| form());
        let (students, inputs) = (count(students)?, count(inputs)?);
        if students.checked_mul(inputs).is_none_or(|u| u > MAX_UNITS) {
            return Err(format!(
                "{students} students x {inputs} inputs is more than the {MAX_UNITS} answers a part may hold"
            ));
        }
        let shard: Shard = shard.parse().map_err(|_| form())?;
        Ok(Split {
            shard,
            tool: tool.to_string(),
            students,
            inputs,
            fingerprint: fingerprint.to_string(),
        })
    }

    /// Whether two slices come from one split of one class.
    fn same_run(&self, other: &Split) -> bool {
        self.tool == other.tool
            && (
                self.shard.count(),
                self.students,
                self.inputs,
                &self.fingerprint,
            ) == (
                other.shard.count(),
                other.students,
                other.inputs,
                &other.fingerprint,
            )
    }

    /// The slice's answers of input `i`, by unit.
    pub fn units_of_input(&self, i: usize) -> impl Iterator<Item = usize> {
        let (students, inputs) = (self.students, self.inputs);
        let positions = if inputs >= self.shard.count() {
            if self.shard.takes(i) {
                0..students
            } else {
                0..0
            }
        } else {
            let slice = self.shard.range(students * inputs);
            let from = i * students;
            slice.start.clamp(from, from + students) - from
                ..slice.end.clamp(from, from + students) - from
        };
        positions.map(move |s| s * inputs + i)
    }

    /// All the slice's answers, by unit.
    pub fn units(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.inputs).flat_map(|i| self.units_of_input(i))
    }

    /// The part file of the slice's rows (in unit order), `units[k]` the unit of `rows[k]`:
    /// the header with a checksum of everything after it, so that an edited verdict is caught.
    pub fn part_text(&self, units: &[usize], rows: &[GradeRow]) -> String {
        let mut body = format!("{PART_COLUMNS}\n");
        for (unit, r) in units.iter().zip(rows) {
            let _ = write!(body, "{unit},");
            r.write_csv(&mut body, false);
        }
        format!(
            "{}, rows {:016x}\n{body}",
            self.header(),
            fnv1a(body.bytes())
        )
    }
}

/// One journal row.
#[derive(serde::Serialize, serde::Deserialize)]
struct Entry {
    unit: usize,
    verdict: String,
    detail: String,
}

/// The verdicts of a run so far, kept in `REPORT.journal` beside the report: the split's
/// header line, then one JSON line per verdict, appended and flushed as each is found.
pub(super) struct Journal {
    path: PathBuf,
    file: std::fs::File,
    done: BTreeMap<usize, (Verdict, String)>,
}

impl Journal {
    /// Opens the journal of the report `report` for `split`: a new one, or with `resume` the
    /// one a killed run left (which must be of the same split; a line cut short by the kill
    /// is dropped).
    pub fn open(report: &Path, split: &Split, resume: bool) -> Result<Journal> {
        let mut path = report.as_os_str().to_owned();
        path.push(".journal");
        let path = PathBuf::from(path);
        let header = split.header();
        let mut done = BTreeMap::new();
        let mut kept = format!("{header}\n");
        if let Ok(meta) = std::fs::symlink_metadata(&path) {
            if !meta.is_file() {
                bail!(
                    "{}: the journal is not a regular file (a FIFO, a device or a folder): \
                     refusing to read or replace it",
                    path.display()
                );
            }
        }
        if path.exists() {
            if !resume {
                bail!(
                    "{}: a run that did not finish left its journal here: --resume goes on \
                     with it (or delete it to start again)",
                    path.display()
                );
            }
            let text = crate::files::read_text(&path)?;
            let mut lines = text.split_inclusive('\n');
            let first = lines.next().unwrap_or("").trim_end();
            if first != header {
                bail!(
                    "{}:1: the journal is of another run (`{first}`, this run is `{header}`): \
                     delete it to start again",
                    path.display()
                );
            }
            let mine: std::collections::BTreeSet<usize> = split.units().collect();
            for (n, line) in lines.enumerate() {
                let Some(line) = line.strip_suffix('\n') else {
                    break; // cut short by the kill: graded again
                };
                let at = || format!("{}:{}", path.display(), n + 2);
                let entry: Entry = serde_json::from_str(line)
                    .with_context(|| format!("{}: not a journal row", at()))?;
                let Some(verdict) = Verdict::parse(&entry.verdict) else {
                    bail!("{}: `{}` is not a verdict", at(), entry.verdict);
                };
                if !mine.contains(&entry.unit) {
                    bail!(
                        "{}: answer {} is not in shard {}",
                        at(),
                        entry.unit,
                        split.shard
                    );
                }
                if done.insert(entry.unit, (verdict, entry.detail)).is_some() {
                    bail!("{}: answer {} is graded twice", at(), entry.unit);
                }
                kept.push_str(line);
                kept.push('\n');
            }
        }
        if !done.is_empty() {
            eprintln!(
                "{}: going on from {} verdicts journalled",
                path.display(),
                done.len()
            );
        }
        crate::files::write_atomic(&path, kept.as_bytes())?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .with_context(|| format!("{}: cannot write", path.display()))?;
        Ok(Journal { path, file, done })
    }

    pub fn has(&self, unit: usize) -> bool {
        self.done.contains_key(&unit)
    }

    pub fn len(&self) -> usize {
        self.done.len()
    }

    /// Appends a verdict (flushed at once).
    pub fn record(&mut self, unit: usize, verdict: Verdict, detail: &str) -> Result<()> {
        let entry = Entry {
            unit,
            verdict: verdict.as_str().to_string(),
            detail: detail.to_string(),
        };
        let line = serde_json::to_string(&entry)? + "\n";
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .with_context(|| format!("{}: cannot write", self.path.display()))?;
        self.done.insert(unit, (verdict, entry.detail));
        Ok(())
    }

    /// The verdicts by unit.
    pub fn verdicts(&self) -> impl Iterator<Item = (usize, Verdict, &str)> {
        self.done.iter().map(|(&u, (v, d))| (u, *v, d.as_str()))
    }

    /// Deletes the journal once the report or part is written.
    pub fn remove(self) -> Result<()> {
        std::fs::remove_file(&self.path)
            .with_context(|| format!("{}: cannot delete", self.path.display()))
    }
}

/// Reads one part file of `tool`'s: its split and its rows by unit.
fn read_part(path: &Path, tool: &str) -> Result<(Split, BTreeMap<usize, GradeRow>)> {
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            bail!("{}: not a regular file", path.display());
        }
    }
    let text = crate::files::read_text(path)?;
    let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let split = Split::parse_header(first).map_err(|why| {
        anyhow::anyhow!(
            "{}:1: not a part file of `grade --shard I/N`: {why}",
            path.display()
        )
    })?;
    if split.tool != tool {
        bail!(
            "{}:1: a part file of `{} grade`, not of `{tool} grade`",
            path.display(),
            split.tool
        );
    }
    let checksum = first.rsplit_once(", rows ").map(|(_, c)| c.trim());
    if checksum != Some(format!("{:016x}", fnv1a(rest.bytes())).as_str()) {
        bail!(
            "{}:1: the rows do not match the part's checksum: the file was edited or cut \
             short; grade the shard again",
            path.display()
        );
    }
    let records = csv_records(rest).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let mut rows = BTreeMap::new();
    let mine: std::collections::BTreeSet<usize> = split.units().collect();
    for (k, (line, fields)) in records.into_iter().enumerate() {
        let at = || format!("{}:{}", path.display(), line + 1);
        if k == 0 {
            if fields.join(",") != PART_COLUMNS {
                bail!("{}: expected the columns `{PART_COLUMNS}`", at());
            }
            continue;
        }
        let [unit, student, input, verdict, detail]: [String; 5] = fields
            .try_into()
            .map_err(|_| anyhow::anyhow!("{}: expected 5 fields ({PART_COLUMNS})", at()))?;
        let Some(unit) = unit.parse::<usize>().ok().filter(|u| mine.contains(u)) else {
            bail!(
                "{}: `{unit}` is not an answer of shard {}",
                at(),
                split.shard
            );
        };
        let Some(verdict) = Verdict::parse(&verdict) else {
            bail!("{}: `{verdict}` is not a verdict", at());
        };
        let row = GradeRow {
            student,
            input,
            verdict,
            detail,
        };
        if rows.insert(unit, row).is_some() {
            bail!("{}: answer {unit} is there twice", at());
        }
    }
    if rows.len() != mine.len() {
        bail!(
            "{}: shard {} is unfinished: {} of its {} answers",
            path.display(),
            split.shard,
            rows.len(),
            mine.len()
        );
    }
    Ok((split, rows))
}

/// The rows of the whole report from the part files of every slice of one split.
pub(super) fn merge(parts: &[PathBuf], report: &Path, tool: &str) -> Result<Vec<GradeRow>> {
    if let Some(p) = parts.iter().find(|p| crate::files::same_file(p, report)) {
        bail!("--report {}: that is one of the parts", p.display());
    }
    let mut first: Option<(&PathBuf, Split)> = None;
    let mut cover = crate::shard::ShardCover::default();
    let mut rows: BTreeMap<usize, GradeRow> = BTreeMap::new();
    for path in parts {
        let (split, part_rows) = read_part(path, tool)?;
        if let Some((first_path, first_split)) = &first {
            if !split.same_run(first_split) {
                bail!(
                    "{}: shard {} of another run than {} (shard {}): another split, class, \
                     inputs or grading options",
                    path.display(),
                    split.shard,
                    first_path.display(),
                    first_split.shard
                );
            }
        }
        cover.add(split.shard, path).map_err(anyhow::Error::msg)?;
        rows.extend(part_rows);
        first.get_or_insert((path, split));
    }
    cover
        .check_complete("parts", "class")
        .map_err(anyhow::Error::msg)?;
    let (_, split) = first.context("no part files")?;
    // Every slice names the students and inputs of its answers: they must agree.
    let (mut students, mut inputs) = (BTreeMap::new(), BTreeMap::new());
    for (unit, r) in &rows {
        let (s, i) = (unit / split.inputs, unit % split.inputs);
        if students.entry(s).or_insert(&r.student) != &&r.student
            || inputs.entry(i).or_insert(&r.input) != &&r.input
        {
            bail!(
                "the parts disagree on the student or input of answer {unit} ({}, {})",
                r.student,
                r.input
            );
        }
    }
    Ok(rows.into_values().collect())
}
