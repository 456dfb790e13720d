"""Bring your own model: a scikit-learn classifier trained on solver-labelled positions,
searched by the project's negamax as a Python evaluator, and rated on the ladder against the
shipped GBT at the same depth.

    python python/examples/sklearn_evaluator.py --train 20000 --games 20 --seed 2027

Run from the repository root (the labelled positions are data/positions/train.txt.gz).
"""

import argparse
import time

import numpy as np
from sklearn.linear_model import LogisticRegression

import connect4_ml as c4


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train", type=int, default=20000, help="labelled positions to fit on")
    ap.add_argument("--games", type=int, default=20, help="games per pairing")
    ap.add_argument("--depth", type=int, default=3, help="search depth of both evaluators")
    ap.add_argument("--seed", type=int, default=2027)
    args = ap.parse_args()

    # 1. Data: positions labelled by the solver (score from the side to move), as features.
    data = c4.read_labelled("data/positions/train.txt.gz")
    moves = data["moves"][: args.train]
    positions = [c4.Position(m) for m in moves]
    x = c4.features(positions, "cells+oddeven")
    y = np.sign(data["scores"][: args.train])  # 1 the side to move wins, 0 draw, -1 loss
    t0 = time.perf_counter()
    model = LogisticRegression(max_iter=2000).fit(x, y)
    print(f"fitted on {len(y)} positions in {time.perf_counter() - t0:.1f} s")

    # 2. The evaluator: win chance minus loss chance for the side to move, in [-1, 1], one
    # call per batch of positions (the search gathers them a ply or two above the leaves).
    win, loss = list(model.classes_).index(1), list(model.classes_).index(-1)

    def value(batch):
        p = model.predict_proba(c4.features(batch, "cells+oddeven"))
        return p[:, win] - p[:, loss]

    mine = c4.Agent.from_evaluator(value, depth=args.depth, name=f"sklearn:depth={args.depth}", batch=64)

    # 3. The ladder: our model beside the shipped GBT at the same depth, and two fixed rungs.
    t0 = time.perf_counter()
    summary = c4.tournament(
        [mine, f"gbt:depth={args.depth}", "easy", "random"], games=args.games, seed=args.seed
    )
    print(f"{summary.total_games} games in {time.perf_counter() - t0:.1f} s")
    print(summary)  # the CLI's tables


if __name__ == "__main__":
    main()
