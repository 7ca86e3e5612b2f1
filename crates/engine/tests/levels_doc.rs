//! docs/robot-levels.md shows the levels' table; it must say what the
//! code plays, so a retune that forgets the page fails here.
#![allow(clippy::unwrap_used, missing_docs)]

use rochade_engine::robot::Level;

const DOC: &str = include_str!("../../../docs/robot-levels.md");

/// A number as the page writes it: `—` for no cap, `1,000` with commas,
/// `1 (or MultiPV)` with a remark after the number.
fn cell(text: &str) -> Option<u64> {
    let number: String = text
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    number.parse().ok()
}

#[test]
fn the_page_shows_the_table_the_code_plays() {
    let rows: Vec<Vec<&str>> = DOC
        .lines()
        .skip_while(|line| !line.starts_with("| Level | Depth cap |"))
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| line.trim_matches('|').split('|').collect())
        .collect();
    assert_eq!(rows.len(), 8, "the page's level table has eight rows");
    for (n, row) in (1..=8).zip(&rows) {
        let s = Level::new(n).unwrap().strength();
        let page: Vec<Option<u64>> = row.iter().map(|c| cell(c)).collect();
        let code = vec![
            Some(u64::from(n)),
            s.depth.map(u64::from),
            s.nodes,
            Some(s.multipv as u64),
            Some(u64::from(s.temperature)),
            (n < 8).then_some(u64::from(s.max_loss)),
            Some(u64::from(s.elo)),
        ];
        assert_eq!(page, code, "level {n}: the page's row {row:?}");
    }
}
