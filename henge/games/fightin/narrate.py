"""Fightin' an' Drinkin' an' Stealin'!'s log lines, from two successive observations of one seat.

The public lines of the table (reveals, fights, drinks, steals, the Big
Lawyer) come from the observation's own ``log``; the rest is read from what
changed: the cards dealt face up at set-up, the cards placed face down (the
seat's own by name, the other's as a face-down card), the cards drawn (the
seat's own by name, the other's as a count) and the result.
"""

from __future__ import annotations

import re
from typing import Any

from henge.core import Observation, seat_name, short

_EVENTS = ("fightin", "drinkin", "stealin")
_NOUNS = {"fightin": "fighter", "drinkin": "drinker", "stealin": "thief"}
_TITLES = {"fightin": "Fightin'", "drinkin": "Drinkin'", "stealin": "Stealin'"}
_VERBS = ("earns", "discards", "kills", "takes", "drops", "steals")


def _new_lines(before: list[str], after: list[str]) -> list[str]:
    """Returns the lines added to a log that keeps only its last lines."""
    if after == before:
        return []
    if len(after) > len(before) and after[: len(before)] == before:
        return after[len(before) :]
    for shift in range(1, len(before) + 1):
        kept = before[shift:]
        if after[: len(kept)] == kept:
            return after[len(kept) :]
    return after


def _personal(line: str, seat: Any) -> str:
    """Puts a public line in the seat's own words: ``seat 0 earns`` becomes ``you earn``."""
    if seat is None:
        return line
    line = line.replace(f"seat {seat}'s", "your")
    for verb in _VERBS:
        line = line.replace(f"seat {seat} {verb}", f"you {verb[:-1]}")
    return re.sub(rf"\bseat {seat}\b", "you", line)


def narrate(before: Observation | None, after: Observation) -> list[str]:
    """Returns what happened between two observations, in the words of the table."""
    if before is None:
        return []
    lines: list[str] = []
    me = after["seat"]
    # Set-up: the cards dealt face up, and the first monster.
    if after["round"] == 0:
        for event in _EVENTS:
            for seat in (0, 1):
                for card in after["events"][event]["cards"][seat][len(before["events"][event]["cards"][seat]) :]:
                    dealer = f"{seat_name(after, seat)} {'deal' if seat == me else 'deals'}"
                    lines.append(f"{dealer} {card} face up to {_TITLES[event]}")
    if not before["monsters"] and after["monsters"] and after["round"] <= 1:
        lines.append(f"the first monster is {short(after['monsters'])}")
    # Cards placed face down.
    for event in _EVENTS:
        for seat in (0, 1):
            old = before["events"][event]["face_down"][seat]
            new = after["events"][event]["face_down"][seat]
            if new is not None and old is None:
                noun = _NOUNS[event]
                if new == "hidden":
                    lines.append(f"{seat_name(after, seat)} places a {noun} face down")
                else:
                    lines.append(f"you place {new} face down as your {noun}")
    # The table's public lines.
    for line in _new_lines(before["log"], after["log"]):
        if re.fullmatch(r"round \d+", line):
            lines.append(f"— {line} —")
        else:
            lines.append(_personal(line, me))
    # Cards drawn.
    for seat in (0, 1):
        grew = after["hand_sizes"][seat] - before["hand_sizes"][seat]
        if grew <= 0 or after["deck_sizes"][seat] >= before["deck_sizes"][seat]:
            continue
        if seat == me and after["hand"] is not None:
            drawn = [c for c in after["hand"] if c not in (before["hand"] or [])]
            lines.append(f"you draw {short(drawn)}")
        else:
            lines.append(f"{seat_name(after, seat)} draws {grew} card{'s' if grew > 1 else ''}")
    if after["phase"] == "over" and before["phase"] != "over" and after["winners"] is not None:
        scores = after["scores"] or []
        for seat, score in enumerate(scores):
            dropped = (after["dropped"] or [None, None])[seat]
            lines.append(f"{seat_name(after, seat)}: {short(score)} (best colour {dropped} dropped)")
        winners = after["winners"]
        if len(winners) == 2:
            lines.append("the game is drawn")
        else:
            lines.append(f"{seat_name(after, winners[0])} {'win' if winners[0] == me else 'wins'}")
    return lines
