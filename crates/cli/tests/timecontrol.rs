//! `rochade timecontrol` end to end.

use std::process::Command;

fn rochade(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rochade"))
        .args(args)
        .output()
        .expect("rochade runs")
}

#[test]
fn prints_one_json_object() {
    let out = rochade(&["timecontrol", "5+3"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["normalized"], "5+3");
    assert_eq!(v["pgn"], "300+3");
    assert_eq!(v["category"], "blitz");
}

#[test]
fn pgn_no_clock_and_rules() {
    let out = rochade(&["timecontrol", "-"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = rochade(&["timecontrol", "14+0", "--rules", "fide2009"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["category"], "blitz");
}

#[test]
fn rejects_bad_controls_on_stderr() {
    for bad in ["40/0", "-5+3", "abc", "5+", "367d"] {
        let out = rochade(&["timecontrol", bad]);
        assert!(!out.status.success(), "{bad}");
        assert!(out.stdout.is_empty(), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("invalid time control"), "{bad}: {err}");
    }
}
