"""Bots: fair by construction, legal over whole games, stronger than chance; tournaments and their figures."""

from __future__ import annotations

import dataclasses
import json
import math
import random
import time
from collections import Counter

import pytest
from click.testing import CliRunner
from positions import decision_points

import henge
from henge.agents import (
    LEVELS,
    CheatingMCTSAgent,
    Decision,
    HeuristicAgent,
    ISMCTSAgent,
    LevelAgent,
    agent_names,
    canonical_state,
    check_agent,
    heuristics,
    level,
    level_names,
    make_agent,
    make_decision,
)
from henge.agents.heuristics import NOTHING, Knowledge
from henge.agents.ismcts import SearchConfig, Tree, config_for, search
from henge.cli import main
from henge.core import State, plugin
from henge.records import play
from henge.tournament import (
    TournamentConfig,
    bootstrap_interval,
    elo_ratings,
    lineups,
    pairwise_scores,
    run,
    summarize,
    win_shares,
)

GAMES = henge.list_games()
FAST_ISMCTS = "ismcts:iterations=8:depth=1:finish=2:hrollout=1"
"""A search small enough for whole games in tests, with every part of it at work."""
FAST_RULES_SEARCH = "rules-search:iterations=8:depth=2:worlds=3"
"""The rules-only search, as small (it plays every game, the plugin game without a progress reading too)."""


def _bots(game_id: str) -> list[str]:
    bots = ["random", FAST_ISMCTS, FAST_RULES_SEARCH]
    if heuristics.has_heuristic(game_id):
        bots[1:1] = ["heuristic", "beginner"]
    return bots


def _decision_points(game_id: str, players: int, seed: int, every: int) -> list[State]:
    """Returns states at every ``every``-th real decision (two or more legal actions) of a random game."""
    return decision_points(game_id, players, seed, every)


# --- fair by construction ---------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_G3_the_canonical_state_depends_only_on_what_the_seat_knows(game_id):
    info = henge.game_class(game_id).info
    for players in range(info.min_players, info.max_players + 1):
        for state in _decision_points(game_id, players, seed=players, every=9):
            seat = state.current_player()
            twin = state.resample_from_infostate(seat, random.Random(99))
            assert canonical_state(state, seat).to_json() == canonical_state(twin, seat).to_json()
            assert canonical_state(state, seat).observation(seat) == state.observation(seat)


@pytest.mark.parametrize("game_id", GAMES)
def test_G3_bots_decide_alike_in_states_that_differ_only_in_what_their_seat_cannot_see(game_id):
    info = henge.game_class(game_id).info
    players = min(max(4, info.min_players), info.max_players)
    differed = 0
    for bot in _bots(game_id):
        for step, state in enumerate(_decision_points(game_id, players, seed=11, every=7)[:25]):
            seat = state.current_player()
            twin = state.resample_from_infostate(seat, random.Random(step))
            differed += twin.to_json()["state"] != state.to_json()["state"]
            choices = []
            for real in (state, twin):
                agent = make_agent(bot)
                decision = make_decision(real, seat, random.Random(step), samples=agent.needs_samples)
                choices.append(agent.choose(decision))
            assert choices[0] == choices[1], f"{bot} decided differently at step {step}"
    if info.hidden_information:
        assert differed > 0, "the twins never differed: the test proved nothing"
    else:  # nothing is hidden: the only twin is the state itself
        assert differed == 0


def test_a_decision_holds_no_state_and_a_sampler_only_for_bots_that_ask():
    state = _decision_points("stonerush", 3, seed=1, every=5)[3]
    seat = state.current_player()
    plain = make_decision(state, seat, random.Random(1), samples=False)
    assert not any(isinstance(v, State) for v in vars(plain).values())
    with pytest.raises(RuntimeError, match="without a sampler"):
        plain.sample_state()
    assert plain.by_text() == {plain.text(a): a for a in plain.legal_actions}
    sampled = make_decision(state, seat, random.Random(1), samples=True)
    for k in range(5):
        assert sampled.sample_state(random.Random(k)).observation(seat) == state.observation(seat)


