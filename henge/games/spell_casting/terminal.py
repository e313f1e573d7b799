"""Terminal drawing of the Stonehenge Spell Casting Game, built only from an observation.

The rings are drawn unrolled, one column per number 1..30, with the dividers
between 10|11 and 20|21 (and 30|1, where the ring closes): the outer, coloured
and middle rings, then the inner ring's night and day stones, then the
figures on those stones. Components are ``●`` in their owner's colour.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

_STYLE = {
    "white": "bold bright_white",
    "blue": "bold blue",
    "green": "bold green",
    "yellow": "bold yellow",
    "red": "bold red",
    "black": "bold bright_black",
    "gray": "bold grey58",
}
_CYCLE = ("white", "blue", "green", "yellow", "red", "black")
_FIGURE_MARK = {"white": "W", "blue": "B", "green": "G", "yellow": "Y", "red": "R", "gray": "X"}


def _seat_colour(obs: dict[str, Any], seat: int) -> str:
    colour: str = obs["colours"][seat]
    return colour


def _component(obs: dict[str, Any], seat: int | None, empty: Text) -> Text:
    if seat is None:
        return empty
    return Text("●", style=_STYLE[_seat_colour(obs, seat)])


def _board(obs: dict[str, Any]) -> Table:
    table = Table(box=None, pad_edge=False, padding=(0, 0), show_header=True, header_style="dim")
    table.add_column("ring", justify="right", no_wrap=True)
    for m in range(1, 31):
        table.add_column(str(m), justify="center", min_width=2, no_wrap=True)
        if m in (10, 20):
            table.add_column("‖", justify="center", no_wrap=True)
    rings = obs["rings"]
    stones: dict[str, list[str]] = {}
    for name, stone in obs["figures"].items():
        if stone is not None:
            stones.setdefault(stone, []).append(name)

    def row(label: str, cells: list[Text]) -> None:
        out: list[Text] = [Text(label + " ", style="dim")]
        for m, cell in enumerate(cells, start=1):
            out.append(cell)
            if m in (10, 20):
                out.append(Text("‖", style="grey58"))
        table.add_row(*out)

    dot = Text("·", style="dim")
    row("outer", [_component(obs, s, dot) for s in rings["outer"]])
    row(
        "coloured",
        [_component(obs, s, Text("·", style=_STYLE[_CYCLE[m % 6]])) for m, s in enumerate(rings["coloured"])],
    )
    row("middle", [_component(obs, s, dot) for s in rings["middle"]])
    for phase, offset in (("night", 0), ("day", 1)):
        row(f"inner {phase}", [_component(obs, rings["inner"][2 * m + offset], dot) for m in range(30)])
    for phase in ("night", "day"):
        cells = []
        for m in range(1, 31):
            names = stones.get(f"{m} {phase}", [])
            text = Text()
            for name in names:
                text.append(_FIGURE_MARK[name], style=_STYLE[name])
            cells.append(text if names else Text(" "))
        row(f"figures {phase}", cells)
    return table


def _cups(obs: dict[str, Any]) -> Table:
    table = Table(box=None)
    table.add_column("cup (section 1: 1-10, 2: 11-20, 3: 21-30)")
    table.add_column("energy")
    table.add_column("private disks (*)")
    neutral = _STYLE[obs["neutral_colour"]]
    for name, cup in obs["cups"].items():
        private = Text()
        for seat, count in enumerate(cup["private"]):
            if count:
                private.append("●*" * count, style=_STYLE[_seat_colour(obs, seat)])
                private.append(" ")
        energy = Text("●" * cup["energy"], style=neutral)
        energy.append(f" {cup['energy']}")
        table.add_row(name, energy, private)
    return table


def _status(obs: dict[str, Any]) -> Text:
    text = Text()
    seat = obs["seat"]
    for s, colour in enumerate(obs["colours"]):
        mark = " (you)" if s == seat else ""
        text.append(f"seat {s}{mark} ", style=_STYLE[colour])
        inner = obs["inner_counts"][s]
        text.append(f"{colour}: {inner}/{obs['target']} inside, ")
        text.append(f"{obs['private_left'][s]} private disks left, holds {obs['held'][s]}\n")
    text.append(f"neutral colour {obs['neutral_colour']}; gray figure X. ")
    text.append(f"Round {obs['round']} of at most {obs['round_cap']}, phase {obs['phase']}.\n")
    if obs["action"]:
        cup = f" from {obs['action_cup']}" if obs["action_cup"] else ""
        text.append(f"seat {obs['turn_player']} takes action {obs['action']}{cup}; ")
        hand = ", ".join(obs["hand"]) or "none"
        uses = obs["uses_left"]
        text.append(f"disks in hand: {hand}; uses left by section: {uses[0]}, {uses[1]}, {uses[2]}\n")
    chain = obs["chain"]
    if chain:
        who = _seat_colour(obs, chain["component"])
        text.append(f"displacing the {who} component off {chain['from']}; moved: {', '.join(chain['moved'])}\n")
    if obs["recent"]:
        last = "; ".join(f"{r['seat']}: {r['action']}" for r in obs["recent"][-6:])
        text.append(f"recent: {last}\n", style="dim")
    if obs["result"]:
        text.append(obs["result"], style="bold")
    return text


def render(obs: dict[str, Any]) -> RenderableType:
    """Returns the rings, figures, cups and hands of a Spell Casting observation."""
    return Panel(
        Group(_board(obs), Text(""), _cups(obs), Text(""), _status(obs)),
        title="Stonehenge Spell Casting Game",
        subtitle=f"{obs['variant']}: {obs['target']} components on the inner ring cast the spell",
    )


def describe_decision(obs: dict[str, Any]) -> str:
    """Returns what the seat to move is choosing now, in words."""
    phase = obs["phase"]
    current = obs["current_player"]
    if phase == "over":
        return str(obs["result"])
    if phase.startswith("deal"):
        return "the set-up cards are being turned"
    who = "you" if current == obs["seat"] else f"seat {current} ({_seat_colour(obs, current)})"
    if phase == "return held disks":
        return f"{who}: put back a disk held since your last action c, in any cup"
    if phase == "take":
        if obs["action"] is None:
            return f"{who}: take a disk from an inside cup (a), from outside cups (b), or hold one off the board (c)"
        if obs["action"] == "c":
            return f"{who}: hold a second energy disk off the board"
        where = obs["action_cup"] if obs["action"] == "a" else "the outside cups"
        return f"{who}: take another disk from {where}, or done"
    if phase == "use":
        uses = obs["uses_left"]
        return f"{who}: use a disk (left by section: {uses[0]}, {uses[1]}, {uses[2]}), or done"
    if phase == "displace":
        chain = obs["chain"]
        return f"{who}: push the {_seat_colour(obs, chain['component'])} component off {chain['from']}: pick a way"
    if phase == "place private disk":
        return f"{who}: a component reached the inner ring; place a private disk in any cup"
    barred = " or ".join(obs.get("action_sources") or [obs["hand"][0].split()[-1]])  # SC11
    return f"{who}: put the disk from {obs['hand'][0]} into a cup, not {barred}"
