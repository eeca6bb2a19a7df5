//! The output guard every tool writes through: what it refuses, and the notice it gives.

use batch::{check_output, write_atomic};
use std::path::Path;

#[test]
fn a_new_folder_at_the_filesystems_root_is_refused_and_nothing_is_created() {
    let out = Path::new("/no-such-folder-of-batch-tests/out/report.csv");
    let e = check_output(out, &[] as &[&Path]).unwrap_err().to_string();
    assert!(e.contains("at the root of the filesystem"), "{e}");
    assert!(
        e.contains("./no-such-folder-of-batch-tests/out/report.csv"),
        "{e}"
    );
    let e = write_atomic(out, b"x").unwrap_err().to_string();
    assert!(e.contains("at the root of the filesystem"), "{e}");
    assert!(!Path::new("/no-such-folder-of-batch-tests").exists());
}

#[test]
fn devices_folders_and_inputs_are_never_replaced() {
    let dir = batch::testing::temp_dir("output-guard");
    let input = dir.join("input.txt");
    std::fs::write(&input, "x").unwrap();
    for (path, says) in [
        (Path::new("/dev/null"), "not a regular file"),
        (&*dir, "is a folder"),
        (input.as_path(), "an input of this command"),
    ] {
        let e = check_output(path, &[&input]).unwrap_err().to_string();
        assert!(e.contains(says), "{}: {e}", path.display());
    }
    // Inside an input folder: refused too.
    let folder: &Path = &dir;
    let e = check_output(&dir.join("out.txt"), &[folder])
        .unwrap_err()
        .to_string();
    assert!(e.contains("inside the input folder"), "{e}");
    assert_eq!(std::fs::read_to_string(&input).unwrap(), "x");
}
