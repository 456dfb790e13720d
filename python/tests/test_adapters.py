"""The adapters play complete legal games inside the real frameworks (OpenSpiel, PettingZoo,
Kaggle ConnectX); the results are printed and recorded ($C4_PY_RESULTS)."""

import numpy as np
import pytest

import connect4_ml as c4
from conftest import record

# The shipped network as the n-tuple literature plays it: depth 1 with the one-move rule.
AGENT = "ntuple:depth=1,safe=true"


def test_openspiel_bot_against_mcts():
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is one of the tested peers: pip install open_spiel")
    from open_spiel.python.algorithms import mcts

    from connect4_ml.openspiel import AgentBot, position_of

    game = pyspiel.load_game("connect_four")
    rng = np.random.RandomState(7)
    ours = AgentBot(AGENT)
    theirs = mcts.MCTSBot(game, 2.0, 200, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    score, games = 0.0, 4
    for g in range(games):
        state = game.new_initial_state()
        seat = g % 2
        while not state.is_terminal():
            bot = ours if state.current_player() == seat else theirs
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        assert position_of(state).is_over or len(state.history()) == 42
        score += (state.returns()[seat] + 1) / 2
    record("openspiel", {"agent": AGENT, "opponent": "MCTSBot(uct_c=2, 200 sims, random rollouts)", "games": games, "score": score})


def test_pettingzoo_policy_in_the_environment_loop():
    pytest.importorskip("pettingzoo", reason="pettingzoo is one of the tested peers: pip install pettingzoo")
    from pettingzoo.classic import connect_four_v3

    from connect4_ml.pettingzoo import policy, position_of

    ours = policy(AGENT)
    rng = np.random.default_rng(3)
    env = connect_four_v3.env()
    score, games = 0.0, 4
    for g in range(games):
        env.reset(seed=g)
        seat = env.possible_agents[g % 2]
        rewards = {a: 0 for a in env.possible_agents}
        for name in env.agent_iter():
            obs, reward, termination, truncation, _ = env.last()
            rewards[name] += reward
            if termination or truncation:
                env.step(None)
                continue
            if name == seat:
                action = ours(obs["observation"], obs["action_mask"])
                assert position_of(obs["observation"]).legal_moves() == list(np.flatnonzero(obs["action_mask"]))
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
        # An illegal move would end the game with -1 for its player.
        score += (rewards[seat] + 1) / 2
    env.close()
    record("pettingzoo", {"agent": AGENT, "opponent": "uniform random legal moves", "games": games, "score": score})
    assert score >= 3, "the n-tuple agent should beat random moves"


def test_kaggle_connectx_agent_against_negamax_with_both_marks():
    pytest.importorskip("kaggle_environments", reason="kaggle-environments is one of the tested peers: pip install kaggle-environments")
    from kaggle_environments import evaluate, make

    from connect4_ml.kaggle import agent, position_of

    ours = agent(AGENT)
    first = evaluate("connectx", [ours, "negamax"], num_episodes=2)
    second = evaluate("connectx", ["negamax", ours], num_episodes=2)
    results = [r[0] for r in first] + [r[1] for r in second]
    # Kaggle gives None to an agent that failed (an error or an invalid move).
    assert all(r is not None for r in results), (first, second)
    env = make("connectx")
    env.run([ours, "random"])
    assert env.state[0].status == "DONE" and env.state[1].status == "DONE"
    obs = env.state[0].observation
    assert position_of(obs, env.configuration).is_over
    record("kaggle", {"agent": AGENT, "opponent": "negamax (kaggle-environments)", "games": 4, "rewards": results})
    with pytest.raises(ValueError, match="four in a row"):
        position_of({"board": [0] * 42, "mark": 1}, {"rows": 6, "columns": 7, "inarow": 5})
