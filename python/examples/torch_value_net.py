"""Train a small value network, plug it into the project's search, rate it on the fixed scale.

    python python/examples/torch_value_net.py                 # torch when installed, else numpy
    python python/examples/torch_value_net.py --backend numpy --positions 20000 --games 4

1. Data: the labelled training positions the package carries (``datasets.labelled("train",
   planes=True)``: side-to-move planes, the Gymnasium/PettingZoo observation, and the
   game-theoretic value from the side to move: 1 win, 0 draw, -1 loss), from any folder.
2. A multilayer perceptron 84 -> 64 -> 32 -> 1 (tanh), trained on mean squared error; in
   torch (``pip install "./python[torch]"``) or, with ``--backend numpy``, the same network
   written in numpy (what CI runs: torch's PyPI wheel brings several GB of CUDA libraries).
3. The network as an evaluator: ``Agent.from_evaluator(..., takes="planes", batch=4096)``
   searched at depth 3; ``rate`` plays its ladder games ``--jobs`` at once, and the leaves
   of all of them go to the network together (``agent.evaluator_stats`` says how many
   positions a call).
4. Its Elo on the fixed ladder (comparable across runs and with the page's presets), and the
   share of held-out positions whose win/draw/loss sign it gets right.
"""

import argparse
import time

import numpy as np

import connect4_ml as c4
from connect4_ml import datasets

HIDDEN = (64, 32)


class NumpyMLP:
    """The network in numpy: relu hidden layers, a tanh output, Adam on mean squared error."""

    def __init__(self, inputs, rng):
        sizes = (inputs, *HIDDEN, 1)
        self.w = [rng.normal(0, np.sqrt(2 / a), (a, b)).astype(np.float32) for a, b in zip(sizes, sizes[1:])]
        self.b = [np.zeros(b, np.float32) for b in sizes[1:]]
        self.m = [np.zeros_like(p) for p in self.w + self.b]
        self.v = [np.zeros_like(p) for p in self.w + self.b]
        self.t = 0

    def forward(self, x):
        acts = [x]
        for i, (w, b) in enumerate(zip(self.w, self.b)):
            z = acts[-1] @ w + b
            acts.append(np.tanh(z) if i == len(self.w) - 1 else np.maximum(z, 0))
        return acts

    def __call__(self, x):
        return self.forward(x)[-1][:, 0]

    def step(self, x, y, lr=1e-3):
        acts = self.forward(x)
        out = acts[-1][:, 0]
        grad = (2 * (out - y) / len(y) * (1 - out**2))[:, None]
        grads_w, grads_b = [], []
        for i in reversed(range(len(self.w))):
            grads_w.insert(0, acts[i].T @ grad)
            grads_b.insert(0, grad.sum(axis=0))
            if i:
                grad = (grad @ self.w[i].T) * (acts[i] > 0)
        self.t += 1
        for k, (p, g) in enumerate(zip(self.w + self.b, grads_w + grads_b)):
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            p -= lr * mh / (np.sqrt(vh) + 1e-8)
        return float(np.mean((out - y) ** 2))


def train_numpy(x, y, epochs, seed):
    rng = np.random.default_rng(seed)
    net = NumpyMLP(x.shape[1], rng)
    for epoch in range(epochs):
        order = rng.permutation(len(y))
        losses = [net.step(x[i], y[i]) for i in np.array_split(order, max(1, len(y) // 256))]
        print(f"  epoch {epoch + 1}: loss {np.mean(losses):.4f}")
    return lambda planes: net(planes.reshape(len(planes), -1).astype(np.float32))


def train_torch(x, y, epochs, seed):
    import torch

    torch.manual_seed(seed)
    layers, width = [], x.shape[1]
    for h in HIDDEN:
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
        width = h
    net = torch.nn.Sequential(*layers, torch.nn.Linear(width, 1), torch.nn.Tanh())
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    data = torch.utils.data.TensorDataset(torch.from_numpy(x), torch.from_numpy(y))
    loader = torch.utils.data.DataLoader(data, batch_size=256, shuffle=True,
                                         generator=torch.Generator().manual_seed(seed))
    for epoch in range(epochs):
        losses = []
        for xb, yb in loader:
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(net(xb)[:, 0], yb)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        print(f"  epoch {epoch + 1}: loss {np.mean(losses):.4f}")
    net.eval()

    def values(planes):
        with torch.inference_mode():
            return net(torch.from_numpy(planes.reshape(len(planes), -1).astype(np.float32)))[:, 0].numpy()

    return values


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", choices=["auto", "torch", "numpy"], default="auto")
    ap.add_argument("--positions", type=int, default=100000, help="training positions (at most the set's)")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--games", type=int, default=20, help="games against each ladder agent")
    ap.add_argument("--jobs", type=int, default=16, help="games played at once (their leaves batched)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    backend = args.backend
    if backend == "auto":
        try:
            import torch  # noqa: F401

            backend = "torch"
        except ImportError:
            backend = "numpy"

    train = datasets.labelled("train", planes=True)
    x, y = train.arrays()
    x = x.reshape(len(x), -1)[: args.positions]
    y = y[: args.positions]
    print(f"{backend}: training on {len(y):,} positions of {len(train):,} ({args.epochs} epochs)")
    t = time.perf_counter()
    values = (train_torch if backend == "torch" else train_numpy)(x, y, args.epochs, args.seed)
    print(f"trained in {time.perf_counter() - t:.1f} s")

    held = datasets.labelled("heldout", planes=True)
    guess = np.asarray(values(held.boards))
    sign = np.where(guess > 1 / 3, 1, np.where(guess < -1 / 3, -1, 0))
    print(f"held-out win/draw/loss right: {100 * np.mean(sign == held.values):.1f}% of {len(held):,}")

    agent = c4.Agent.from_evaluator(values, depth=args.depth, takes="planes", batch=4096,
                                    name=f"mlp-{backend}:depth={args.depth}")
    t = time.perf_counter()
    rating = c4.rate(agent, games=args.games, seed=args.seed, jobs=args.jobs)
    took = time.perf_counter() - t
    stats = agent.evaluator_stats
    print(rating)
    print(f"{rating.games} games in {took:.1f} s: {stats['positions']:,} positions valued in "
          f"{stats['calls']:,} calls ({stats['mean_batch']:.0f} a call), "
          f"{stats['positions'] / took:,.0f} positions/s")


if __name__ == "__main__":
    main()
