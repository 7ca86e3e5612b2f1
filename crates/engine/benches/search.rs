//! Criterion benches of the search on fixed positions: a fixed depth from
//! a fresh table, so the work per run is the same and only speed varies.
#![allow(missing_docs, clippy::unwrap_used)]

use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use rochade_engine::search::tt::TranspositionTable;
use rochade_engine::{BENCH_FENS, SearchParams, TimeLimits, search};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Searches `fen` to `depth` with a fresh 4 MB table; returns the nodes.
fn nodes_to_depth(fen: &str, depth: u32) -> u64 {
    let pos: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let tt = TranspositionTable::new(4);
    let params = SearchParams {
        pos,
        limits: TimeLimits {
            depth: Some(depth),
            ..TimeLimits::default()
        },
        ..SearchParams::default()
    };
    search(params, &tt, &AtomicBool::new(false), |_| {}).nodes
}

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, fen, depth) in [
        ("start_depth7", BENCH_FENS[0], 7),
        ("kiwipete_depth6", BENCH_FENS[1], 6),
        ("middlegame_depth7", BENCH_FENS[5], 7),
        ("endgame_depth9", BENCH_FENS[2], 9),
    ] {
        group.bench_function(name, |b| b.iter(|| nodes_to_depth(fen, depth)));
    }
    group.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
