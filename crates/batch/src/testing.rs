//! What every `grade` command's tests check, written once: the slices of a split class merged
//! give the report and summary of one run byte for byte, a merge without a slice names it, and
//! a killed run goes on from its journal.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Writes `text` to `path`, creating its folder.
pub fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a file in a folder")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// A new empty folder under the system's temporary folder, unique to this process; it is
/// removed with everything in it when the [`Scratch`] goes out of scope.
pub fn temp_dir(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    Scratch(dir)
}

/// A test's scratch folder (see [`temp_dir`]): a path that removes its folder when dropped.
#[derive(Debug)]
pub struct Scratch(PathBuf);

impl Scratch {
    /// The folder, kept when this goes out of scope (for state shared by a test binary).
    pub fn keep(self) -> PathBuf {
        let this = std::mem::ManuallyDrop::new(self);
        this.0.clone()
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What a finished run of a tool did: its exit code and its output as text.
#[derive(Debug)]
pub struct Run {
    /// The exit code (`None` when a signal ended it).
    pub code: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(o: Output) -> Self {
        Run {
            code: o.status.code(),
            stdout: text(&o.stdout),
            stderr: text(&o.stderr),
        }
    }
}

impl Run {
    /// Runs `command` to its end.
    pub fn of(command: &mut Command) -> Run {
        Run::from(command.output().expect("the tool runs"))
    }

    /// Checks the exit code, showing the run's stderr if it differs.
    #[track_caller]
    pub fn code(self, code: i32) -> Self {
        assert_eq!(self.code, Some(code), "exit code; stderr:\n{}", self.stderr);
        self
    }

    /// Checks that the run succeeded.
    #[track_caller]
    pub fn ok(self) -> Self {
        self.code(0)
    }

    /// Checks that the run failed with `code` and that stderr says `what`.
    #[track_caller]
    pub fn fails(self, code: i32, what: &str) -> Self {
        self.code(code).says(what)
    }

    /// Checks that stderr says `what`.
    #[track_caller]
    pub fn says(self, what: &str) -> Self {
        assert_contains("stderr", &self.stderr, what);
        self
    }

    /// Checks that stdout prints `what`.
    #[track_caller]
    pub fn prints(self, what: &str) -> Self {
        assert_contains("stdout", &self.stdout, what);
        self
    }
}

#[track_caller]
fn assert_contains(stream: &str, text: &str, what: &str) {
    assert!(text.contains(what), "{stream} lacks `{what}`:\n{text}");
}

/// Runs a program with arguments of any path or string type and returns its [`Run`]:
/// `run_tool!(env!("CARGO_BIN_EXE_astar-map"), "run", &dir, "-o", dir.join("out")).ok()`.
#[macro_export]
macro_rules! run_tool {
    ($bin:expr $(, $arg:expr)* $(,)?) => {{
        let mut command = ::std::process::Command::new($bin);
        $( command.arg($arg); )*
        $crate::testing::Run::of(&mut command)
    }};
}

/// Runs `command` with `input` on its stdin (closed after it) and returns its [`Run`]; a
/// program that exits before reading all of it is no error.
pub fn run_with_input(command: &mut Command, input: &[u8]) -> Run {
    use std::io::Write;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tool runs");
    let _ = child.stdin.take().expect("piped").write_all(input);
    Run::from(child.wait_with_output().expect("the tool ends"))
}

/// Runs `bin run inputs/TOOL -o OUT` on the bundled inputs of the workspace whose crate
/// `crate_dir` is (a test's `CARGO_MANIFEST_DIR`) and checks that it succeeds and writes every
/// file of the bundled `outputs/TOOL/output` byte for byte; returns the run and OUT, a fresh
/// temporary folder.
pub fn assert_run_reproduces_bundled_outputs(
    bin: &str,
    crate_dir: &str,
    tool: &str,
) -> (Run, Scratch) {
    let root = Path::new(crate_dir).join("../..");
    let out = temp_dir(&format!("{tool}-bundled"));
    let inputs = root.join("inputs").join(tool);
    let run = Run::of(Command::new(bin).arg("run").arg(inputs).arg("-o").arg(&out)).ok();
    let bundled = root.join("outputs").join(tool).join("output");
    let mut names: Vec<_> = std::fs::read_dir(&bundled)
        .expect("the bundled outputs")
        .map(|e| e.expect("a folder entry").file_name())
        .collect();
    names.sort();
    assert!(
        !names.is_empty(),
        "no bundled outputs in {}",
        bundled.display()
    );
    for name in names {
        let got = std::fs::read_to_string(out.join(&name)).unwrap_or_default();
        let want = std::fs::read_to_string(bundled.join(&name)).expect("a bundled output");
        assert_eq!(got, want, "{name:?} differs from the checked-in output");
    }
    (run, out)
}

/// The first three columns (`student,input,verdict`) of each row of a grade report.
pub fn report_verdicts(csv: &str) -> Vec<String> {
    csv.lines()
        .skip(1)
        .map(|l| l.split(',').take(3).collect::<Vec<_>>().join(","))
        .collect()
}

/// A tool's `grade` command on one class: `bin grade ARGS…` (the input, the class folder and
/// the grading options).
pub struct Grader {
    /// The tool's binary.
    pub bin: PathBuf,
    /// What follows `grade`.
    pub args: Vec<OsString>,
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl Grader {
    /// `bin grade INPUT CLASS`.
    pub fn new(bin: &str, input: &Path, class: &Path) -> Self {
        Grader {
            bin: bin.into(),
            args: vec![input.into(), class.into()],
        }
    }

    /// Grades the class into `dir/grades.csv` and checks the report: its header, and its rows'
    /// `student,input,verdict` against `expected`; then that the class graded in each number
    /// of `slices` merges to the same report. Returns the unsplit run's stdout.
    pub fn assert_verdicts(&self, dir: &Path, expected: &[&str], slices: &[usize]) -> String {
        let report = dir.join("grades.csv");
        let stdout = self.whole(&report);
        let csv = std::fs::read_to_string(&report).expect("the report");
        assert_eq!(csv.lines().next(), Some("student,input,verdict,detail"));
        assert_eq!(report_verdicts(&csv), expected, "{csv}");
        for &n in slices {
            self.assert_slices_merge_to_whole(&dir.join(format!("split{n}")), n);
        }
        stdout
    }

    /// `bin grade ARGS… EXTRA…`, finished.
    pub fn run(&self, extra: &[&dyn AsRef<std::ffi::OsStr>]) -> Run {
        Run::of(&mut self.command(extra))
    }

    fn command(&self, extra: &[&dyn AsRef<std::ffi::OsStr>]) -> Command {
        let mut c = Command::new(&self.bin);
        c.arg("grade").args(&self.args);
        for e in extra {
            c.arg(e);
        }
        c
    }

    /// One unsplit run writing `report`: its stdout.
    pub fn whole(&self, report: &Path) -> String {
        self.run(&[&"--report", &report]).ok().stdout
    }

    /// Grades the class whole and in `n` slices (`--shard I/N`), merges the parts (given in
    /// reverse order) and checks that the report and the summary are those of the unsplit run;
    /// then that a merge without slice 2 fails and names it, writing nothing.
    pub fn assert_slices_merge_to_whole(&self, dir: &Path, n: usize) {
        std::fs::create_dir_all(dir).expect("mkdir");
        let whole = dir.join("whole.csv");
        let summary = self.whole(&whole);
        let parts: Vec<PathBuf> = (1..=n).map(|i| dir.join(format!("part-{i}.csv"))).collect();
        for (i, part) in parts.iter().enumerate() {
            let shard = format!("{}/{n}", i + 1);
            let o = self.run(&[&"--shard", &shard, &"--report", part]).ok();
            assert!(o.stdout.starts_with(&format!("shard {shard}: ")));
        }
        let merged = dir.join("merged.csv");
        let merge = |parts: &[PathBuf]| {
            let mut command = Command::new(&self.bin);
            command.args(["grade", "merge"]).args(parts.iter().rev());
            Run::of(command.arg("--report").arg(&merged))
        };
        let o = merge(&parts).ok();
        assert_eq!(
            std::fs::read_to_string(&merged).unwrap(),
            std::fs::read_to_string(&whole).unwrap(),
            "the merged report differs from the unsplit run's"
        );
        let whole_name = whole.display().to_string();
        let merged_name = merged.display().to_string();
        assert_eq!(o.stdout, summary.replace(&whole_name, &merged_name));
        if n >= 2 {
            std::fs::remove_file(&merged).unwrap();
            let without_2: Vec<PathBuf> = [&parts[..1], &parts[2..]].concat();
            merge(&without_2).fails(2, &format!("shard 2/{n} missing"));
            assert!(!merged.exists(), "a partial report was written");
        }
    }

    /// Kills an unsplit run once it has journalled a verdict, checks that it left no report,
    /// that a run without `--resume` refuses to start over the journal, and that `--resume`
    /// ends with the report of an uninterrupted run (`whole`).
    pub fn assert_resumes_after_kill(&self, dir: &Path, whole: &Path) {
        let report = dir.join("killed.csv");
        let journal = dir.join("killed.csv.journal");
        let mut child = self
            .command(&[&"--report", &report])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the tool runs");
        let started = std::time::Instant::now();
        while std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 2 {
            assert!(
                child.try_wait().unwrap().is_none(),
                "the run ended before it could be killed"
            );
            assert!(started.elapsed().as_secs() < 120, "no verdict journalled");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(!report.exists(), "a killed run wrote its report");
        self.run(&[&"--report", &report]).fails(2, "--resume");
        self.run(&[&"--report", &report, &"--resume"]).ok();
        assert_eq!(
            std::fs::read_to_string(&report).unwrap(),
            std::fs::read_to_string(whole).unwrap()
        );
        assert!(!journal.exists(), "the journal outlived the report");
    }
}

/// Writes an executable shell script `dir/name` whose body is `body` (after `#!/bin/sh`): the
/// fake engines (crashing, hanging, spamming, forking) the match harnesses are tested with.
#[cfg(unix)]
pub fn fake_engine(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    // Written beside and copied into place by `cp`: a file this process holds open for
    // writing cannot be run while another test thread's fork still shares the descriptor
    // ("text file busy"), and `cp`'s descriptor is its own.
    let draft = dir.join(format!("{name}.draft"));
    std::fs::write(&draft, format!("#!/bin/sh\n{body}\n")).expect("write the script");
    let copied = std::process::Command::new("cp")
        .arg(&draft)
        .arg(&path)
        .status()
        .expect("run cp");
    assert!(
        copied.success(),
        "cp {} {}",
        draft.display(),
        path.display()
    );
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}
