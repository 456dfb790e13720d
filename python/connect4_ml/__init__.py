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
    feature_names,
    features,
    read_labelled,
    random_board,
    read_uci,
)
from ._native import _bench_agent, _evaluate, _rate, _set_package_dir, _tournament
from . import datasets
from .results import (
    AgentEvaluation,
    BenchResult,
    EloRating,
    Estimate,
    Evaluation,
    Game,
    LadderGames,
    Match,
    Pairing,
    Rating,
    SetErrors,
    SetGrade,
    SideRecord,
    TournamentResult,
)
from .runs import read_run


def tournament(agents, games=20, openings=2, seed=0, jobs=1, width=7, height=6, models=None):
    """A round robin between ``agents`` (specs, or ``Agent``s: those made from Python code
    play too), as ``c4 tournament`` plays it: ``games`` per pairing, colours alternating,
    ``openings`` random plies first, ``jobs`` games at once (the same games at any
    ``jobs``). Any board of up to 128 bits (width x (height + 1)): past 64 (8x8, 9x7, ...)
    the agent kinds that play there. Returns a ``TournamentResult``: pairings, Elo
    (relative to this pool; ``rate`` gives the fixed scale), every game; its repr is the
    CLI's table.

        >>> t = tournament(["random", "easy"], games=2, width=5, height=4)
        >>> [p.games for p in t.pairings], len(t.games)
        ([2], 2)
    """
    return TournamentResult._from_native(
        _tournament(agents, games, openings, seed, jobs, width, height, models)
    )


def evaluate(agent, baseline="handtuned:depth=3", side="both", games=400, seeds=1, openings=2,
             seed=0, sets=None, positions=200, jobs=1, tt_mib=64, width=7, height=6, models=None):
    """Plays ``agent`` (a spec or an ``Agent``) against ``baseline`` and grades its moves on
    ``sets`` (names such as ``["middle-easy"]``, paths, or ``{name: path}``; the first
    ``positions`` of each; none: no grading), as ``c4 evaluate`` does. ``side`` is "both"
    (colours alternate), "first" or "second". Returns an ``Evaluation``: the score and the
    Elo difference with 95% intervals, the results as first and as second player, the
    error rates (``evaluation.match`` is the agent's match); its repr is the CLI's report.
    """
    return Evaluation._from_native(
        _evaluate(agent, baseline, side, games, seeds, openings, seed, sets, positions, jobs,
                  tt_mib, width, height, models)
    )


def bench_agent(agent, sets, limit=None, jobs=1, tt_mib=64, width=7, height=6, models=None):
    """Grades ``agent`` (a spec or an ``Agent``) on benchmark sets, as ``c4 bench agent``
    does: ``sets`` are names (``["middle-easy", "end-easy"]``, found from any folder), paths
    or ``{name: path}``; ``limit`` takes the first N positions of each. Returns a
    ``BenchResult``, one ``SetGrade`` per set (mistakes: moves whose win/draw/loss value is
    below the best move's, with a 95% Wilson interval); its repr is the CLI's table.

        >>> bench_agent("perfect", ["end-easy"], limit=5)["end-easy"].errors
        0
    """
    return BenchResult._from_native(
        _bench_agent(agent, sets, limit, jobs, tt_mib, width, height, models)
    )



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
    "AgentEvaluation",
    "BenchResult",
    "Connect4Error",
    "EloRating",
    "Estimate",
    "Evaluation",
    "Game",
    "LadderGames",
    "Match",
    "Pairing",
    "SetErrors",
    "SetGrade",
    "SideRecord",
    "TournamentResult",
    "datasets",
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
