"""First Druid in the terminal: time, druids, spirits, bluestones, trilithons, the altar, hands and offers.

Drawn only from a seat's observation (``FirstDruidState.observation``), so it
shows nothing the seat may not know.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from henge import box
from henge.core import STYLE, card, cards


def _seat(obs: dict[str, Any], seat: int | None) -> Text:
    if seat is None:
        return Text("nobody", style="dim")
    colour = obs["colours"][seat]
    you = " (you)" if seat == obs["seat"] else ""
    return Text(f"seat {seat} {colour}{you}", style=STYLE[colour])


def _row(label: str, label_style: str, cells: list[Text]) -> Text:
    line = Text(f"{label:<11}", style=label_style)
    for cell in cells:
        line += cell
        line.append(" ")
    return line


def _ring(obs: dict[str, Any]) -> Group:
    """The outer ring: numbers in their colours, spirits, the neutral figure and the druids."""
    numbers = range(1, 31)
    tens = [Text(str(n // 10) if n >= 10 else " ", style=STYLE[box.colour_of(n)]) for n in numbers]
    units = [Text(str(n % 10), style=STYLE[box.colour_of(n)]) for n in numbers]
    spirits = [
        Text("▬", style=STYLE[obs["colours"][owner]]) if owner is not None else Text("·", style="dim")
        for owner in obs["spirits"]
    ]
    time = obs["time"]
    neutral = [Text(" ")] * 30
    neutral[time["number"] - 1] = Text("☀" if time["phase"] == "day" else "☾", style="bold grey62")
    rows = [_row("", "dim", tens), _row("space", "dim", units), _row("spirits", "dim", spirits)]
    rows.append(_row("neutral", "dim", neutral))
    for seat, where in enumerate(obs["druids"]):
        colour = obs["colours"][seat]
        cells = [Text("─", style="grey35")] * 30
        cells[where - 1] = Text("●", style=STYLE[colour])
        rows.append(_row(f"seat {seat}", STYLE[colour], cells))
    return Group(*rows)


def _centre(obs: dict[str, Any]) -> Table:
    """Bluestones with their clans, the trilithons with their owners, and the altar's bars."""
    colours = obs["colours"]
    table = Table(show_header=False, box=None, padding=(0, 1))
    stones = Text()
    for i in range(box.BLUESTONES):
        owners = obs["bluestones"]
        if i < len(owners):
            stones.append("● ", style=STYLE[colours[owners[i]]])
        else:
            stones.append("○ ", style="dim")
    table.add_row(Text("bluestones", style="dim"), stones)
    trilithons = Text()
    for t, tri in enumerate(obs["trilithons"]):
        parts = "▮" * min(tri["sections"], 2) + "▬" * (tri["sections"] == 3)
        trilithons.append(f"{t + 1}:", style="dim")
        owner = tri["owner"]
        style = STYLE[colours[owner]] if owner is not None else "grey62"
        trilithons.append(f"{parts or '·'}{'◉' if owner is not None else ''}  ", style=style)
    table.add_row(Text("trilithons", style="dim"), trilithons)
    altar = Text()
    for seat in obs["altar"]:
        altar.append("▬ ", style=STYLE[colours[seat]])
    altar.append(f"({len(obs['altar'])} of {obs['players']})", style="dim")
    table.add_row(Text("altar", style="dim"), altar)
    return table


def _players(obs: dict[str, Any]) -> Table:
    table = Table(box=None, padding=(0, 1), header_style="dim")
    for name in ("seat", "druid", "contact", "cards", "disks", "bars", "score", "known cards"):
        table.add_column(name)
    for seat in range(obs["players"]):
        known = obs["known_cards"][seat] if seat != obs["seat"] else []
        table.add_row(
            _seat(obs, seat),
            str(obs["druids"][seat]),
            "yes" if obs["in_contact"][seat] else Text("lost", style="red"),
            str(obs["hand_sizes"][seat]),
            str(obs["disks_left"][seat]),
            str(obs["bars_left"][seat]),
            str(obs["scores"][seat]),
            cards(known),
        )
    return table


