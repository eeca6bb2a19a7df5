//! An engine in a child process that speaks a line protocol on stdin/stdout (the course's
//! `getPoint` host in connect4, NBoard and UCI engines in the match harnesses). A reader thread
//! turns its output into a bounded channel of bounded lines, so the harness waits for an answer
//! against a deadline whatever the engine prints, with bounded memory. The child runs in its
//! own process group, and dropping the handle kills the whole group (a wrapper script's
//! children too) and reaps the child.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Longest line kept from a child, in bytes; the rest of a longer line is dropped.
pub const MAX_CHILD_LINE: usize = 64 * 1024;

/// Lines read ahead of the harness before the reader waits (and the child blocks writing).
const LINES_AHEAD: usize = 1024;

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

/// Why [`LineProcess::wait_for`] returned without the line it waited for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitError {
    /// The deadline passed.
    Timeout,
    /// The child exited or closed its output.
    Exited,
}

impl LineProcess {
    /// Starts `command` with piped stdin and stdout (stderr is discarded), in a process group
    /// of its own.
    pub fn spawn(mut command: Command) -> std::io::Result<LineProcess> {
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
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
        let (tx, lines) = sync_channel(LINES_AHEAD);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(line) = read_bounded_line(&mut reader) {
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

    /// Writes `text` and a newline to the child's input and flushes it. A child that has
    /// exited gives an error (never a `SIGPIPE` that would end this process).
    pub fn send(&mut self, text: &str) -> std::io::Result<()> {
        let mut message = Vec::with_capacity(text.len() + 1);
        message.extend_from_slice(text.as_bytes());
        message.push(b'\n');
        without_sigpipe(|| {
            self.stdin.write_all(&message)?;
            self.stdin.flush()
        })
    }

    /// The child's next line, waiting at most `timeout`; `Disconnected` once it has exited
    /// or closed its output.
    pub fn recv_timeout(&self, timeout: Duration) -> Result<String, RecvTimeoutError> {
        self.lines.recv_timeout(timeout)
    }

    /// Reads lines until one for which `done` holds and returns it, or gives up at `deadline`
    /// however many other lines the child prints.
    ///
    /// ```
    /// use batch::{LineProcess, WaitError};
    /// use std::time::{Duration, Instant};
    /// # if cfg!(unix) {
    /// let mut yes = std::process::Command::new("yes");
    /// yes.arg("spam");
    /// let mut spam = LineProcess::spawn(yes).unwrap();
    /// let deadline = Instant::now() + Duration::from_millis(200);
    /// assert_eq!(spam.wait_for(deadline, |l| l == "bestmove"), Err(WaitError::Timeout));
    /// # }
    /// ```
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        done: impl Fn(&str) -> bool,
    ) -> Result<String, WaitError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(WaitError::Timeout);
            }
            match self.lines.recv_timeout(left) {
                Ok(line) if done(&line) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(WaitError::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(WaitError::Exited),
            }
        }
    }

    /// Kills the child and every process of its group (it is also done when the handle is
    /// dropped).
    pub fn kill(&mut self) {
        #[cfg(unix)]
        kill_group(self.child.id());
        let _ = self.child.kill();
    }
}

impl Drop for LineProcess {
    fn drop(&mut self) {
        self.kill();
        let _ = self.child.wait();
    }
}

/// The next line of `reader` without its newline, at most [`MAX_CHILD_LINE`] bytes of it (the
/// rest is skipped), bytes that are not UTF-8 replaced; `None` at the end or on an error.
fn read_bounded_line(reader: &mut impl BufRead) -> Option<String> {
    let mut line = Vec::new();
    let read = std::io::Read::take(&mut *reader, MAX_CHILD_LINE as u64 + 1)
        .read_until(b'\n', &mut line)
        .ok()?;
    if read == 0 {
        return None;
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    } else if line.len() > MAX_CHILD_LINE {
        line.truncate(MAX_CHILD_LINE);
        crate::text::skip_line(reader).ok()?;
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Some(String::from_utf8_lossy(&line).into_owned())
}

#[cfg(unix)]
#[allow(unsafe_code)]
fn kill_group(pid: u32) {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return;
    };
    // SAFETY: sends SIGKILL to the process group the child leads (it was spawned with
    // `process_group(0)`, so its group id is its pid); no memory is touched.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}

/// Runs `write` with `SIGPIPE` blocked in this thread, and discards the `SIGPIPE` a write to a
/// closed pipe leaves pending, so that the write fails with `EPIPE` instead of ending the
/// process (whose `SIGPIPE` action is the default one, see [`crate::run_main`]).
#[cfg(unix)]
#[allow(unsafe_code)]
fn without_sigpipe<T>(write: impl FnOnce() -> std::io::Result<T>) -> std::io::Result<T> {
    // SAFETY: only this thread's signal mask changes, and it is restored before returning;
    // `sigtimedwait` with a zero timeout takes a pending SIGPIPE if there is one.
    unsafe {
        let mut pipe: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pipe);
        libc::sigaddset(&mut pipe, libc::SIGPIPE);
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, &pipe, &mut old);
        let result = write();
        if matches!(&result, Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe) {
            let zero = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            libc::sigtimedwait(&pipe, std::ptr::null_mut(), &zero);
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        result
    }
}

#[cfg(not(unix))]
fn without_sigpipe<T>(write: impl FnOnce() -> std::io::Result<T>) -> std::io::Result<T> {
    write()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_cut_and_the_next_one_kept() {
        let mut text = vec![b'x'; MAX_CHILD_LINE * 3];
        text.extend_from_slice(b"\nbestmove a0a1\r\nlast");
        let mut reader = BufReader::with_capacity(1000, &text[..]);
        let first = read_bounded_line(&mut reader).unwrap();
        assert_eq!(first.len(), MAX_CHILD_LINE);
        assert_eq!(read_bounded_line(&mut reader).unwrap(), "bestmove a0a1");
        assert_eq!(read_bounded_line(&mut reader).unwrap(), "last");
        assert_eq!(read_bounded_line(&mut reader), None);
    }

    #[test]
    fn bytes_that_are_not_utf8_do_not_end_the_stream() {
        let text = b"\xff\xfe move\nnext\n";
        let mut reader = BufReader::new(&text[..]);
        assert_eq!(
            read_bounded_line(&mut reader).unwrap(),
            "\u{fffd}\u{fffd} move"
        );
        assert_eq!(read_bounded_line(&mut reader).unwrap(), "next");
    }

    #[cfg(unix)]
    #[test]
    fn writing_to_an_exited_child_is_an_error_not_a_signal() {
        // As in the tools' `main`: a SIGPIPE that got through would end this test process.
        crate::cli::restore_default_sigpipe();
        let mut t = Command::new("true");
        t.arg("x");
        let mut child = LineProcess::spawn(t).unwrap();
        std::thread::sleep(Duration::from_millis(200));
        let mut failed = false;
        for _ in 0..100 {
            if child.send("go").is_err() {
                failed = true;
                break;
            }
        }
        assert!(failed, "writes to a closed pipe fail");
    }
}
