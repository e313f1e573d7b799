"""Fightin' an' Drinkin' an' Stealin'!: the rules, the rule-based player and what a search knows, the log lines
and the drawings."""

from henge.core import GamePlugin

PLUGIN = GamePlugin(
    id="fightin",
    package=__name__,
    game="rules:Fightin",
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
