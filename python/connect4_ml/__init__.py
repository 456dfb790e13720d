"""connect4-ml from Python: the Rust engine's positions, perfect solver, learned models,
feature sets and agents, with adapters for OpenSpiel, PettingZoo and Kaggle ConnectX.

Columns are 0-based everywhere in Python (``Position.play``, ``legal_moves``, ``Agent.move``,
as in the frameworks); move strings are 1-based ("4453"), as in the benchmark files. Board
arrays are ``height x width``, row 0 at the top, 0 empty, 1 first player, 2 second player.

    >>> from connect4_ml import Position, Solver
    >>> Solver().solve(Position("4453"))
    -2
"""

import os as _os

from ._native import (
    __version__,
    Agent,
    Connect4Error,
    Model,
    Position,
    Solver,
    bench_agent,
    evaluate,
    feature_names,
    features,
    read_labelled,
    random_board,
    read_uci,
    tournament,
)
from ._native import _set_package_dir
from .runs import read_run

# The shipped models (models/*.bin beside this file) are found from any folder.
_set_package_dir(_os.path.dirname(_os.path.abspath(__file__)))

__all__ = [
    "Agent",
    "Connect4Error",
    "Model",
    "Position",
    "Solver",
    "bench_agent",
    "evaluate",
    "feature_names",
    "features",
    "read_labelled",
    "random_board",
    "read_run",
    "read_uci",
    "tournament",
]
