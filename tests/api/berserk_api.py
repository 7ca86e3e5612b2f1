#!/usr/bin/env python3
"""The lichess-compatible API driven by the real lichess client.

Starts `rochade serve` on a free port with a fresh database, makes accounts
and personal API tokens with `rochade user` and `rochade token`, and talks
to the server with berserk (PyPI, pinned in scripts/setup-oracles) exactly
as a program written for lichess would, changing only the base URL.

Usage: tests/api/berserk_api.py --rochade target/release/rochade
Prints one line per check and `N passed, M failed` last; exits 1 on a failure.
"""

import argparse
import io
import os
import queue
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback

import berserk
import berserk.exceptions
import chess
import chess.pgn

WAIT = 20  # seconds a check waits for one stream item


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A `rochade serve` on its own port and database."""

    def __init__(self, rochade, workdir):
        self.rochade = rochade
        self.db = os.path.join(workdir, "api.sqlite")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(workdir, "server.log"), "w")
        self.process = subprocess.Popen(
            # A player may claim the win 2 s after the opponent left.
            [rochade, "serve", "--addr", f"127.0.0.1:{self.port}", "--db", self.db,
             "--limit", "gone_claim=2s"],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.time() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if time.time() > deadline or self.process.poll() is not None:
                    raise RuntimeError("rochade serve did not start")
                time.sleep(0.05)

    def cli(self, *args):
        """Runs `rochade ARGS --db DB`; returns its standard output."""
        done = subprocess.run(
            [self.rochade, *args, "--db", self.db],
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.strip()

    def client(self, token):
        session = berserk.TokenSession(token)
        return berserk.Client(session=session, base_url=self.url)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)
        self.log.close()


def check_account(server, tokens):
    me = server.client(tokens["fischer"]).account.get()
    assert me["id"] == "fischer", me
    assert me["username"] == "Fischer", me
    assert "title" not in me, me
    bot = server.client(tokens["stockbot"]).account.get()
    assert bot["title"] == "BOT", bot


def check_bad_token(server, tokens):
    try:
        server.client("rop_not_a_real_token").account.get()
    except berserk.exceptions.ResponseError as e:
        assert e.status_code == 401, e.status_code
        assert "No such token" in str(e), str(e)
    else:
        raise AssertionError("a wrong token was accepted")


def check_token_test(server, tokens):
    answer = server.client(tokens["fischer"]).oauth.test_tokens(
        tokens["fischer"], tokens["stockbot"], "rop_bad"
    )
    assert answer[tokens["fischer"]]["userId"] == "fischer", answer
    assert answer[tokens["fischer"]]["scopes"] == "board:play,challenge:write", answer
    assert answer[tokens["stockbot"]]["scopes"] == "bot:play", answer
    assert answer["rop_bad"] is None, answer


def listen(stream):
    """Reads a berserk stream on a thread; returns a queue of its items."""
    items = queue.Queue()

    def pump():
        try:
            for item in stream:
                items.put(item)
        except Exception as e:  # the server closed the stream
            items.put(e)

    threading.Thread(target=pump, daemon=True).start()
    return items


def until(items, wanted, what):
    """The first item of `items` for which `wanted` holds."""
    deadline = time.time() + WAIT
    while True:
        left = deadline - time.time()
        if left <= 0:
            raise AssertionError(f"no {what} within {WAIT} s")
        try:
            item = items.get(timeout=left)
        except queue.Empty:
            raise AssertionError(f"no {what} within {WAIT} s")
        if isinstance(item, Exception):
            raise AssertionError(f"the stream ended before {what}: {item}")
        if wanted(item):
            return item


def check_challenge_played_to_mate(server, tokens):
    """Fischer challenges Spassky; both stream; a draw offer is declined;
    Spassky mates (5.1.1); the PGN reads back in python-chess."""
    fischer = server.client(tokens["fischer"])
    spassky = server.client(tokens["spassky"])
    fischer_events = listen(fischer.board.stream_incoming_events())
    spassky_events = listen(spassky.board.stream_incoming_events())
    challenge = fischer.challenges.create(
        "Spassky", rated=False, clock_limit=300, clock_increment=3, color="white"
    )
    assert challenge["status"] == "created", challenge
    assert challenge["timeControl"]["show"] == "5+3", challenge
    got = until(spassky_events, lambda e: e["type"] == "challenge", "challenge")
    assert got["challenge"]["id"] == challenge["id"], got
    spassky.challenges.accept(challenge["id"])
    start = until(fischer_events, lambda e: e["type"] == "gameStart", "gameStart")
    game = start["game"]["gameId"]
    assert start["game"]["color"] == "white", start
    assert until(spassky_events, lambda e: e["type"] == "gameStart", "gameStart")["game"]["color"] == "black"
    white_stream = listen(fischer.board.stream_game_state(game))
    black_stream = listen(spassky.board.stream_game_state(game))
    full = until(white_stream, lambda e: e["type"] == "gameFull", "gameFull")
    assert full["white"]["name"] == "Fischer" and full["black"]["name"] == "Spassky", full
    assert full["clock"] == {"initial": 300000, "increment": 3000}, full
    until(black_stream, lambda e: e["type"] == "gameFull", "gameFull")

    def moves_are(n):
        return lambda e: e.get("type") == "gameState" and len(e["moves"].split()) == n

    fischer.board.make_move(game, "f2f3")
    until(black_stream, moves_are(1), "f3")
    spassky.board.make_move(game, "e7e5")
    until(white_stream, moves_are(2), "e5")
    fischer.board.offer_draw(game)
    until(black_stream, lambda e: e.get("wdraw") is True, "the draw offer")
    spassky.board.decline_draw(game)
    until(white_stream, lambda e: e.get("type") == "gameState" and not e.get("wdraw"), "the decline")
    fischer.board.make_move(game, "g2g4")
    until(black_stream, moves_are(3), "g4")
    spassky.board.make_move(game, "d8h4")
    end = until(white_stream, lambda e: e.get("status") == "mate", "mate")
    assert end["winner"] == "black", end
    finish = until(fischer_events, lambda e: e["type"] == "gameFinish", "gameFinish")
    assert finish["game"]["gameId"] == game, finish
    assert finish["game"]["winner"] == "black", finish
    pgn = fischer.games.export(game, as_pgn=True)
    record = chess.pgn.read_game(io.StringIO(pgn))
    assert record.headers["White"] == "Fischer", record.headers
    assert record.headers["Result"] == "0-1", record.headers
    board = record.end().board()
    assert board.is_checkmate(), board.fen()
    assert [m.uci() for m in record.mainline_moves()] == ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert "%clk" in pgn, pgn


def check_declined_and_cancelled_challenges(server, tokens):
    fischer = server.client(tokens["fischer"])
    spassky = server.client(tokens["spassky"])
    fischer_events = listen(fischer.board.stream_incoming_events())
    spassky_events = listen(spassky.board.stream_incoming_events())
    first = fischer.challenges.create("spassky", rated=False, days=3)
    assert first["speed"] == "correspondence", first
    spassky.challenges.decline(first["id"], reason="later")
    declined = until(fischer_events, lambda e: e["type"] == "challengeDeclined", "challengeDeclined")
    assert declined["challenge"]["declineReasonKey"] == "later", declined
    second = fischer.challenges.create("spassky", rated=False, clock_limit=60, clock_increment=0)
    fischer.challenges.cancel(second["id"])
    until(spassky_events, lambda e: e["type"] == "challengeCanceled", "challengeCanceled")
    try:
        spassky.challenges.accept(second["id"])
    except berserk.exceptions.ResponseError as e:
        assert e.status_code == 404, e.status_code
    else:
        raise AssertionError("a cancelled challenge was accepted")


def check_bot_plays_the_robot(server, tokens):
    """A bot account plays a whole game against the built-in robot through
    the Bot API, choosing its moves with python-chess."""
    bot = server.client(tokens["stockbot"])
    events = listen(bot.bots.stream_incoming_events())
    created = bot.challenges.create_ai(level=1, clock_limit=600, clock_increment=5, color="white")
    game = created["id"]
    until(events, lambda e: e["type"] == "gameStart" and e["game"]["gameId"] == game, "gameStart")
    stream = listen(bot.bots.stream_game_state(game))
    full = until(stream, lambda e: e["type"] == "gameFull", "gameFull")
    assert full["black"].get("aiLevel") == 1, full
    rng = random.Random(1972)
    state = full["state"]
    plies = 0
    while state["status"] == "started":
        board = chess.Board()
        for uci in state["moves"].split():
            board.push_uci(uci)
        if board.turn == chess.WHITE:
            if plies >= 300:
                bot.bots.resign_game(game)
            else:
                legal = list(board.legal_moves)
                captures = [m for m in legal if board.is_capture(m)]
                bot.bots.make_move(game, rng.choice(captures or legal).uci())
        seen = len(state["moves"].split())
        state = until(
            stream,
            lambda e: e.get("type") == "gameState"
            and (len(e["moves"].split()) > seen or e["status"] != "started"),
            "the next move",
        )
        plies = len(state["moves"].split())
    assert state["status"] in ("mate", "draw", "stalemate", "resign", "outoftime"), state
    finish = until(events, lambda e: e["type"] == "gameFinish", "gameFinish")
    assert finish["game"]["gameId"] == game, finish
    print(f"      bot against robot level 1: {plies} plies, {state['status']}")


def accepted_game(fischer, spassky, spassky_events, **terms):
    """Fischer (White) challenges Spassky on `terms`; Spassky accepts; the
    game's id."""
    before = {g["gameId"] for g in spassky.games.get_ongoing()}
    challenge = fischer.challenges.create("spassky", color="white", **terms)
    until(spassky_events, lambda e: e["type"] == "challenge" and e["challenge"]["id"] == challenge["id"], "challenge")
    spassky.challenges.accept(challenge["id"])
    start = until(
        spassky_events,
        lambda e: e["type"] == "gameStart" and e["game"]["gameId"] not in before,
        "gameStart",
    )
    return start["game"]["gameId"]


