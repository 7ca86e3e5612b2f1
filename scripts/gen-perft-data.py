#!/usr/bin/env python3
"""Generate crates/laws/tests/data/perft.txt, the perft reference data.

Every count in the file is computed by Stockfish 15.1 (the Debian package,
/usr/games/stockfish, "Stockfish 15.1 by the Stockfish developers"): for each
position, `setoption name UCI_Chess960 value <true|false>`, `position fen <FEN>`,
`go perft <depth>`, and the count is the number in the line
`Nodes searched: <count>`. The script refuses to run with another Stockfish
version unless --any-stockfish is given.

Cross-checks, run every time (the script fails when one disagrees):
  * python-chess (chess==1.11.2): for every position, a perft with
    `chess.Board(fen, chess960=<is 960>)` at every depth whose count is at most
    --py-max-nodes (default 60,000), so every position is checked at depths 1..k;
  * published totals: the Chess Programming Wiki standard positions and Chess960
    set, the X-FEN set (talkchess.com t=55274) and Martin Sedlak's tricky positions.

File format (one position per line; `#` lines and blank lines are comments):

    <name>;<FEN>;1=<count>;2=<count>;...;<max depth>=<count>

Names starting with `960-` are Chess960 positions: their castling rights are in
Shredder-FEN (file letters, e.g. `HFhf`) or X-FEN (`KQkq` meaning the outermost
rook), and castling must be generated with Chess960 rules. All other positions
are standard chess (castling field `KQkq`); their counts are the same whether
generated with standard or Chess960 castling rules.

Usage:
    scripts/setup-oracles --stockfish
    python3 scripts/gen-perft-data.py             # rewrite the file
    python3 scripts/gen-perft-data.py --check     # recompute, diff against the file
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "crates" / "laws" / "tests" / "data" / "perft.txt"
STOCKFISH = "/usr/games/stockfish"
STOCKFISH_VERSION = "Stockfish 15.1"

# (name, FEN, max depth). Standard chess first, then Chess960, then tricky cases.
STANDARD = [
    # https://www.chessprogramming.org/Perft_Results
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4),
    ("pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    ("pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4),
    ("pos4-mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 4),
    ("pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4),
    ("pos6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 4),
]

# Published totals, an independent check of Stockfish.
PUBLISHED = {
    ("startpos", 5): 4865609,
    ("kiwipete", 4): 4085603,
    ("pos3", 5): 674624,
    ("pos4", 4): 422333,
    ("pos4-mirrored", 4): 422333,
    ("pos5", 4): 2103487,
    ("pos6", 4): 3894594,
    # Chess960 perft set (CPW; Ethereal's fischer.epd) and the X-FEN set (talkchess t=55274).
    ("960-00", 4): 326672, ("960-01", 4): 667366, ("960-02", 4): 273318,
    ("960-03", 4): 382958, ("960-04", 4): 1171749, ("960-05", 4): 824055,
    ("960-06", 4): 732757, ("960-07", 4): 465806, ("960-08", 4): 384260,
    ("960-09", 4): 679699, ("960-10", 4): 713420, ("960-11", 4): 735703,
    ("960-12", 4): 642367, ("960-13", 4): 815535, ("960-14", 4): 356950,
    ("960-17", 4): 962591,
    ("960-xfen-00", 4): 285754, ("960-xfen-01", 4): 541480, ("960-xfen-02", 4): 118388,
    ("960-xfen-03", 4): 57700, ("960-xfen-04", 4): 405636,
    # Martin Sedlak's test positions (talkchess.com, "perft" suite) and t=71379.
    ("ep-illegal-1", 6): 1134888, ("ep-illegal-2", 6): 1015133, ("ep-gives-check", 6): 1440467,
    ("castle-short-check", 6): 661072, ("castle-long-check", 6): 803711,
    ("castle-rights", 4): 1274206, ("castle-prevented", 4): 1720476,
    ("promote-out-of-check", 6): 3821001, ("discovered-check", 5): 1004658,
    ("promote-give-check", 6): 217342, ("underpromote-give-check", 6): 92683,
    ("self-stalemate", 6): 2217, ("stalemate-checkmate-1", 7): 567584,
    ("stalemate-checkmate-2", 4): 23527, ("promotions-many", 5): 3605103,
    ("gotta-love-perft-1", 4): 134167, ("gotta-love-perft-2", 4): 50268,
}

CHESS960 = [
    # https://www.chessprogramming.org/Chess960_Perft_Results (positions 0-14 and 17)
    ("960-00", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1", 4),
    ("960-01", "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 0 1", 4),
    ("960-02", "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 0 1", 4),
    ("960-03", "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 1", 4),
    ("960-04", "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 1", 4),
    ("960-05", "qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 0 1", 4),
    ("960-06", "q1bnrkr1/ppppp2p/2n2p2/4b1p1/2NP4/8/PPP1PPPP/QNB1RRKB w ge - 0 1", 4),
    ("960-07", "qbn1brkr/ppp1p1p1/2n4p/3p1p2/P7/6PP/QPPPPP2/1BNNBRKR w HFhf - 0 1", 4),
    ("960-08", "qnnbbrkr/1p2ppp1/2pp3p/p7/1P5P/2NP4/P1P1PPP1/Q1NBBRKR w HFhf - 0 1", 4),
    ("960-09", "qn1rbbkr/ppp2p1p/1n1pp1p1/8/3P4/P6P/1PP1PPPK/QNNRBB1R w hd - 0 1", 4),
    ("960-10", "qnr1bkrb/pppp2pp/3np3/5p2/8/P2P2P1/NPP1PP1P/QN1RBKRB w GDg - 0 1", 4),
    ("960-11", "qb1nrkbr/1pppp1p1/1n3p2/p1B4p/8/3P1P1P/PPP1P1P1/QBNNRK1R w HEhe - 0 1", 4),
    ("960-12", "qnnbrk1r/1p1ppbpp/2p5/p4p2/2NP3P/8/PPP1PPP1/Q1NBRKBR w HEhe - 0 1", 4),
    ("960-13", "1qnrkbbr/1pppppp1/p1n4p/8/P7/1P1N1P2/2PPP1PP/QN1RKBBR w HDhd - 0 1", 4),
    ("960-14", "qn1rkrbb/pp1p1ppp/2p1p3/3n4/4P2P/2NP4/PPP2PP1/Q1NRKRBB w FDfd - 0 1", 4),
    ("960-17", "bnqnrbkr/1pp2pp1/p7/3pP2p/4P1P1/8/PPPP3P/BNQNRBKR w HEhe d6 0 1", 4),
    # X-FEN castling (KQkq = outermost rook), rooks and kings on unusual files.
    # Source: http://www.talkchess.com/forum/viewtopic.php?t=55274
    ("960-xfen-00", "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", 4),
    ("960-xfen-01", "r1k2r1q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K2R1Q w KQkq - 0 1", 4),
    ("960-xfen-02", "8/8/8/4B2b/6nN/8/5P2/2R1K2k w Q - 0 1", 4),
    ("960-xfen-03", "2r5/8/8/8/8/8/6PP/k2KR3 w K - 0 1", 4),
    ("960-xfen-04", "4r3/3k4/8/8/8/8/6PP/qR1K1R2 w KQ - 0 1", 4),
]

TRICKY = [
    # En passant: captures that would expose the own king (diagonal pin, rank pin),
    # a capture along the pin line, and a capture of the checking pawn.
    ("ep-diagonal-pin", "k7/8/8/8/3Pp3/8/8/4K2B b - d3 0 1", 6),
    ("ep-along-pin", "8/7k/8/8/3Pp3/8/8/1B2K3 b - d3 0 1", 6),
    ("ep-rank-pin", "8/8/8/KPp4r/8/8/8/7k w - c6 0 1", 6),
    ("ep-evades-check", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", 6),
    ("ep-illegal-1", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6),
    ("ep-illegal-2", "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6),
    ("ep-gives-check", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6),
    # Castling.
    ("castle-short-check", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6),
    ("castle-long-check", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", 6),
    ("castle-rights", "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4),
    ("castle-prevented", "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 4),
    ("castle-through-check", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 4),
    # Promotion.
    ("promote-out-of-check", "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 6),
    ("promote-give-check", "4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 6),
    ("underpromote-give-check", "8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6),
    ("promotions-many", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 5),
    # Checks, pins, mates, stalemates.
    ("discovered-check", "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 5),
    ("self-stalemate", "K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6),
    ("stalemate-checkmate-1", "8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 7),
    ("stalemate-checkmate-2", "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4),
    ("double-check", "4k3/8/4r3/8/8/8/3p4/4K3 w - - 0 1", 5),
    ("gotta-love-perft-1", "8/ppp3p1/8/8/3p4/5Q2/1ppp2K1/brk4n w - - 0 1", 4),
    ("gotta-love-perft-2", "8/6kR/8/8/8/bq6/1rqqqqqq/K1nqnbrq b - - 0 1", 4),
]

HEADER = """\
# Perft reference counts for Rochade's move generator.
# Generated by scripts/gen-perft-data.py; every count computed by {version}
# (`go perft N`, "Nodes searched"), cross-checked with python-chess 1.11.2.
# Format: <name>;<FEN>;<depth>=<count>;...   Lines starting with '#' are comments.
# Names starting with '960-' are Chess960 positions (Shredder-FEN or X-FEN castling
# rights; generate castling with Chess960 rules). All others are standard chess.
"""


class Stockfish:
    def __init__(self, path: str) -> None:
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.version = ""
        for line in self.lines("uciok"):
            if line.startswith("id name "):
                self.version = line[len("id name "):].strip()
        self.chess960: bool | None = None

    def send(self, cmd: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()

    def lines(self, until_prefix: str):
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited unexpectedly")
            yield line.rstrip("\n")
            if line.startswith(until_prefix):
                return

    def perft(self, fen: str, depth: int, chess960: bool) -> int:
        if chess960 != self.chess960:
            self.send(f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}")
            self.chess960 = chess960
        self.send("ucinewgame")
        self.send("isready")
        for _ in self.lines("readyok"):
            pass
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        nodes = None
        for line in self.lines("Nodes searched:"):
            if line.startswith("Nodes searched:"):
                nodes = int(line.split(":")[1])
        assert nodes is not None
        return nodes

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)


def py_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += py_perft(board, depth - 1)
        board.pop()
    return total


def check_fen(name: str, fen: str, chess960: bool) -> None:
    board = chess.Board(fen, chess960=chess960)
    # Only positions that python-chess accepts as valid (reachable-looking; no
    # impossible checks): a FIDE-exact implementation may reject the others.
    status = board.status()
    if status != chess.STATUS_VALID:
        raise SystemExit(f"{name}: python-chess says the position is not valid ({status!r})")
    # The castling rights as written must all be usable (none silently dropped).
    if board.clean_castling_rights() != board.castling_rights:
        raise SystemExit(f"{name}: castling rights in {fen!r} are not all valid")
    # An en passant square, when given, must have a pawn that could capture there
    # (in the ep-*-pin positions that capture is illegal: the point of the test).
    ep = fen.split()[3]
    if ep != "-" and not (board.has_pseudo_legal_en_passant()
                          and chess.square_name(board.ep_square) == ep):
        raise SystemExit(f"{name}: en passant square {ep} in {fen!r} is not usable")


def generate(args) -> list[str]:
    sf = Stockfish(args.stockfish)
    if not sf.version.startswith(STOCKFISH_VERSION) and not args.any_stockfish:
        raise SystemExit(f"expected {STOCKFISH_VERSION}, found {sf.version!r} (use --any-stockfish)")
    out = [HEADER.format(version=sf.version).rstrip("\n")]
    failures = 0
    for section, positions, chess960 in (
        ("Standard positions (Chess Programming Wiki)", STANDARD, False),
        ("Chess960 positions", CHESS960, True),
        ("Tricky positions: en passant pins, castling, promotion, mate/stalemate", TRICKY, False),
    ):
        out.append(f"# {section}")
        for name, fen, max_depth in positions:
            assert name.startswith("960-") == chess960, name
            check_fen(name, fen, chess960)
            counts = [sf.perft(fen, d, chess960) for d in range(1, max_depth + 1)]
            board = chess.Board(fen, chess960=chess960)
            checked = []
            for depth, count in enumerate(counts, start=1):
                if count > args.py_max_nodes:
                    break
                py = py_perft(board, depth)
                if py != count:
                    print(f"MISMATCH {name} depth {depth}: stockfish {count}, python-chess {py}",
                          file=sys.stderr)
                    failures += 1
                checked.append(depth)
            if not checked:
                raise SystemExit(f"{name}: no depth small enough for the python-chess cross-check")
            for (pname, depth), expected in PUBLISHED.items():
                if pname == name and counts[depth - 1] != expected:
                    print(f"MISMATCH {name} depth {depth}: stockfish {counts[depth - 1]}, "
                          f"published {expected}", file=sys.stderr)
                    failures += 1
            print(f"{name}: {counts} (python-chess checked depths 1..{checked[-1]})",
                  file=sys.stderr)
            out.append(";".join([name, fen] + [f"{d}={c}" for d, c in enumerate(counts, 1)]))
    sf.close()
    if failures:
        raise SystemExit(f"{failures} cross-check failure(s)")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stockfish", default=STOCKFISH)
    ap.add_argument("--any-stockfish", action="store_true",
                    help=f"accept a Stockfish other than {STOCKFISH_VERSION}")
    ap.add_argument("--py-max-nodes", type=int, default=60_000,
                    help="largest count cross-checked with python-chess (default 60000)")
    ap.add_argument("--check", action="store_true",
                    help="do not write; fail if the committed file differs")
    ap.add_argument("--output", type=Path, default=OUT)
    args = ap.parse_args()
    text = "\n".join(generate(args)) + "\n"
    if args.check:
        current = args.output.read_text() if args.output.exists() else ""
        if current != text:
            raise SystemExit(f"{args.output} differs from the regenerated data")
        print(f"{args.output}: up to date", file=sys.stderr)
        return
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text)
    print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
