#!/usr/bin/env python3
"""Differential test of `rochade referee` against python-chess 1.11.2.

Generates random games (biased towards repetitions, long stretches without
captures or pawn moves, the 50/75-move rules, sparse endgames and illegal moves),
feeds them to the referee as JSON Lines through ONE process (streamed), computes
the expected answer of every line with python-chess, and compares field by field.

    python3 tests/oracle/differential.py --rochade target/release/rochade
    python3 tests/oracle/differential.py --rochade "python3 tests/oracle/python_referee.py"
    python3 tests/oracle/differential.py --rochade ... --games 200 --all-prefixes

`--rochade` is a command line (split like a shell would); the word `referee` is
appended to it. Exit status: 0 when there is no mismatch, 1 otherwise.

THE PROTOCOL (what the referee must do)
=======================================

Input: one JSON object per line (blank lines are ignored):

    {"id": <any JSON>, "start": <start>, "moves": [<UCI>...], "rules": <rules>}

  start   "startpos" (the default when absent): standard chess, standard array.
          "<FEN>": a standard-chess position (castling KQkq meaning the a/h rooks;
          the halfmove clock and move number are taken from the FEN and count
          for the 50/75-move rules).
          {"chess960": N}, 0 <= N <= 959: Chess960 start position number N
          (Scharnagl numbering, 518 = the standard array), played with Chess960
          castling rules.
  moves   UCI: "e2e4", promotions with a lowercase piece "e7e8q". Castling is
          "e1g1"/"e1c1" in standard chess and king-onto-rook ("e1h1", "b1a1", ...)
          in Chess960. (The other encoding is not tested.)
  rules   "fide" (default): FIDE Laws of Chess (2023): fivefold repetition
          (9.6.1) and the 75-move rule (9.6.2) end the game automatically.
          "fide2009": the Laws before 1 July 2014: no automatic fivefold/75-move
          draws (the game goes on; claims remain possible).
          "iccf" is part of the protocol but not tested here; its tablebase
          claims ("claims": {"tablebase_win", "tablebase_draw"} with
          `referee --syzygy DIR`) are tested by tests/oracle/syzygy.py.

Output: one JSON line per input line, in input order. Either an error:

    {"id": <id echoed>, "error": {"ply": P, "move": "<as given>", "reason": "<text>"}}

  when moves[P-1] (P counts from 1) cannot be played: not UCI, not a legal move,
  or the game had already ended before it (checkmate, stalemate, dead position,
  or under "fide" fivefold repetition / 75 moves; any move after the end is an
  error). Only the first bad move is reported. `reason` is free text (not
  compared; suggested: "illegal move", "invalid UCI move", "game over: <status>").
  P = 0 with "move": null is for a bad line (bad JSON, bad start, bad rules);
  not exercised here.

or the state after playing all moves:

  id                echoed unchanged (any JSON value).
  fen               FEN of the final position. En passant square written only
                    when an en passant capture is legal (python-chess
                    en_passant="legal", shakmaty EnPassantMode::Legal).
                    Castling: standard games "KQkq" subsets; Chess960 X-FEN:
                    K/Q (k/q) for the outermost rook on that side, else the
                    rook's file letter (python-chess board.fen(shredder=False)).
                    Halfmove clock and fullmove number as usual.
  san               SAN of every move (python-chess board.san): "+"/"#" suffixes,
                    minimal disambiguation (file, then rank, then both),
                    promotions "e8=Q", castling "O-O"/"O-O-O" (also in 960).
  status            first that holds, in this order of precedence, for the final
                    position:
                      "checkmate"            side to move is checkmated
                      "stalemate"            side to move has no legal move, not in check
                      "dead_position"        no sequence of legal moves can checkmate
                                             (FIDE 5.2.2; see below)
                      "fivefold_repetition"  rules "fide" only: the position occurred
                                             >= 5 times (9.6.1)
                      "seventy_five_moves"   rules "fide" only: halfmove clock >= 150
                                             (9.6.2; mate on that move wins, by the
                                             precedence above)
                      "ongoing"              otherwise
                    "The position" (9.2.2): same side to move, same pieces on the
                    same squares, same castling RIGHTS (not the momentary ability to
                    castle), and the same en passant possibility (an ep square only
                    counts when the ep capture is legal). Positions before the start
                    position are unknown: the start position occurs once.
  result            "1-0"/"0-1" for checkmate (the side that mated wins), "*" for
                    ongoing, "1/2-1/2" for every other status. Claims do not change
                    it.
  claims            {"threefold_repetition": bool, "fifty_moves": bool}: what the
                    player on move may claim now without naming a move (9.2.1.2,
                    9.3.2):
                      threefold_repetition: the current position has occurred
                        >= 3 times;
                      fifty_moves: halfmove clock >= 100.
                    Both false when status != "ongoing" (an ended game has no claims).
  claims_with_move  {"threefold_repetition": [UCI], "fifty_moves": [UCI]}: the
                    legal moves m (UCI, sorted as strings, ascending) whose
                    declaration would make a claim correct (9.2.1.1, 9.3.1):
                      threefold_repetition: after m the position has occurred
                        >= 3 times;
                      fifty_moves: after m the halfmove clock is >= 100 (m is not a
                        capture or pawn move and the clock is >= 99 now), even when m
                        would mate (the claim is decided before m is played; note
                        python-chess's can_claim_fifty_moves() differs here).
                    Both empty when status != "ongoing". Independent of `claims`.
  legal_moves       number of legal moves in the final position, whatever the
                    status (0 for checkmate and stalemate).

Dead positions: python-chess only knows is_insufficient_material() (both sides
lack mating material: K v K, K+N v K, any number of bishops all on one square
colour v the same), which is narrower than the exact FIDE dead position. So:
  * python-chess insufficient material and the referee not "dead_position" (and
    not checkmate/stalemate) is a MISMATCH;
  * the referee saying "dead_position" where python-chess sees something else
    (not checkmate/stalemate) is a "referee stricter" case: written to
    --stricter-file for a separate check, not a failure. The referee's line must
    then still be self-consistent (result "1/2-1/2", no claims) and fen, san,
    legal_moves must match. A referee that ends a game early this way rejects
    the later moves ("game over"); such errors are confirmed by querying the
    referee again for the prefix that ends before the rejected move, which must
    answer "dead_position" (the prefix is then itself a stricter case).
  For each stricter case a cooperative (help-)mate search of --helpmate-depth
  plies is run with python-chess; finding a mate proves the position is not
  dead, which IS a mismatch.

Mismatch reports give the id, the ply (number of moves played), the field, the
expected and the actual value, and reproduction lines to pipe into
`rochade referee`.
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import os
import queue
import random
import shlex
import subprocess
import sys
import threading
import time
from typing import Any

import chess

RULES_AUTOMATIC = {"fide": True, "fide2009": False}
STATUSES = ("checkmate", "stalemate", "dead_position", "fivefold_repetition",
            "seventy_five_moves", "ongoing")


# --------------------------------------------------------------------------
# Expected semantics (python-chess), with incremental repetition bookkeeping.
# --------------------------------------------------------------------------

def key(board: chess.Board):
    """The FIDE 9.2.2 position identity (python-chess's transposition key)."""
    return board._transposition_key()


def start_board(start) -> chess.Board:
    if start == "startpos":
        return chess.Board()
    if isinstance(start, dict):
        return chess.Board.from_chess960_pos(start["chess960"])
    return chess.Board(start)


def status_of(board: chess.Board, legal: list, reps: int, automatic: bool) -> str:
    if not legal:
        return "checkmate" if board.is_check() else "stalemate"
    if board.is_insufficient_material():
        return "dead_position"
    if automatic and reps >= 5:
        return "fivefold_repetition"
    if automatic and board.halfmove_clock >= 150:
        return "seventy_five_moves"
    return "ongoing"


def result_of(board: chess.Board, status: str) -> str:
    if status == "checkmate":
        return "0-1" if board.turn == chess.WHITE else "1-0"
    return "*" if status == "ongoing" else "1/2-1/2"


def is_zeroing(board: chess.Board, move: chess.Move) -> bool:
    """Pawn move or capture (castling king-onto-rook is neither)."""
    from_bb = chess.BB_SQUARES[move.from_square]
    return bool(board.pawns & from_bb) or bool(
        board.occupied_co[not board.turn] & chess.BB_SQUARES[move.to_square])


def snapshot(board: chess.Board, keys: collections.Counter, automatic: bool,
             san: list[str]) -> dict:
    """The expected referee answer (without id) for the current position."""
    legal = list(board.generate_legal_moves())
    here = key(board)
    status = status_of(board, legal, keys[here], automatic)
    claims = {"threefold_repetition": False, "fifty_moves": False}
    with_move: dict[str, list[str]] = {"threefold_repetition": [], "fifty_moves": []}
    if status == "ongoing":
        claims["threefold_repetition"] = keys[here] >= 3
        claims["fifty_moves"] = board.halfmove_clock >= 100
        # Only moves that are not pawn moves, captures or castling can lead to a
        # position seen before; only those can reach a repeated occupancy.
        seen_occ = {k[6] | k[7] for k, n in keys.items() if n >= 2 and k[8] != board.turn}
        for move in legal:
            if is_zeroing(board, move):
                continue
            if board.halfmove_clock >= 99:
                with_move["fifty_moves"].append(move.uci())
            occ_after = board.occupied ^ chess.BB_SQUARES[move.from_square] ^ chess.BB_SQUARES[move.to_square]
            if board.is_castling(move) or occ_after not in seen_occ:
                continue
            board.push(move)
            if keys[key(board)] >= 2:
                with_move["threefold_repetition"].append(move.uci())
            board.pop()
        with_move["threefold_repetition"].sort()
        with_move["fifty_moves"].sort()
    return {
        "fen": board.fen(),
        "san": list(san),
        "status": status,
        "result": result_of(board, status),
        "claims": claims,
        "claims_with_move": with_move,
        "legal_moves": len(legal),
    }


# --------------------------------------------------------------------------
# Game generation.
# --------------------------------------------------------------------------

ENDGAME_MATERIAL = [
    "KvK", "KNvK", "KBvK", "KBvKB", "KBBvK", "KBvKBB", "KNNvK", "KNvKN", "KBvKN",
    "KPvK", "KRvK", "KQvK", "KBvKP", "KNvKP", "KRvKB", "KQvKR", "KBPvKB", "KRPvKR",
    "KPPvKP", "KBNvK", "KQvKQ",
]


def random_endgame_fen(rng: random.Random) -> str:
    material = rng.choice(ENDGAME_MATERIAL) if rng.random() < 0.8 else None
    for _ in range(1000):
        board = chess.Board(None)
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        if material:
            white, black = material.split("v")
            pieces = [(c, s) for c, side in ((chess.WHITE, white), (chess.BLACK, black)) for s in side]
        else:
            pieces = [(chess.WHITE, "K"), (chess.BLACK, "K")] + [
                (rng.choice(chess.COLORS), rng.choice("PNBRQ")) for _ in range(rng.randint(1, 6))]
        for (color, symbol), sq in zip(pieces, squares):
            board.set_piece_at(sq, chess.Piece(chess.PIECE_SYMBOLS.index(symbol.lower()), color))
        board.turn = rng.choice(chess.COLORS)
        board.halfmove_clock = rng.choice([0, rng.randint(0, 99), rng.randint(90, 99),
                                           rng.randint(95, 149), rng.randint(140, 149)])
        board.fullmove_number = rng.randint(board.halfmove_clock // 2 + 1, 150)
        if board.is_valid() and any(board.generate_legal_moves()):
            return board.fen()
    return chess.STARTING_FEN


class Game:
    """A generated game: the referee input and the per-ply data to check it."""

    def __init__(self, gid: int, start: Any, rules: str | None, moves: list[str],
                 plies_of_interest: set[int], bad_at: int | None):
        self.gid, self.start, self.rules = gid, start, rules
        self.moves = moves
        self.plies_of_interest = plies_of_interest
        self.bad_at = bad_at  # index in moves of the first unplayable move, or None


def choose_move(board, legal, rng, history, p_quiet, p_back):
    if len(history) >= 2 and rng.random() < p_back:
        back = history[-2]
        if back is not None:
            reverse = chess.Move(back.to_square, back.from_square)
            if reverse in legal:
                return reverse
    if rng.random() < p_quiet:
        quiet = [m for m in legal if not is_zeroing(board, m)]
        if quiet:
            return rng.choice(quiet)
    return rng.choice(legal)


def illegal_move_text(board: chess.Board, rng: random.Random) -> str:
    r = rng.random()
    if r < 0.1:
        return rng.choice(["0000", "e2e9", "xx", "", "e7e8k", "a1a1", "e2e4e4", "E2E4"])
    legal = set(board.generate_legal_moves())
    if r < 0.6:
        pseudo = [m for m in board.generate_pseudo_legal_moves() if m not in legal]
        if pseudo:
            return rng.choice(pseudo).uci()
    while True:
        move = chess.Move(rng.choice(chess.SQUARES), rng.choice(chess.SQUARES))
        if move.from_square != move.to_square and move not in legal:
            return move.uci()


def generate_game(seed: str, gid: int) -> Game:
    rng = random.Random(f"{seed}:{gid}")
    kind = rng.random()
    if kind < 0.2:
        start: Any = {"chess960": rng.randrange(960)}
    elif kind < 0.28:
        start = random_endgame_fen(rng)
    else:
        start = "startpos"
    rules = rng.choices([None, "fide", "fide2009"], weights=[55, 27, 18])[0]
    automatic = RULES_AUTOMATIC[rules or "fide"]
    board = start_board(start)
    r = rng.random()
    max_plies = rng.randint(0, 40) if r < 0.25 else rng.randint(40, 200) if r < 0.6 else 300
    p_quiet = 1.0 if rng.random() < 0.3 else rng.uniform(0.2, 0.98)
    back_levels = (rng.uniform(0.0, 0.15), rng.uniform(0.5, 0.95))
    back_level = rng.randrange(2)

    keys = collections.Counter([key(board)])
    moves: list[str] = []
    history: list[chess.Move | None] = []
    interest: set[int] = set()
    legal = list(board.generate_legal_moves())
    status = status_of(board, legal, 1, automatic)
    while status == "ongoing" and len(moves) < max_plies:
        if rng.random() < 0.05:
            back_level = 1 - back_level
        move = choose_move(board, legal, rng, history, p_quiet, back_levels[back_level])
        moves.append(move.uci())
        history.append(None if board.is_castling(move) else move)
        board.push(move)
        k = key(board)
        keys[k] += 1
        ply = len(moves)
        if keys[k] >= 2 or board.halfmove_clock in (99, 100, 101, 149, 150):
            interest.update((ply - 1, ply))
        legal = list(board.generate_legal_moves())
        status = status_of(board, legal, keys[k], automatic)
    interest.add(len(moves))

    bad_at = None
    if status != "ongoing" and rng.random() < 0.3:
        # A move after the end of the game.
        bad_at = len(moves)
        moves.append(rng.choice(legal).uci() if legal and rng.random() < 0.8
                     else illegal_move_text(board, rng))
    elif rng.random() < 0.04 and moves:
        # An illegal move somewhere in the game, followed by what was played.
        cut = rng.randrange(len(moves) + 1)
        replay = start_board(start)
        for text in moves[:cut]:
            replay.push_uci(text)
        moves = moves[:cut] + [illegal_move_text(replay, rng)] + moves[cut:cut + 3]
        bad_at = cut
    return Game(gid, start, rules, moves, interest, bad_at)


def game_lines(args_tuple) -> list[tuple[str, dict]]:
    """All (input line, expected answer) pairs for one game."""
    seed, gid, prefixes, all_prefixes = args_tuple
    game = generate_game(seed, gid)
    n_played = len(game.moves) if game.bad_at is None else game.bad_at
    rng = random.Random(f"{seed}:{gid}:prefixes")
    if all_prefixes:
        plies = set(range(n_played + 1))
    else:
        interesting = sorted(p for p in game.plies_of_interest if p <= n_played)
        plies = set(rng.sample(interesting, min(len(interesting), (prefixes + 1) // 2)))
        while len(plies) < prefixes and len(plies) < n_played:
            plies.add(rng.randrange(n_played + 1))
    plies.discard(len(game.moves))  # the full game is sent anyway

    automatic = RULES_AUTOMATIC[game.rules or "fide"]
    board = start_board(game.start)
    keys = collections.Counter([key(board)])
    expected_at: dict[int, dict] = {}
    san: list[str] = []
    for ply in range(n_played + 1):
        if ply in plies or (ply == n_played and game.bad_at is None):
            expected_at[ply] = snapshot(board, keys, automatic, san)
        if ply < n_played:
            san.append(board.san_and_push(chess.Move.from_uci(game.moves[ply])))
            keys[key(board)] += 1

    out = []
    for ply in sorted(plies) + [len(game.moves)]:
        gid_value: Any = game.gid if ply == len(game.moves) else (
            f"{game.gid}@{ply}" if ply % 3 else {"game": game.gid, "ply": ply})
        request: dict[str, Any] = {"id": gid_value}
        if game.start != "startpos" or rng.random() < 0.5:
            request["start"] = game.start
        request["moves"] = game.moves[:ply]
        if game.rules is not None:
            request["rules"] = game.rules
        if ply == len(game.moves) and game.bad_at is not None:
            expected = {"error": {"ply": game.bad_at + 1, "move": game.moves[game.bad_at]}}
        else:
            expected = expected_at[ply]
        out.append((json.dumps(request, separators=(",", ":")), expected))
    return out


# --------------------------------------------------------------------------
# Comparison.
# --------------------------------------------------------------------------

def _helpmate(board: chess.Board, depth: int, budget: list[int]) -> bool | None:
    budget[0] -= 1
    if budget[0] < 0:
        return None
    if board.is_checkmate():
        return True
    if depth == 0:
        return False
    unknown = False
    # Checks first: mates are found sooner.
    moves = sorted(board.generate_legal_moves(), key=lambda m: not board.gives_check(m))
    for move in moves:
        board.push(move)
        found = _helpmate(board, depth - 1, budget)
        board.pop()
        if found:
            return True
        unknown = unknown or found is None
    return None if unknown else False


def helpmate_exists(board: chess.Board, depth: int, nodes: int) -> bool | None:
    """Is there a sequence of <= depth legal plies (both sides cooperating) that
    ends in checkmate? Iterative deepening; None when the node budget ran out."""
    budget = [nodes]
    result: bool | None = False
    for d in range(depth + 1):
        result = _helpmate(board, d, budget)
        if result is not False:
            return result
    return result


class Checker:
    def __init__(self, args, command: list[str]):
        self.args = args
        self.command = command
        self.mismatches = 0
        self.by_field: collections.Counter = collections.Counter()
        self.stricter: list[dict] = []
        self.followups: list[tuple[dict, dict, int]] = []  # (request, expected, ply)
        self.stats: collections.Counter = collections.Counter()

    def report(self, request: dict, ply: int, field: str, expected, actual, extra: str = "") -> None:
        self.mismatches += 1
        self.by_field[field] += 1
        if self.mismatches > self.args.max_reports:
            return
        repro = dict(request, moves=request.get("moves", [])[:ply])
        print(f"MISMATCH id={json.dumps(request.get('id'))} ply={ply} field={field}", file=sys.stderr)
        print(f"  expected: {json.dumps(expected)}", file=sys.stderr)
        print(f"  actual:   {json.dumps(actual)}", file=sys.stderr)
        if extra:
            print(f"  {extra}", file=sys.stderr)
        line = json.dumps(repro, separators=(",", ":"))
        print(f"  repro:    echo {shlex.quote(line)} | {shlex.join(self.command)}", file=sys.stderr)

    def check(self, request: dict, expected: dict, actual: dict, followup_ok: bool = True) -> None:
        moves = request.get("moves", [])
        n = len(moves)
        if not isinstance(actual, dict) or actual.get("id", object()) != request.get("id"):
            self.report(request, n, "id", request.get("id"), actual.get("id") if isinstance(actual, dict) else actual)
            return
        if "error" in expected:
            self.stats["error lines"] += 1
            err = actual.get("error")
            if not isinstance(err, dict):
                self.report(request, n, "error", expected["error"], {k: v for k, v in actual.items() if k != "id"})
                return
            exp = expected["error"]
            if err.get("ply") == exp["ply"] and err.get("move") == exp["move"]:
                return
            if isinstance(err.get("ply"), int) and 1 <= err["ply"] < exp["ply"] and followup_ok:
                self.followups.append((request, expected, err["ply"]))
                return
            self.report(request, exp["ply"], "error", exp, err)
            return
        if "error" in actual:
            err = actual["error"]
            if isinstance(err, dict) and isinstance(err.get("ply"), int) and 1 <= err["ply"] <= n and followup_ok:
                self.followups.append((request, expected, err["ply"]))
                return
            self.report(request, n, "error", None, err)
            return

        self.stats[f"status {expected['status']}"] += 1
        for name in ("threefold_repetition", "fifty_moves"):
            if expected["claims"][name]:
                self.stats[f"claims.{name}"] += 1
            if expected["claims_with_move"][name]:
                self.stats[f"claims_with_move.{name}"] += 1

        # san: report the first differing ply.
        exp_san, act_san = expected["san"], actual.get("san")
        if exp_san != act_san:
            if isinstance(act_san, list):
                i = next((i for i, (a, b) in enumerate(zip(exp_san, act_san)) if a != b), min(len(exp_san), len(act_san)))
                self.report(request, i + 1, "san", exp_san[i:i + 1], act_san[i:i + 1])
            else:
                self.report(request, n, "san", exp_san, act_san)
        for field in ("fen", "legal_moves"):
            if expected[field] != actual.get(field):
                self.report(request, n, field, expected[field], actual.get(field))

        exp_status, act_status = expected["status"], actual.get("status")
        if act_status == "dead_position" and exp_status not in ("dead_position", "checkmate", "stalemate"):
            self.stricter_case(request, expected, actual)
            consistent = {"result": "1/2-1/2",
                          "claims": {"threefold_repetition": False, "fifty_moves": False},
                          "claims_with_move": {"threefold_repetition": [], "fifty_moves": []}}
            for field, value in consistent.items():
                if actual.get(field) != value:
                    self.report(request, n, field, value, actual.get(field), "(dead_position line must be consistent)")
            return
        for field in ("status", "result", "claims", "claims_with_move"):
            if expected[field] != actual.get(field):
                self.report(request, n, field, expected[field], actual.get(field))

    def stricter_case(self, request: dict, expected: dict, actual: dict) -> None:
        board = chess.Board(expected["fen"], chess960=isinstance(request.get("start"), dict))
        entry = {"request": request, "fen": expected["fen"], "python_chess_status": expected["status"]}
        found = helpmate_exists(board, self.args.helpmate_depth, self.args.helpmate_nodes)
        entry["helpmate_search"] = {True: "mate found", False: "no mate", None: "inconclusive"}[found]
        self.stats[f"stricter cases, helpmate search: {entry['helpmate_search']}"] += 1
        if found:
            self.report(request, len(request.get("moves", [])), "status", expected["status"], "dead_position",
                        f"a mate in <= {self.args.helpmate_depth} plies exists: the position is not dead")
            return
        self.stricter.append(entry)


def run_referee(command: list[str], items, on_result, label: str) -> int:
    """Stream (line, payload) items through one referee process; returns lines sent."""
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1 << 16)
    pending: queue.Queue = queue.Queue()
    sent = [0]
    failure: list[BaseException] = []

    def writer():
        try:
            for line, payload in items:
                pending.put((line, payload))
                proc.stdin.write(line + "\n")
                sent[0] += 1
        except BrokenPipeError:
            pass
        except BaseException as e:  # report in the main thread
            failure.append(e)
        finally:
            pending.put(None)
            try:
                proc.stdin.close()
            except BrokenPipeError:
                pass

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    received = 0
    while True:
        item = pending.get()
        if item is None:
            break
        line, payload = item
        out = proc.stdout.readline()
        if not out:
            print(f"{label}: the referee stopped answering after {received} lines "
                  f"(exit status {proc.wait()}); last line sent: {line}", file=sys.stderr)
            sys.exit(1)
        received += 1
        try:
            actual = json.loads(out)
        except ValueError:
            actual = {"unparsable output": out.rstrip("\n")}
        on_result(json.loads(line), payload, actual)
    thread.join()
    if failure:
        raise failure[0]
    extra = proc.stdout.read()
    status = proc.wait()
    if extra.strip():
        print(f"{label}: the referee wrote more lines than it was given: {extra[:200]!r}", file=sys.stderr)
        sys.exit(1)
    if status != 0:
        print(f"{label}: the referee exited with status {status}", file=sys.stderr)
        sys.exit(1)
    return received


def main() -> None:
    ap = argparse.ArgumentParser(description="Differential test of `rochade referee` against python-chess.")
    ap.add_argument("--rochade", required=True,
                    help="referee command line, e.g. target/release/rochade; 'referee' is appended")
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--seed", default="0")
    ap.add_argument("--prefixes", type=int, default=5, help="random prefixes sent per game (default 5)")
    ap.add_argument("--all-prefixes", action="store_true", help="send every prefix of every game")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="processes computing games and expected answers")
    ap.add_argument("--max-reports", type=int, default=30, help="mismatches printed in full")
    ap.add_argument("--helpmate-depth", type=int, default=8,
                    help="plies of cooperative mate search for 'referee stricter' cases (0: off)")
    ap.add_argument("--helpmate-nodes", type=int, default=200_000,
                    help="node budget of that search per position")
    ap.add_argument("--stricter-file", default="target/oracle/referee-stricter.jsonl",
                    help="where 'referee stricter' dead positions are written")
    ap.add_argument("--save-input", help="also write every input line to this file")
    ap.add_argument("--dry-run", action="store_true",
                    help="only generate the lines and expected answers (timing, --save-input)")
    args = ap.parse_args()

    command = shlex.split(args.rochade) + ["referee"]
    checker = Checker(args, command)
    started = time.monotonic()
    tasks = ((args.seed, gid, args.prefixes, args.all_prefixes) for gid in range(args.games))
    save = open(args.save_input, "w") if args.save_input else None

    # The pool is made here, in the main thread, before any thread exists.
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None

    def items():
        games = pool.imap(game_lines, tasks, chunksize=8) if pool else map(game_lines, tasks)
        for lines in games:
            for line, expected in lines:
                if save:
                    save.write(line + "\n")
                yield line, expected

    if args.dry_run:
        total = sum(1 for _ in items())
        print(f"dry run: {args.games} games, {total} lines in {time.monotonic() - started:.1f} s",
              file=sys.stderr)
        return
    try:
        total = run_referee(command, items(), checker.check, "referee")
    finally:
        if pool:
            pool.terminate()
    if save:
        save.close()

    # Early "game over" errors: ask for the prefix that ends before the rejected move.
    if checker.followups:
        followups = checker.followups
        checker.followups = []

        def prefix_items():
            for request, expected, err_ply in followups:
                prefix = dict(request, id={"followup": request.get("id")}, moves=request["moves"][:err_ply - 1])
                yield json.dumps(prefix, separators=(",", ":")), (request, expected, err_ply)

        def on_prefix(prefix, payload, actual):
            request, expected, err_ply = payload
            if actual.get("status") == "dead_position":
                # Recompute python-chess's view of that prefix and check it as a line.
                board = start_board(request.get("start", "startpos"))
                keys = collections.Counter([key(board)])
                san = []
                for text in prefix["moves"]:
                    move = chess.Move.from_uci(text)
                    san.append(board.san(move))
                    board.push(move)
                    keys[key(board)] += 1
                exp = snapshot(board, keys, RULES_AUTOMATIC[request.get("rules", "fide")], san)
                mismatches = checker.mismatches
                checker.check(prefix, exp, actual, followup_ok=False)
                if checker.mismatches == mismatches:
                    checker.stats["early game over (stricter dead position) confirmed"] += 1
                    return
            checker.report(request, err_ply, "error", expected.get("error", "no error"),
                           {"rejected move at ply": err_ply, "status before it": actual.get("status")})

        run_referee(command, prefix_items(), on_prefix, "referee (follow-up)")

    if checker.stricter:
        os.makedirs(os.path.dirname(args.stricter_file) or ".", exist_ok=True)
        with open(args.stricter_file, "w") as f:
            for entry in checker.stricter:
                f.write(json.dumps(entry, separators=(",", ":")) + "\n")

    elapsed = time.monotonic() - started
    print(f"{args.games} games, {total} lines in {elapsed:.1f} s", file=sys.stderr)
    for name, count in sorted(checker.stats.items()):
        print(f"  {name}: {count}", file=sys.stderr)
    if checker.stricter:
        print(f"  referee stricter (dead position, not insufficient material): {len(checker.stricter)} "
              f"-> {args.stricter_file}", file=sys.stderr)
    if checker.mismatches:
        fields = ", ".join(f"{f}: {n}" for f, n in checker.by_field.most_common())
        print(f"FAILED: {checker.mismatches} mismatches ({fields})", file=sys.stderr)
        sys.exit(1)
    print("OK: 0 mismatches", file=sys.stderr)


if __name__ == "__main__":
    main()
