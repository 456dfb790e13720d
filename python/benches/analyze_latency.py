"""How long perfect analysis takes just past the opening book: `c4 analyze` as a process, side
by side with BitBully (pip's `bitbully`, its default opening book, in process) on the same
positions, with every column's score compared. Run from the repository root:

    python python/benches/analyze_latency.py --c4 target/release/c4 --seed 2027 --count 200

Positions: uniformly random games stopped at 7 to 12 stones (an equal share of each), the game
not over and the side to move without an immediate win (what a player asks about), drawn
with Python's `random.Random(seed)`. Prints median, p90 and max per tool, overall and by
stone count, and writes every timing to --csv when given."""

import argparse
import csv
import random
import statistics
import subprocess
import time

W, H = 7, 6


def wins(board, col, row, who):
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            c, r = col + s * dc, row + s * dr
            while 0 <= c < W and 0 <= r < H and board[c][r] == who:
                n += 1
                c, r = c + s * dc, r + s * dr
        if n >= 4:
            return True
    return False


def random_position(rng, stones):
    """A move string (1-based columns) of `stones` random moves, or None if the game ended or
    the side to move can win at once."""
    board = [[0] * H for _ in range(W)]
    moves = []
    for ply in range(stones):
        who = 1 + ply % 2
        col = rng.choice([c for c in range(W) if board[c][H - 1] == 0])
        row = board[col].index(0)
        board[col][row] = who
        moves.append(col)
        if wins(board, col, row, who):
            return None
    who = 1 + stones % 2
    for col in range(W):
        if board[col][H - 1] == 0:
            row = board[col].index(0)
            board[col][row] = who
            won = wins(board, col, row, who)
            board[col][row] = 0
            if won:
                return None
    return "".join(str(c + 1) for c in moves)


def positions(seed, count):
    rng = random.Random(seed)
    out = []
    for i in range(count):
        stones = 7 + i % 6
        while (m := random_position(rng, stones)) is None:
            pass
        out.append(m)
    return out


def c4_scores(c4, moves, extra=()):
    t = time.perf_counter()
    out = subprocess.run([c4, "analyze", moves, *extra], capture_output=True, text=True, check=True)
    ms = (time.perf_counter() - t) * 1000
    row = next(line for line in out.stdout.splitlines() if line.startswith("score"))
    scores = {}
    for c, tok in enumerate(row.split()[1:]):
        try:
            scores[c] = int(tok)
        except ValueError:
            pass  # a full column
    return ms, scores


def summary(ms):
    ms = sorted(ms)
    p90 = ms[min(len(ms) - 1, int(round(0.9 * (len(ms) - 1))))]
    return f"median {statistics.median(ms):8.1f} ms  p90 {p90:8.1f} ms  max {ms[-1]:8.1f} ms  (n={len(ms)})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--c4", default="target/release/c4")
    ap.add_argument("--seed", type=int, default=2027)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--csv")
    ap.add_argument("--c4-args", default="", help="more `c4 analyze` options, e.g. \"--tt-mib 256\"")
    ap.add_argument("--no-bitbully", action="store_true", help="time c4 alone")
    ap.add_argument(
        "--stones",
        default="7-12",
        help="time only the drawn positions of these stone counts, e.g. 7 or 8-12 (the same "
        "positions as a whole run: the draw is unchanged)",
    )
    a = ap.parse_args()
    try:
        lo, _, hi = a.stones.partition("-")
        stones = sorted(set(range(int(lo), int(hi or lo) + 1)) & set(range(7, 13)))
    except ValueError:
        ap.error(f"--stones {a.stones!r}: expected N or LO-HI")
    if not stones:
        ap.error(f"--stones {a.stones!r}: positions have 7 to 12 stones")
    pos = [m for m in positions(a.seed, a.count) if len(m) in stones]
    bb = None
    try:
        if not a.no_bitbully:
            from bitbully import BitBully, Board

            bb = BitBully()
            bb.score_all_moves(Board())  # load the book before timing
    except ImportError:
        print("bitbully is not installed (pip install bitbully): timing c4 alone")
    rows = []
    disagree = 0
    for m in pos:
        ms, ours = c4_scores(a.c4, m, a.c4_args.split())
        row = {"moves": m, "stones": len(m), "c4_ms": ms}
        if bb is not None:
            board = Board.from_moves([int(ch) - 1 for ch in m])
            t = time.perf_counter()
            theirs = bb.score_all_moves(board)
            row["bitbully_ms"] = (time.perf_counter() - t) * 1000
            if {c: s for c, s in theirs.items()} != ours:
                disagree += 1
                print(f"{m}: c4 {ours} bitbully {theirs}")
        rows.append(row)
    tools = ["c4"] + (["bitbully"] if bb is not None else [])
    for tool in tools:
        print(f"{tool:9} all    {summary([r[tool + '_ms'] for r in rows])}")
        for s in stones:
            print(f"{tool:9} {s:2} st  {summary([r[tool + '_ms'] for r in rows if r['stones'] == s])}")
    if bb is not None:
        print(f"scores: {len(rows) - disagree} of {len(rows)} positions agree column by column")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
