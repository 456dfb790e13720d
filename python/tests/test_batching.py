"""Batches across games: a Python evaluator played in many games at once gets the leaves of
all of them in one call, and every game is the one it plays alone."""

import numpy as np
import pytest

import connect4_ml as c4


def centre_planes(planes):
    """Side-to-move stones in the middle column minus the opponent's, over the height."""
    mid = planes[:, :, planes.shape[2] // 2, :].astype(np.float64)
    return (mid[..., 0].sum(1) - mid[..., 1].sum(1)) / planes.shape[1]


def played(jobs, batch=4096):
    agent = c4.Agent.from_evaluator(centre_planes, depth=3, takes="planes", batch=batch, name="centre")
    result = c4.tournament([agent, "easy"], games=16, seed=5, jobs=jobs)
    return [(g.first, g.second, g.moves, g.result) for g in result.games], agent.evaluator_stats


@pytest.mark.parametrize("jobs", [8, 16])
def test_games_at_once_are_the_games_played_alone_and_share_calls(jobs):
    alone, one = played(1)
    together, many = played(jobs)
    assert together == alone, f"jobs={jobs} changed a game"
    assert many["positions"] == one["positions"], "the same leaves are asked for"
    assert many["calls"] < one["calls"], (one, many)
    assert many["mean_batch"] > 2 * one["mean_batch"], (one, many)


def test_the_batch_setting_bounds_every_call():
    sizes = []

    def counted(planes):
        sizes.append(len(planes))
        return centre_planes(planes)

    agent = c4.Agent.from_evaluator(counted, depth=3, takes="planes", batch=100)
    c4.tournament([agent, "easy"], games=8, seed=5, jobs=8)
    assert max(sizes) <= 100 and sum(sizes) == agent.evaluator_stats["positions"]
    assert len(sizes) == agent.evaluator_stats["calls"]


def test_rate_evaluate_and_bench_agree_at_any_jobs():
    def make(width=7, height=6):
        return c4.Agent.from_evaluator(centre_planes, depth=2, takes="planes", name="centre:depth=2",
                                       width=width, height=height)

    r1, r8 = (c4.rate(make(5, 4), games=2, seed=3, jobs=j, width=5, height=4) for j in (1, 8))
    assert (r1.elo, r1.low, r1.high) == (r8.elo, r8.low, r8.high)
    assert [(o.wins, o.draws, o.losses) for o in r1.opponents] == [(o.wins, o.draws, o.losses) for o in r8.opponents]
    e1, e8 = (c4.evaluate(make(), baseline="random", games=6, seed=3, jobs=j, positions=10,
                          sets={"end-easy": "end-easy"}) for j in (1, 8))
    for m1, m8 in ((e1.match, e8.match), (e1.agents[0].errors[0], e8.agents[0].errors[0])):
        assert {k: v for k, v in vars(m1).items() if "ms" not in k} == {k: v for k, v in vars(m8).items() if "ms" not in k}
    b1, b16 = (c4.bench_agent(make(), ["middle-easy"], limit=20, jobs=j) for j in (1, 16))
    assert [(s.errors, s.optimal) for s in b1] == [(s.errors, s.optimal) for s in b16]
