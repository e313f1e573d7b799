"""Druid Olympics' log lines, from two successive observations of one seat (or a spectator)."""

from __future__ import annotations

from henge.core import Observation, grew, seat_name, short

_SETUP = ("deal", "choose first")


def _verb(who: str, verb: str) -> str:
    if who == "you":
        return f"you {verb}"
    return f"{who} {verb + 'es' if verb.endswith('s') else verb + 's'}"


def _runner(obs: Observation, seat: int) -> str:
    runner = obs["runners"][seat]
    return f"{seat_name(obs, seat)} ({runner['colour']})"


def narrate(before: Observation | None, after: Observation) -> list[str]:
    """Returns what happened between two observations, in the words of the table."""
    if before is None:
        return []
    lines: list[str] = []
    actor = before["current_player"]
    who = seat_name(after, actor) if actor is not None and actor >= 0 else None
    if before["phase"] in _SETUP and after["phase"] not in _SETUP:
        if after["hand"]:
            lines.append(f"the cards are dealt: your hand is {short(after['hand'])}")
        lines.append(f"{seat_name(after, after['first_player'])} will start every round")
    if after["turn"] != before["turn"] and after["phase"] not in _SETUP:
        lines.append(f"turn {after['turn']} begins: the blocking round")
    if before["phase"] == "block" and after["phase"] == "block cards" and who:
        lines.append(f"{_verb(who, 'choose')} {after['target']}")
    passed = after["phase"] != "block cards" and not after["table"] and before["blocks"] == after["blocks"]
    if before["phase"] == "block" and who and passed and before["runners"] == after["runners"]:
        lines.append(f"{_verb(who, 'pass')}: no block")
    if who and before["phase"] in ("block cards", "move", "pay"):
        for card in grew(before["table"], after["table"]):
            lines.append(f"{_verb(who, 'lay')} {card}")
    for old, new in zip(before["runners"], after["runners"], strict=True):
        seat = new["seat"]
        for piece in ("bar", "disk"):
            if new[piece] != old[piece] and new[piece]:
                where = f"from {old[piece]} to {new[piece]}" if old[piece] else f"on {new[piece]}"
                lines.append(f"{_runner(after, seat)} {'lay' if seat == after['seat'] else 'lays'} a {piece} {where}")
        if new["at"] != old["at"]:
            lines.append(f"{_runner(after, seat)}: {old['at']} → {new['at']}")
        if new["lost_turns"] > old["lost_turns"]:
            lost = new["lost_turns"] - old["lost_turns"]
            verb = "lose" if seat == after["seat"] else "loses"
            lines.append(f"{_runner(after, seat)} ended on a block and {verb} {lost} turn{'s' if lost > 1 else ''}")
        if new["skipping"] and not old["skipping"]:
            lines.append(f"{_runner(after, seat)} {'lose' if seat == after['seat'] else 'loses'} this turn")
        if new["drained"] and not old["drained"]:
            lines.append(
                f"{_runner(after, seat)} {'are' if seat == after['seat'] else 'is'} drained: no move this turn"
            )
    for colour, place in after["trilithons"].items():
        if place != before["trilithons"][colour] and place:
            lines.append(f"the {colour} trilithon is laid on {place}")
    if before["phase"] in ("move", "pay") and after["phase"] != "over" and who:
        same = before["runners"][actor]["at"] == after["runners"][actor]["at"]
        if same and not after["table"] and before["phase"] == "move" and not grew(before["table"], after["table"]):
            lines.append(f"{_verb(who, 'stay')} on {after['runners'][actor]['at']}")
    if before["phase"] == "draw":
        for seat, (old, new) in enumerate(zip(before["hand_sizes"], after["hand_sizes"], strict=True)):
            if new > old and seat == after["seat"]:
                drawn = [c for c in after["hand"] if c not in before["hand"]]
                lines.append(f"you draw {short(drawn)}")
            elif new > old:
                lines.append(f"seat {seat} draws {'a card' if new - old == 1 else f'{new - old} cards'}")
    if after["draw_pile"] > before["draw_pile"] and before["phase"] not in _SETUP:
        lines.append("the discard pile is shuffled into a new draw pile")
    if after["phase"] == "over" and before["phase"] != "over":
        lines.append(f"the game is over: {after['result']}")
        winners = " and ".join(seat_name(after, seat) for seat in after["winners"] or [])
        if winners:
            lines.append(f"{winners} {'win' if winners == 'you' or ' and ' in winners else 'wins'}")
    return lines
