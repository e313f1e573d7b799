"""The narrator of each game, as the table's log uses it (:mod:`henge.core.narrate` has the helpers)."""

from __future__ import annotations

from henge.core import Narrator, generic_narrator, plugin


def narrator(game_id: str) -> Narrator:
    """Returns the narrator of a game: its own, or the generic one naming the fields that changed."""
    own = plugin(game_id).load_narrator()
    return generic_narrator if own is None else own
