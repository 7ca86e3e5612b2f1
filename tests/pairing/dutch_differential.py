#!/usr/bin/env python3
"""Differential test of `rochade pair --system dutch` against caissify-pairings.

For each of N random tournaments (caissify-pairings' random tournament
generator, C.04.A A.5, seeded so that a run can be repeated) the script
picks a round k, lets the generator play rounds 1..k-1 with its own Dutch
engine, writes the tournament as TRF16 (XXR = the tournament's length,
XXC = the initial colour), and asks both caissify's Dutch engine and
`rochade pair --system dutch` for round k. The two pairings must be equal,
colours included (bbpPairings' `-p` output as sets of White-Black games and
byes).

Prints `N passed, M failed` on its own line, then the first few differing
cases; the TRF of every failure is saved in --failures (default
target/dutch-failures).

    python3 tests/pairing/dutch_differential.py --count 200 --seed 1

Needs caissify-pairings==0.5.0 (scripts/pairing-conformance installs it).
"""

from __future__ import annotations

import argparse
import logging
import copy
import os
import random
import re
import shutil
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

from caissify_pairings import fpc
from caissify_pairings.engines.dutch import DutchEngine
from caissify_pairings.rtg import generate_tournament
from caissify_pairings.trf import TRFParser

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _block(line: str, r: int) -> str:
    """The 8-column block of round r (1-based) of a 001 line."""
    start = 91 + 10 * (r - 1)
    return line[start : start + 8]


def _set_block(line: str, r: int, block: str) -> str:
    """The 001 line with the block of round r replaced."""
    start = 91 + 10 * (r - 1)
    line = line.ljust(start + 10)
    return (line[:start] + block.ljust(10) + line[start + 10 :]).rstrip()


def vary(text: str, k: int, rng: random.Random) -> str:
    """The tournament with what the generator never makes: forfeits in
    earlier rounds, pairing-allocated byes turned into requested byes or
    absences (H, F, Z), requested byes and withdrawals for round k, and a
    late entry with no earlier rounds."""
    lines = text.split("\n")
    rows = [i for i, line in enumerate(lines) if line.startswith("001")]
    number = {int(lines[i][4:8]): i for i in rows}
    for r in range(1, k):
        for i in rows:
            parts = _block(lines[i], r).split()
            if len(parts) != 3 or parts[0] == "0000":
                continue
            me, opp, colour, res = int(lines[i][4:8]), int(parts[0]), parts[1], parts[2]
            if me > opp or res not in "10=" or rng.random() >= 0.04:
                continue
            i_win = res == "1" or (res == "=" and rng.random() < 0.5)
            j = number[opp]
            other = _block(lines[j], r).split()
            lines[i] = _set_block(lines[i], r, f"{opp:>4} {colour} {'+' if i_win else '-'}")
            lines[j] = _set_block(lines[j], r, f"{me:>4} {other[1]} {'-' if i_win else '+'}")
        for i in rows:
            if _block(lines[i], r).split() == ["0000", "-", "U"] and rng.random() < 0.4:
                lines[i] = _set_block(lines[i], r, f"0000 - {rng.choice('HFZ')}")
    for i in rows:
        if rng.random() < 0.06:
            lines[i] = _set_block(lines[i], k, f"0000 - {rng.choice('HFZ')}")
    if rng.random() < 0.3:
        last = lines[rows[-1]][:89]
        n = len(rows) + 1
        late = "001 " + f"{n:>4}" + last[8:48] + "1000" + last[52:80] + " 0.0" + last[84:85] + f"{n:>4}"
        lines.insert(rows[-1] + 1, late)
    return "\n".join(lines)


def make_case(
    seed: int,
    min_players: int,
    max_players: int,
    max_rounds: int,
    variety: bool = False,
    baku: bool = False,
):
    """The TRF text of a random tournament before round k, and k.

    With `baku`, rounds 1 and 2 of a tournament of 5 rounds or more
    whose number of players n has 2*ceil(n/4) == ceil(n/2): there
    caissify's acceleration (the top half, +1 in rounds 1 and 2) is
    C.04.5.1's."""
    rng = random.Random(seed)
    players = rng.randint(min_players, max_players)
    rounds = rng.randint(3, max_rounds)
    k = rng.randint(1, rounds)
    if baku:
        while players % 4 not in (0, 3):
            players += 1
        rounds = max(rounds, 5)
        k = rng.randint(1, 2)
    initial = rng.choice(["white", "black"])
    # The generator plays k-1 rounds (its own initial colour is drawn by
    # lot from the seed); the XXR record is then set to the whole length.
    text = generate_tournament(num_players=players, num_rounds=k - 1, seed=seed, accelerated=baku)
    # caissify writes its acceleration as `XXA round size`, not TRF's XXA.
    text = re.sub(r"^XXA .*\n?", "", text, flags=re.M)
    text = re.sub(r"^XXR .*$", f"XXR {rounds}", text, flags=re.M)
    if k == 1:
        colour = initial
    else:
        player_map = {p["starting_number"]: p for p in TRFParser(text).parse()["players"]}
        colour = fpc._infer_initial_color(player_map)
    text = text.replace(f"XXR {rounds}", f"XXR {rounds}\nXXC {colour}1", 1)
    if variety:
        text = vary(text, k, rng)
    return text, k, rounds, colour


