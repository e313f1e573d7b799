"""The rule-based player: Stonerush's own, unchanged (it knows nothing of the changed rule)."""

from henge.games.stonerush.bot import choose

__all__ = ["choose"]
