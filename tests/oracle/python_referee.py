#!/usr/bin/env python3
"""Reference implementation of the `rochade referee` JSON Lines protocol, in Python.

Built on python-chess 1.11.2. It exists to validate tests/oracle/differential.py
(run the differential test against it: 0 mismatches expected) and to document the
protocol by example. The protocol and the meaning of every field are specified in
the docstring of tests/oracle/differential.py; this file follows it literally,
with python-chess's own predicates (is_repetition, is_insufficient_material, ...)
rather than the incremental bookkeeping differential.py uses, so the two are
somewhat independent.

Its dead-position test is python-chess's is_insufficient_material(), which is
narrower than the exact FIDE dead position; that is the one known difference to
the Rust referee (differential.py reports such positions separately).

Usage:  python3 tests/oracle/python_referee.py [referee] < games.jsonl
"""

from __future__ import annotations

import json
import sys

import chess

AUTOMATIC_DRAWS = {"fide": True, "fide2009": False}


def start_board(start) -> chess.Board:
    if start is None or start == "startpos":
        return chess.Board()
    if isinstance(start, dict):
        n = start.get("chess960")
        if set(start) != {"chess960"} or not isinstance(n, int) or isinstance(n, bool) \
                or not 0 <= n <= 959:
            raise ValueError(f"bad start {start!r}")
        return chess.Board.from_chess960_pos(n)
    if isinstance(start, str):
        board = chess.Board(start)
        if not board.is_valid():
            raise ValueError(f"invalid position {start!r}")
        return board
    raise ValueError(f"bad start {start!r}")


def status_of(board: chess.Board, automatic: bool) -> str:
    if board.is_checkmate():
        return "checkmate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material():
        return "dead_position"
    if automatic and board.is_repetition(5):
        return "fivefold_repetition"
    if automatic and board.halfmove_clock >= 150:
        return "seventy_five_moves"
    return "ongoing"


def result_of(board: chess.Board, status: str) -> str:
    if status == "checkmate":
        return "0-1" if board.turn == chess.WHITE else "1-0"
    if status == "ongoing":
        return "*"
    return "1/2-1/2"


def referee(game: dict) -> dict:
    gid = game.get("id")
    rules = game.get("rules", "fide")
    if rules not in AUTOMATIC_DRAWS:
        return {"id": gid, "error": {"ply": 0, "move": None, "reason": f"unsupported rules {rules!r}"}}
    automatic = AUTOMATIC_DRAWS[rules]
    try:
        board = start_board(game.get("start", "startpos"))
    except ValueError as e:
        return {"id": gid, "error": {"ply": 0, "move": None, "reason": str(e)}}

    san = []
    status = status_of(board, automatic)
    for ply, text in enumerate(game.get("moves", []), start=1):
        if status != "ongoing":
            return {"id": gid, "error": {"ply": ply, "move": text, "reason": f"game over: {status}"}}
        try:
            move = chess.Move.from_uci(text) if isinstance(text, str) else None
        except ValueError:
            move = None
        if move is None:
            return {"id": gid, "error": {"ply": ply, "move": text, "reason": "invalid UCI move"}}
        # Only the encoding the mode uses: e1g1 in standard chess, king-onto-rook in 960.
        if not any(move == m for m in board.generate_legal_moves()):
            return {"id": gid, "error": {"ply": ply, "move": text, "reason": "illegal move"}}
        san.append(board.san(move))
        board.push(move)
        status = status_of(board, automatic)

    legal = list(board.generate_legal_moves())
    claims = {"threefold_repetition": False, "fifty_moves": False}
    with_move = {"threefold_repetition": [], "fifty_moves": []}
    if status == "ongoing":
        claims["threefold_repetition"] = board.is_repetition(3)
        claims["fifty_moves"] = board.halfmove_clock >= 100
        for move in legal:
            board.push(move)
            if board.is_repetition(3):
                with_move["threefold_repetition"].append(move.uci())
            if board.halfmove_clock >= 100:
                with_move["fifty_moves"].append(move.uci())
            board.pop()
        with_move["threefold_repetition"].sort()
        with_move["fifty_moves"].sort()

    return {
        "id": gid,
        "fen": board.fen(),
        "san": san,
        "status": status,
        "result": result_of(board, status),
        "claims": claims,
        "claims_with_move": with_move,
        "legal_moves": len(legal),
    }


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "referee"]
    if args:
        sys.exit(f"usage: {sys.argv[0]} [referee] < games.jsonl")
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            game = json.loads(line)
            if not isinstance(game, dict):
                raise ValueError("not a JSON object")
        except ValueError as e:
            reply = {"id": None, "error": {"ply": 0, "move": None, "reason": f"bad input: {e}"}}
        else:
            reply = referee(game)
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