# --- legal over whole games ----------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_every_bot_plays_only_legal_actions_over_whole_games(game_id):
    info = henge.game_class(game_id).info
    bots = _bots(game_id)
    for players in range(info.min_players, info.max_players + 1):
        game = henge.load(game_id, players)
        lineup = [make_agent(bots[k % len(bots)]) for k in range(players)]
        record = play(game, lineup, seed=players)  # an illegal action would raise IllegalActionError
        assert henge.replay(record)[-1].is_terminal()


def test_mcts_cheat_plays_whole_games_with_the_real_state():
    game = henge.load("stonerush", 3)
    record = play(game, [make_agent("mcts-cheat:iterations=30", evaluation=True), "random", "heuristic"], seed=4)
    assert henge.replay(record)[-1].is_terminal()
    assert record["agents"][0] == "mcts-cheat:iterations=30"


# --- the bots ------------------------------------------------------------------------------


def test_only_fair_bots_are_offered_as_opponents():
    assert agent_names() == ["random", "heuristic", "ismcts", "rules-search"]
    assert "mcts-cheat" not in agent_names()
    with pytest.raises(ValueError, match="only in evaluations"):
        make_agent("mcts-cheat")
    cheat = make_agent("mcts-cheat", evaluation=True)
    assert isinstance(cheat, CheatingMCTSAgent) and cheat.cheats
    with pytest.raises(RuntimeError, match="real state"):
        cheat.choose(make_decision(_decision_points("stonerush", 3, 1, 5)[0], 0, random.Random(0), samples=False))


def test_bot_settings_are_parsed_and_bad_ones_named():
    agent = make_agent("ismcts:iterations=25:c=0.3:depth=none:seconds=0.5:worlds=0:tries=0:baseline=0:reuse=0")
    assert isinstance(agent, ISMCTSAgent)
    assert agent.config == SearchConfig(
        iterations=25,
        seconds=0.5,
        exploration=0.3,
        rollout_depth=None,
        determinizations=0,
        belief_tries=0,
        baseline=False,
        reuse=False,
    )
    assert make_agent("ismcts:seconds=none").config.seconds is None
    assert agent.name.startswith("ismcts:iterations=25:c=0.3")
    assert make_agent("ismcts").name == "ismcts"
    guided = make_agent("ismcts:guide=0.25:finish=3:hrollout=1")
    assert (guided.config.guide, guided.config.finish, guided.config.guided_rollout) == (0.25, 3, True)
    assert make_agent("ismcts:settle=0").config.settle == 0
    with pytest.raises(
        ValueError,
        match=r"settings: iterations, seconds, c, depth, baseline, tries, worlds, reuse, guide, finish, hrollout, "
        r"settle$",
    ):
        make_agent("ismcts:speed=9")
    with pytest.raises(ValueError, match="must be a number"):
        make_agent("ismcts:iterations=many")
    with pytest.raises(ValueError, match="needs a budget"):
        make_agent("ismcts:iterations=none:seconds=none")
    with pytest.raises(ValueError, match="bots: random, heuristic, ismcts"):
        make_agent("genius")


def test_heuristic_names_the_games_that_have_one():
    with pytest.raises(ValueError, match="games with one: druid_olympics, fightin, first_druid, spell_casting, st"):
        heuristics.chooser("no_such_game")
    decision = Decision("no_such_game", 0, {}, [0, 1], ["a", "b"], random.Random(0))
    with pytest.raises(ValueError, match="no heuristic player for 'no_such_game'"):
        HeuristicAgent().choose(decision)


