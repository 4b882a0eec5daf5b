//! Many files at once: `skelpad check` over many scripts runs on every core
//! and prints exactly what checking them one at a time prints, in the
//! order they were given, with the worst exit code.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use crate::common;

use common::{s, skelpad};

#[test]
fn checking_many_files_prints_what_one_at_a_time_prints_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..24 {
        let p = dir.path().join(format!("f{i:02}.skel2d"));
        let text = match i % 4 {
            0 => skelpad::generate::script(60 + i, 2),
            1 => format!("skeleton\n\tb{i} l10\n\tb{i} q{i}\n"),
            2 => format!("skeleton\n\tarm l{i}\n\t\t@ :sprite \"missing{i}.png\"\n"),
            _ => {
                format!("skeleton\n\thip\nanim \"a\"\n\thip\n\t\tx 0 -> {i}\n\tnope{i}\n\t\tr 1\n")
            }
        };
        std::fs::write(&p, text).unwrap();
        files.push(p);
    }
    // One that cannot be read, in the middle.
    files.insert(11, dir.path().join("missing.skel2d"));
    let mut expected = Vec::new();
    let mut worst = 0;
    for f in &files {
        let o = skelpad(&["check", s(f)]);
        expected.extend(o.stderr);
        let c = o.status.code().unwrap();
        worst = if c == 2 || worst == 2 { 2 } else { worst.max(c) };
    }
    let mut args = vec!["check"];
    args.extend(files.iter().map(|f| s(f)));
    let o = skelpad(&args);
    assert_eq!(String::from_utf8_lossy(&o.stderr), String::from_utf8_lossy(&expected));
    assert_eq!(o.status.code(), Some(worst));
    assert_eq!(worst, 2, "the missing file is a usage error");
    // JSON: the files in order.
    args.insert(1, "--format");
    args.insert(2, "json");
    let o = skelpad(&args);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<&str> =
        v["files"].as_array().unwrap().iter().map(|f| f["file"].as_str().unwrap()).collect();
    let want: Vec<&str> = files.iter().filter(|f| f.exists()).map(|f| s(f)).collect();
    assert_eq!(names, want);
}

#[test]
fn testing_many_files_prints_each_files_report_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..16 {
        let p = dir.path().join(format!("t{i:02}.skel2d"));
        // Even files pass, odd ones expect the wrong x.
        let want = if i % 2 == 0 { i } else { i + 100 };
        let text = format!(
            "skeleton\n\thip\nanim \"a\" 10fps\n\thip\n\t\tx {i} -> {i}\nexpect \"a\" 0\n\thip x{want}\n"
        );
        std::fs::write(&p, text).unwrap();
        files.push(p);
    }
    // Each file's report without the run's last line (its summary).
    let body = |out: &[u8]| {
        let text = String::from_utf8_lossy(out).into_owned();
        let cut = text.rfind("\ntest result:").unwrap();
        text[..cut].to_string()
    };
    let expected: String = files.iter().map(|f| body(&skelpad(&["test", s(f)]).stdout)).collect();
    let mut args = vec!["test"];
    args.extend(files.iter().map(|f| s(f)));
    let o = skelpad(&args);
    assert_eq!(body(&o.stdout), expected);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.ends_with("test result: FAILED. 8 passed; 8 failed; 16 file(s)\n"), "{out}");
    assert_eq!(o.status.code(), Some(1));
}
