"""One module per rule set; importing this package registers every game."""

from henge.games import first_druid, stonerush

__all__ = ["first_druid", "stonerush"]
