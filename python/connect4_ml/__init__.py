"""connect4-ml from Python: the Rust engine's positions, perfect solver, learned models,
feature sets and agents, with adapters for OpenSpiel, PettingZoo and Kaggle ConnectX.

Columns are 0-based everywhere in Python (``Position.play``, ``legal_moves``, ``Agent.move``,
as in the frameworks); move strings are 1-based ("4453"), as in the benchmark files. Board
arrays are ``height x width``, row 0 at the top, 0 empty, 1 first player, 2 second player.

    >>> from connect4_ml import Position, Solver
    >>> Solver().solve(Position("4453"))
    -2
"""

from ._native import (
    Agent,
    Connect4Error,
    Model,
    Position,
    Solver,
    bench_agent,
    feature_names,
    features,
    read_labelled,
    read_uci,
    tournament,
)
from .runs import read_run

__all__ = [
    "Agent",
    "Connect4Error",
    "Model",
    "Position",
    "Solver",
    "bench_agent",
    "feature_names",
    "features",
    "read_labelled",
    "read_run",
    "read_uci",
    "tournament",
]
