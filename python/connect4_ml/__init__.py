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
from ._native import _rate, _set_package_dir
from .results import LadderGames, Rating
from .runs import read_run



def rate(agent, games=40, openings=2, seed=0, jobs=1, width=7, height=6, models=None):
    """The Elo of ``agent`` (a spec or an ``Agent``, Python ones among them) on its board's
    fixed ladder, as ``c4 rate`` measures it: ``games`` against each ladder agent (colours
    alternating, ``openings`` random plies first), its Elo fitted with the ladder's agents
    held at their ratings, a 95% interval. The ladder is the one the board's dial was
    calibrated on, so the number compares across runs, machines and with the page's
    presets (easy about 1180, hard about 1470 on 7x6). The same seed gives the same games
    at any ``jobs``. Returns a ``Rating``.

        >>> r = rate("easy", games=2, width=5, height=4)
        >>> r.low < r.elo < r.high
        True
    """
    return Rating._from_native(
        _rate(agent, games, openings, seed, jobs, width, height, models)
    )


# The shipped models (models/*.bin beside this file) are found from any folder.
_set_package_dir(_os.path.dirname(_os.path.abspath(__file__)))

__all__ = [
    "Agent",
    "Connect4Error",
    "LadderGames",
    "Model",
    "Position",
    "Solver",
    "bench_agent",
    "evaluate",
    "feature_names",
    "features",
    "read_labelled",
    "random_board",
    "rate",
    "Rating",
    "read_run",
    "read_uci",
    "tournament",
]
