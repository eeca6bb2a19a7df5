//! Inputs for the parsers' fuzz tests (feature `fuzz`): arbitrary bytes, and valid files with a
//! few random edits (bytes replaced, inserted or deleted, lines dropped or repeated, the text
//! cut short), which reach much deeper into a parser than noise does. The number of cases comes
//! from `FUZZ_CASES` (256 by default), so `scripts/fuzz.sh` can run long sessions.

use proptest::prelude::*;

/// The fuzz tests' configuration: `FUZZ_CASES` cases (default 256), no shrinking time limit.
pub fn config() -> ProptestConfig {
    let cases = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Arbitrary bytes read as text the way the tools read files (invalid UTF-8 replaced), biased
/// towards the characters the formats use.
pub fn arbitrary_text() -> impl Strategy<Value = String> {
    let byte = prop_oneof![
        3 => proptest::sample::select(b"0123456789 -\n\r\t.;:,=>#%XOxo*abcdefghiRNBAKCPrnbakcpwAk01m".to_vec()),
        1 => any::<u8>(),
    ];
    proptest::collection::vec(byte, 0..600)
        .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// One edit of a text.
#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    DropLine(usize),
    RepeatLine(usize),
    Truncate(usize),
}

/// `sample` with one to eight random edits.
pub fn mutated(sample: &'static str) -> impl Strategy<Value = String> {
    mutated_bytes(sample).prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// Text a parser of `sample`'s format must survive: half the cases [`arbitrary_text`], half
/// [`mutated`] samples.
pub fn text_like(sample: &'static str) -> impl Strategy<Value = String> {
    prop_oneof![arbitrary_text(), mutated(sample)]
}

/// A protocol session (NBoard, UCI): `sample`'s lines with random edits, the bytes kept as they
/// are (invalid UTF-8 included), and now and then a line over [`crate::MAX_LINE_BYTES`]
/// spliced in at a line start.
pub fn mutated_session(sample: &'static str) -> impl Strategy<Value = Vec<u8>> {
    (mutated_bytes(sample), 0..16u8, any::<usize>()).prop_map(|(mut bytes, long, at)| {
        if long == 0 {
            let starts: Vec<usize> = std::iter::once(0)
                .chain(
                    bytes
                        .iter()
                        .enumerate()
                        .filter(|b| *b.1 == b'\n')
                        .map(|b| b.0 + 1),
                )
                .collect();
            let at = starts[at % starts.len()];
            let mut line = vec![b'x'; crate::text::MAX_LINE_BYTES + 1 + at % 1000];
            line.push(b'\n');
            bytes.splice(at..at, line);
        }
        bytes
    })
}

/// Checks a session's complaints: each (the text after its `line ` prefix) starts with the
/// number of a line of the session, from 1 to `lines`.
pub fn check_complaint_lines<'a>(
    complaints: impl IntoIterator<Item = &'a str>,
    lines: usize,
) -> Result<(), TestCaseError> {
    for complaint in complaints {
        let number = complaint
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse::<usize>().ok());
        prop_assert!(
            number.is_some_and(|n| (1..=lines).contains(&n)),
            "`{}` is not on a line of the session",
            complaint
        );
    }
    Ok(())
}

fn mutated_bytes(sample: &'static str) -> impl Strategy<Value = Vec<u8>> {
    let interesting = prop_oneof![
        3 => proptest::sample::select(b"0123456789 -\n\r.;XOk".to_vec()),
        1 => any::<u8>(),
    ];
    let edit = (0..6u8, any::<usize>(), interesting).prop_map(|(kind, at, b)| match kind {
        0 => Edit::Replace(at, b),
        1 => Edit::Insert(at, b),
        2 => Edit::Delete(at),
        3 => Edit::DropLine(at),
        4 => Edit::RepeatLine(at),
        _ => Edit::Truncate(at),
    });
    proptest::collection::vec(edit, 1..8).prop_map(move |edits| {
        let mut bytes = sample.as_bytes().to_vec();
        for e in edits {
            apply(&mut bytes, e);
        }
        bytes
    })
}

fn apply(bytes: &mut Vec<u8>, edit: Edit) {
    let len = bytes.len();
    match edit {
        Edit::Replace(at, b) if len > 0 => bytes[at % len] = b,
        Edit::Insert(at, b) => bytes.insert(at % (len + 1), b),
        Edit::Delete(at) if len > 0 => {
            bytes.remove(at % len);
        }
        Edit::DropLine(at) | Edit::RepeatLine(at) => {
            let mut lines: Vec<Vec<u8>> =
                bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
            let k = at % lines.len();
            if matches!(edit, Edit::DropLine(_)) {
                lines.remove(k);
            } else {
                let line = lines[k].clone();
                lines.insert(k, line);
            }
            *bytes = lines.join(&b'\n');
        }
        Edit::Truncate(at) => bytes.truncate(at % (len + 1)),
        _ => {}
    }
}
