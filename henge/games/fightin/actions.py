"""Fightin' an' Drinkin' an' Stealin'!: its cards, phases, steps, decisions and action tables.

Shared by the rule modules: :mod:`henge.games.fightin.rules` (the state), ``table`` (the state's
fields, card values, awards and record), ``choices`` (the decisions), ``events`` (the steps),
``observation`` (seat views) and ``fields`` (JSON).
"""

from __future__ import annotations

from henge import box

ROUND_CAP = 7
"""G4: the rules end the game after the seventh round; no game goes further."""
ROUNDS: tuple[int, ...] = (3, 4, 5, 6, 7)
"""Designer option ``rounds``: the rounds played, the last worth double (the text's seven use up
both player decks: 3 cards dealt face up and 3 played a round make 24)."""
HAND = 5
STOCK_PER_COLOUR = box.DISKS_PER_COLOUR  # F10

# Copy on write: a clone shares the lists that the rules change seldom, and each of the two copies
# such a list the first time the rules change it (one bit per group of lists in the state's _shared,
# set in both by its _copy; the rules change a list of a group in place only after position._own).
# Someone changing a state's list in place, outside the rules, gives it a new list instead.
SHARE_LOOT = 1  # loot
SHARE_BOARD = 2  # board and its six piles
SHARE_DECKS = 4  # decks, their two lists, and deck_draws
SHARE_MONSTERS = 8  # monsters, monster_deck and monster_discards
SHARE_DISCARDS = 16  # discards and its two piles
SHARE_ALL = 31
LAWYER_START = 30

EVENTS: tuple[str, ...] = ("fightin", "drinkin", "stealin")
FIGHT, DRINK, STEAL = range(3)
NO_EVENT = 3
NOUNS: tuple[str, ...] = ("fighter", "drinker", "thief")
TITLES: tuple[str, ...] = ("Fightin'", "Drinkin'", "Stealin'")
COLOURS = box.PLAYER_COLOURS
WHITE, BLUE, GREEN, YELLOW, RED = range(5)

_MONSTER_NUMBERS = (6, 12, 18, 24, 30, 25)
MONSTER_DECK: tuple[int, ...] = tuple(sorted(box.number_cards(numbers=_MONSTER_NUMBERS) + box.TRILITHON_CARDS))
"""F1: the ten black cards, the two white 25s and the five trilithon cards (17)."""
_PLAYER_NUMBERS = tuple(n for n in box.NUMBERS if n not in _MONSTER_NUMBERS)
DECKS: tuple[tuple[int, ...], tuple[int, ...]] = (
    box.number_cards(night=False, numbers=_PLAYER_NUMBERS),
    box.number_cards(day=False, numbers=_PLAYER_NUMBERS),
)
"""F1: seat 0 takes the other 24 day cards, seat 1 the other 24 night cards."""
GONAGAL: tuple[int, int] = (box.number_card(1, True), box.number_card(1, False))
"""Each seat's white 1, the Gonagal."""
OWNER: tuple[int, ...] = tuple(0 if c in DECKS[0] else 1 if c in DECKS[1] else -1 for c in range(box.DECK_SIZE))
"""Seat whose deck holds each card; -1 for the monster deck."""

# Phases: a state rests at a chance node (deal, draw, flip), a decision (choose) or the end.
DEAL, DRAW, FLIP, CHOOSE, OVER, AUTO = range(6)
PHASE_NAMES: tuple[str, ...] = ("deal", "draw", "flip", "choose", "over")

# Decisions (the kind of choice pending in phase CHOOSE).
(
    PLAY,
    DISCARD_HIGHEST,
    DISCARD_OWN,
    DISCARD_OTHER,
    KILL,
    DISCARD_MONSTER,
    STEAL_AWARDS,
    TAKE_YELLOWS,
    SCARPER,
    NAME_COLOUR,
    DROP_COLOUR,
) = range(11)
KIND_NAMES: tuple[str, ...] = (
    "place",
    "discard highest",
    "discard own",
    "discard other",
    "kill",
    "discard monster",
    "steal",
    "take yellow",
    "scarper",
    "name colour",
    "drop colour",
)

