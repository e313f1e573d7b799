"""Checks of a state's JSON fields, for the games' ``_load`` (each raises StateFormatError)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from henge import box
from henge.core.errors import StateFormatError


def check(condition: bool, message: str) -> None:
    """Raises StateFormatError with ``message`` unless ``condition`` holds (for _load)."""
    if not condition:
        raise StateFormatError(message)


def load_int(value: Any, low: int, high: int, name: str) -> int:
    """Returns ``value`` if it is an integer in ``low..high`` (not a bool); raises StateFormatError."""
    check(
        isinstance(value, int) and not isinstance(value, bool) and low <= value <= high,
        f"{name} must be an integer in {low}..{high}",
    )
    return int(value)


def load_cards(values: Any, name: str, allowed: Collection[int], allowed_text: str) -> list[int]:
    """Returns the card ids of a JSON list of card texts, each in ``allowed``; raises StateFormatError."""
    check(isinstance(values, list) and all(isinstance(v, str) for v in values), f"{name} must be a list of card texts")
    cards = []
    for text in values:
        try:
            card = box.parse_card(text)
        except ValueError as error:
            raise StateFormatError(f"{name}: {error}") from None
        check(card in allowed, f"{name}: {text} cannot be there; only {allowed_text}")
        cards.append(card)
    return cards
