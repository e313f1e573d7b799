"""Stonerush's log lines, from two successive observations of one seat (or a spectator)."""

from __future__ import annotations

from henge.core import Observation, grew, seat_name, short

_DEALING = ("deal trilithons", "deal hands", "choose start")


def narrate(before: Observation | None, after: Observation) -> list[str]:
    """Returns what happened between two observations, in the words of the table."""
    if before is None:
        return []
    lines: list[str] = []
    actor = before["current_player"]
    who = seat_name(after, actor)
    if after["trilithon"] and not before["trilithon"]:
        lines.append(f"your secret trilithon card is {after['trilithon']}")
    if before["phase"] == "deal hands" and after["phase"] != "deal hands":
        lines.append("the cards are dealt" + (f": your hand is {short(after['hand'])}" if after["hand"] else ""))
    if before["phase"] in _DEALING and after["phase"] == "play":
        starter = seat_name(after, after["starting_player"])
        lines.append(f"{starter} {'start' if starter == 'you' else 'starts'}")
    for card in grew(before["in_play"], after["in_play"]):
        lines.append(f"{who} {'play' if who == 'you' else 'plays'} {card}")
    if after["last_plays"] != before["last_plays"] and after["last_plays"]:
        play = after["last_plays"][-1]
        mover = seat_name(after, play["seat"])
        if play["druid"] is None:
            lines.append(f"{mover}: only black cards, no druid moves")
        elif play["from"] == play["to"]:
            lines.append(f"{mover}: the {play['druid']} druid stays on {play['from']}")
        else:
            lines.append(f"{mover}: the {play['druid']} druid moves {play['from']} → {play['to']}")
    if before["phase"] == "discard":
        for card in grew(before["discard_pile"], after["discard_pile"]):
            lines.append(f"{who} {'discard' if who == 'you' else 'discards'} {card}")
    if before["phase"] == "draw":
        for seat, (old, new) in enumerate(zip(before["hand_sizes"], after["hand_sizes"], strict=True)):
            if new > old and seat == after["seat"]:
                drawn = [c for c in after["hand"] if c not in before["hand"]]
                lines.append(f"you draw {short(drawn)}")
            elif new > old:
                lines.append(f"seat {seat} draws a card")
    if after["draw_pile"] > before["draw_pile"] and before["phase"] not in _DEALING:
        lines.append("the discard pile is shuffled into a new draw pile")
    if after["phase"] == "play" and before["phase"] not in ("play", *_DEALING):
        lines.append(f"{seat_name(after, after['current_player'])} to play")
    if after["phase"] == "over" and before["phase"] != "over":
        lines.append(f"the game is over: {after['result']}")
        reveal = ", ".join(f"{seat_name(after, seat)} {colour}" for seat, colour in enumerate(after["trilithons"]))
        lines.append(f"trilithon cards: {reveal}")
        winners = " and ".join(seat_name(after, seat) for seat in after["winners"])
        lines.append(f"{winners} {'win' if winners == 'you' or ' and ' in winners else 'wins'}")
    return lines
