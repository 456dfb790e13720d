"""Results as objects: what a call measured, with the fields of the CLI's JSON, printed as
the CLI prints it (``repr``) and as a table in notebooks (``_repr_html_``).

Shares are percentages in ``*_pct`` fields (as in the CLI's JSON); an interval is the pair
``low``, ``high`` beside the value it bounds, at 95%.
"""

from __future__ import annotations

import html
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, Tuple


@dataclass(frozen=True)
class LadderGames:
    """One agent's games against one ladder agent."""

    opponent: str
    """The ladder agent's spec."""
    opponent_elo: float
    """The rating it is held at."""
    games: int
    wins: int
    draws: int
    losses: int
    score_pct: float
    """Points scored / games, percent."""


@dataclass(frozen=True)
class Rating:
    """An agent's Elo on the fixed ladder (``connect4_ml.rate``, ``c4 rate``): the ladder's
    agents held at their ratings, so ratings compare across runs and with the page's
    presets."""

    agent: str
    board: str
    """The board played, e.g. "7x6"."""
    elo: float
    low: float
    """Lower end of the 95% interval."""
    high: float
    """Upper end of the 95% interval."""
    games: int
    score_pct: float
    """Points scored / games over all ladder games, percent."""
    nearest: str
    """The ladder agent rated nearest: what the number means ("about as strong as")."""
    openings: int
    seed: int
    opponents: Tuple[LadderGames, ...]
    """Its games against each ladder agent, strongest first."""
    table: str = field(default="", repr=False, compare=False)
    """The CLI's table of this rating."""

    @staticmethod
    def _from_native(d: Dict[str, Any]) -> "Rating":
        d = dict(d)
        d["opponents"] = tuple(LadderGames(**o) for o in d["opponents"])
        return Rating(**d)

    def to_dict(self) -> Dict[str, Any]:
        """The rating as the CLI's JSON has it (no table)."""
        d = asdict(self)
        d.pop("table")
        d["opponents"] = list(d["opponents"])
        return d

    def __repr__(self) -> str:
        return self.table.rstrip("\n")

    def _repr_html_(self) -> str:
        e = html.escape
        rows = "".join(
            f"<tr><td>{e(o.opponent)}</td><td>{o.opponent_elo:.0f}</td><td>{o.games}</td>"
            f"<td>{o.wins}</td><td>{o.draws}</td><td>{o.losses}</td><td>{o.score_pct:.1f}</td></tr>"
            for o in self.opponents
        )
        return (
            f"<p><b>{e(self.agent)}</b> on the {e(self.board)} ladder: Elo {self.elo:.0f}, "
            f"95% interval [{self.low:.0f}, {self.high:.0f}], nearest {e(self.nearest)} "
            f"({self.games} games, seed {self.seed})</p>"
            "<table><tr><th>opponent</th><th>Elo</th><th>games</th><th>wins</th>"
            f"<th>draws</th><th>losses</th><th>score %</th></tr>{rows}</table>"
        )
