"""rules-search: a search that reads a game only through the State API and the rules' own progress.

What it must show: the progress reading moves with the rules' own count in every game, the bot
plays legally (games without a progress reading too), depends only on its seeds, refuses bad
settings, and follows a rule change that the rule-based player cannot see (a planted variant of
Stonerush, ``tests/plugins/planted``).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import config_id, knob_configs

import henge
from henge import box
from henge.agents import RulesSearchAgent, make_agent, make_decision
from henge.agents.heuristics import chooser
from henge.agents.rules_search import standing
from henge.core import CHANCE, TERMINAL, State, reload_games, sample_chance

PLANTED = Path(__file__).resolve().parent / "plugins" / "planted"
"""Stonerush with one rule changed, in a package of its own, installed only by the tests that ask for it."""
TINY = "rules-search:iterations=6:depth=2:worlds=3"


def _steps(game_id: str, players: int, seed: int) -> Iterator[tuple[State, State]]:
    """Yields (before, after) around every action of a seeded uniformly random game."""
    game = henge.load(game_id, players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        before = state.clone()
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
        yield before, state


# --- the progress reading: the rules' own count ------------------------------------------------


def _stonerush_count(state: State, seat: int) -> float | None:
    seen = state.observation(seat)
    own = seen["trilithon"]
    return None if own is None else seen["druids"][own]


def _druid_olympics_count(state: State, seat: int) -> float:
    return state.observation(None)["runners"][seat]["progress"]


def _first_druid_count(state: State, seat: int) -> float:
    return state.observation(None)["scores"][seat]


def _spell_casting_count(state: State, seat: int) -> float:
    return state.observation(None)["inner_counts"][seat]


def _fightin_count(state: State, seat: int) -> float:
    """F11 read from what every seat sees: awards in half awards (a Wee Lawyer's colour at half), less
    the best colour's (or the colour dropped)."""
    seen = state.observation(None)
    points = {
        colour: count * (1 if seen["wee_lawyers"][colour] == seat else 2)
        for colour, count in seen["awards"][seat].items()
    }
    dropped = (seen["dropped"] or [None, None])[seat]
    return sum(points.values()) - (points[dropped] if dropped is not None else max(points.values()))


COUNTS: dict[str, Callable[[State, int], Any]] = {
    "stonerush": _stonerush_count,
    "druid_olympics": _druid_olympics_count,
    "first_druid": _first_druid_count,
    "spell_casting": _spell_casting_count,
    "fightin": _fightin_count,
}
"""Each game's count by its rules, read from the public observation: its progress reading must rise with it."""


@pytest.mark.parametrize("game_id", sorted(COUNTS))
def test_progress_rises_with_the_rules_count_of_the_seat_that_gained(game_id):
    """Wherever one seat's count by the rules rises and no other seat's changes, that seat's
    progress rises and no other seat's changes."""
    count = COUNTS[game_id]
    players = henge.game_class(game_id).info.min_players
    seen = 0
    for before, after in _steps(game_id, players, seed=3):
        if after.is_terminal():
            break
        old = [count(before, s) for s in range(players)]
        new = [count(after, s) for s in range(players)]
        if None in old or None in new:
            continue
        gained = [s for s in range(players) if new[s] > old[s]]
        if len(gained) != 1 or any(new[s] != old[s] for s in range(players) if s not in gained):
            continue
        was, now = before.progress(), after.progress()
        assert was is not None and now is not None
        seat = gained[0]
        assert now[seat] > was[seat], f"seat {seat}'s count rose {old[seat]} -> {new[seat]}, progress did not"
        if game_id in ("stonerush", "druid_olympics", "spell_casting"):  # a race: the others' ways are their own
            assert all(now[s] == was[s] for s in range(players) if s != seat)
        seen += 1
    assert seen >= 3, "the seeded game gave too few steps where a single seat gained"


def test_progress_gives_the_returns_once_the_game_is_over():
    for game_id in COUNTS:
        *_, (_, final) = _steps(game_id, henge.game_class(game_id).info.min_players, seed=1)
        assert final.is_terminal()
        assert final.progress() == [float(r) for r in final.returns()]


def test_a_game_without_a_progress_reading_is_played_out_to_the_end():
    game = henge.load("threecard", 2)
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    assert state.progress() is None
    agent = RulesSearchAgent(depth=1)
    out = state.clone()
    values = agent._playout(out, rng, {}, 1.0, [])
    assert out.is_terminal()
    assert values == standing(out) and sorted(values) in ([0.0, 1.0], [0.5, 0.5])


def test_standing_is_the_lead_over_the_best_other_seat():
    class Reading:
        def __init__(self, values: list[float]) -> None:
            self.values = values

        def progress(self) -> list[float]:
            return self.values

    assert standing(Reading([0.5, 0.25, 0.75])) == [0.375, 0.25, 0.625]  # type: ignore[arg-type]
    assert standing(Reading([1.0, 0.0])) == [1.0, 0.0]  # type: ignore[arg-type]


# --- the bot ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", henge.list_games())
def test_rules_search_plays_only_legal_actions_over_a_whole_game(game_id):
    info = henge.game_class(game_id).info
    players = info.min_players
    state = henge.load(game_id, players).new_initial_state()
    bots = [make_agent(TINY)] + [make_agent("random") for _ in range(players - 1)]
    rngs = [random.Random(seat) for seat in range(players)]
    chance = random.Random(5)
    searched = 0
    while state.current_player() != TERMINAL:
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(sample_chance(state, chance))
            continue
        bot = bots[seat]
        decision = make_decision(state, seat, rngs[seat], samples=bot.needs_samples)
        action = bot.choose(decision)
        assert action in decision.legal_actions
        if seat == 0 and len(decision.legal_actions) > 1:
            assert bot.last_iterations >= 1
            searched += 1
        state.apply_action(action)
    assert searched > 0


def _extreme_knobs() -> list[tuple[str, int, dict[str, object]]]:
    """Each designer option at its last value (at the most players), one config per option."""
    last: dict[tuple[str, str], tuple[str, int, dict[str, object]]] = {}
    for game_id, players, options in knob_configs():
        (name,) = options
        last[game_id, name] = (game_id, players, options)
    return list(last.values())


@pytest.mark.parametrize("config", _extreme_knobs(), ids=config_id)
def test_rules_search_plays_any_designer_option(config):
    """A designer option changes the rules and the progress reading with them (a shorter track, fewer
    components for the spell): the search reads both through the State API."""
    game_id, players, options = config
    state = henge.load(game_id, players, **options).new_initial_state()
    bots = [make_agent(TINY) for _ in range(players)]
    rng = random.Random(1)
    decided = 0
    while state.current_player() != TERMINAL and decided < 40:
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(sample_chance(state, rng))
            continue
        decision = make_decision(state, seat, random.Random(decided), samples=True)
        action = bots[seat].choose(decision)
        assert action in decision.legal_actions
        state.apply_action(action)
        progress = state.progress()
        assert progress is not None and all(0.0 <= v <= 1.0 for v in progress)
        decided += 1
    assert decided == 40 or state.is_terminal()


def _decisions(game_id: str, players: int, seed: int, count: int) -> list[State]:
    states = []
    for before, _ in _steps(game_id, players, seed):
        if before.current_player() >= 0 and len(before.legal_actions()) > 1:
            states.append(before)
            if len(states) == count:
                break
    return states


def test_same_seeds_give_the_same_choices_and_other_seeds_other_ones():
    states = _decisions("stonerush", 4, seed=2, count=40)[::4]
    runs = []
    for seed in (1, 1, 2):
        choices = []
        for state in states:
            seat = state.current_player()
            bot = make_agent("rules-search:iterations=40:seconds=none")
            choices.append(bot.choose(make_decision(state, seat, random.Random(seed), samples=True)))
        runs.append(choices)
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_rules_search_settings_are_parsed_and_bad_ones_named():
    bot = make_agent("rules-search:iterations=50:seconds=none:c=0.3:depth=none:worlds=5:mast=0.5:reuse=0")
    assert isinstance(bot, RulesSearchAgent)
    assert (bot.iterations, bot.seconds, bot.exploration, bot.depth, bot.worlds, bot.mast, bot.reuse) == (
        50,
        None,
        0.3,
        None,
        5,
        0.5,
        False,
    )
    assert bot.name == "rules-search:iterations=50:seconds=none:c=0.3:depth=none:worlds=5:mast=0.5:reuse=0"
    assert make_agent("rules-search").name == "rules-search"
    with pytest.raises(ValueError, match=r"settings: iterations, seconds, c, depth, worlds, mast, reuse$"):
        make_agent("rules-search:guide=1")
    with pytest.raises(ValueError, match="must be a number"):
        make_agent("rules-search:depth=deep")
    with pytest.raises(ValueError, match="needs a budget"):
        make_agent("rules-search:iterations=none:seconds=none")
    with pytest.raises(ValueError, match="share of uniform choices"):
        make_agent("rules-search:mast=2")
    with pytest.raises(ValueError, match="worlds must be at least 1"):
        make_agent("rules-search:worlds=0")
    with pytest.raises(ValueError, match="worlds must be a number, not none"):
        make_agent("rules-search:worlds=none")
    with pytest.raises(ValueError, match="depth must not be negative"):
        make_agent("rules-search:depth=-1")


def test_the_tree_is_kept_across_the_steps_of_one_turn():
    """Stonerush's plays are steps of one turn: the second step grows the subtree of the first."""
    for state in _decisions("stonerush", 3, seed=4, count=200):
        seat = state.current_player()
        bot = make_agent("rules-search:iterations=60:seconds=none")
        action = bot.choose(make_decision(state, seat, random.Random(0), samples=True))
        after = state.clone()
        after.apply_action(action)
        if after.current_player() != seat or len(after.legal_actions()) < 2 or bot._kept is None:
            continue
        visits = bot._kept.root.visits
        assert visits > 0
        bot.choose(make_decision(after, seat, random.Random(1), samples=True))
        assert bot.last_iterations == 60 - visits or bot.last_iterations == (60 + 3) // 4
        return
    pytest.fail("no turn of two steps in the seeded game")


# --- a planted rule change ----------------------------------------------------------------------


@pytest.fixture
def moonrise() -> Iterator[str]:
    """Installs Stonerush with one rule changed (night cards that outnumber the day cards of a play
    carry its druid forward); returns its id."""
    sys.path.insert(0, str(PLANTED))
    reload_games()
    try:
        yield "stonerush_moonrise"
    finally:
        sys.path.remove(str(PLANTED))
        reload_games()


def _moon_positions(variant: str, wanted: int) -> list[tuple[State, State]]:
    """Returns (Stonerush, variant) twins of seeded positions where the change matters: the seat opens
    its play holding a night card of its own druid's colour and no day card of it, its druid past the
    first space (where Stonerush's moons would move it back, and Moonrise's forward). The games are
    played by the rule-based player in both rule sets alike, as long as the twins stay equal."""
    found: list[tuple[State, State]] = []
    guide = chooser("stonerush")
    for seed in range(1000):
        base = henge.load("stonerush", 3).new_initial_state()
        twin = henge.load(variant, 3).new_initial_state()
        rng = random.Random(seed)
        while not base.is_terminal() and base._fields() == twin._fields():
            seat = base.current_player()
            if seat == CHANCE:
                action = sample_chance(base, rng)
            else:
                seen = base.observation(seat)
                own = box.PLAYER_COLOURS.index(seen["trilithon"])
                hand = [box.CARD_TEXT.index(text) for text in seen["hand"]]
                opening = seen["phase"] == "play" and not seen["in_play"]
                mine = [c for c in hand if box.CARD_COLOUR[c] == own]
                ahead = seen["druids"][seen["trilithon"]] > 1  # in Stonerush a moon moves it back
                if opening and ahead and mine and not any(box.CARD_IS_DAY[c] for c in mine):
                    found.append((base.clone(), twin.clone()))
                    if len(found) == wanted:
                        return found
                action = guide(make_decision(base, seat, random.Random(seed), samples=False))
            base.apply_action(action)
            twin.apply_action(action)
    return found


def _own_moon(state: State, action: int) -> bool:
    """True if ``action`` lays a card of the seat's own druid's colour."""
    seat = state.current_player()
    own = box.PLAYER_COLOURS.index(state.observation(seat)["trilithon"])
    return action < box.DECK_SIZE and box.CARD_COLOUR[action] == own


def test_rules_search_follows_a_planted_rule_change_the_rule_based_player_cannot_see(moonrise):
    positions = _moon_positions(moonrise, 12)
    assert len(positions) == 12
    guide = chooser("stonerush")
    followed = 0
    for k, (base, twin) in enumerate(positions):
        seat = base.current_player()
        assert base.observation(seat) == twin.observation(seat)
        # The rule-based player carries its own copy of the rules: it plays both alike.
        plain = [guide(make_decision(s, seat, random.Random(k), samples=False)) for s in (base, twin)]
        assert plain[0] == plain[1]
        choices = []
        for state in (base, twin):
            bot = make_agent("rules-search:seconds=none")
            choices.append(bot.choose(make_decision(state, seat, random.Random(k), samples=True)))
        followed += not _own_moon(base, choices[0]) and _own_moon(twin, choices[1])
    assert followed >= 9, f"the search followed the changed rule in {followed} of 12 positions"
