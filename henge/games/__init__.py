"""One module per rule set; importing this package registers every game."""

from henge.games import spell_casting, stonerush

__all__ = ["spell_casting", "stonerush"]