def caissify_round(text: str, k: int, rounds: int, colour: str, baku: bool = False):
    """caissify's Dutch pairing of round k as (games, byes)."""
    parsed = TRFParser(text).parse()
    player_map = {p["starting_number"]: p for p in parsed["players"]}
    # fpc pairs only players that have an entry in the target round:
    # give everyone without an entry for round k (a requested bye or an
    # absence) a placeholder one.
    present = copy.deepcopy(player_map)
    for p in present.values():
        p.setdefault("results", {}).setdefault(k, {"opponent": 0, "color": "w", "result": "1"})
    players = fpc._build_engine_players(present, k)
    # fpc numbers the players present 1..n; the pairing numbers are the
    # file's (C.04.3 E.5 reads their parity), so pass them.
    for p in players:
        p["pairing_number"] = p["starting_number"]
    engine = DutchEngine(
        players=players,
        previous_pairings=fpc._build_previous_pairings(player_map, k),
        round_number=k,
        total_rounds=rounds,
        initial_color=colour,
        accelerated=baku,
    )
    games, byes = set(), set()
    for p in engine.generate_pairings():
        if p.get("black_id") is None or p.get("bye"):
            byes.add(p["white_id"])
        else:
            games.add((p["white_id"], p["black_id"]))
    return games, byes


def rochade_round(binary: str, path: str, baku: bool = False):
    """rochade's pairing of the next round as (games, byes), or an error."""
    try:
        out = subprocess.run(
            [binary, "pair", "--system", "dutch", *(["--baku"] if baku else []), path],
            capture_output=True,
            text=True,
            timeout=120,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    if out.returncode != 0:
        return None, out.stderr.strip()
    lines = out.stdout.split()
    games, byes = set(), set()
    try:
        count = int(lines[0])
        for i in range(count):
            a, b = int(lines[1 + 2 * i]), int(lines[2 + 2 * i])
            if b == 0:
                byes.add(a)
            else:
                games.add((a, b))
    except (ValueError, IndexError):
        return None, f"unreadable output: {out.stdout!r}"
    return (games, byes), None


def run_case(args):
    """One case: (seed, ok, report)."""
    seed, binary, work, min_players, max_players, max_rounds, variety, baku = args
    text, k, rounds, colour = make_case(seed, min_players, max_players, max_rounds, variety, baku)
    path = os.path.join(work, f"case_{seed}.trf")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text + "\n")
    want = caissify_round(text, k, rounds, colour, baku)
    got, error = rochade_round(binary, path, baku)
    if got == want:
        os.remove(path)
        return seed, True, None

    def show(pairing):
        games, byes = pairing
        return " ".join(f"{w}-{b}" for w, b in sorted(games)) + "".join(
            f" {p}-bye" for p in sorted(byes)
        )

    report = f"seed {seed}: round {k} of {rounds}, {path}\n  caissify: {show(want)}\n"
    if error is not None:
        report += f"  rochade:  error: {error}\n"
    else:
        only_c = sorted(want[0] - got[0])
        only_r = sorted(got[0] - want[0])
        report += f"  rochade:  {show(got)}\n  caissify only: {only_c}; rochade only: {only_r}\n"
    return seed, False, report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1, help="first seed; case i uses seed + i")
    parser.add_argument("--binary", default=os.path.join(ROOT, "target/release/rochade"))
    parser.add_argument("--failures", default=os.path.join(ROOT, "target/dutch-failures"))
    parser.add_argument("--show", type=int, default=5, help="differing cases to print")
    parser.add_argument("--min-players", type=int, default=4)
    parser.add_argument("--max-players", type=int, default=30)
    parser.add_argument("--max-rounds", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--variety",
        action="store_true",
        help="add forfeits, requested byes, absences, withdrawals and late entries",
    )
    parser.add_argument(
        "--baku",
        action="store_true",
        help="Baku acceleration (C.04.5.1): rounds 1 and 2, where caissify's method is FIDE's",
    )
    args = parser.parse_args()
    logging.disable(logging.WARNING)

    os.makedirs(args.failures, exist_ok=True)
    # A private copy: others may rebuild target/release while this runs.
    binary = os.path.join(args.failures, "rochade-under-test")
    shutil.copy2(args.binary, binary)
    args.binary = binary
    cases = [
        (
            args.seed + i,
            args.binary,
            args.failures,
            args.min_players,
            args.max_players,
            args.max_rounds,
            args.variety,
            args.baku,
        )
        for i in range(args.count)
    ]
    passed, failed = 0, []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for seed, ok, report in pool.map(run_case, cases, chunksize=4):
            if ok:
                passed += 1
            else:
                failed.append(report)
    print(f"{passed} passed, {len(failed)} failed")
    for report in failed[: args.show]:
        print(report, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
