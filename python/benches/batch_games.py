"""Batches across games: positions per second of a torch MLP evaluator (the network of
python/examples/torch_value_net.py) beside the built-in GBT, both searched at depth 3, in
the same tournament against `easy`. Run from the repository root:

    python python/benches/batch_games.py --games 64 --seed 2040

- The built-in GBT (`gbt:depth=3`): its positions valued are counted by playing the same
  tournament with the same GBT called from Python (`Model("models/gbt.bin").values`): the
  values are the same, so the search and the games are the same (checked), and the count
  over the built-in's time is its positions per second.
- The MLP (untrained weights, seeded: the cost of a call does not depend on them), one game
  at a time (`jobs=1`, batch 64: the search's own batches) and `--jobs` games at once
  (batch `--batch`): its positions valued (`agent.evaluator_stats`) over the wall time.
Prints positions/s, the mean positions per call, and the MLP's share of the GBT's rate.
"""

import argparse
import os
import time

import numpy as np

import connect4_ml as c4


def mlp(seed):
    import torch

    torch.manual_seed(seed)
    net = torch.nn.Sequential(
        torch.nn.Linear(84, 64), torch.nn.ReLU(), torch.nn.Linear(64, 32), torch.nn.ReLU(),
        torch.nn.Linear(32, 1), torch.nn.Tanh(),
    ).eval()

    def values(planes):
        with torch.inference_mode():
            return net(torch.from_numpy(planes.reshape(len(planes), -1).astype(np.float32)))[:, 0].numpy()

    return values


REPEATS = 3
_START = {}


def play(agent, games, seed, jobs):
    """The tournament and its best wall time of REPEATS runs (the counts are per run)."""
    best = float("inf")
    for _ in range(REPEATS):
        if not isinstance(agent, str) and agent.evaluator_stats is not None:
            _START[id(agent)] = dict(agent.evaluator_stats)
        t = time.perf_counter()
        r = c4.tournament([agent, "easy"], games=games, seed=seed, jobs=jobs)
        best = min(best, time.perf_counter() - t)
    return r, best


def per_run(agent):
    """The evaluator's calls and positions in one run of `play`."""
    s, start = agent.evaluator_stats, _START[id(agent)]
    calls, positions = s["calls"] - start["calls"], s["positions"] - start["positions"]
    return calls, positions


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=64)
    ap.add_argument("--jobs", type=int, default=64)
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=2040)
    ap.add_argument("--torch-threads", type=int, default=1)
    args = ap.parse_args()
    import torch

    torch.set_num_threads(args.torch_threads)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; {os.cpu_count()} cores; "
          f"{args.games} games against easy, seed {args.seed}")

    built_in, t_gbt = play("gbt:depth=3", args.games, args.seed, 1)
    model = c4.Model("models/gbt.bin")
    counted = c4.Agent.from_evaluator(model.values, depth=3, batch=64, name="gbt:depth=3")
    same, _ = play(counted, args.games, args.seed, 1)
    assert [g.moves for g in same.games] == [g.moves for g in built_in.games], "same values, same games"
    _, gbt_positions = per_run(counted)
    gbt_rate = gbt_positions / t_gbt
    print(f"built-in gbt:depth=3, 1 thread: {t_gbt:.3f} s (best of {REPEATS}), "
          f"{gbt_positions:,} positions, {gbt_rate:,.0f} positions/s")

    for jobs, batch in [(1, 64), (args.jobs, args.batch)]:
        agent = c4.Agent.from_evaluator(mlp(args.seed), depth=3, takes="planes", batch=batch,
                                        name="mlp:depth=3")
        r, took = play(agent, args.games, args.seed, jobs)
        calls, positions = per_run(agent)
        rate = positions / took
        print(f"torch MLP, jobs {jobs:>3}, batch {batch:>5}: {took:.3f} s, {positions:,} positions "
              f"in {calls:,} calls ({positions / calls:.0f} a call), {rate:,.0f} positions/s = "
              f"{100 * rate / gbt_rate:.1f}% of the GBT's")
        if jobs == 1:
            one = [g.moves for g in r.games]
        else:
            assert [g.moves for g in r.games] == one, "batched across games: the same games"
    print("games identical one at a time and batched across games")


if __name__ == "__main__":
    main()