# Player actions (dense ids).
_N = box.NUMBER_CARD_COUNT
PLACE_BASE = 0  # fighter X, drinker X, thief X: event * 60 + card
DISCARD_BASE = 3 * _N  # discard X (any of the 65 cards: own, opposing or monster)
KILL_BASE = DISCARD_BASE + box.DECK_SIZE  # kill X (a monster card)
SCARPER_BASE = KILL_BASE + box.DECK_SIZE  # scarper X (an own thief)
STEAL_FROM_BASE = SCARPER_BASE + _N  # steal from X (an opposing thief's loot)
STEAL_COLOUR_BASE = STEAL_FROM_BASE + _N  # steal <colour> (one award from the opponent)
TAKE_YELLOW = STEAL_COLOUR_BASE + 5  # take yellow (one yellow award from stock)
DONE = TAKE_YELLOW + 1  # done (stop stealing)
NAME_BASE = DONE + 1  # name <colour> (the Wee Lawyer on a black space)
DROP_BASE = NAME_BASE + 5  # drop <colour> (the best colour at scoring)

_TEXT = box.CARD_TEXT
PLAYER_TEXTS: tuple[str, ...] = (
    tuple(f"{NOUNS[e]} {_TEXT[c]}" for e in range(3) for c in range(_N))
    + tuple(f"discard {t}" for t in _TEXT)
    + tuple(f"kill {t}" for t in _TEXT)
    + tuple(f"scarper {_TEXT[c]}" for c in range(_N))
    + tuple(f"steal from {_TEXT[c]}" for c in range(_N))
    + tuple(f"steal {colour}" for colour in COLOURS)
    + ("take yellow", "done")
    + tuple(f"name {colour}" for colour in COLOURS)
    + tuple(f"drop {colour}" for colour in COLOURS)
)

# Chance outcomes: a face-up deal at set-up, a draw into a hand, a monster flip.
DEAL_BASE = 0
DRAW_BASE = box.DECK_SIZE
FLIP_BASE = 2 * box.DECK_SIZE
CHANCE_TEXTS: tuple[str, ...] = (
    tuple(f"deal {t}" for t in _TEXT) + tuple(f"draw {t}" for t in _TEXT) + tuple(f"flip {t}" for t in _TEXT)
)


# Upper bound on a game's actions. Set-up: 6 deals, 10 draws, 1 flip. A round: 6 placements;
# Fightin' 1 flip + 3 choices; Drinkin' 2; Stealin' 2 + 2 steals, 2 scarpers, 1 colour; at most
# 10 draws. Scoring: 2 drops.
def max_game_length(rounds: int) -> int:
    """Returns the bound above for a game of ``rounds`` rounds."""
    return 17 + rounds * (6 + 4 + 2 + 7 + 10) + 2


LOG_LINES = 40


# Steps: the rules' automatic steps (henge.games.fightin.events runs them); a state rests on the step
# that follows its chance node or decision.
STEP_NAMES: tuple[str, ...] = (
    "deals",
    "draws",
    "start round",
    "places",
    "fight start",
    "fight tie",
    "fight resolve",
    "fight killed",
    "fight other discards",
    "fight clobbered",
    "fight clobber monster",
    "fight gonagal kill",
    "fight gonagal discard",
    "fight gonagal end",
    "drink start",
    "drink tie",
    "drink other discards",
    "drink passed out",
    "drink green",
    "drink gonagal end",
    "steal start",
    "steal high",
    "steal second",
    "steal lawyer",
    "steal scarper",
    "steal scarper other",
    "steal wee lawyer",
    "steal gonagal end",
    "round end",
    "score",
    "score other",
    "finish",
)
DEALS, DRAWS, START_ROUND, PLACES = range(4)
FIGHT_START, FIGHT_TIE, FIGHT_RESOLVE, FIGHT_KILLED, FIGHT_OTHER_DISCARDS = range(4, 9)
FIGHT_CLOBBERED, FIGHT_CLOBBER_MONSTER, FIGHT_GONAGAL_KILL, FIGHT_GONAGAL_DISCARD, FIGHT_GONAGAL_END = range(9, 14)
DRINK_START, DRINK_TIE, DRINK_OTHER_DISCARDS, DRINK_PASSED_OUT, DRINK_GREEN, DRINK_GONAGAL_END = range(14, 20)
STEAL_START, STEAL_HIGH, STEAL_SECOND, STEAL_LAWYER, STEAL_SCARPER, STEAL_SCARPER_OTHER = range(20, 26)
STEAL_WEE_LAWYER, STEAL_GONAGAL_END, ROUND_END, SCORE, SCORE_OTHER, FINISH = range(26, 32)
NEEDS_LEAD = frozenset(
    [
        *range(FIGHT_RESOLVE, FIGHT_GONAGAL_END + 1),
        *range(DRINK_OTHER_DISCARDS, DRINK_GONAGAL_END + 1),
        STEAL_GONAGAL_END,
    ]
)
"""Steps that need ``lead`` set (checked when a state is loaded)."""

