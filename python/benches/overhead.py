"""The Python package's overhead over the library, measured (run from the repository root):

    python python/benches/overhead.py

Prints: features into numpy (positions per second, one core), a batch GBT prediction from
Python against the same call timed inside Rust, and an agent's move from Python against the
same moves timed inside Rust. Positions: the held-out set (data/positions/heldout.txt.gz)."""

import os
import time

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # one core, as the targets say

import connect4_ml as c4
from connect4_ml import _native


def best(repeats, f):
    out = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        out = min(out, time.perf_counter() - t)
    return out


def main():
    moves = c4.read_labelled("data/positions/heldout.txt.gz")["moves"]
    positions = [c4.Position(m) for m in moves]
    big = positions * 50  # 1,000,000 positions
    for name in ("cells", "cells+oddeven"):
        t = best(3, lambda: c4.features(big, name))
        r = _native.rust_features_seconds(big, name, 3)
        print(f"features {name}: {len(big):,} positions in {t:.3f} s from Python = {len(big) / t / 1e6:.2f} M/s "
              f"(inside Rust {r:.3f} s = {len(big) / r / 1e6:.2f} M/s)")
    model = c4.Model("models/gbt.bin")
    batch = positions  # 20,000
    t = best(5, lambda: model.probabilities_batch(batch))
    r = _native.rust_gbt_batch_seconds("models/gbt.bin", batch, 5)
    print(f"GBT batch of {len(batch):,}: {t * 1e3:.1f} ms from Python, {r * 1e3:.1f} ms inside Rust "
          f"({(t / r - 1) * 100:+.1f}%)")
    sample = positions[:2000]
    for spec in ("easy", "ntuple:depth=1", "gbt:depth=1"):
        agent = c4.Agent(spec)
        t = best(3, lambda: [agent.move(p) for p in sample]) / len(sample)
        r = _native.rust_move_seconds(spec, sample, 3)
        print(f"move {spec}: {t * 1e6:.2f} us from Python, {r * 1e6:.2f} us inside Rust, "
              f"overhead {(t - r) * 1e6:.2f} us")


if __name__ == "__main__":
    main()
