"""Three-card draw, an example game in a package of its own, offered through the
``henge.games`` entry point of the ``henge-example-threecard`` distribution.

It names only its rules and its rules page: the bot, the log, the terminal and the
browser drawing are henge's generic ones.
"""

from henge.core import GamePlugin

PLUGIN = GamePlugin(
    id="threecard",
    package=__name__,
    game="rules:ThreeCard",
    rules_page="rules.md",
)
