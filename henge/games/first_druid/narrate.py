"""First Druid's log lines, from two successive observations of one seat (or a spectator)."""

from __future__ import annotations

import re

from henge.core import Observation, seat_name, short


def _new_events(before: list[str], after: list[str]) -> list[str]:
    """Returns the events at the end of ``after`` that ``before`` did not have (the log keeps the last few)."""
    for k in range(min(len(before), len(after)), -1, -1):
        if before[len(before) - k :] == after[:k]:
            return after[k:]
    return after


_VERBS = {
    "advances": "advance",
    "builds": "build",
    "claims": "claim",
    "completes": "complete",
    "converts": "convert",
    "drains": "drain",
    "dresses": "dress",
    "moves": "move",
    "offers": "offer",
    "plays": "play",
    "takes": "take",
    "wins": "win",
}
_VERB = re.compile(r"(^you | and )(" + "|".join(_VERBS) + r")\b")


def _personal(obs: Observation, line: str) -> str:
    """Returns an event line with the seat's own number as "you" (and its verbs agreeing)."""
    seat = obs["seat"]
    if seat is None:
        return line
    line = re.sub(rf"\bseat {seat}\b", "you", line).replace(" of you", " of yours")
    clauses = re.split(r"(; |: |, )", line)
    for i, clause in enumerate(clauses):
        if clause.startswith("you "):
            clauses[i] = _VERB.sub(lambda m: m.group(1) + _VERBS[m.group(2)], clause)
    return "".join(clauses)


def _gained(before: list[str], after: list[str]) -> list[str]:
    """Returns the cards of ``after`` that ``before`` did not hold (counting repeats)."""
    rest = list(before)
    new = []
    for card in after:
        if card in rest:
            rest.remove(card)
        else:
            new.append(card)
    return new


def narrate(before: Observation | None, after: Observation) -> list[str]:
    """Returns what happened between two observations, in the words of the table."""
    if before is None:
        return []
    lines: list[str] = []
    me = after["seat"]
    if before["stage"] == "setup" and after["stage"] != "setup":
        lines.append("the cards are dealt" + (f": your hand is {short(after['hand'])}" if after["hand"] else ""))
    if before["offer"] is None and after["offer"] is not None and after["phase"] == "turn":
        offer = after["offer"]
        verb = "start" if offer["from"] == me else "starts"
        lines.append(f"{seat_name(after, offer['from'])} {verb} an offer to {seat_name(after, offer['to'])}")
    if before["offer"] is not None and after["offer"] is None and before["phase"] == after["phase"] == "turn":
        lines.append("you withdraw the offer")  # FD15: only its author ever saw it
    if after["offer"] is not None and after["phase"] == "answer" and before["phase"] != "answer":
        offer = after["offer"]
        lines.append(
            f"{seat_name(after, offer['from'])} {'offer' if offer['from'] == me else 'offers'} "
            f"{seat_name(after, offer['to'])} "
            f"{short(offer['give'])} for {short(offer['ask'])}"
        )
    for line in _new_events(before["log"], after["log"]):
        lines.append(_personal(after, line))
    if before["phase"] == "draw" and me is not None and after["hand"] is not None:
        drawn = _gained(before["hand"], after["hand"])
        if drawn and len(after["hand"]) > len(before["hand"]):
            lines.append(f"you draw {short(drawn)}")
    if before["phase"] == "bid" and after["contest"] is not None and before["contest"] is not None:
        sizes = zip(before["contest"]["bid_sizes"], after["contest"]["bid_sizes"], strict=True)
        for seat, (old, new) in enumerate(sizes):
            if new > old:
                lines.append(f"{seat_name(after, seat)} {'lay' if seat == me else 'lays'} a card face down")
    if before["phase"] == "discard":
        for card in _gained(before["discard_pile"], after["discard_pile"]):
            seat = before["current_player"]
            lines.append(f"{seat_name(after, seat)} {'discard' if seat == me else 'discards'} {card}")
    if after["time"] != before["time"]:
        time = after["time"]
        lines.append(f"the neutral figure moves to {time['number']} {time['phase']} (day colour {after['day_colour']})")
    if after["contest"] is not None and before["contest"] is None:
        lines.append(f"the spirit of space {after['contest']['number']} ({after['contest']['colour']}) is contested")
    if after["turn_seat"] is not None and after["turn_seat"] != before["turn_seat"] and after["phase"] != "over":
        lines.append(f"{seat_name(after, after['turn_seat'])} to play")
    if after["phase"] == "over" and before["phase"] != "over":
        lines.append(f"the game is over: {after['result']}")
        scores = ", ".join(f"{seat_name(after, seat)} {score}" for seat, score in enumerate(after["scores"]))
        lines.append(f"scores: {scores}")
        winners = " and ".join(seat_name(after, seat) for seat in after["winners"])
        lines.append(f"{winners} {'win' if winners == 'you' or ' and ' in winners else 'wins'}")
    return lines
