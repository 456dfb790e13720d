"""Results as objects: one type per call (``tournament``, ``evaluate``, ``bench_agent``,
``rate``), with the fields of the CLI's JSON, printed as the CLI prints it (``repr``) and as
a table in notebooks (``_repr_html_``).

One convention throughout:

- a share (of games, of positions) is a percentage, in a field whose name ends in ``_pct``
  (the CLI's evaluate and bench JSON write fractions: here they are times 100);
- a rating (an agent's Elo) has its 95% interval as ``low`` and ``high`` beside ``elo``;
  every other value with an interval is an ``Estimate(value, low, high)``, the interval at
  95% and in the value's unit (``score_pct.low`` is a percentage too).

``to_dict()`` gives the fields as plain dicts and lists (for ``json.dump`` or pandas).
"""

from __future__ import annotations

import html
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, Optional, Tuple


@dataclass(frozen=True)
class Estimate:
    """A measured value with its 95% interval, ``low`` to ``high``, in the value's unit."""

    value: float
    low: float
    high: float

    @staticmethod
    def _pct(d: Dict[str, float]) -> "Estimate":
        """From the CLI's fraction ``{value, low, high}`` to percent."""
        return Estimate(100.0 * d["value"], 100.0 * d["low"], 100.0 * d["high"])

    def __str__(self) -> str:
        return f"{self.value:.1f} [{self.low:.1f}, {self.high:.1f}]"


class _Result:
    """What every result object shares: the CLI's table as its repr, ``to_dict``."""

    def to_dict(self) -> Dict[str, Any]:
        """The fields as plain dicts and lists (the table left out)."""
        d = asdict(self)  # type: ignore[call-overload]
        d.pop("table", None)
        return _plain(d)

    def __repr__(self) -> str:
        return self.table.rstrip("\n")  # type: ignore[attr-defined]


