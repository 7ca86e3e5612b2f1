//! PGN round trips on real games: the `data/pgn/` files of the python-chess
//! 1.11.2 sdist, fetched and hash-checked by `scripts/fetch-test-data`.

use std::{
    fs,
    path::{Path, PathBuf},
};

use rochade_laws::pgn::{PgnErrorKind, PgnReader, ReadOptions, WriteOptions, write_game};

/// The fetched PGN files; fails with instructions when they are missing.
fn files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/pgn");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}; run scripts/fetch-test-data first", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "expected the sdist's PGN files in {}",
        dir.display()
    );
    files
}

/// Files of other variants (antichess, crazyhouse), which the FIDE Laws refuse.
fn is_other_variant(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.contains("antichess") || name.contains("-zh-")
}

#[test]
fn real_games_read_write_and_read_back_the_same() {
    let options = ReadOptions {
        keep_variations: true,
        keep_annotations: true,
        ..ReadOptions::default()
    };
    let mut games = 0;
    for path in files() {
        let bytes = fs::read(&path).expect("readable");
        for (index, read) in PgnReader::new(bytes.as_slice(), options).enumerate() {
            if is_other_variant(&path) {
                let e = read.expect_err("not chess under the FIDE Laws");
                assert!(
                    matches!(e.kind, PgnErrorKind::Setup | PgnErrorKind::Illegal),
                    "{}: {e}",
                    path.display()
                );
                continue;
            }
            let game = match read {
                Ok(game) => game,
                // A null move ("--") is an annotator's device, not a move.
                Err(e) if e.text == "--" => continue,
                Err(e) => panic!("{} game {}: {e}", path.display(), index + 1),
            };
            games += 1;
            let written = write_game(
                &game.game,
                &game.tags,
                &WriteOptions {
                    annotations: Some(&game.mainline),
                    opening_comment: game.opening_comment.as_deref(),
                    ..WriteOptions::default()
                },
            );
            assert!(
                written.lines().all(|l| l.chars().count() <= 80),
                "{written}"
            );
            let again = PgnReader::new(written.as_bytes(), options)
                .next()
                .expect("one game")
                .unwrap_or_else(|e| {
                    panic!("{} game {}: {e}\n{written}", path.display(), index + 1)
                });
            assert_eq!(again.game.moves(), game.game.moves(), "{}", path.display());
            assert_eq!(again.mainline, game.mainline, "{}", path.display());
            for (name, value) in game.tags.iter() {
                if ![
                    "SetUp",
                    "FEN",
                    "Variant",
                    "PlyCount",
                    "Termination",
                    "Result",
                ]
                .contains(&name)
                {
                    assert_eq!(
                        again.tags.get(name),
                        Some(value),
                        "{}: tag {name}",
                        path.display()
                    );
                }
            }
        }
    }
    // The pinned sdist holds 17 games of chess under the FIDE Laws.
    assert_eq!(games, 17);
}
