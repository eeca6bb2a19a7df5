//! An engine in a child process that speaks a line protocol on stdin/stdout (the course's
//! `getPoint` host in connect4, NBoard engines in othello): a reader thread turns its output
//! into a channel of lines, so the harness can wait for an answer with a timeout and a hung or
//! crashed engine costs only its own game. Dropping the handle kills and reaps the child.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

/// A running child process read line by line.
///
/// ```
/// use batch::LineProcess;
/// use std::time::Duration;
/// # if cfg!(unix) {
/// let mut cat = LineProcess::spawn(std::process::Command::new("cat")).unwrap();
/// cat.send("ping 1").unwrap();
/// assert_eq!(cat.recv_timeout(Duration::from_secs(5)).unwrap(), "ping 1");
/// # }
/// ```
pub struct LineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl LineProcess {
    /// Starts `command` with piped stdin and stdout (stderr is discarded).
    pub fn spawn(mut command: Command) -> std::io::Result<LineProcess> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::other("the child's pipes were not opened"));
        };
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(LineProcess {
            child,
            stdin,
            lines,
        })
    }

    /// Writes `text` and a newline to the child's input and flushes it.
    pub fn send(&mut self, text: &str) -> std::io::Result<()> {
        self.stdin.write_all(text.as_bytes())?;
        self.stdin.write_all(b"\n")?;
        self.stdin.flush()
    }

    /// The child's next line, waiting at most `timeout`; `Disconnected` once it has exited
    /// or closed its output.
    pub fn recv_timeout(&self, timeout: Duration) -> Result<String, RecvTimeoutError> {
        self.lines.recv_timeout(timeout)
    }

    /// Kills the child (it is also killed when the handle is dropped).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
    }
}

impl Drop for LineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
