"""PettingZoo: an AEC environment on the engine for any board (``env``), and any agent spec
as a policy of ``connect_four_v3`` or of this environment (``policy``).

    >>> from connect4_ml.pettingzoo import env
    >>> e = env(width=7, height=6, solver_info=True)
    >>> e.reset(seed=0)
    >>> obs, reward, termination, truncation, info = e.last()
    >>> obs["observation"].shape, obs["action_mask"].tolist(), info["score"]
    ((6, 7, 2), [1, 1, 1, 1, 1, 1, 1], 1)

The policy of any agent spec against PettingZoo's own environment:

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

__all__ = ["env", "policy", "position_of"]


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


_ENV_CLASS = None


def _env_class():
    """The environment's class, made on first use (PettingZoo is imported only then)."""
    global _ENV_CLASS
    if _ENV_CLASS is not None:
        return _ENV_CLASS
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.agent_selector import AgentSelector

    from ._native import Solver

    class Connect4Env(AECEnv):
        """Connect Four on a ``width`` x ``height`` board as ``connect_four_v3`` has it:
        agents ``player_0`` (first) and ``player_1``; observations ``height x width x 2``
        (plane 0 the stones of the agent observed, plane 1 the opponent's, row 0 at the top)
        with the legal columns as ``action_mask`` (the agent to move's only); +1 for a win,
        -1 for a loss, 0 for a draw. With ``solver_info``, the agent to move's ``info`` holds
        ``score``, the perfect solver's exact score of the position for it (positive: a win,
        the sooner the larger; 0 a draw): at once on 7x6 (the opening book), but an early
        position of a larger board can take minutes to solve."""

        metadata = {"render_modes": ["ansi"], "name": "connect4_ml_v0", "is_parallelizable": False}

        def __init__(self, width: int = 7, height: int = 6, solver_info: bool = False, render_mode=None):
            super().__init__()
            self.width, self.height = int(width), int(height)
            # A board the engine refuses is refused here, by name.
            self.position = Position("", self.width, self.height)
            self.solver = Solver(self.width, self.height) if solver_info else None
            self.render_mode = render_mode
            self.agents = ["player_0", "player_1"]
            self.possible_agents = self.agents[:]
            self.action_spaces = {a: spaces.Discrete(self.width) for a in self.agents}
            self.observation_spaces = {
                a: spaces.Dict(
                    {
                        "observation": spaces.Box(0, 1, (self.height, self.width, 2), np.int8),
                        "action_mask": spaces.Box(0, 1, (self.width,), np.int8),
                    }
                )
                for a in self.agents
            }

        def observation_space(self, agent):
            return self.observation_spaces[agent]

        def action_space(self, agent):
            return self.action_spaces[agent]

        def observe(self, agent):
            board = np.asarray(self.position.to_array())
            me = self.possible_agents.index(agent) + 1
            planes = np.stack([board == me, board == 3 - me], axis=2).astype(np.int8)
            mask = np.zeros(self.width, np.int8)
            if agent == self.agent_selection and not self.position.is_over:
                mask[self.position.legal_moves()] = 1
            return {"observation": planes, "action_mask": mask}

        def _info(self):
            self.infos = {a: {} for a in self.agents}
            if self.solver is not None and not self.position.is_over:
                self.infos[self.agent_selection]["score"] = self.solver.solve(self.position)

        def reset(self, seed=None, options=None):
            self.position = Position("", self.width, self.height)
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self._agent_selector = AgentSelector(self.agents)
            self.agent_selection = self._agent_selector.reset()
            self._info()

        def step(self, action):
            if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
                return self._was_dead_step(action)
            mover = self.agent_selection
            self.position = self.position.play(int(action))
            self._clear_rewards()
            nxt = self._agent_selector.next()
            winner = self.position.winner
            if winner is not None:
                if winner != 0:
                    self.rewards[mover] += 1
                    self.rewards[nxt] -= 1
                self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = nxt
            self._accumulate_rewards()
            self._info()

        def render(self):
            if self.render_mode == "ansi":
                return str(self.position)
            return None

        def close(self):
            pass

    _ENV_CLASS = Connect4Env
    return Connect4Env


def env(width: int = 7, height: int = 6, solver_info: bool = False, render_mode=None):
    """A PettingZoo AEC environment of Connect Four on a ``width`` x ``height`` board, wrapped
    as PettingZoo's classic games are (an illegal move ends the game with -1 for its player;
    actions out of range and calls out of order are refused)."""
    from pettingzoo.utils import wrappers

    e = _env_class()(width, height, solver_info, render_mode)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
