"""Stonerush with one rule changed, offered under its own id: a planted rule change (tests only).

S4 moves a druid one space back per night card; here a play whose moons outnumber its suns
carries the druid forward by as many spaces as it would have gone back ("moonrise"). Nothing else
changes: the actions, what each seat sees and the rule-based player are Stonerush's own (the player
module is Stonerush's, unchanged), so a player that carries its own copy of the rules plays it
exactly as Stonerush, while a player that reads the rules follows the change. Installed only by the
tests that ask for it (its folder is not on the tests' path).
"""

from henge.core import GamePlugin

PLUGIN = GamePlugin(
    id="stonerush_moonrise",
    package=__name__,
    game="rules:Moonrise",
    bot="bot",
)
