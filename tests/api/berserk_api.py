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
import os
import socket
import subprocess
import sys
import tempfile
import time
import traceback

import berserk
import berserk.exceptions


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
            [rochade, "serve", "--addr", f"127.0.0.1:{self.port}", "--db", self.db],
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rochade", required=True)
    args = parser.parse_args()
    checks = [check_account, check_bad_token, check_token_test]
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="rochade-api-") as workdir:
        server = Server(os.path.abspath(args.rochade), workdir)
        try:
            password = os.path.join(workdir, "password")
            with open(password, "w") as f:
                f.write("Reykjavik 1972\n")
            server.cli("user", "add", "Fischer", "--password-file", password)
            server.cli("user", "add", "Stockbot", "--bot")
            tokens = {
                "fischer": server.cli(
                    "token", "create", "fischer", "--scopes", "board:play,challenge:write"
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