def check_ratings_and_history(server, tokens):
    """A rated blitz game changes both Glicko-2 ratings; the profile, the
    rating history and the player's games (NDJSON and PGN) show it."""
    fischer = server.client(tokens["fischer"])
    spassky = server.client(tokens["spassky"])
    before = spassky.users.get_public_data("spassky")["perfs"].get("blitz", {}).get("games", 0)
    events = listen(spassky.board.stream_incoming_events())
    game = accepted_game(fischer, spassky, events, rated=True, clock_limit=180, clock_increment=2)
    for i, uci in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"]):
        (fischer if i % 2 == 0 else spassky).board.make_move(game, uci)
    until(events, lambda e: e["type"] == "gameFinish" and e["game"]["gameId"] == game, "gameFinish")
    winner = spassky.users.get_public_data("spassky")
    loser = fischer.users.get_public_data("fischer")
    assert winner["perfs"]["blitz"]["games"] == before + 1, winner
    assert winner["perfs"]["blitz"]["rating"] > loser["perfs"]["blitz"]["rating"], (winner, loser)
    assert winner["count"]["win"] >= 1, winner
    history = spassky.users.get_rating_history("spassky")
    blitz = [h for h in history if h["name"] == "Blitz"][0]
    assert blitz["points"], history
    games = list(spassky.games.export_by_player("spassky", as_pgn=False, max=5, rated=True, perf_type="blitz"))
    assert games[0]["id"] == game, games
    assert games[0]["players"]["black"]["ratingDiff"] > 0, games[0]
    assert games[0]["status"] == "mate" and games[0]["winner"] == "black", games[0]
    against = list(spassky.games.export_by_player("spassky", as_pgn=False, vs="fischer", max=50))
    assert game in [g["id"] for g in against], against
    pgn = "\n".join(spassky.games.export_by_player("spassky", as_pgn=True, max=1))
    record = chess.pgn.read_game(io.StringIO(pgn))
    assert record.headers["BlackElo"].isdigit() and record.headers["Result"] == "0-1", record.headers
    assert record.end().board().is_checkmate()


