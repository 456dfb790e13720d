"""PettingZoo adapter: any agent spec as a policy of ``connect_four_v3``.

    >>> from pettingzoo.classic import connect_four_v3
    >>> from connect4_ml.pettingzoo import policy
    >>> env = connect_four_v3.env()
    >>> env.reset(seed=0)
    >>> play = policy("gbt:depth=3")
    >>> for agent in env.agent_iter():
    ...     obs, reward, termination, truncation, info = env.last()
    ...     env.step(None if termination or truncation else play(obs["observation"], obs["action_mask"]))
"""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np

from ._native import Agent, Position

__all__ = ["policy", "position_of"]


def position_of(observation) -> Position:
    """Our position of a ``connect_four_v3`` observation: a ``6 x 7 x 2`` array, plane 0 the
    stones of the player to move, plane 1 the opponent's, row 0 at the top."""
    obs = np.asarray(observation)
    if obs.ndim != 3 or obs.shape[2] != 2:
        raise ValueError(f"a connect_four_v3 observation is rows x columns x 2, not {obs.shape}")
    mine, theirs = obs[:, :, 0].astype(np.int64), obs[:, :, 1].astype(np.int64)
    # The player to move is first exactly when both have as many stones.
    if mine.sum() == theirs.sum():
        board = mine * 1 + theirs * 2
    else:
        board = mine * 2 + theirs * 1
    return Position.from_array(board)


def policy(spec: str, seed: int = 0, models: str = "models") -> Callable[..., int]:
    """A function ``(observation, action_mask=None) -> column`` playing the agent of ``spec``.
    The column is always one the mask allows."""
    agent: Optional[Agent] = None

    def act(observation, action_mask=None) -> int:
        nonlocal agent
        pos = position_of(observation)
        if agent is None:
            agent = Agent(spec, pos.width, pos.height, seed, models)
        column = agent.move(pos)
        if action_mask is not None and not action_mask[column]:
            raise ValueError(f"the agent chose column {column}, which the action mask forbids")
        return column

    return act
