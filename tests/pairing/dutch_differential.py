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
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

from caissify_pairings import fpc
from caissify_pairings.engines.dutch import DutchEngine
from caissify_pairings.rtg import generate_tournament
from caissify_pairings.trf import TRFParser

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def make_case(seed: int, min_players: int, max_players: int, max_rounds: int):
    """The TRF text of a random tournament before round k, and k."""
    rng = random.Random(seed)
    players = rng.randint(min_players, max_players)
    rounds = rng.randint(3, max_rounds)
    k = rng.randint(1, rounds)
    initial = rng.choice(["white", "black"])
    # The generator plays k-1 rounds (its own initial colour is drawn by
    # lot from the seed); the XXR record is then set to the whole length.
    text = generate_tournament(num_players=players, num_rounds=k - 1, seed=seed)
    text = re.sub(r"^XXR .*$", f"XXR {rounds}", text, flags=re.M)
    if k == 1:
        colour = initial
    else:
        player_map = {p["starting_number"]: p for p in TRFParser(text).parse()["players"]}
        colour = fpc._infer_initial_color(player_map)
    text = text.replace(f"XXR {rounds}", f"XXR {rounds}\nXXC {colour}1", 1)
    return text, k, rounds, colour


def caissify_round(text: str, k: int, rounds: int, colour: str):
    """caissify's Dutch pairing of round k as (games, byes)."""
    parsed = TRFParser(text).parse()
    player_map = {p["starting_number"]: p for p in parsed["players"]}
    # fpc pairs only players that have an entry in the target round:
    # everyone plays round k, so give each a placeholder entry.
    present = copy.deepcopy(player_map)
    for p in present.values():
        p.setdefault("results", {})[k] = {"opponent": 0, "color": "w", "result": "1"}
    engine = DutchEngine(
        players=fpc._build_engine_players(present, k),
        previous_pairings=fpc._build_previous_pairings(player_map, k),
        round_number=k,
        total_rounds=rounds,
        initial_color=colour,
    )
    games, byes = set(), set()
    for p in engine.generate_pairings():
        if p.get("black_id") is None or p.get("bye"):
            byes.add(p["white_id"])
        else:
            games.add((p["white_id"], p["black_id"]))
    return games, byes


def rochade_round(binary: str, path: str):
    """rochade's pairing of the next round as (games, byes), or an error."""
    out = subprocess.run(
        [binary, "pair", "--system", "dutch", path],
        capture_output=True,
        text=True,
        timeout=120,
    )
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
    seed, binary, work, min_players, max_players, max_rounds = args
    text, k, rounds, colour = make_case(seed, min_players, max_players, max_rounds)
    path = os.path.join(work, f"case_{seed}.trf")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text + "\n")
    want = caissify_round(text, k, rounds, colour)
    got, error = rochade_round(binary, path)
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
    args = parser.parse_args()
    logging.disable(logging.WARNING)

    os.makedirs(args.failures, exist_ok=True)
    cases = [
        (args.seed + i, args.binary, args.failures, args.min_players, args.max_players, args.max_rounds)
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
