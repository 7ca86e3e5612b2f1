#!/usr/bin/env python3
"""Check opening lines with Stockfish and write the balanced ones as EPD.

Reads data-src/openings/lines.txt (`name | SAN moves`, `#` comments), plays
each line with python-chess, evaluates the final position with Stockfish
(`go depth DEPTH`, one thread, 64 MB hash) and keeps the lines whose score,
from White's point of view, lies within +-BOUND centipawns. Writes
data-src/openings/balanced.epd: the four FEN fields, `id` (the name), `c0`
(the moves) and `ce` (the score for the side to move, as EPD defines it).

Needs python-chess (scripts/setup-oracles) and /usr/games/stockfish
(scripts/setup-engines). Usage: scripts/check-openings.py [--depth 18] [--bound 60]
"""
import argparse
import pathlib
import sys

import chess
import chess.engine

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = ROOT / "data-src/openings/lines.txt"
TARGET = ROOT / "data-src/openings/balanced.epd"


def read_lines(path):
    """Yields (name, [SAN moves]) from the source file."""
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        name, sep, moves = text.partition("|")
        if not sep:
            sys.exit(f"{path}:{number}: expected `name | moves`")
        yield number, name.strip(), moves.split()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=18)
    parser.add_argument("--bound", type=int, default=60)
    parser.add_argument("--engine", default="/usr/games/stockfish")
    args = parser.parse_args()

    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"Threads": 1, "Hash": 64})
    kept, dropped = [], []
    for number, name, moves in read_lines(SOURCE):
        board = chess.Board()
        for san in moves:
            try:
                board.push_san(san)
            except ValueError as e:
                sys.exit(f"{SOURCE}:{number}: {name}: {san}: {e}")
        if board.is_game_over():
            sys.exit(f"{SOURCE}:{number}: {name}: the line ends the game")
        engine.protocol.send_line("ucinewgame")
        info = engine.analyse(board, chess.engine.Limit(depth=args.depth))
        white_cp = info["score"].white().score(mate_score=100000)
        record = (name, moves, board, white_cp)
        (kept if abs(white_cp) <= args.bound else dropped).append(record)
        print(f"{'keep' if abs(white_cp) <= args.bound else 'drop'} {white_cp:+5d} {name}")
    engine.quit()

    version = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine_name = version.id.get("name", args.engine)
    version.quit()
    with TARGET.open("w", encoding="utf-8") as out:
        for name, moves, board, white_cp in kept:
            side_cp = white_cp if board.turn == chess.WHITE else -white_cp
            line = board.epd(id=name, c0=" ".join(moves), ce=side_cp)
            out.write(line + "\n")
    print(
        f"{len(kept)} kept, {len(dropped)} dropped (|score| > {args.bound} cp at depth "
        f"{args.depth}, {engine_name}); wrote {TARGET.relative_to(ROOT)}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
