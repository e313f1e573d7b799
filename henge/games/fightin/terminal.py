"""Terminal drawing of Fightin' an' Drinkin' an' Stealin'!, built only from a seat's observation."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from henge import box
from henge.core import STYLE, card_colour

_EVENTS = ("fightin", "drinkin", "stealin")
_TITLES = {"fightin": "Fightin'", "drinkin": "Drinkin'", "stealin": "Stealin'"}
_NOUNS = {"fightin": "fighter", "drinkin": "drinker", "stealin": "thief"}
_BACK = "[?]"
"""A face-down card the viewer may not see."""


def _card(card: str, *, face_down: bool = False) -> Text:
    colour = card_colour(card)
    style = STYLE[colour] if colour else ""
    if face_down:  # the viewer's own face-down card
        return Text(f"({card})", style=f"{style} dim")
    return Text(card, style=style)


def _awards(counts: dict[str, int]) -> Text:
    text = Text()
    for colour in box.PLAYER_COLOURS:
        count = counts.get(colour, 0)
        if count:
            if text:
                text.append(" ")
            text.append(f"{count} {colour}", style=STYLE[colour])
    return text or Text("-", style="dim")


def _seat_cards(obs: dict[str, Any], event: str, seat: int) -> Text:
    cell = obs["events"][event]
    text = Text()
    for card in cell["cards"][seat]:
        if text:
            text.append(" ")
        text.append_text(_card(card))
        loot = obs["loot"].get(card) if event == "stealin" else None
        if loot:
            text.append(" carrying ", style="dim")
            text.append_text(_awards(loot))
    down = cell["face_down"][seat]
    if down is not None:
        if text:
            text.append(" ")
        text.append_text(Text(_BACK, style="reverse") if down == "hidden" else _card(down, face_down=True))
    return text or Text("-", style="dim")


def _event_extra(obs: dict[str, Any], event: str) -> Text:
    if event == "fightin":
        text = Text("monsters: ")
        for card in obs["monsters"]:
            text.append_text(_card(card))
            text.append(" ")
        text.append(f"(deck {obs['monster_deck']})", style="dim")
        return text
    if event == "drinkin":
        text = Text("altar: ")
        text.append(f"{obs['altar']} blue", style=STYLE["blue"])
        return text
    lawyer = obs["big_lawyer"]
    text = Text("Big Lawyer on ")
    text.append(f"{lawyer['space']} ({lawyer['colour']})", style=STYLE[lawyer["colour"]])
    return text


def _who(obs: dict[str, Any], seat: int) -> str:
    return f"seat {seat} (you)" if obs["seat"] == seat else f"seat {seat}"


def render(obs: dict[str, Any]) -> RenderableType:
    """Returns the table as a seat (or a spectator) sees it."""
    parts: list[RenderableType] = []
    events = Table(title=f"Round {obs['round']} of {obs['round_cap']}", expand=True)
    events.add_column("event")
    events.add_column(_who(obs, 0))
    events.add_column(_who(obs, 1))
    events.add_column("")
    for event in _EVENTS:
        title = Text(_TITLES[event], style="bold underline" if obs["event"] == event else "bold")
        events.add_row(title, _seat_cards(obs, event, 0), _seat_cards(obs, event, 1), _event_extra(obs, event))
    parts.append(events)

    clans = Table(expand=True)
    clans.add_column("")
    clans.add_column("awards")
    clans.add_column("Wee Lawyers")
    clans.add_column("hand / deck")
    for seat in (0, 1):
        held = [c for c, s in obs["wee_lawyers"].items() if s == seat]
        lawyers = Text(" ".join(held) or "-")
        for colour in held:
            lawyers.stylize(STYLE[colour], lawyers.plain.index(colour), lawyers.plain.index(colour) + len(colour))
        clans.add_row(
            _who(obs, seat),
            _awards(obs["awards"][seat]),
            lawyers,
            f"{obs['hand_sizes'][seat]} / {obs['deck_sizes'][seat]}",
        )
    clans.add_row("stock", _awards(obs["stock"]), "", "")
    parts.append(clans)

    if obs["hand"] is not None:
        hand = Text("Your hand: ", style="bold")
        for card in obs["hand"]:
            hand.append_text(_card(card))
            hand.append(" ")
        parts.append(hand)
    if obs["log"]:
        parts.append(Panel(Text("\n".join(obs["log"][-8:]), style="dim"), title="what happened"))
    if obs["winners"] is not None:
        scores = obs["scores"]
        dropped = obs["dropped"]
        lines = [f"seat {s}: {scores[s]:g} (dropped {dropped[s]})" for s in (0, 1)]
        winners = obs["winners"]
        verdict = "a draw" if len(winners) == 2 else f"seat {winners[0]} wins"
        parts.append(Panel(Text("\n".join([*lines, verdict]), style="bold"), title="final scores"))
    return Group(*parts)


def describe_decision(obs: dict[str, Any]) -> str:
    """Returns what is being decided now, e.g. ``choose your fighter to discard``."""
    if obs["winners"] is not None:
        return "the game is over"
    player = obs["current_player"]
    decision = obs["decision"]
    if decision is None:
        return "the cards are being dealt"
    event = obs["event"]
    noun = _NOUNS.get(event, "card")
    prompts = {
        "place": f"choose your {noun} for the {_TITLES.get(event, '')} event (played face down)",
        "discard highest": f"choose which of your highest {noun}s to discard",
        "discard own": f"choose your {noun} to discard",
        "discard other": f"choose your opponent's {noun} to discard",
        "kill": "choose the monster to kill",
        "discard monster": "choose which highest monster to discard",
        "steal": "choose what your highest thief steals (done: nothing more)",
        "take yellow": "take a yellow award from stock with your second thief (done: no more)",
        "scarper": "choose your thief to scarper off",
        "name colour": "name the Wee Lawyer your opponent must take",
        "drop colour": "choose your best colour to drop",
    }
    prompt = prompts.get(decision, decision)
    if obs["seat"] != player:
        prompt = prompt.replace("your opponent's", "the other clan's").replace("your ", "their ")
        return f"seat {player} is deciding: {prompt}"
    return prompt
