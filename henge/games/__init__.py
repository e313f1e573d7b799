"""One module per rule set; importing this package registers every game."""

from henge.games import stonerush

__all__ = ["stonerush"]
