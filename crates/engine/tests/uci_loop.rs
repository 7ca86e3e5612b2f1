//! Drives `run_loop` with a script, as a GUI would.
#![allow(clippy::unwrap_used, missing_docs)]

use std::io::{BufReader, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rochade_engine::run_loop;

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }

    fn wait_for(&self, needle: &str, count: usize) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.text().matches(needle).count() < count {
            assert!(
                Instant::now() < deadline,
                "no {needle:?} in:\n{}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

#[test]
fn scripted_session() {
    let (reader, mut pipe) = std::io::pipe().unwrap();
    let out = Shared::default();
    let loop_out = out.clone();
    let handle = std::thread::spawn(move || run_loop(BufReader::new(reader), loop_out));

    let mut send = |line: &str| writeln!(pipe, "{line}").unwrap();
    send("uci");
    send("isready");
    out.wait_for("readyok", 1);
    send("position startpos moves e2e4");
    send("go depth 4");
    out.wait_for("bestmove", 1);
    send("position startpos moves e2e5");
    send("go depth many");
    send("setoption name Hash value 8");
    send("go depth 1");
    out.wait_for("bestmove", 2);
    send("quit");
    handle.join().unwrap().unwrap();

    let text = out.text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "id name Rochade");
    assert_eq!(lines[1], "id author Rochade developers");
    assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 1024"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Move Overhead type spin"))
    );
    assert!(lines.contains(&"uciok"));
    assert!(lines.contains(&"readyok"));
    for depth in 1..=4 {
        let prefix = format!("info depth {depth} ");
        let info = lines
            .iter()
            .find(|l| l.starts_with(&prefix))
            .expect("info per depth");
        for word in ["score cp", "nodes", "nps", "time", "pv"] {
            assert!(info.contains(word), "{word} missing in {info}");
        }
    }
    let errors = lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .count();
    assert_eq!(errors, 2, "{text}");
    let bestmoves: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .copied()
        .collect();
    assert_eq!(bestmoves.len(), 2);
    // After the illegal position the previous one (1. e4) still stands: Black moves.
    let reply = bestmoves[1].split_whitespace().nth(1).unwrap();
    let rank = reply.as_bytes()[1];
    assert!(
        rank == b'7' || rank == b'8',
        "a black move expected, got {reply}"
    );
}

#[test]
fn end_of_input_ends_the_loop() {
    let input = b"uci\nposition fen not a fen\nisready\n";
    let out = Shared::default();
    run_loop(&input[..], out.clone()).unwrap();
    let text = out.text();
    assert!(text.contains("info string error"));
    assert!(text.ends_with("readyok\n"));
}
