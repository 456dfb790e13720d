"""Ratings on the fixed ladder: `c4.rate` as `c4 rate` measures them, for specs and
Python agents, the same at any thread count, as objects with the CLI's fields."""

import json
import subprocess

import pytest

import connect4_ml as c4


def test_a_rating_holds_the_ladder_at_its_ratings_and_reproduces_at_any_thread_count():
    one = c4.rate("easy", games=2, seed=9, width=5, height=4)
    assert isinstance(one, c4.Rating)
    assert (one.agent, one.board, one.seed) == ("easy", "5x4", 9)
    assert one.low < one.elo < one.high
    assert one.games == 2 * len(one.opponents)
    assert all(isinstance(o, c4.LadderGames) and o.games == 2 for o in one.opponents)
    assert [o.opponent_elo for o in one.opponents] == sorted(
        (o.opponent_elo for o in one.opponents), reverse=True
    ), "strongest first"
    assert one.nearest in {o.opponent for o in one.opponents}
    for jobs in (8, 16):
        assert c4.rate("easy", games=2, seed=9, jobs=jobs, width=5, height=4) == one
    # Printed as the CLI prints it; its fields as the CLI's JSON.
    assert "Elo" in repr(one) and "95% interval" in repr(one)
    assert "<table>" in one._repr_html_()
    d = one.to_dict()
    assert d["opponents"][0]["opponent"] == one.opponents[0].opponent and "table" not in d


def test_a_rating_is_the_clis(c4_bin):
    mine = c4.rate("hard", games=2, seed=4, width=5, height=4)
    out = subprocess.run(
        [str(c4_bin), "rate", "--agent", "hard", "--games", "2", "--seed", "4",
         "--width", "5", "--height", "4", "--json", "--jobs", "1"],
        capture_output=True, text=True, check=True,
    )
    cli = json.loads(out.stdout)[0]
    assert cli == mine.to_dict()


def test_a_python_agent_is_rated_on_the_same_scale():
    def leftmost(position):
        return position.legal_moves()[0]

    r = c4.rate(c4.Agent.from_policy(leftmost, name="leftmost", width=5, height=4),
                games=2, width=5, height=4)
    assert r.agent == "leftmost" and r.games == 2 * len(r.opponents)


def test_a_board_without_a_ladder_is_named():
    with pytest.raises(c4.Connect4Error, match="no ladder for 8x5"):
        c4.rate("easy", width=8, height=5)
    with pytest.raises(c4.Connect4Error, match="plays 7x6 boards"):
        c4.rate(c4.Agent("easy"), width=5, height=4)
