#!/usr/bin/env python3
"""How long the web server's computer takes to answer each move with its player kept
between moves (`--keep-players-mb 256`) and built afresh for every move
(`--keep-players-mb 0`), in one run, alternating the two servers.

Usage: scripts/kept-player-bench.py [BINARY] [--opponent SPEC] [--houses H] [--seeds S]
       [--rounds N]

The person always plays their first legal move, so every game is the same game and the
two servers see the same positions. Prints the median and total reply time per server.
"""
import argparse
import json
import os
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, token=None, body=None):
    req = urllib.request.Request(base + path, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(req, data, timeout=60) as r:
        return json.load(r)


def start(binary, keep_mb, workdir):
    port = free_port()
    db = os.path.join(workdir, f"keep{keep_mb}-{port}.sqlite")
    proc = subprocess.Popen(
        [binary, "serve", "--addr", f"127.0.0.1:{port}", "--db", db,
         "--keep-players-mb", str(keep_mb), "--rate-move", "10000/60s",
         "--rate-read", "100000/60s", "--rate-create", "1000/60s"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/", timeout=1)
            return proc, base
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


def play_game(base, opponent, houses, seeds):
    """Plays one game; returns the computer's reply time after each person's move."""
    g = call(base, "POST", "/api/games",
             body={"variant": "kalah", "houses": houses, "seeds": seeds,
                   "opponent": opponent})
    gid, token = g["id"], g["token"]
    replies = []
    view = call(base, "GET", f"/api/games/{gid}")
    while not view["over"]:
        t0 = time.monotonic()
        call(base, "POST", f"/api/games/{gid}/moves", token,
             {"house": view["legal_moves"][0], "ply": view["ply"]})
        while True:
            view = call(base, "GET", f"/api/games/{gid}")
            if view["over"] or view["to_move"] == 1:
                break
            time.sleep(0.005)
        replies.append(time.monotonic() - t0)
    return replies


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary", nargs="?", default="target/release/mancala")
    ap.add_argument("--opponent", default="perfect")
    ap.add_argument("--houses", type=int, default=5)
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        servers = {mb: start(a.binary, mb, workdir) for mb in (256, 0)}
        times = {mb: [] for mb in servers}
        try:
            for r in range(a.rounds):
                for mb, (_, base) in servers.items():
                    replies = play_game(base, a.opponent, a.houses, a.seeds)
                    times[mb].append(replies)
                    print(f"round {r + 1} keep {mb:3} MiB: {len(replies)} replies, "
                          f"{sum(replies):.2f} s in all", flush=True)
        finally:
            for proc, _ in servers.values():
                proc.kill()
    print(f"\nKalah({a.houses},{a.seeds}) against {a.opponent}, {a.rounds} games each:")
    for mb, games in times.items():
        flat = [t for g in games for t in g]
        totals = [sum(g) for g in games]
        print(f"  --keep-players-mb {mb:3}: median reply {statistics.median(flat) * 1000:7.1f} ms,"
              f" game total {statistics.median(totals):6.2f} s (median of {len(totals)})")


if __name__ == "__main__":
    main()