def check_chat_and_claim_victory(server, tokens):
    """The players chat; Spassky never connects after his move, and once
    he has been gone long enough Fischer claims the win (opponentGone,
    claim-victory)."""
    fischer = server.client(tokens["fischer"])
    spassky = server.client(tokens["spassky"])
    events = listen(spassky.board.stream_incoming_events())
    game = accepted_game(fischer, spassky, events, rated=False, clock_limit=600, clock_increment=0)
    stream = listen(fischer.board.stream_game_state(game))
    until(stream, lambda e: e["type"] == "gameFull", "gameFull")
    fischer.board.post_message(game, "Good luck")
    line = until(stream, lambda e: e.get("type") == "chatLine", "chatLine")
    assert line["username"] == "Fischer" and line["text"] == "Good luck", line
    assert fischer.board.get_game_chat(game) == [{"user": "Fischer", "text": "Good luck"}]
    fischer.board.make_move(game, "e2e4")
    spassky.board.make_move(game, "e7e5")
    gone = until(stream, lambda e: e.get("type") == "opponentGone" and e["claimWinInSeconds"] == 0, "opponentGone")
    assert gone["gone"] is True, gone
    fischer.board.claim_victory(game)
    end = until(stream, lambda e: e.get("type") == "gameState" and e["status"] != "started", "the end")
    assert end["status"] == "timeout" and end["winner"] == "white", end


