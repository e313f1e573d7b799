"""Druid Olympics in the terminal, drawn only from a seat's observation.

The course is drawn as strips, one per ring, in course order: each cell shows
the runners on it (their colour's initial), else the block on it (``|`` a
bar, ``o`` a disk, ``#`` a trilithon), else ``·``.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from henge import box
from henge.core import STYLE, card_colour

_MARK = {"bar": "|", "disk": "o"}


def _card(text: str) -> Text:
    """Returns a card text in its colour (plain if it is no card)."""
    colour = card_colour(text)
    return Text(text, style=STYLE[colour]) if colour else Text(text)


def _cards(cards: list[str]) -> Text:
    return Text(" ").join(_card(c) for c in cards) if cards else Text("-", style="dim")


def _seat(obs: dict[str, Any], seat: int | None) -> Text:
    if seat is None:
        return Text("-", style="dim")
    colour = obs["runners"][seat]["colour"]
    return Text(f"seat {seat} ({colour})", style=STYLE[colour])


def _cell(obs: dict[str, Any], here: list[dict[str, Any]], block: dict[str, Any] | None, ground: str) -> Text:
    """Returns one course cell: the runners on it, else its block, else an empty mark."""
    if len(here) == 1:
        return Text(here[0]["colour"][0].upper(), style=f"{STYLE[here[0]['colour']]} reverse")
    if here:
        return Text(str(len(here)), style="bold reverse")
    if block is None:
        return Text("·", style=ground)
    if block["owner"] is None:
        return Text("#", style="bold grey62")
    return Text(_MARK[block["piece"]], style=STYLE[obs["runners"][block["owner"]]["colour"]])


def _course(obs: dict[str, Any]) -> Table:
    blocks = {b["space"]: b for b in obs["blocks"]}
    at: dict[str, list[dict[str, Any]]] = {}
    for runner in obs["runners"]:
        key = runner["at"] if not runner["entered_at"] else f"{runner['at']} from {runner['entered_at']}"
        at.setdefault(key, []).append(runner)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", justify="right")
    grid.add_column()
    rings = (
        ("coloured 1-30", [(f"coloured {n}", STYLE[box.colour_of(n)]) for n in box.NUMBERS], " "),
        ("numbered 1-30", [(f"numbered {n}", "dim") for n in box.NUMBERS], " "),
        ("inner 1n-30d", [(f"inner {box.inner_text(i)}", "dim" if i % 2 else "blue") for i in range(60)], ""),
    )
    for label, spaces, gap in rings:
        strip = Text()
        for space, ground in spaces:
            strip.append_text(_cell(obs, at.get(space, []), blocks.get(space), ground))
            strip.append(gap)
        grid.add_row(label, strip)
    for end in box.BLUESTONE_ENDS:
        strip = Text()
        for stone in box.bluestone_path(end):
            space = f"bluestone {stone}"
            strip.append_text(_cell(obs, at.get(f"{space} from bluestone {end}", []), blocks.get(space), "dim"))
            strip.append(" ")
        winner = at.get("altar", [])
        strip.append("→ ")
        strip.append_text(_cell(obs, winner, None, "bold") if winner else Text("altar", style="bold"))
        grid.add_row(f"bluestones {end}→10", strip)
    return grid


def _runners(obs: dict[str, Any]) -> Table:
    table = Table(title="runners", title_style="bold", expand=False)
    for column in ("seat", "at", "progress", "bar", "disk", "lost turns", "hand", "this turn"):
        table.add_column(column)
    current = obs["current_player"]
    for runner in obs["runners"]:
        seat = runner["seat"]
        state = "loses it" if runner["skipping"] else "drained" if runner["drained"] else ""
        name = _seat(obs, seat)
        if seat == current:
            name.append(" ◀", style="bold")
        table.add_row(
            name,
            runner["at"],
            f"{runner['progress']}/130",
            runner["bar"] or "-",
            runner["disk"] or "-",
            str(runner["lost_turns"]),
            str(obs["hand_sizes"][seat]),
            state,
        )
    return table


def render(obs: dict[str, Any]) -> RenderableType:
    """Returns the table as seen by the observation's seat: course, runners, blocks, cards."""
    title = f"Druid Olympics · turn {obs['turn']}/{obs['round_cap']} · {obs['phase']}"
    if obs["first_player"] >= 0:
        title += f" · first player: seat {obs['first_player']}"
    parts: list[RenderableType] = [_course(obs), _runners(obs)]
    trilithons = Text("trilithons: ", style="bold")
    for colour, place in obs["trilithons"].items():
        trilithons.append(f"{colour} ", style=STYLE[colour])
        trilithons.append(f"{place or 'centre'}  ")
    parts.append(trilithons)
    pieces = Text("bars and disks: ", style="bold")
    for block in obs["blocks"]:
        owner = block["owner"]
        if owner is not None:
            colour = obs["runners"][owner]["colour"]
            pieces.append(f"{colour} {block['piece']} ", style=STYLE[colour])
            pieces.append(f"{block['space']}  ")
    if all(block["owner"] is None for block in obs["blocks"]):
        pieces.append("none", style="dim")
    parts.append(pieces)
    piles = Text.assemble(
        ("draw pile: ", "bold"),
        f"{obs['draw_pile']}   ",
        ("discard pile: ", "bold"),
        f"{len(obs['discard_pile'])} (top: ",
        _cards(obs["discard_pile"][-5:]),
        ")",
    )
    parts.append(piles)
    if obs["table"] or obs["target"]:
        laid = Text.assemble(("on the table: ", "bold"), _cards(obs["table"]))
        if obs["target"]:
            laid.append(f"  for {obs['target']}")
        if obs["paying"]:
            paying = obs["paying"]
            laid.append(f"  paying {paying['paid']}/{paying['need']} {paying['colour']} cards")
        parts.append(laid)
    if obs["hand"] is not None:
        parts.append(Text.assemble(("your hand: ", "bold"), _cards(obs["hand"])))
    if obs["log"]:
        parts.append(Text("\n".join(obs["log"][-5:]), style="dim"))
    if obs["result"]:
        parts.append(Text(obs["result"], style="bold magenta"))
    return Panel(Group(*parts), title=title, title_align="left")


_WHAT = {
    "block": "choose a place to block (a bar, a disk or a trilithon), or pass",
    "enter": "choose the end of the bluestone horseshoe to enter",
}


def describe_decision(obs: dict[str, Any]) -> str:
    """Returns what the seat to act must decide, in a few words."""
    phase = obs["phase"]
    if phase == "over":
        return f"the game is over: {obs['result']}"
    current = obs["current_player"]
    if current < 0:
        return "the first player is drawn at random" if phase == "choose first" else "cards are dealt and drawn"
    runner = obs["runners"][current]
    if phase in _WHAT:
        what = _WHAT[phase]
    elif phase == "block cards":
        what = f"choose the cards that pay for {obs['target']}"
    elif phase == "pay":
        paying = obs["paying"]
        what = (
            f"pay {paying['colour']} cards to pass the blocks in the way ({paying['paid']} of {paying['need']}), "
            "or done to stop at the first unpaid block"
        )
    elif runner["entered_at"]:
        full = obs.get("horseshoe_sum", 10)  # named only where a designer changed D4's 10
        what = f"play cards to walk the horseshoe (every full {full} moves one stone), " + (
            "then done" if obs["table"] else "or pass"
        )
    else:
        what = f"choose a card to move from {runner['at']}, or pass"
    if obs["seat"] != current:
        return f"waiting for seat {current} ({runner['colour']}) to {what}"
    return what
