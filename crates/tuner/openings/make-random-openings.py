#!/usr/bin/env python3
"""Writes random8.epd: openings for fixed-node matches between evaluations.

Each opening is 8 random legal plies from the start position (Python's
random module, seed 2026), kept when Stockfish (/usr/games/stockfish, one
thread, depth 12) scores it within +-60 centipawns and it is new; stops at
300 openings. Needs python-chess.

    python3 crates/tuner/openings/make-random-openings.py > crates/tuner/openings/random8.epd
"""

import random

import chess
import chess.engine

rng = random.Random(2026)
seen = set()
kept = 0
with chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish") as sf:
    sf.configure({"Threads": 1, "Hash": 16})
    while kept < 300:
        board = chess.Board()
        for _ in range(8):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over() or board.ply() < 8:
            continue
        epd = board.epd()
        if epd in seen:
            continue
        seen.add(epd)
        info = sf.analyse(board, chess.engine.Limit(depth=12))
        cp = info["score"].pov(board.turn).score()
        if cp is None or abs(cp) > 60:
            continue
        print(f"{epd} ce {cp};")
        kept += 1
