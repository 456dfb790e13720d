"""What a Python model costs in the project's search and arena (run from the repository root):

    python python/benches/byom.py --positions 200 --seed 2027

1. The same depth-3 search over the shipped GBT, built in (`gbt:depth=3`) and called from
   Python in batches (`Agent.from_evaluator(Model("models/gbt.bin").values, ...)`): the values
   are the same, so both search the same positions and play the same moves; the ratio of
   their times is the ratio of positions searched per second. Per batch size.
2. `Agent.from_policy`: the time of a move beyond the user's function (a policy that returns
   a fixed column, timed alone and through `Agent.move`).
Positions: seeded random 4 to 16-stone positions that are not over (`random_board`).
"""

import argparse
import os
import time

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # one core for both

import connect4_ml as c4


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2027)
    args = ap.parse_args()
    positions = []
    k = 0
    while len(positions) < args.positions:
        p, _ = c4.random_board(4 + k % 13, rng=args.seed + k)
        k += 1
        if not p.is_over:
            positions.append(p)

    gbt = c4.Model("models/gbt.bin")
    built_in = c4.Agent(f"gbt:depth={args.depth}")
    t = time.perf_counter()
    reference = [built_in.move(p) for p in positions]
    base = time.perf_counter() - t
    print(f"built-in gbt:depth={args.depth}: {base / len(positions) * 1e3:.2f} ms a move ({len(positions)} positions)")
    for batch in (1, 8, 64, 512):
        calls = [0, 0]

        def values(ps):
            calls[0] += 1
            calls[1] += len(ps)
            return gbt.values(ps)

        agent = c4.Agent.from_evaluator(values, depth=args.depth, batch=batch, name="python-gbt")
        t = time.perf_counter()
        moves = [agent.move(p) for p in positions]
        took = time.perf_counter() - t
        same = sum(a == b for a, b in zip(moves, reference))
        print(
            f"Python GBT, batch {batch:>3}: {took / len(positions) * 1e3:.2f} ms a move, "
            f"{base / took * 100:.0f}% of the built-in's positions per second; "
            f"{calls[1] / max(1, calls[0]):.1f} positions a call; same move in {same}/{len(positions)}"
        )

    fixed = c4.Agent.from_policy(lambda p: p.legal_moves()[0], name="first-legal")
    f = lambda p: p.legal_moves()[0]  # noqa: E731
    n = 20000
    reps = (positions * (n // len(positions) + 1))[:n]
    t = time.perf_counter()
    for p in reps:
        f(p)
    alone = (time.perf_counter() - t) / n
    t = time.perf_counter()
    for p in reps:
        fixed.move(p)
    through = (time.perf_counter() - t) / n
    print(
        f"from_policy: {through * 1e6:.2f} us a move through Agent.move, the function alone "
        f"{alone * 1e6:.2f} us: {(through - alone) * 1e6:.2f} us beyond it"
    )


if __name__ == "__main__":
    main()
