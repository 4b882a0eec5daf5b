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

/// The files of `dir`, by name, with their bytes.
fn files_in(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

#[test]
fn rendering_and_exporting_many_files_writes_what_one_at_a_time_writes_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..6 {
        let p = dir.path().join(format!("r{i}.skel2d"));
        std::fs::write(&p, skelpad::generate::script(10 + 7 * i, 1)).unwrap();
        files.push(p);
    }
    let (one, many) = (dir.path().join("one"), dir.path().join("many"));
    std::fs::create_dir(&one).unwrap();
    for (cmd, flags, ext) in
        [("render", &["--gif", "--size", "48x48"][..], "gif"), ("export", &[][..], "skf")]
    {
        let mut expected = String::new();
        for f in &files {
            let stem = f.file_stem().unwrap().to_string_lossy();
            let out = one.join(format!("{stem}.{ext}"));
            let mut args = vec![cmd, s(f), "-o", s(&out)];
            args.extend(flags);
            let o = skelpad(&args);
            assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
            expected.push_str(&String::from_utf8_lossy(&o.stderr).replace(s(&one), s(&many)));
        }
        let mut args = vec![cmd];
        args.extend(files.iter().map(|f| s(f)));
        args.extend(["-o", s(&many)]);
        args.extend(flags);
        let o = skelpad(&args);
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(String::from_utf8_lossy(&o.stderr), expected, "{cmd}: messages in file order");
        let (a, b) = (files_in(&one), files_in(&many));
        assert_eq!(a.len(), files.len());
        assert_eq!(
            a.iter().map(|f| &f.0).collect::<Vec<_>>(),
            b.iter().map(|f| &f.0).collect::<Vec<_>>()
        );
        for (x, y) in a.iter().zip(&b) {
            assert!(x.1 == y.1, "{cmd}: {} differs from the one-file output", x.0);
        }
        for d in [&one, &many] {
            std::fs::remove_dir_all(d).unwrap();
            std::fs::create_dir(d).unwrap();
        }
    }
    // A file that cannot be read fails alone, named, with exit code 2.
    let missing = dir.path().join("gone.skel2d");
    let o = skelpad(&["render", s(&files[0]), s(&missing), s(&files[1]), "-o", s(&many)]);
    assert_eq!(o.status.code(), Some(2));
    let msg = String::from_utf8_lossy(&o.stderr);
    assert!(msg.contains(&format!("error: {}: ", missing.display())), "{msg}");
    assert!(many.join("r0.png").exists() && many.join("r1.png").exists(), "{msg}");
    // Two inputs that would write the same file: refused before anything is written.
    let other = dir.path().join("sub");
    std::fs::create_dir(&other).unwrap();
    std::fs::copy(&files[2], other.join("r2.skel2d")).unwrap();
    let o = skelpad(&[
        "render",
        s(&files[2]),
        s(&other.join("r2.skel2d")),
        "-o",
        s(&dir.path().join("x")),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("would both write"));
}
