"""OpenSpiel adapter: any agent spec as a ``pyspiel.Bot`` on ``connect_four`` states.

    >>> import pyspiel
    >>> from connect4_ml.openspiel import AgentBot
    >>> game = pyspiel.load_game("connect_four")
    >>> bot = AgentBot("ntuple:ms=10")
    >>> state = game.new_initial_state()
    >>> state.apply_action(bot.step(state))
"""

from __future__ import annotations

import pyspiel

from ._native import Agent, Position

__all__ = ["AgentBot", "position_of"]


def position_of(state) -> Position:
    """Our position of an OpenSpiel ``connect_four`` state (from its history of columns)."""
    params = state.get_game().get_parameters()
    width, height = params.get("columns", 7), params.get("rows", 6)
    moves = "".join(str(a + 1) for a in state.history())
    if width > 9:
        pos = Position("", width, height)
        for a in state.history():
            pos = pos.play(a)
        return pos
    return Position(moves, width, height)


class AgentBot(pyspiel.Bot):
    """A ``pyspiel.Bot`` that plays the agent of ``spec`` (see ``c4 evaluate --help``)."""

    def __init__(self, spec: str, seed: int = 0, models: str = "models", width: int = 7, height: int = 6):
        pyspiel.Bot.__init__(self)
        self.agent = Agent(spec, width, height, seed, models)

    def step(self, state) -> int:
        """The column (OpenSpiel's action) the agent plays in ``state``."""
        return self.agent.move(position_of(state))

    def restart_at(self, state) -> None:
        """Nothing to do: every move is chosen from the position alone."""

    def inform_action(self, state, player_id, action) -> None:
        """Nothing to do: every move is chosen from the position alone."""

    def provides_policy(self) -> bool:
        return False
