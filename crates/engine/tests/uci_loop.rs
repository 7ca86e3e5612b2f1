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

/// A running loop fed line by line.
struct Session {
    pipe: std::io::PipeWriter,
    out: Shared,
    handle: std::thread::JoinHandle<std::io::Result<()>>,
}

impl Session {
    fn start() -> Self {
        let (reader, pipe) = std::io::pipe().unwrap();
        let out = Shared::default();
        let loop_out = out.clone();
        let handle = std::thread::spawn(move || run_loop(BufReader::new(reader), loop_out));
        Self { pipe, out, handle }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.pipe, "{line}").unwrap();
    }

    /// Sends `isready` and waits for its answer: every earlier line is read.
    fn sync(&mut self) {
        let n = self.out.text().matches("readyok").count();
        self.send("isready");
        self.out.wait_for("readyok", n + 1);
    }

    fn lines_with(&self, needle: &str) -> Vec<String> {
        self.out
            .text()
            .lines()
            .filter(|l| l.contains(needle))
            .map(str::to_owned)
            .collect()
    }

    /// The move of the last `bestmove` line.
    fn last_best(&self) -> String {
        let lines = self.lines_with("bestmove");
        let last = lines.last().expect("a bestmove");
        last.split_whitespace().nth(1).unwrap().to_owned()
    }

    fn quit(mut self) -> String {
        self.send("quit");
        self.handle.join().unwrap().unwrap();
        self.out.text()
    }
}

#[test]
fn bad_fen_keeps_the_last_position() {
    let mut s = Session::start();
    s.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    s.send("position fen 4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1");
    s.send("position fen 9/8/8/8/8/8/8/8 w - - 0 1");
    s.sync();
    assert_eq!(
        s.lines_with("info string error").len(),
        2,
        "{}",
        s.out.text()
    );
    s.send("go depth 3");
    s.out.wait_for("bestmove", 1);
    // The rook position still stands: White, with only king and rook moves.
    let best = s.last_best();
    assert!(best.starts_with("e1") || best.starts_with("h1"), "{best}");
    s.quit();
}

#[test]
fn illegal_move_names_the_move() {
    let mut s = Session::start();
    s.send("position startpos moves e2e4 e7e5 g1g3");
    s.sync();
    let errors = s.lines_with("info string error");
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].contains("g1g3") && errors[0].contains("move 3"),
        "{errors:?}"
    );
    s.quit();
}

#[test]
fn negative_time_is_reported_and_the_search_still_answers() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go wtime -20 btime 1000");
    s.out.wait_for("bestmove", 1);
    let errors = s.lines_with("info string error");
    assert_eq!(errors, ["info string error: negative wtime -20, read as 0"]);
    s.quit();
}

#[test]
fn non_numeric_time_is_an_error_and_the_loop_stays_responsive() {
    let mut s = Session::start();
    s.send("go wtime soon");
    s.send("go movetime -");
    s.sync();
    assert_eq!(s.lines_with("info string error").len(), 2);
    assert!(s.lines_with("bestmove").is_empty());
    s.send("go depth 1");
    s.out.wait_for("bestmove", 1);
    s.quit();
}

#[test]
fn unknown_options_and_bad_values_are_errors() {
    let mut s = Session::start();
    for line in [
        "setoption name Contempt value 20",
        "setoption name Threads value 0",
        "setoption name MultiPV value lots",
        "setoption name UCI_Chess960 value maybe",
        "setoption name Hash",
        "setoption name SyzygyPath value /no/such/directory",
    ] {
        s.send(line);
    }
    s.sync();
    let errors = s.lines_with("info string error");
    assert_eq!(errors.len(), 6, "{errors:?}");
    assert!(
        errors[0].contains("unknown option \"Contempt\""),
        "{}",
        errors[0]
    );
    assert!(errors[1].contains("outside 1..=256"), "{}", errors[1]);
    // The values stand as before: one line per depth, one thread.
    s.send("go depth 2");
    s.out.wait_for("bestmove", 1);
    assert_eq!(s.lines_with("info depth 2 ").len(), 1);
    s.quit();
}

