"""One module per rule set; importing this package registers every game."""

from henge.games import druid_olympics, fightin, first_druid, spell_casting, stonerush

__all__ = ["druid_olympics", "fightin", "first_druid", "spell_casting", "stonerush"]
