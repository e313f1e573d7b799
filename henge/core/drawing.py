"""The pieces every game's terminal drawing is made of: the box's colours as Rich styles, and cards.

Rich is imported when a card is drawn, so the core can be imported without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henge import box

if TYPE_CHECKING:
    from rich.text import Text

STYLE = {
    "white": "bold white",
    "blue": "bold blue",
    "green": "bold green",
    "yellow": "bold yellow",
    "red": "bold red",
    "black": "bold white on grey23",
    "gray": "grey62",
}
"""Rich styles of the six colours (and gray) of the box."""

_SYMBOL = {"d": "☀", "n": "☾"}


def card_colour(text: str) -> str | None:
    """Returns the colour name of a card text (``13d``, ``T-red``), or None if it is no card."""
    try:
        return box.COLOURS[box.CARD_COLOUR[box.parse_card(text)]]
    except ValueError:
        return None


def card(text: str) -> Text:
    """Returns a card (``13d``, ``7n``, ``T-red``) drawn in its colour with a sun or moon."""
    from rich.text import Text

    code = box.parse_card(text)
    colour = box.COLOURS[box.CARD_COLOUR[code]]
    if box.is_trilithon_card(code):
        return Text(f"[Π {colour}]", style=STYLE[colour])
    return Text(f"[{text[:-1]}{_SYMBOL[text[-1]]}]", style=STYLE[colour])


def cards(texts: list[str] | None) -> Text:
    """Returns a row of cards, or a dash for none."""
    from rich.text import Text

    if not texts:
        return Text("-", style="dim")
    return Text(" ").join(card(t) for t in texts)