def test_the_search_knowledge_of_a_game_is_resolved_once_from_its_parts():
    for game_id in heuristics.known():
        known = heuristics.knowledge(game_id)
        assert heuristics.knowledge(game_id) is known  # resolved once per game
        descriptor = plugin(game_id)
        bot = descriptor.load_bot()
        search_part = descriptor.load_search() or bot  # a game without a search part keeps it in its bot
        assert known.guide == bot.choose and heuristics.chooser(game_id) == bot.choose
        assert known.evaluate == search_part.evaluate == heuristics.evaluator(game_id)
        assert known.settled == getattr(search_part, "settled", None)
        assert dict(known.settings) == dict(getattr(search_part, "SEARCH", {}))
    assert heuristics.knowledge("druid_olympics").settled is not None
    assert heuristics.knowledge("stonerush").belief is not None
    assert heuristics.knowledge("no_such_game") is heuristics.NOTHING
    assert heuristics.knowledge("threecard") is heuristics.NOTHING  # names neither a bot nor a search part


def test_a_single_legal_action_is_played_at_once_without_sampling():
    def refuse(rng: random.Random) -> State:
        raise AssertionError("searched a forced move")

    decision = Decision("stonerush", 0, {}, [130], ["done"], random.Random(0), refuse)
    assert ISMCTSAgent().choose(decision) == 130
    assert HeuristicAgent().choose(decision) == 130


def test_ismcts_respects_a_time_budget():
    state = _decision_points("stonerush", 4, seed=2, every=5)[2]
    seat = state.current_player()
    agent = ISMCTSAgent(iterations=None, seconds=0.05)
    agent.choose(make_decision(state, seat, random.Random(0), samples=True))
    assert agent.last is not None and agent.last.seconds < 0.5 and agent.last.iterations > 1


def test_ismcts_without_an_evaluation_plays_out_to_the_end_within_its_cap(monkeypatch):
    known = dataclasses.replace(heuristics.knowledge("stonerush"), evaluate=None)
    monkeypatch.setattr(heuristics, "knowledge", lambda game_id: known)
    state = _decision_points("stonerush", 5, seed=2, every=5)[1]
    seat = state.current_player()
    agent = ISMCTSAgent(iterations=100_000, seconds=0.2)
    start = time.process_time()
    action = agent.choose(make_decision(state, seat, random.Random(0), samples=True))
    assert action in state.legal_actions()
    assert time.process_time() - start < 1.0
    assert agent.last is not None and 1 < agent.last.iterations < 100_000


def test_stonerush_heuristic_races_its_own_colour_and_pushes_back_a_rival():
    game = henge.load("stonerush", 3)
    state = game.new_initial_state()
    for text in ["draw T-red", "draw T-blue", "draw T-green"]:
        state.apply_text(text)
    # Seat 0 (red) holds 5d (red day), 11n (red night), 8n (blue night), 13d (white day).
    hands = [["5d", "11n", "8n", "13d"], ["1d", "2d", "3d", "4d"], ["7d", "9d", "10d", "12d"]]
    for hand in hands:
        for card in hand:
            state.apply_text(f"draw {card}")
    state.apply_text("start seat 0")
    agent = HeuristicAgent()
    decision = make_decision(state, 0, random.Random(0), samples=False)
    assert state.action_to_string(agent.choose(decision)) == "play 5d"
    state.apply_text("play 5d")
    decision = make_decision(state, 0, random.Random(0), samples=False)
    assert state.action_to_string(agent.choose(decision)) == "done"
    state.apply_text("done")
    decision = make_decision(state, 0, random.Random(0), samples=False)
    assert state.action_to_string(agent.choose(decision)) in ("discard 11n", "discard 13d")


@pytest.mark.slow
def test_ismcts_beats_random_by_a_margin():
    game = henge.load("stonerush", 3)
    wins = 0.0
    for seed in range(6):
        seats = ["random", "random", "random"]
        seats[seed % 3] = "ismcts:iterations=60"
        record = play(game, seats, seed=seed)
        wins += record["returns"][seed % 3]
    assert wins >= 5  # chance alone wins 2 of 6


# --- tournaments ---------------------------------------------------------------------------


