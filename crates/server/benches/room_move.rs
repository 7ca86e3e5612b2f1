//! What a room computes for a move (issue 20 point 1), without sockets,
//! tasks or storage: the steps `Room::commit` and `Room::made` take for
//! each move, over games of 80 plies of legal moves (the load tool's
//! games), the same games every run.
//!
//! Per move, as the room does it (room/mod.rs):
//! - `tick`: what has fallen due, and whether the mover's time runs low;
//! - `apply`: the move into the record, the game's next deadline for its
//!   write, the game at a glance;
//! - `made`: what a move changes in the state (`Now`, as JSON), the
//!   moves' snapshot and the move message;
//! - the room's loop: its next deadline.
//!
//! ```sh
//! cargo bench -p rochade-server --bench room_move
//! ```
//!
//! For a count of instructions that the machine's neighbours do not move:
//! `cargo bench -p rochade-server --bench room_move --no-run`, then
//! `ROOM_MOVES=20000 valgrind --tool=callgrind target/release/deps/room_move-* --bench`,
//! less the same with `ROOM_MOVES=0`.

#![allow(missing_docs)] // criterion_group! makes an undocumented function.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rochade_server::event::{Event, Timed};
use rochade_server::glance::Glance;
use rochade_server::limits::Limits;
use rochade_server::record::Record;
use rochade_server::room::finish;
use rochade_server::setup::{GameSetup, NewGame};
use rochade_server::state::{MovesJson, Now, moved_message};
use shakmaty::Position;

/// Plies a game, as the load tool plays them before it resigns.
const PLIES: usize = 80;

/// Game time between two moves (ms): the load tool's two moves a second.
const STEP: u64 = 500;

/// A new 5+3 game of two people at one board (a friend game once both
/// have taken their seats).
fn new_record() -> Record {
    let request: NewGame =
        serde_json::from_str(r#"{"opponent":"local","time_control":"5+3"}"#).expect("a request");
    let setup = GameSetup::from_request(&request, &Default::default()).expect("a setup");
    Record::new(setup).expect("a record")
}

/// The moves (UCI) of a game of legal moves chosen by a fixed sequence
/// from `seed` (a linear congruential one: the same games every run), to
/// its end or [`PLIES`].
fn line(mut seed: u64) -> Vec<String> {
    let mut pos = shakmaty::Chess::default();
    let mut line = Vec::new();
    while line.len() < PLIES && !pos.is_game_over() {
        let legal = pos.legal_moves();
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let m = legal[(seed >> 33) as usize % legal.len()];
        line.push(m.to_uci(shakmaty::CastlingMode::Standard).to_string());
        pos.play_unchecked(m);
    }
    line
}

/// One game being played: its record, its moves as JSON, the line it
/// follows.
struct Game {
    record: Record,
    moves: MovesJson,
    line: Vec<String>,
}

impl Game {
    /// One move, through the room's steps; the game starts again once
    /// its line is played. Returns the move message's length (so that
    /// nothing is optimised away).
    fn play(&mut self, limits: &Limits) -> usize {
        if self.record.plies.len() >= self.line.len() {
            self.record = new_record();
            self.moves = MovesJson::default();
        }
        let ply = self.record.plies.len();
        let at = STEP * (ply as u64 + 1);
        let low: Vec<u64> = vec![60_000, 20_000];
        // tick
        let due = finish::due(&self.record, at, limits);
        let time_low = finish::time_low(&self.record, at, &low);
        // apply
        self.record
            .apply(Timed {
                at,
                event: Event::Move {
                    uci: self.line[ply].clone(),
                },
            })
            .expect("a legal move");
        let wake_at = finish::wake_at(&self.record, at, limits, &low);
        let glance = Glance::of(&self.record, at).to_json();
        // made
        let now = Now::of(&self.record, Duration::from_millis(at));
        let now = now.into_json();
        let snapshot = self.moves.snapshot(&self.record);
        let moved = moved_message(snapshot.last().unwrap_or("{}"), &now);
        // the loop's next deadline
        let deadline = finish::deadline(&self.record, at, limits, &low);
        moved.len()
            + glance.len()
            + usize::from(due.is_some())
            + usize::from(time_low.is_some())
            + usize::from(wake_at.is_some())
            + usize::from(deadline.is_some())
    }
}

/// 100 games at once, each moved in turn.
fn games() -> Vec<Game> {
    (0..100)
        .map(|i| Game {
            record: new_record(),
            moves: MovesJson::default(),
            line: line(i * 7919 + 1),
        })
        .collect()
}

fn moves(c: &mut Criterion) {
    let limits = Limits::default();
    let mut games = games();
    let mut next = 0;
    let mut play = |games: &mut Vec<Game>| {
        let n = games.len();
        let out = games[next % n].play(&limits);
        next += 1;
        out
    };
    if let Some(n) = std::env::var("ROOM_MOVES")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    {
        let mut sum = 0;
        for _ in 0..n {
            sum += play(&mut games);
        }
        println!("{n} moves, {sum} bytes");
    } else {
        c.bench_function("a move in its room", |b| b.iter(|| play(&mut games)));
    }
}

criterion_group!(benches, moves);
criterion_main!(benches);
