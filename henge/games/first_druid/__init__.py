"""First Druid: the rules, the rule-based player, what a search knows, the log lines and the drawings."""

from henge.core import GamePlugin

PLUGIN = GamePlugin(
    id="first_druid",
    package=__name__,
    game="rules:FirstDruid",
    bot="bot",
    search="search",
    narrator="narrate:narrate",
    terminal="terminal",
    board_js="board.js",
    rules_page="rules.md",
    encoder="encode",
    preview="preview:preview",
    metrics="metrics:game_metrics",
)
