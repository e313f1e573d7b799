"""Crafted positions shared by the rules tests and the rule-based players' tests, one builder per game.

Each builder writes a state's fields as JSON and loads them (an empty history loads the fields as given),
so a test names only what matters to it and gets the rest of a legal position.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import henge
from henge import box
from henge.core import CHANCE, Game, State
from henge.games.fightin.parts import DECKS, MONSTER_DECK

# --- Fightin' an' Drinkin' an' Stealin'! ---------------------------------------------------------

FIGHTIN_EVENTS = ("fightin", "drinkin", "stealin")


def fightin_position(
    *,
    hands: tuple[list[str], list[str]],
    fight: tuple[list[str], list[str]] = (["2d"], ["2n"]),
    drink: tuple[list[str], list[str]] = (["3d"], ["3n"]),
    steal: tuple[list[str], list[str]] = (["4d"], ["4n"]),
    monsters: tuple[str, ...] = ("12d",),
    round: int = 1,
    awards: tuple[list[int], list[int]] = ([0] * 5, [0] * 5),
    loot: dict[str, list[int]] | None = None,
    altar: int = 0,
    lawyer: int = 30,
    wee: dict[str, int] | None = None,
    decks: tuple[list[str], list[str]] | None = None,
    stock: list[int] | None = None,
) -> State:
    """Returns the state at seat 0's first placement of a round, with everything else as given.

    Cards not placed anywhere go to the decks (or, when ``decks`` is given, to the discard piles);
    the stock holds the awards nobody has (unless ``stock`` is given).
    """
    game = henge.load("fightin")
    loot = loot or {}
    board = {"fightin": fight, "drinkin": drink, "stealin": steal}
    piles: list[list[str]] = [[], []]
    deck_fields: list[list[str]] = [[], []]
    for seat in (0, 1):
        placed = list(hands[seat]) + [c for cards in board.values() for c in cards[seat]]
        assert len(set(placed)) == len(placed), f"a card of seat {seat} is placed twice: {placed}"
        used = set(placed)
        rest = [c for c in _card_texts(DECKS[seat]) if c not in used]
        if decks is None:
            deck_fields[seat] = rest
        else:
            deck_fields[seat] = list(decks[seat])
            piles[seat] = [c for c in rest if c not in decks[seat]]
    if stock is None:
        stock = []
        for colour in range(5):
            held = awards[0][colour] + awards[1][colour] + sum(counts[colour] for counts in loot.values())
            stock.append(10 - held - (altar if colour == 1 else 0))
    holders = [None] * 5
    for colour, seat in (wee or {}).items():
        holders[box.PLAYER_COLOURS.index(colour)] = seat
    fields = {
        "phase": "choose",
        "step": "places",
        "kind": "place",
        "player": 0,
        "event": 0,
        "round": round,
        "hands": [list(h) for h in hands],
        "decks": deck_fields,
        "board": {name: [list(cards[0]), list(cards[1])] for name, cards in board.items()},
        "face_down": {name: [None, None] for name in FIGHTIN_EVENTS},
        "monsters": list(monsters),
        "monster_deck": [c for c in _card_texts(MONSTER_DECK) if c not in monsters],
        "discards": piles,
        "monster_discards": [],
        "loot": loot,
        "awards": [list(awards[0]), list(awards[1])],
        "stock": stock,
        "altar": altar,
        "lawyer": lawyer,
        "wee_lawyers": holders,
        "gonagal": -1,
        "lead": -1,
        "high": None,
        "second": None,
        "taken": 0,
        "habeas": [0, 0],
        "dropped": [None, None],
        "scores": [],
        "winners": [],
        "log": [],
    }
    data = {
        "format": "henge-state",
        "game": "fightin",
        "version": game.info.version,
        "players": 2,
        "options": {},
        "history": [],
        "state": fields,
    }
    return game.state_from_json(json.loads(json.dumps(data)))


def _card_texts(cards: Any) -> list[str]:
    return [box.CARD_TEXT[c] for c in cards]


def random_game(game: Game, rng: random.Random) -> list[State]:
    """Returns every state of one random game (a henge game, or an OpenSpiel one: the same calls), from
    the first to the last: chance outcomes drawn by their weights, legal actions uniformly."""
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


def random_walk(game_id: str, players: int, seed: int) -> Iterator[State]:
    """Yields the state of a seeded random game at every step, the same object moved on after each
    (the last time over): every action, chance outcomes included, drawn uniformly."""
    rng = random.Random(seed)
    state = henge.load(game_id, players).new_initial_state()
    while True:
        yield state
        if state.is_terminal():
            return
        legal = state.legal_actions()  # at a chance node, the outcomes
        state.apply_action(legal[rng.randrange(len(legal))])


def random_move(state: State, rng: random.Random) -> None:
    """Applies one action drawn uniformly with ``rng``: a chance outcome at a chance node, else a legal action."""
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
    else:
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