def _events(obs: dict[str, Any]) -> list[RenderableType]:
    lines: list[RenderableType] = []
    if obs["table"]:
        wild = f" (wild card as {obs['wild_number']})" if obs["wild_number"] else ""
        lines.append(Text("on the table: ") + cards(obs["table"]) + Text(wild))
    offer = obs["offer"]
    if offer is not None:
        lines.append(
            Text("offer: ")
            + _seat(obs, offer["from"])
            + Text(" gives ")
            + cards(offer["give"])
            + Text(" to ")
            + _seat(obs, offer["to"])
            + Text(" for ")
            + cards(offer["ask"])
        )
    contest = obs["contest"]
    if contest is not None:
        colour = contest["colour"]
        line = Text("spirit contest for space ") + Text(f"{contest['number']} ({colour})", style=STYLE[colour])
        line += Text(f"   face-down bids: {contest['bid_sizes']}")
        if contest["bid"]:
            line += Text("   your bid: ") + cards(contest["bid"])
        lines.append(line)
    last = obs["last_contest"]
    if last is not None:
        winner = f"seat {last['winner']}" if last["winner"] is not None else "nobody"
        placed = "" if last["placed"] or last["winner"] is None else " (no bar left)"
        line = Text(f"last contest, space {last['number']} ({last['colour']}): values {last['values']}, ")
        lines.append(line + Text(f"won by {winner}{placed}"))
    if obs["log"]:
        lines.append(Text("\n".join(obs["log"][-6:]), style="grey62"))
    return lines


def render(obs: dict[str, Any]) -> RenderableType:
    """Returns the board, the players and the seat's hand as the observing seat sees it."""
    time = obs["time"]
    day_colour = obs["day_colour"]
    header = Text(f"First Druid · round {obs['round']}/{obs['round_cap']} · ", style="bold")
    header += Text(f"{time['number']} {time['phase']}", style="bold")
    header += Text(" · day colour ") + Text(day_colour, style=STYLE[day_colour])
    if obs["element_card"]:
        header += Text(" · element card ") + card(obs["element_card"])
    header += Text(" · first player ") + _seat(obs, obs["first_player"])
    parts: list[RenderableType] = [header, _ring(obs), _centre(obs), _players(obs)]
    if obs["turned"]:
        parts.append(Text("turned: ") + cards(obs["turned"]))
    parts.append(
        Text(f"deck: {obs['draw_pile']}   discard pile: {len(obs['discard_pile'])} (top: ")
        + cards(obs["discard_pile"][-4:])
        + Text(")")
    )
    parts += _events(obs)
    if obs["hand"] is not None:
        hand = Text("your hand: ") + cards(obs["hand"]) + Text("   wild: ") + card(obs["wild"])
        parts.append(hand)
        known = [f"seat {x}: {' '.join(c)}" for x, c in enumerate(obs["known_by"]) if c]
        if known:
            parts.append(Text("others know you hold: " + "; ".join(known), style="grey62"))
    either = [f"{e['card']} with seat {' or '.join(str(x) for x in e['seats'])}" for e in obs.get("either_or") or ()]
    if either:
        parts.append(Text("in one of several hands: " + "; ".join(either), style="grey62"))
    if obs["result"]:
        parts.append(Text(f"game over: {obs['result']}; winners: {obs['winners']}", style="bold magenta"))
    return Panel(Group(*parts), title="First Druid", title_align="left")


def describe_decision(obs: dict[str, Any]) -> str:
    """Returns what the observing seat is deciding now (or who is)."""
    if obs["result"]:
        return "the game is over"
    seat = obs["seat"]
    mover = obs["current_player"]
    if mover < 0:
        return "waiting for the cards"
    if mover != seat:
        return f"seat {mover} is deciding"
    phase = obs["phase"]
    if phase == "discard":
        owed = obs["discard_owed"]
        limit = obs.get("hand_limit")  # present only where a designer set a limit other than ten
        return f"discard {owed} card{'s' if owed > 1 else ''}: a hand holds at most {limit or 'ten'}"
    if phase == "bid":
        contest = obs["contest"]
        return (
            f"bid cards face down for the spirit of space {contest['number']} ({contest['colour']}), "
            "then seal your bid (or pass)"
        )
    if phase == "answer":
        offer = obs["offer"]
        return f"seat {offer['from']} offers you {' '.join(offer['give'])} for {' '.join(offer['ask'])}"
    if obs["offer"] is not None:
        return f"build your offer to seat {obs['offer']['to']}: give cards, ask for cards, then send it"
    if obs["table"]:
        return "add a card to the combination on the table, or choose what it does"
    if obs["acted"]:
        return "your turn: play another combination, offer a trade, or end the turn"
    return "your turn: play a combination, offer a trade, or pass (draw cards)"