def test_lineups_give_every_agent_every_seat_equally_often():
    for agents, players, count in [
        (("a", "b"), 3, 6),
        (("a", "b"), 4, 6),
        (("a", "b"), 5, 20),
        (("a", "b", "c"), 3, 6),
        (("a", "b", "c"), 4, 36),
        (("a", "b", "c"), 5, 90),
        (("a", "b", "c", "d"), 3, 24),
    ]:
        table = lineups(agents, players)
        assert len(table) == len(set(table)) == count
        for seat in range(players):
            seen = Counter(lineup[seat] for lineup in table)
            assert set(seen.values()) == {count * players // len(agents) // players}, (agents, players, seat)
        for lineup in table:
            sizes = Counter(lineup)
            assert max(sizes.values()) - min(sizes[a] for a in agents) <= 1


def test_tournaments_are_reproducible_whatever_the_workers():
    config = TournamentConfig("stonerush", 3, ("heuristic", "random"), games=12, seed=5)
    one = run(config, workers=1)
    two = run(config, workers=2)

    def games(results):
        return [{k: r[k] for k in ("index", "seed", "lineup", "returns", "length", "decisions")} for r in results]

    assert games(one) == games(two)
    assert [r["lineup"] for r in one[:6]] == [list(x) for x in lineups(config.agents, 3)]
    assert len({r["seed"] for r in one[:6]}) == 1 and one[6]["seed"] != one[0]["seed"]
    other = run(TournamentConfig("stonerush", 3, ("heuristic", "random"), games=6, seed=6), workers=1)
    assert games(other) != games(one[:6])
    rows = {row["agent"]: row for row in summarize(config, one)}
    assert rows["heuristic"]["seats"] == rows["random"]["seats"] == 18
    assert rows["heuristic"]["wins"] + rows["random"]["wins"] == 12
    assert rows["heuristic"]["elo"] > rows["random"]["elo"]


def test_tournament_command_prints_the_table_and_saves_json(tmp_path):
    out = tmp_path / "results.json"
    args = ["tournament", "stonerush", "-n", "3", "--agents", "heuristic,random", "--games", "6", "--workers", "1"]
    result = CliRunner().invoke(main, [*args, "--seed", "2", "--out", str(out)], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.output and "95% CI" in result.output and "Elo" in result.output
    data = json.loads(out.read_text())
    assert data["format"] == "henge-tournament" and len(data["games"]) == 6
    assert {row["agent"] for row in data["summary"]} == {"heuristic", "random"}
    bad = CliRunner().invoke(main, ["tournament", "stonerush", "--agents", "genius,random"], terminal_width=200)
    assert bad.exit_code == 2 and "unknown bot 'genius'" in bad.output
    partial = CliRunner().invoke(main, [*args[:-4], "--games", "4", "--workers", "1"], terminal_width=200)
    assert partial.exit_code == 0 and "not a multiple" in partial.output


# --- the figures ---------------------------------------------------------------------------


def test_win_shares_split_a_shared_win():
    assert win_shares([1.0, 0.0, 0.0]) == [1.0, 0.0, 0.0]
    assert win_shares([0.5, 0.5, 0.0, 0.0]) == [0.5, 0.5, 0.0, 0.0]


def test_pairwise_scores_compare_seats_of_different_agents():
    results = [
        {"lineup": ["a", "b", "b"], "returns": [1.0, 0.0, 0.0]},
        {"lineup": ["a", "b", "c"], "returns": [0.5, 0.5, 0.0]},
    ]
    scores = pairwise_scores(results)
    assert scores[("a", "b")] == (2.5, 3)
    assert scores[("b", "a")] == (0.5, 3)
    assert scores[("a", "c")] == (1.0, 1) and scores[("c", "a")] == (0.0, 1)
    assert ("b", "b") not in scores


def test_elo_ratings_match_known_odds():
    # a beats b 3 times in 4: the odds are 3 to 1, so a leads by 400 * log10(3) = 190.8 points.
    ratings = elo_ratings(["a", "b"], {("a", "b"): (3.0, 4.0), ("b", "a"): (1.0, 4.0)}, prior=0.0)
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert (ratings["a"] + ratings["b"]) / 2 == pytest.approx(1500)
    # Strengths 9 : 3 : 1 fit these scores exactly.
    scores = {
        ("a", "b"): (7.5, 10.0),
        ("b", "a"): (2.5, 10.0),
        ("b", "c"): (7.5, 10.0),
        ("c", "b"): (2.5, 10.0),
        ("a", "c"): (9.0, 10.0),
        ("c", "a"): (1.0, 10.0),
    }
    ratings = elo_ratings(["a", "b", "c"], scores, prior=0.0)
    assert ratings["a"] - ratings["b"] == pytest.approx(190.85, abs=0.01)
    assert ratings["b"] - ratings["c"] == pytest.approx(190.85, abs=0.01)
    # The prior keeps an unbeaten agent finite.
    unbeaten = elo_ratings(["a", "b"], {("a", "b"): (5.0, 5.0), ("b", "a"): (0.0, 5.0)})
    assert math.isfinite(unbeaten["a"]) and unbeaten["a"] > unbeaten["b"]


def test_bootstrap_interval_on_known_samples():
    rng = random.Random(0)
    assert bootstrap_interval([(1.0, 1.0)] * 50, rng) == (1.0, 1.0)
    coin = [(float(k % 2), 1.0) for k in range(400)]
    low, high = bootstrap_interval(coin, rng)
    half_width = 1.96 * math.sqrt(0.25 / 400)  # the normal approximation: 0.049
    assert low == pytest.approx(0.5 - half_width, abs=0.012)
    assert high == pytest.approx(0.5 + half_width, abs=0.012)
    # Two seats per game count as two trials: sum(wins) / sum(seats).
    low, high = bootstrap_interval([(1.0, 2.0)] * 30, rng)
    assert low == high == 0.5


def test_play_against_the_heuristic_and_ismcts_in_the_terminal():
    args = ["play", "stonerush", "-n", "3", "--bots", "heuristic,ismcts:iterations=20", "--seed", "1"]
    result = CliRunner().invoke(main, args, input="1\n" * 3000, terminal_width=120)
    assert result.exit_code == 0, result.output[-2000:]
    assert "winner:" in result.output and "Traceback" not in result.output


def test_a_kept_tree_keeps_only_the_worlds_that_fit_the_next_decision():
    """An action can turn hidden cards over (Fightin'): a reused tree must drop the kept worlds
    that no longer agree with what the seat sees, not judge them all by the first."""
    states = _decision_points("stonerush", 3, seed=2, every=3)
    here = states[4]
    seat = here.current_player()
    elsewhere = next(s for s in states[5:] if s.current_player() == seat)
    decision = make_decision(here, seat, random.Random(1), samples=False)
    tree = Tree(seat, SearchConfig(), NOTHING)
    tree.worlds = [(elsewhere.clone(), None, 0), (here.clone(), None, 0)]
    assert tree.fits(decision)
    assert [w.to_json() for w, _, _ in tree.worlds] == [here.to_json()]
    tree.worlds = [(elsewhere.clone(), None, 0)]
    assert not tree.fits(decision)


# --- search guided by the rule-based player ---------------------------------------------------


@pytest.mark.parametrize("game_id", heuristics.known())
def test_ismcts_tries_the_rule_based_choice_first(game_id):
    """With a guide, the first edge a node grows is the rule-based player's choice: one
    iteration plays exactly what ``heuristic`` plays. Unguided, the first edge is a random one."""
    players = henge.load(game_id).info.min_players
    states = _decision_points(game_id, players, seed=3, every=4)[:12]
    unguided_differs = False
    for state in states:
        seat = state.current_player()
        wanted = HeuristicAgent().choose(make_decision(state, seat, random.Random(0), samples=False))
        guided = ISMCTSAgent(iterations=1, reuse=False)
        assert guided.choose(make_decision(state, seat, random.Random(5), samples=True)) == wanted
        unguided = ISMCTSAgent(iterations=1, reuse=False, guide=0.0)
        unguided_differs |= unguided.choose(make_decision(state, seat, random.Random(5), samples=True)) != wanted
    assert unguided_differs


def test_ismcts_finishes_the_turn_it_stopped_in_with_the_rule_based_player():
    """A Stonerush turn is several decisions (cards one at a time, then ``done``, then a discard):
    ``finish`` plays the rest of it as the rule-based player would, and only the rest."""
    states = _decision_points("stonerush", 3, seed=4, every=1)
    calls: list[int] = []

    def policy(decision: Decision) -> int:
        calls.append(decision.seat)
        return heuristics.chooser("stonerush")(decision)

    finished = 0
    for state in states[:40]:
        mover = state.current_player()
        tree = Tree(mover, SearchConfig(finish=20), Knowledge(guide=policy))
        world = state.clone()
        tree._finish(world, mover, random.Random(0))
        assert world.is_terminal() or world.current_player() != mover
        assert set(calls) <= {mover}
        finished += bool(calls)
        calls.clear()
        unfinished = state.clone()
        Tree(mover, SearchConfig(finish=0), Knowledge(guide=policy))._finish(unfinished, mover, random.Random(0))
        assert unfinished.to_json() == state.to_json() and not calls
    assert finished >= 10


def test_ismcts_reads_the_evaluation_only_where_the_game_calls_it_settled():
    """Druid Olympics names the start of a turn as where its evaluation compares runners alike: a
    search's rollouts (and each determinization's baseline) are played on to such a position, or
    to the end, before the evaluation is read; with ``settle=0`` they are read after the depth."""
    game_id = "druid_olympics"
    known = heuristics.knowledge(game_id)
    settled, evaluate = known.settled, known.evaluate
    assert settled is not None and evaluate is not None
    read: list[bool] = []

    def recorded(state: State) -> list[float]:
        read.append(settled(state))
        return evaluate(state)

    states = _decision_points(game_id, 4, seed=3, every=25)[:4]
    recording = dataclasses.replace(known, evaluate=recorded)
    for settle in (40, 0):
        read.clear()
        for state in states:
            seat = state.current_player()
            decision = make_decision(state, seat, random.Random(1), samples=True)
            config = config_for(game_id, {"iterations": 30, "seconds": None, "settle": settle})
            search(decision.sample_state, seat, decision.rng, config, recording)
        assert len(read) >= 100
        assert all(read) if settle else not all(read)


def test_ismcts_plays_on_for_a_settled_position_at_most_settle_decisions():
    """Where no settled position comes, a rollout is scored after ``rollout_depth`` and ``settle`` decisions."""
    state = _decision_points("stonerush", 3, seed=2, every=5)[1]
    seen: list[int] = []

    def decisions(state: State) -> int:
        again = state.game.new_initial_state()
        count = 0
        for action in state.history():
            count += again.current_player() >= 0
            again.apply_action(action)
        return count

    def decisions_made(state: State) -> list[float]:
        seen.append(decisions(state))
        return [0.5] * state.game.num_players

    start = decisions(state)
    for settle, always in ((5, False), (0, False), (5, True)):
        seen.clear()
        known = Knowledge(evaluate=decisions_made, settled=lambda s, a=always: a)
        tree = Tree(0, SearchConfig(rollout_depth=3, settle=settle), known)
        tree._rollout(state.clone(), random.Random(0), 3, 0)
        expected = 3 + (0 if always else settle)
        assert seen == [start + expected]


def test_ismcts_meets_the_same_luck_on_the_way_to_a_settled_position_in_one_determinization():
    """The way on to a settled position draws from the determinization's own seed: the same
    position played on with two different search generators gives one value, and another seed
    gives other draws (common random numbers between a determinization's rollouts and its baseline)."""
    game_id = "druid_olympics"
    config = config_for(game_id, {"iterations": 10, "seconds": None})
    tree = Tree(0, config, heuristics.knowledge(game_id))
    states = [s for s in _decision_points(game_id, 5, seed=1, every=3) if s.to_json()["state"]["phase"] == "move"]
    differ = 0
    for state in states[len(states) // 2 :][:12]:  # past the coloured ring, where the hand counts
        one = tree._rollout(state.clone(), random.Random(1), 0, 7)
        assert tree._rollout(state.clone(), random.Random(2), 0, 7) == one
        differ += any(tree._rollout(state.clone(), random.Random(1), 0, luck) != one for luck in (8, 9, 10))
    assert differ >= 6


def test_each_game_names_its_own_search_settings_and_explicit_ones_win():
    assert config_for("spell_casting", {}).iterations == 50
    assert config_for("spell_casting", {}).guided_rollout
    assert config_for("spell_casting", {"iterations": 7}).iterations == 7
    assert config_for("first_druid", {}).rollout_depth == 6 and config_for("first_druid", {}).guided_rollout
    assert config_for("stonerush", {}) == SearchConfig()
    assert config_for("no_such_game", {"guide": 0.0}) == SearchConfig(guide=0.0)
    agent = ISMCTSAgent(iterations=30)
    state = _decision_points("druid_olympics", 3, seed=1, every=9)[1]
    agent.choose(make_decision(state, state.current_player(), random.Random(0), samples=True))
    assert agent.config.iterations == 30 and agent.config.rollout_depth == 6 and agent.config.guided_rollout


def test_a_kept_tree_never_plays_an_action_grown_in_worlds_the_decision_ruled_out():
    """Regression (Fightin' tournament): a kept subtree's root held 'take yellow', grown in worlds
    where the seat next took loot; the real decision was a steal, and the most visited edge won."""
    from henge.agents.tree import _Node

    state = _decision_points("stonerush", 3, seed=2, every=3)[4]
    seat = state.current_player()
    legal = state.legal_actions()
    players = state.game.num_players
    ruled_out = max(legal) + 1
    tree = Tree(seat, SearchConfig(), NOTHING)
    tree.worlds = [(state.clone(), None, 0)]
    for action, visits in ((legal[0], 3), (ruled_out, 50)):
        child = tree.root.children[action * players + seat] = _Node(seat)
        child.visits = visits
    assert tree.visits() == {legal[0]: 3}
    assert tree.best_action() == legal[0]


def test_a_sampler_draws_from_the_canonical_state_of_the_decision_as_it_was_made():
    """The canonical state is made on the first draw, from a copy: a search that keeps its samples
    never pays for it, and a draw after the state moved on is still one of the decision's."""
    state = _decision_points("fightin", 2, seed=3, every=4)[3]
    seat = state.current_player()
    wanted = canonical_state(state, seat).resample_from_infostate(seat, random.Random(8)).to_json()
    decision = make_decision(state, seat, random.Random(0), samples=True)
    state.apply_action(state.legal_actions()[0])
    assert decision.sample_state(random.Random(8)).to_json() == wanted


def test_a_search_holds_the_cycle_collector_off_only_while_it_runs():
    import gc

    seen: list[bool] = []

    def policy(decision: Decision) -> int:
        seen.append(gc.isenabled())
        return heuristics.chooser("stonerush")(decision)

    state = _decision_points("stonerush", 3, seed=1, every=3)[2]
    seat = state.current_player()
    decision = make_decision(state, seat, random.Random(0), samples=True)
    config = SearchConfig(iterations=20)
    search(decision.sample_state, seat, decision.rng, config, Knowledge(guide=policy))
    assert seen and not any(seen) and gc.isenabled()
    gc.disable()
    try:
        search(decision.sample_state, seat, decision.rng, config, Knowledge(guide=policy))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_bench_bots_times_the_bots_decisions_and_reports_them():
    from henge.bench import bench_bots, bots_table

    heuristic = bench_bots("stonerush", "heuristic", decisions=40, seconds=30)
    assert heuristic["players"] == 5 and heuristic["decisions"] == 40 and heuristic["games"] >= 1
    search_bot = bench_bots("fightin", FAST_ISMCTS, decisions=6, seconds=30)
    assert search_bot["decisions"] == 6
    for result in (heuristic, search_bot):
        for clock in ("wall", "cpu"):
            figures = result[clock]
            assert 0 < figures["median"] <= figures["p90"] <= figures["p99"] <= figures["max"]
    assert bots_table([heuristic, search_bot]).row_count == 2
    result = CliRunner().invoke(main, ["bench", "--bots", "stonerush", "--decisions", "3", "--json"])
    assert result.exit_code == 0, result.output
    assert [(r["game"], r["agent"], r["decisions"]) for r in json.loads(result.output)] == [
        ("stonerush", "beginner", 3),
        ("stonerush", "casual", 3),
        ("stonerush", "strong", 3),
        ("stonerush", "rules-search", 3),
    ]
    chosen = ["bench", "--bots", "fightin", "--agents", "heuristic,beginner", "--decisions", "2", "--json"]
    result = CliRunner().invoke(main, chosen)
    assert [r["agent"] for r in json.loads(result.output)] == ["heuristic", "beginner"]
    refused = CliRunner().invoke(main, ["bench", "--bots", "fightin", "--agents", "genius"])
    assert refused.exit_code == 2 and "unknown bot 'genius'; levels: beginner" in refused.output


# --- levels ---------------------------------------------------------------------------------------


def test_levels_are_named_bots_weakest_first_and_take_no_settings():
    assert level_names() == ["beginner", "casual", "strong"]
    assert [level.name for level in LEVELS] == level_names()
    assert all(level.plays and len(level.plays) <= 100 for level in LEVELS)  # one line in the lobby
    beginner = make_agent("beginner")
    assert isinstance(beginner, LevelAgent) and beginner.name == "beginner" and not beginner.needs_samples
    assert make_agent("strong").needs_samples
    with pytest.raises(ValueError, match="beginner is a level: it takes no settings"):
        make_agent("beginner:err=0.5")
    with pytest.raises(ValueError, match="levels: beginner, casual, strong; bots: random"):
        make_agent("genius")
    with pytest.raises(ValueError, match="'threecard' has none; bots for any game: random, ismcts"):
        check_agent("casual", "threecard")
    check_agent("casual", "stonerush")


@pytest.mark.parametrize("name", ["beginner", "casual", "strong"])
def test_a_level_plays_exactly_the_bot_it_names_for_each_game(name):
    for game_id, players in (("stonerush", 3), ("spell_casting", 3)):
        spec = level(name).spec_for(game_id)
        for step, state in enumerate(_decision_points(game_id, players, seed=5, every=9)[:6]):
            seat = state.current_player()
            choices = []
            for agent in (make_agent(name), make_agent(spec)):
                decision = make_decision(state, seat, random.Random(step), samples=agent.needs_samples)
                choices.append(agent.choose(decision))
            assert choices[0] == choices[1], f"{name} in {game_id} at step {step}"
    assert level("beginner").spec_for("spell_casting") == "heuristic:err=0.15"
    assert level("beginner").spec_for("stonerush") == "heuristic:err=0.3"


def test_heuristic_err_plays_a_random_legal_action_at_that_chance():
    points = [s for s in _decision_points("spell_casting", 3, seed=3, every=1) if len(s.legal_actions()) > 4][:150]
    assert len(points) == 150
    plain, erring = make_agent("heuristic"), make_agent("heuristic:err=0.3")
    never = make_agent("heuristic:err=0")
    differs = 0
    for step, state in enumerate(points):
        seat = state.current_player()
        wanted = plain.choose(make_decision(state, seat, random.Random(step), samples=False))
        assert never.choose(make_decision(state, seat, random.Random(step), samples=False)) == wanted
        chosen = erring.choose(make_decision(state, seat, random.Random(step), samples=False))
        assert chosen in state.legal_actions()
        differs += chosen != wanted
    # About 0.3 of the decisions draw a random action, most of them not the rule-based one.
    assert 20 <= differs <= 60
    with pytest.raises(ValueError, match="err is a chance from 0 to 1"):
        make_agent("heuristic:err=1.5")
