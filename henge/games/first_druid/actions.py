"""First Druid's action tables, phases and limits (the ids are dense and their texts fixed)."""

from __future__ import annotations

import itertools

from henge import box

HAND_LIMIT = 10
DEAL = 5
HAND_LIMITS: tuple[int, ...] = tuple(range(DEAL, HAND_LIMIT + 1))
"""Designer option ``hand_limit``: the most cards a hand keeps (the text's ten), never below the five
dealt. Not above ten: with eleven matching cards per seat and at most ten in each hand, the cards
turned for the first player (FD8) always find a match; above ten every card could be held."""
MAX_OFFERS = 3  # FD2
SECTIONS = 3 * box.TRILITHON_SPACES  # two uprights and a capstone per trilithon
CLAN_SUM = 31
NUMBER = box.CARD_NUMBER
IS_DAY = box.CARD_IS_DAY
TEXT = box.CARD_TEXT
WILD_BASE = box.TRILITHON_CARD_BASE

# --- player actions ------------------------------------------------------------
# 0..59: pick number card c (its id is the card's)
PICK_WILD = 60  # pick the own trilithon card as number v: 59 + v
ADVANCE = 90
CLAN = 91
ALTAR = 92
BUILD = 93
BUILD_ONLY = 94
CONVERT_CLAN = 95
CONVERT_SPIRIT = 96
TAKE_OVER = 97  # take over trilithon t (1..5): 96 + t
OFFER = 102  # offer to seat k: 102 + k
GIVE = 107  # offer card c: 107 + c
ASK = 172  # ask for card c: 172 + c
SEND = 237
ACCEPT = 238
DECLINE = 239
END_TURN = 240
PASS = 241
DISCARD = 242  # discard card c: 242 + c
BID = 307  # bid card c face down: 307 + c
SEAL = 372
WITHDRAW = 373  # FD15 (version 1.1.0): ids after all of 1.0.0's, so old ids keep their meaning

PLAYER_TEXTS: tuple[str, ...] = (
    tuple(f"pick {TEXT[c]}" for c in box.NUMBER_CARDS)
    + tuple(f"pick wild {v}" for v in box.NUMBERS)
    + ("advance", "clan", "dress altar", "build", "build only", "convert clan", "convert spirit")
    + tuple(f"take over {t}" for t in range(1, 6))
    + tuple(f"offer seat {k}" for k in range(5))
    + tuple(f"give {t}" for t in TEXT)
    + tuple(f"ask {t}" for t in TEXT)
    + ("send offer", "accept", "decline", "end turn", "pass")
    + tuple(f"discard {t}" for t in TEXT)
    + tuple(f"bid {t}" for t in TEXT)
    + ("seal bid",)
    + ("withdraw offer",)
)
assert len(PLAYER_TEXTS) == WITHDRAW + 1

# --- chance outcomes -------------------------------------------------------------
DRAW = 0  # draw card c from the deck: c
DRAIN = 65  # drain card c from the victim's hand: 65 + c
TURN_CARD = 130  # turn card c face up to find the day's element: 130 + c
CHANCE_TEXTS: tuple[str, ...] = (
    tuple(f"draw {t}" for t in TEXT) + tuple(f"drain {t}" for t in TEXT) + tuple(f"turn {t}" for t in TEXT)
)


# --- phases (who acts) and stages (where the round is) ------------------------------
ELEMENT, TURN, ANSWER, DRAIN_PHASE, DRAW_PHASE, DISCARD_PHASE, BID_PHASE, OVER = range(8)
PHASE_NAMES = ("element", "turn", "answer", "drain", "draw", "discard", "bid", "over")
CHANCE_PHASES = (ELEMENT, DRAIN_PHASE, DRAW_PHASE)
SETUP, TURNS, REFRESH, CONTEST = range(4)
STAGE_NAMES = ("setup", "turns", "refresh", "contest")
ROUND_CAP = box.INNER_STONES  # G4: one round per inner stone; FD7 ends the game after 30 day
LOG_LENGTH = 12

# --- seat colours (FD1) ---------------------------------------------------------------
CYCLE = "cycle"
COLOUR_CHOICES: tuple[str, ...] = (CYCLE,) + tuple(
    ",".join(p) for k in range(3, 6) for p in itertools.permutations(box.PLAYER_COLOURS, k)
)


def seat_colours(players: int, option: str) -> tuple[int, ...]:
    """FD1: the colour index of each seat; ``cycle`` gives seat i the i-th player colour."""
    if option == CYCLE:
        return tuple(range(players))
    return tuple(box.PLAYER_COLOURS.index(name) for name in option.split(","))
