"""Stonerush in the terminal: the track with the five druids, hands, piles and the last plays."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from henge.core import STYLE, cards


def _track(obs: dict[str, Any]) -> Table:
    end = obs["track_end"]
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(justify="right")
    table.add_column(justify="right")
    table.add_column()
    ruler = Text("".join(str(n % 10) if n % 5 == 0 else "·" for n in range(1, end + 1)), style="dim")
    track_name = "bluestones" if obs["variant"] == "bluestones" else "track"
    table.add_row(Text(track_name, style="dim"), "", ruler)
    for colour, where in obs["druids"].items():
        line = Text()
        for space in range(1, end + 1):
            line.append("●" if space == where else "─", style=STYLE[colour] if space == where else "grey35")
        mine = " (yours)" if obs.get("trilithon") == colour else ""
        table.add_row(Text(colour + mine, style=STYLE[colour]), str(where), line)
    return table


def _plays(obs: dict[str, Any]) -> Table:
    table = Table(title="last plays", title_justify="left", box=None, padding=(0, 1), show_header=False)
    for play in obs["last_plays"][-5:]:
        druid = play["druid"]
        move = Text("moves nobody", style="dim")
        if druid is not None:
            move = Text(f"{druid} {play['from']} → {play['to']}", style=STYLE[druid])
        table.add_row(f"seat {play['seat']}", cards(play["cards"]), move)
    return table


def render(obs: dict[str, Any]) -> RenderableType:
    """Returns the table as the observing seat sees it."""
    seat = obs["seat"]
    lines: list[RenderableType] = [
        Text(f"Stonerush · round {obs['round']} · phase: {obs['phase']}", style="bold"),
        _track(obs),
    ]
    others = Text("hands: ") + Text(
        "  ".join(f"seat {k}: {n}" + (" (you)" if k == seat else "") for k, n in enumerate(obs["hand_sizes"]))
    )
    lines.append(others)
    lines.append(
        Text(f"draw pile: {obs['draw_pile']}   discard pile: {len(obs['discard_pile'])} (top: ")
        + cards(obs["discard_pile"][-3:])
        + Text(")")
    )
    if obs["last_plays"]:
        lines.append(_plays(obs))
    if obs["in_play"]:
        lines.append(Text("on the table: ") + cards(obs["in_play"]))
    if seat is not None:
        secret = obs["trilithon"]
        lines.append(
            Text(f"you are seat {seat}; your secret colour: ")
            + Text(secret or "not dealt yet", style=STYLE.get(secret or "", ""))
        )
        lines.append(Text("your hand: ") + cards(obs["hand"]))
    if obs["phase"] == "over":
        reveal = Text("trilithon cards: ")
        for k, colour in enumerate(obs["trilithons"]):
            reveal.append(f"seat {k} ")
            reveal.append(colour, style=STYLE[colour])
            reveal.append("  ")
        lines.append(reveal)
        winners = ", ".join(f"seat {w}" for w in obs["winners"])
        lines.append(Text(f"winner: {winners} — {obs['result']}", style="bold"))
    return Group(*lines)


def describe_decision(obs: dict[str, Any]) -> str:
    """Returns the prompt for the seat to move."""
    if obs["phase"] == "discard":
        return "discard cards until you keep at most two, then done"
    if obs["in_play"]:
        return "add a card of the same colour (or black), or done to move"
    return "play a card: its colour's druid moves (day ahead, night back)"
