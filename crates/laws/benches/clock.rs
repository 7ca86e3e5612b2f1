//! How long a press of the clock takes.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rochade_laws::clock::{Clock, TimeControl};

fn control(text: &str) -> TimeControl {
    TimeControl::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn press(c: &mut Criterion) {
    for text in ["40/90+30, 30+30", "5 d3", "60 b10", "10/50d"] {
        let mut clock = Clock::new(control(text), Duration::ZERO);
        let mut now = Duration::ZERO;
        c.bench_function(&format!("press {text}"), |b| {
            b.iter(|| {
                now += Duration::from_millis(1500);
                black_box(clock.press(black_box(now)))
            })
        });
    }
    let clock = Clock::new(control("40/90+30, 30+30"), Duration::ZERO);
    c.bench_function("flag", |b| {
        b.iter(|| black_box(clock.flag(black_box(Duration::from_secs(100)))))
    });
    c.bench_function("parse 40/90+30, 30+30", |b| {
        b.iter(|| black_box(TimeControl::parse(black_box("40/90+30, 30+30"))))
    });
}

criterion_group!(benches, press);
criterion_main!(benches);