# Where a state can rest (G7: a loaded state must be one of these). A decision rests on the step
# that follows it; each (kind, step) names the event it belongs to and who decides: a seat, or
# LEAD (the champion, biggest drinker's owner or working Gonagal's owner), OTHER (the other seat),
# HIGH and SECOND (the owners of the ranked thieves), NAMER (the seat that was not caught).
LEAD, OTHER, HIGH, SECOND, NAMER = range(2, 7)
ASKS: dict[tuple[int, int], tuple[int, int]] = {
    (PLAY, PLACES): (-1, -1),  # any event and seat: checked with the placements
    (DISCARD_HIGHEST, FIGHT_TIE): (FIGHT, 0),
    (DISCARD_HIGHEST, DRINK_START): (FIGHT, 1),
    (DISCARD_HIGHEST, DRINK_TIE): (DRINK, 0),
    (DISCARD_HIGHEST, STEAL_START): (DRINK, 1),
    (DISCARD_HIGHEST, DRINK_PASSED_OUT): (DRINK, LEAD),
    (KILL, FIGHT_KILLED): (FIGHT, LEAD),
    (KILL, FIGHT_GONAGAL_DISCARD): (FIGHT, LEAD),
    (DISCARD_OWN, FIGHT_CLOBBERED): (FIGHT, OTHER),
    (DISCARD_OWN, FIGHT_OTHER_DISCARDS): (FIGHT, LEAD),
    (DISCARD_OWN, DRINK_START): (FIGHT, OTHER),
    (DISCARD_OWN, DRINK_OTHER_DISCARDS): (DRINK, LEAD),
    (DISCARD_OWN, STEAL_START): (DRINK, OTHER),
    (DISCARD_OWN, DRINK_GREEN): (DRINK, OTHER),
    (DISCARD_OTHER, FIGHT_CLOBBER_MONSTER): (FIGHT, OTHER),
    (DISCARD_OTHER, FIGHT_GONAGAL_END): (FIGHT, LEAD),
    (DISCARD_OTHER, DRINK_GONAGAL_END): (DRINK, LEAD),
    (DISCARD_OTHER, STEAL_GONAGAL_END): (STEAL, LEAD),
    (DISCARD_MONSTER, DRINK_START): (FIGHT, OTHER),
    (STEAL_AWARDS, STEAL_HIGH): (STEAL, HIGH),
    (TAKE_YELLOWS, STEAL_SECOND): (STEAL, SECOND),
    (SCARPER, STEAL_SCARPER_OTHER): (STEAL, 0),
    (SCARPER, STEAL_WEE_LAWYER): (STEAL, 1),
    (NAME_COLOUR, ROUND_END): (STEAL, NAMER),
    (DROP_COLOUR, SCORE_OTHER): (NO_EVENT, 0),
    (DROP_COLOUR, FINISH): (NO_EVENT, 1),
}
"""Every decision a state can rest at: (kind, step) -> (event, who decides)."""
CHANCES: dict[tuple[int, int], int] = {
    (DEAL, DEALS): -1,  # the event being dealt to
    (DRAW, DRAWS): NO_EVENT,
    (FLIP, START_ROUND): NO_EVENT,  # the first monster, at set-up
    (FLIP, FIGHT_RESOLVE): FIGHT,
    (FLIP, FIGHT_GONAGAL_KILL): FIGHT,
}
"""Every chance node a state can rest at: (phase, step) -> event."""
GONAGAL_STEPS = frozenset(
    [FIGHT_GONAGAL_KILL, FIGHT_GONAGAL_DISCARD, FIGHT_GONAGAL_END, DRINK_GONAGAL_END, STEAL_GONAGAL_END]
)
"""The steps a state rests at while a Gonagal works (and only then)."""
TWO_MONSTERS = frozenset(
    [(KILL, FIGHT_KILLED), (KILL, FIGHT_GONAGAL_DISCARD), (DISCARD_OWN, FIGHT_CLOBBERED)]
    + [(DISCARD_OTHER, FIGHT_CLOBBER_MONSTER), (DISCARD_MONSTER, DRINK_START)]
)
"""The decisions taken while a fight has two monsters on the board (after the flip, before the kill)."""