#[test]
fn multipv_prints_numbered_lines() {
    let mut s = Session::start();
    s.send("setoption name MultiPV value 3");
    s.send("go depth 3");
    s.out.wait_for("bestmove", 1);
    let text = s.quit();
    for k in 1..=3 {
        assert!(
            text.lines()
                .any(|l| l.starts_with("info depth 3 ") && l.contains(&format!(" multipv {k} "))),
            "no multipv {k}:\n{text}"
        );
    }
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    let mut s = Session::start();
    s.send(&format!("position fen {fen}"));
    s.send("go depth 2 searchmoves e1g1");
    s.out.wait_for("bestmove", 1);
    assert_eq!(s.last_best(), "e1g1");
    s.send("setoption name UCI_Chess960 value true");
    s.send(&format!("position fen {fen}"));
    s.send("go depth 2 searchmoves e1h1");
    s.out.wait_for("bestmove", 2);
    assert_eq!(s.last_best(), "e1h1");
    // Moves in the position command are read the same way.
    s.send(&format!("position fen {fen} moves e1h1 e8d8"));
    s.send("go depth 1 searchmoves g1h1");
    s.out.wait_for("bestmove", 3);
    assert_eq!(s.last_best(), "g1h1");
    s.quit();
}

#[test]
fn ponder_waits_for_ponderhit_then_uses_the_clock() {
    let mut s = Session::start();
    s.send("position startpos moves e2e4");
    s.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(400));
    s.sync();
    assert!(
        s.lines_with("bestmove").is_empty(),
        "no bestmove while pondering"
    );
    let hit = Instant::now();
    s.send("ponderhit");
    s.out.wait_for("bestmove", 1);
    // The budget of a 2-second clock is a fraction of it, counted from the hit.
    assert!(
        hit.elapsed() < Duration::from_millis(1500),
        "{:?}",
        hit.elapsed()
    );
    s.quit();
}

#[test]
fn infinite_waits_for_stop_even_when_the_mate_is_found() {
    let mut s = Session::start();
    s.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    s.send("go infinite");
    s.out.wait_for("mate 1", 1);
    std::thread::sleep(Duration::from_millis(100));
    s.sync();
    assert!(s.lines_with("bestmove").is_empty());
    s.send("stop");
    s.out.wait_for("bestmove", 1);
    assert_eq!(s.last_best(), "d1d8");
    s.quit();
}

#[test]
fn go_mate_and_syzygy_path() {
    let mut s = Session::start();
    s.send("position fen 7k/8/8/8/8/8/R7/1R4K1 w - - 0 1");
    s.send("go mate 2");
    s.out.wait_for("bestmove", 1);
    assert!(!s.lines_with("score mate 2 ").is_empty());
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy");
    s.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    s.sync();
    assert_eq!(
        s.lines_with("Syzygy tables found").len(),
        1,
        "{}",
        s.out.text()
    );
    s.send("position fen 8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
    s.send("go depth 5");
    s.out.wait_for("bestmove", 2);
    assert!(!s.lines_with("tbhits 1 ").is_empty(), "{}", s.out.text());
    s.quit();
}

#[test]
fn levels_are_options() {
    let mut s = Session::start();
    s.send("uci");
    s.out.wait_for("uciok", 1);
    // UCI_Elo spans the Elo of level 1 to that of level 8.
    let (elo_min, elo_max) = rochade_engine::robot::Level::elo_range();
    let elo =
        format!("option name UCI_Elo type spin default {elo_max} min {elo_min} max {elo_max}");
    for decl in [
        "option name Level type spin default 8 min 1 max 8",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        &elo,
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Threads type spin default 1 min 1 max 256",
        "option name UCI_Chess960 type check default false",
        "option name SyzygyPath type string default <empty>",
    ] {
        assert_eq!(s.lines_with(decl).len(), 1, "{decl}");
    }
    s.send("setoption name Skill Level value 0");
    s.send("go wtime 60000 btime 60000");
    s.out.wait_for("bestmove", 1);
    // Level 1 searches depth 1 only.
    assert!(s.lines_with("info depth 2 ").is_empty());
    s.quit();
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
    assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 4096"));
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

#[test]
fn two_threads_find_the_mate_and_stop() {
    let mut s = Session::start();
    s.send("setoption name Threads value 2");
    s.send("position fen 7k/8/8/8/8/8/R7/1R4K1 w - - 0 1");
    s.send("go depth 6");
    s.out.wait_for("bestmove", 1);
    assert!(!s.lines_with("info depth 6 ").is_empty());
    assert!(s.lines_with("info depth 6 ")[0].contains("score mate 2"));
    s.send("position startpos");
    s.send("go infinite");
    s.out.wait_for("info depth 3 ", 1);
    s.send("stop");
    s.out.wait_for("bestmove", 2);
    assert!(s.lines_with("info string error").is_empty());
    s.quit();
}
