"""One module per rule set; importing this package registers every game."""

from henge.games import fightin, stonerush

__all__ = ["fightin", "stonerush"]
