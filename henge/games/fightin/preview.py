"""Fightin' an' Drinkin' an' Stealin'!: what a legal action will do, read from the seat's observation alone.

A placement says what the card is worth where it goes (F3: nothing under its
owner's Wee Lawyer of its colour), what the seat's cards at that event add up
to against the opponent's face-up ones (their newcomer stays a question mark
until it is turned), and that a Gonagal wins its event outright (F13, F14).
The choices while an event resolves say what stays: the card left face up at
the event, the monster left on the board; and what a kill, a steal, a scarper,
a named colour or the colour dropped at scoring (F11) brings.

Only the observation is read, never a state: placing the second seat's last
card resolves the events, which would show the opponent's cards.
"""

from __future__ import annotations

from typing import Any

from henge import box

_EVENTS = ("fightin", "drinkin", "stealin")
_NOUNS = ("fighter", "drinker", "thief")
_PLURALS = ("fighters", "drinkers", "thieves")
_TITLES = ("Fightin'", "Drinkin'", "Stealin'")
_GONAGAL = ("1d", "1n")


def _owner(text: str) -> int:
    """Returns the seat whose deck holds a player card: day cards seat 0, night cards seat 1 (F1)."""
    return 0 if text.endswith("d") else 1


def _value(obs: dict[str, Any], text: str) -> int:
    """F3: a card's number, or 0 under its owner's Wee Lawyer of its colour."""
    card = box.parse_card(text)
    colour = box.CARD_COLOUR[card]
    if colour < 5 and obs["wee_lawyers"][box.COLOURS[colour]] == _owner(text):
        return 0
    return box.CARD_NUMBER[card]


def _double(round_: int, cap: int) -> int:
    return 2 if round_ == cap else 1  # the seventh round is worth double


def _place(obs: dict[str, Any], seat: int, event: int, text: str) -> str:
    """A card placed face down at an event: its worth there, and the Gonagal's power (F3, F13, F14)."""
    name = _EVENTS[event]
    other = 1 - seat
    if text == _GONAGAL[seat] and obs["wee_lawyers"]["white"] != seat:
        gone = _GONAGAL[other]
        seen = gone in obs["discards"][other] or any(gone in obs["events"][e]["cards"][other] for e in _EVENTS)
        return f"your Gonagal wins {_TITLES[event]} outright" + ("" if seen else ", unless theirs comes too")
    mine = [_value(obs, c) for c in obs["events"][name]["cards"][seat]]
    worth = _value(obs, text)
    theirs = [str(_value(obs, c)) for c in obs["events"][name]["cards"][other]]
    down = obs["events"][name]["face_down"][other]
    if down is not None or (seat == 0 and obs["hand_sizes"][other] > event):
        theirs.append("?")
    pair = " + ".join(map(str, [*mine, worth]))
    total = f" = {sum(mine) + worth}" if mine else ""
    text_out = f"your {_PLURALS[event]} {pair}{total} against {' + '.join(theirs) or 'none'}"
    if worth == 0 and box.CARD_NUMBER[box.parse_card(text)]:
        colour = box.COLOURS[box.CARD_COLOUR[box.parse_card(text)]]
        text_out = f"counts 0 under your {colour} Wee Lawyer; " + text_out
    if event == 2:
        text_out += f"; Big Lawyer on {obs['big_lawyer']['space']}"
    return text_out


def _stays(obs: dict[str, Any], seat: int, text: str) -> str | None:
    """``discard X`` while an event resolves: what is left there."""
    event = _EVENTS.index(obs["event"]) if obs["event"] in _EVENTS else -1
    if obs["decision"] == "discard monster":
        rest = [m for m in obs["monsters"] if m != text]
        return f"{' '.join(rest)} stays as the monster" if rest else "no monster is left"
    if event < 0:
        return None
    owner = _owner(text)
    rest = [c for c in obs["events"][_EVENTS[event]]["cards"][owner] if c != text]
    whose = "your" if owner == seat else "their"
    if not rest:
        return f"{whose} last {_NOUNS[event]} goes"
    return f"{whose} {' '.join(rest)} stays at {_TITLES[event]}"


def _kill(obs: dict[str, Any], seat: int, text: str) -> str:
    """``kill X``: the monster left, and the awards the kill earns now (F4, F10, F14)."""
    rest = [m for m in obs["monsters"] if m != text]
    stays = f"{' '.join(rest)} stays as the monster" if rest else "no monster is left"
    times = _double(obs["round"], obs["round_cap"])
    stock = dict(obs["stock"])
    earned: dict[str, int] = {}

    def give(colour: str) -> None:
        count = min(times, stock[colour])
        stock[colour] -= count
        if count:
            earned[colour] = earned.get(colour, 0) + count

    card = box.parse_card(text)
    if box.is_trilithon_card(card):  # the bonus award of the trilithon card's colour
        give(box.COLOURS[box.CARD_COLOUR[card]])
    if obs["gonagal"] is None:  # a plain kill earns red at once; a Gonagal's awards come as it leaves
        give("red")
    if not earned:
        return stays
    return f"{stays}; you earn " + " and ".join(f"{n} {c}" for c, n in earned.items())


def _loot(obs: dict[str, Any], thief: str) -> str:
    counts = obs["loot"].get(thief, {})
    parts = [f"{n} {c}" for c, n in counts.items() if n]
    return ", ".join(parts)


def preview(observation: dict[str, Any], seat: int, action_text: str) -> str | None:
    """Returns what ``action_text`` will do for ``seat``, from its observation alone (None: the text says it)."""
    obs = observation
    if obs.get("current_player") != seat or obs.get("hand") is None:
        return None
    decision = obs["decision"]
    word, _, rest = action_text.partition(" ")
    if decision == "place" and word in _NOUNS:
        return _place(obs, seat, _NOUNS.index(word), rest)
    if word == "discard":
        return _stays(obs, seat, rest)
    if word == "kill":
        return _kill(obs, seat, rest)
    if word == "steal" and rest.startswith("from "):
        thief = rest.split()[1]
        loot = _loot(obs, thief)
        return f"your thief {obs['highest_thief']} takes {loot} from {thief}"
    if word == "scarper":
        loot = _loot(obs, rest)
        return f"{rest} banks {loot}" if loot else f"{rest} carries no loot"
    if word == "name":
        caught = 1 - seat
        holder = obs["wee_lawyers"][rest]
        source = " from you" if holder == seat else ""
        return f"seat {caught} takes the {rest} Wee Lawyer{source}"
    if word == "drop":
        held = obs["awards"][seat]
        halves = {c: n if obs["wee_lawyers"][c] == seat else 2 * n for c, n in held.items()}
        score = (sum(halves.values()) - halves[rest]) / 2
        return f"your final score {score:g}"
    return None
