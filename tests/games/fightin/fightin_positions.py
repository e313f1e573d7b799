"""Crafted Fightin' an' Drinkin' an' Stealin'! positions for the game's tests.

The builder writes a state's fields as JSON and loads them (an empty history loads the fields as given),
so a test names only what matters to it and gets the rest of a legal position.
"""

from __future__ import annotations

import json
from typing import Any

import henge
from henge import box
from henge.core import State
from henge.games.fightin.actions import DECKS, MONSTER_DECK

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