def _plain(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _html_table(head, rows) -> str:
    e = html.escape
    cells = "".join("<th>" + e(str(h)) + "</th>" for h in head)
    body = "".join("<tr>" + "".join("<td>" + e(str(c)) + "</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{cells}</tr>{body}</table>"


# -- tournament ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Pairing:
    """One pairing's games, from ``agent``'s side."""

    agent: str
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    score_pct: float
    """Points scored / games, percent."""
    wins_as_first: int
    wins_as_second: int


@dataclass(frozen=True)
class EloRating:
    """An agent's Elo fitted on all the tournament's games (relative to its pool: for a
    fixed scale use ``rate``)."""

    agent: str
    elo: float
    low: float
    """Lower end of the 95% interval."""
    high: float
    """Upper end of the 95% interval."""
    games: int
    score_pct: float
    ms_per_move: float
    """Its mean time per move over all its games, ms."""


@dataclass(frozen=True)
class Game:
    """One game of a tournament, as a row of the CLI's games.csv."""

    game: int
    first: str
    second: str
    opening: str
    """The random opening plies (a move string, 1-based columns)."""
    moves: str
    """Every move of the game, the opening's included."""
    result: str
    winner: str
    plies: int
    first_ms_per_move: float
    second_ms_per_move: float


@dataclass(frozen=True, repr=False)
class TournamentResult(_Result):
    """A round robin (``connect4_ml.tournament``, ``c4 tournament``)."""

    agents: Tuple[str, ...]
    games_per_pairing: int
    openings: int
    seed: int
    board: str
    total_games: int
    pairings: Tuple[Pairing, ...]
    elo: Tuple[EloRating, ...]
    """Best first."""
    games: Tuple[Game, ...]
    table: str = field(default="", compare=False)
    """The CLI's table."""

    @staticmethod
    def _from_native(d: Dict[str, Any]) -> "TournamentResult":
        ms = {a: t for a, t in d["ms_per_move"]}
        return TournamentResult(
            agents=tuple(d["agents"]),
            games_per_pairing=d["games_per_pairing"],
            openings=d["openings"],
            seed=d["seed"],
            board=d["board"],
            total_games=d["total_games"],
            pairings=tuple(Pairing(**p) for p in d["pairings"]),
            elo=tuple(EloRating(ms_per_move=ms.get(e["agent"], 0.0), **e) for e in d["elo"]),
            games=tuple(Game(**g) for g in d["games"]),
            table=d["table"],
        )

    def rating(self, agent: str) -> EloRating:
        """The Elo entry of ``agent`` (its spec or name as in ``agents``)."""
        for e in self.elo:
            if e.agent == agent:
                return e
        raise KeyError(f"{agent!r} did not play; agents: {', '.join(self.agents)}")

    def _repr_html_(self) -> str:
        return (
            f"<p>{len(self.agents)} agents, {self.games_per_pairing} games per pairing, "
            f"{self.openings} opening plies, seed {self.seed}, board {html.escape(self.board)}</p>"
            + _html_table(
                ["agent", "opponent", "games", "wins", "draws", "losses", "score %"],
                [(p.agent, p.opponent, p.games, p.wins, p.draws, p.losses, f"{p.score_pct:.2f}")
                 for p in self.pairings],
            )
            + _html_table(
                ["agent", "Elo", "95% interval", "games", "score %", "ms/move"],
                [(e.agent, f"{e.elo:.0f}", f"[{e.low:.0f}, {e.high:.0f}]", e.games,
                  f"{e.score_pct:.2f}", f"{e.ms_per_move:.3f}") for e in self.elo],
            )
        )


# -- evaluate -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SideRecord:
    """An agent's games with one colour."""

    games: int
    wins: int
    draws: int
    losses: int
    win_pct: Estimate
    """Wins / games, percent, with a 95% Wilson interval."""

    @staticmethod
    def _from_native(d: Dict[str, Any]) -> "SideRecord":
        return SideRecord(d["games"], d["wins"], d["draws"], d["losses"], Estimate._pct(d["win_rate"]))


@dataclass(frozen=True)
class Match:
    """An agent's games against the baseline, all seeds pooled."""

    agent: str
    baseline: str
    games: int
    wins: int
    draws: int
    losses: int
    score_pct: Estimate
    """(wins + draws / 2) / games, percent, with a 95% interval."""
    elo: Estimate
    """The Elo difference to the baseline the score implies, with the interval's image."""
    ms_per_move: float
    baseline_ms_per_move: float
    score_pct_per_seed: Tuple[float, ...]
    as_first: SideRecord
    as_second: SideRecord

    @staticmethod
    def _from_native(d: Dict[str, Any]) -> "Match":
        return Match(
            agent=d["agent"],
            baseline=d["baseline"],
            games=d["games"],
            wins=d["wins"],
            draws=d["draws"],
            losses=d["losses"],
            score_pct=Estimate._pct(d["score"]),
            elo=Estimate(**d["elo"]),
            ms_per_move=d["ms_per_move"],
            baseline_ms_per_move=d["baseline_ms_per_move"],
            score_pct_per_seed=tuple(100.0 * x for x in d["score_per_seed"]),
            as_first=SideRecord._from_native(d["as_first"]),
            as_second=SideRecord._from_native(d["as_second"]),
        )


@dataclass(frozen=True)
class SetErrors:
    """Moves graded against the solver on one benchmark set."""

    set: str
    positions: int
    errors: int
    error_pct: Estimate
    """Errors / positions, percent, with a 95% Wilson interval."""
    mean_ms: float

    @staticmethod
    def _from_native(d: Dict[str, Any]) -> "SetErrors":
        return SetErrors(d["set"], d["positions"], d["errors"], Estimate._pct(d["error_rate"]), d["mean_ms"])


@dataclass(frozen=True)
class AgentEvaluation:
    """Everything measured of one agent."""

    agent: str
    vs_baseline: Match
    equal_time: Optional[Match]
    """The same on the baseline's time per move, when asked for (the CLI's --equal-time)."""
    errors: Tuple[SetErrors, ...]


@dataclass(frozen=True, repr=False)
class Evaluation(_Result):
    """An agent against a baseline, and its moves graded (``connect4_ml.evaluate``, ``c4
    evaluate``)."""

    baseline: str
    games: int
    seeds: int
    openings: int
    seed: int
    side: str
    """"both", "first" or "second": the colour the agent played."""
    baseline_errors: Tuple[SetErrors, ...]
    agents: Tuple[AgentEvaluation, ...]
    table: str = field(default="", compare=False)

    @staticmethod
    def _from_native(d: Dict[str, Any]) -> "Evaluation":
        return Evaluation(
            baseline=d["baseline"],
            games=d["games"],
            seeds=d["seeds"],
            openings=d["openings"],
            seed=d["seed"],
            side=str(d["side"]),
            baseline_errors=tuple(SetErrors._from_native(e) for e in d["baseline_errors"]),
            agents=tuple(
                AgentEvaluation(
                    agent=a["agent"],
                    vs_baseline=Match._from_native(a["vs_baseline"]),
                    equal_time=None if a["equal_time"] is None else Match._from_native(a["equal_time"]),
                    errors=tuple(SetErrors._from_native(e) for e in a["errors"]),
                )
                for a in d["agents"]
            ),
            table=d["table"],
        )

    @property
    def match(self) -> Match:
        """The (first) agent's match against the baseline."""
        return self.agents[0].vs_baseline

    def _repr_html_(self) -> str:
        rows = []
        for a in self.agents:
            m = a.vs_baseline
            rows.append((m.agent, m.games, f"{m.wins}/{m.draws}/{m.losses}", str(m.score_pct),
                         f"{m.elo.value:+.0f} [{m.elo.low:+.0f}, {m.elo.high:+.0f}]",
                         f"{m.ms_per_move:.3f}"))
        errors = [(a.agent, e.set, e.positions, e.errors, str(e.error_pct))
                  for a in self.agents for e in a.errors]
        errors += [(self.baseline + " (baseline)", e.set, e.positions, e.errors, str(e.error_pct))
                   for e in self.baseline_errors]
        out = (
            f"<p>against <b>{html.escape(self.baseline)}</b>: {self.games} games a seed, "
            f"{self.seeds} seed(s) from {self.seed}, {self.openings} opening plies, side {self.side}</p>"
            + _html_table(["agent", "games", "W/D/L", "score % [95%]", "Elo diff [95%]", "ms/move"], rows)
        )
        if errors:
            out += _html_table(["agent", "set", "positions", "errors", "error % [95%]"], errors)
        return out


# -- bench --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SetGrade:
    """An agent's moves on one benchmark set, graded by the solver."""

    agent: str
    set: str
    positions: int
    errors: int
    """Moves whose win/draw/loss value is below the best move's."""
    error_pct: Estimate
    """Errors / positions, percent, with a 95% Wilson interval."""
    optimal: int
    """Moves that keep the exact score."""
    optimal_pct: float
    mean_ms: float

    @staticmethod
    def _from_native(d: Dict[str, Any]) -> "SetGrade":
        return SetGrade(
            agent=d["agent"],
            set=d["set"],
            positions=d["positions"],
            errors=d["errors"],
            error_pct=Estimate(100.0 * d["error_rate"], 100.0 * d["error_low"], 100.0 * d["error_high"]),
            optimal=d["optimal"],
            optimal_pct=100.0 * d["optimal_rate"],
            mean_ms=d["mean_ms"],
        )


@dataclass(frozen=True, repr=False)
class BenchResult(_Result):
    """An agent graded on benchmark sets (``connect4_ml.bench_agent``, ``c4 bench agent``):
    a sequence of ``SetGrade``, one per set."""

    sets: Tuple[SetGrade, ...]
    table: str = field(default="", compare=False)

    @staticmethod
    def _from_native(d: Dict[str, Any]) -> "BenchResult":
        return BenchResult(tuple(SetGrade._from_native(s) for s in d["sets"]), d["table"])

    def __len__(self) -> int:
        return len(self.sets)

    def __getitem__(self, i):
        """The ``i``-th set's grade, or the set named ``i``."""
        if isinstance(i, str):
            for s in self.sets:
                if s.set == i:
                    return s
            raise KeyError(f"no set {i!r}; sets: {', '.join(s.set for s in self.sets)}")
        return self.sets[i]

    def __iter__(self):
        return iter(self.sets)

    def _repr_html_(self) -> str:
        return _html_table(
            ["agent", "set", "positions", "errors", "error % [95%]", "optimal %", "ms/move"],
            [(s.agent, s.set, s.positions, s.errors, str(s.error_pct), f"{s.optimal_pct:.2f}",
              f"{s.mean_ms:.3f}") for s in self.sets],
        )


# -- rate ---------------------------------------------------------------------------------


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


@dataclass(frozen=True, repr=False)
class Rating(_Result):
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
    table: str = field(default="", compare=False)
    """The CLI's table of this rating."""

    @staticmethod
    def _from_native(d: Dict[str, Any]) -> "Rating":
        d = dict(d)
        d["opponents"] = tuple(LadderGames(**o) for o in d["opponents"])
        return Rating(**d)

    def to_dict(self) -> Dict[str, Any]:
        """The rating as the CLI's JSON has it (``c4 rate --json``), the table left out."""
        return super().to_dict()

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
