"""Kaggle ConnectX adapter: any agent spec as an agent function ``(obs, config) -> column``.

    >>> from kaggle_environments import evaluate
    >>> from connect4_ml.kaggle import agent
    >>> evaluate("connectx", [agent("ntuple:ms=10"), "negamax"], num_episodes=2)
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Tuple

import numpy as np

from ._native import Agent, Position

__all__ = ["agent", "position_of"]


def _get(obj: Any, name: str) -> Any:
    """A field of Kaggle's observation or configuration (a dict or an attribute struct)."""
    return obj[name] if isinstance(obj, dict) else getattr(obj, name)


def position_of(obs, config) -> Position:
    """Our position of a ConnectX observation: ``obs.board`` is ``rows * columns`` cells, row
    by row from the top, 0 empty, 1 and 2 the marks (mark 1 moves first)."""
    if _get(config, "inarow") != 4:
        raise ValueError(f"connect4-ml plays four in a row, not {_get(config, 'inarow')}")
    rows, columns = _get(config, "rows"), _get(config, "columns")
    board = np.asarray(_get(obs, "board"), dtype=np.int64)
    if board.size != rows * columns:
        raise ValueError(f"the board has {board.size} cells, not rows * columns = {rows * columns}")
    return Position.from_array(board.reshape(rows, columns))


def agent(spec: str, seed: int = 0, models: str = "models") -> Callable[[Any, Any], int]:
    """An agent function for ``kaggle_environments`` playing the agent of ``spec`` with
    either mark."""
    agents: Dict[Tuple[int, int], Agent] = {}

    def act(obs, config) -> int:
        pos = position_of(obs, config)
        size = (pos.width, pos.height)
        if size not in agents:
            agents[size] = Agent(spec, pos.width, pos.height, seed, models)
        return int(agents[size].move(pos))

    return act