def check_seeks_pair(server, tokens):
    """Two Board API seeks with the same control are paired, as lichess
    pairs them; each seek's stream ends."""
    fischer = server.client(tokens["fischer"])
    spassky = server.client(tokens["spassky"])
    events = listen(fischer.board.stream_incoming_events())
    seeking = threading.Thread(target=lambda: fischer.board.seek(7, 2, color="white"), daemon=True)
    seeking.start()
    time.sleep(0.5)
    spassky.board.seek(7, 2)  # returns once paired
    start = until(events, lambda e: e["type"] == "gameStart" and e["game"]["color"] == "white"
                  and e["game"]["opponent"]["username"] == "Spassky" and not e["game"]["hasMoved"], "gameStart")
    seeking.join(timeout=WAIT)
    assert not seeking.is_alive(), "Fischer's seek stream did not end"
    fischer.board.resign_game(start["game"]["gameId"])


def check_playing(server, tokens):
    fischer = server.client(tokens["fischer"])
    spassky = server.client(tokens["spassky"])
    spassky_events = listen(spassky.board.stream_incoming_events())
    challenge = fischer.challenges.create("spassky", rated=False, clock_limit=600, clock_increment=0, color="black")
    until(spassky_events, lambda e: e["type"] == "challenge", "challenge")
    spassky.challenges.accept(challenge["id"])
    until(spassky_events, lambda e: e["type"] == "gameStart", "gameStart")
    playing = spassky.games.get_ongoing()
    assert len(playing) == 1, playing
    assert playing[0]["isMyTurn"] is True and playing[0]["color"] == "white", playing
    assert playing[0]["opponent"]["username"] == "Fischer", playing


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rochade", required=True)
    args = parser.parse_args()
    checks = [
        check_account,
        check_bad_token,
        check_token_test,
        check_challenge_played_to_mate,
        check_declined_and_cancelled_challenges,
        check_playing,
        check_ratings_and_history,
        check_chat_and_claim_victory,
        check_seeks_pair,
        check_bot_plays_the_robot,
    ]
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="rochade-api-") as workdir:
        server = Server(os.path.abspath(args.rochade), workdir)
        try:
            password = os.path.join(workdir, "password")
            with open(password, "w") as f:
                f.write("Reykjavik 1972\n")
            server.cli("user", "add", "Fischer", "--password-file", password)
            server.cli("user", "add", "Spassky", "--password-file", password)
            server.cli("user", "add", "Stockbot", "--bot")
            tokens = {
                "fischer": server.cli(
                    "token", "create", "fischer", "--scopes", "board:play,challenge:write"
                ),
                "spassky": server.cli(
                    "token",
                    "create",
                    "spassky",
                    "--scopes",
                    "board:play,challenge:read,challenge:write",
                ),
                "stockbot": server.cli("token", "create", "stockbot", "--scopes", "bot:play"),
            }
            for check in checks:
                try:
                    check(server, tokens)
                    passed += 1
                    print(f"ok    {check.__name__}")
                except Exception:
                    failed += 1
                    print(f"FAIL  {check.__name__}")
                    traceback.print_exc()
        finally:
            server.stop()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
