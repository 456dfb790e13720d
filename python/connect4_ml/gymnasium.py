"""Gymnasium: Connect Four as a single-agent environment against any agent spec (or
``Agent``), on any board.

    >>> from connect4_ml.gymnasium import Connect4Env
    >>> e = Connect4Env(opponent="easy", side="first")
    >>> obs, info = e.reset(seed=0)
    >>> obs.shape, info["action_mask"].tolist()
    ((6, 7, 2), [1, 1, 1, 1, 1, 1, 1])
    >>> obs, reward, terminated, truncated, info = e.step(3)

Observations are ``height x width x 2`` (plane 0 the learner's stones, plane 1 the
opponent's, row 0 at the top), as in PettingZoo's ``connect_four_v3``; ``info["action_mask"]``
marks the legal columns. The reward is +1 for a win, -1 for a loss or an illegal column (which
ends the game), 0 otherwise. ``side`` is "first", "second" or "random" (drawn at each reset
from its seed); the opponent is seeded from the reset's seed.
"""

from __future__ import annotations

from typing import Optional, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from ._native import Agent, Position

__all__ = ["Connect4Env"]


class Connect4Env(gymnasium.Env):
    """One game of Connect Four against ``opponent`` per episode."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        opponent: Union[str, Agent] = "easy",
        side: str = "first",
        width: int = 7,
        height: int = 6,
        render_mode: Optional[str] = None,
        models: Optional[str] = None,
    ):
        if side not in ("first", "second", "random"):
            raise ValueError(f'side={side!r}: "first", "second" or "random"')
        self.width, self.height = int(width), int(height)
        self.position = Position("", self.width, self.height)
        self.opponent = opponent
        self.models = models
        self.side = side
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0, 1, (self.height, self.width, 2), np.int8)
        self.action_space = spaces.Discrete(self.width)
        self._opponent = self._make_opponent(0)
        self._games = 0
        self._learner = 1

    def _make_opponent(self, seed: int) -> Agent:
        if isinstance(self.opponent, Agent):
            return self.opponent
        return Agent(self.opponent, self.width, self.height, seed, self.models)

    def _obs(self) -> np.ndarray:
        board = np.asarray(self.position.to_array())
        me = self._learner
        return np.stack([board == me, board == 3 - me], axis=2).astype(np.int8)

    def _info(self) -> dict:
        mask = np.zeros(self.width, np.int8)
        if not self.position.is_over:
            mask[self.position.legal_moves()] = 1
        return {"action_mask": mask}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        self._games += 1
        game_seed = int(self.np_random.integers(0, 2**31))
        if self.side == "random":
            self._learner = 1 + int(self.np_random.integers(0, 2))
        else:
            self._learner = 1 if self.side == "first" else 2
        self._opponent = self._make_opponent(game_seed)
        self.position = Position("", self.width, self.height)
        if self._learner == 2:
            self.position = self.position.play(self._opponent.move(self.position))
        return self._obs(), self._info()

    def step(self, action):
        column = int(action)
        if self.position.is_over:
            raise RuntimeError("the game is over: call reset()")
        if column not in self.position.legal_moves():
            # An illegal column loses the game (as PettingZoo's classic games score it).
            return self._obs(), -1.0, True, False, {**self._info(), "illegal": True}
        self.position = self.position.play(column)
        if not self.position.is_over:
            self.position = self.position.play(self._opponent.move(self.position))
        winner = self.position.winner
        reward = 0.0
        if winner is not None and winner != 0:
            reward = 1.0 if winner == self._learner else -1.0
        return self._obs(), reward, winner is not None, False, self._info()

    def render(self):
        if self.render_mode == "ansi":
            return str(self.position)
        return None
