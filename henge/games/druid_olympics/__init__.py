"""Druid Olympics: the rules, the rule-based player, the log lines and the drawings."""

from henge.core import GamePlugin

PLUGIN = GamePlugin(
    id="druid_olympics",
    package=__name__,
    game="rules:DruidOlympics",
    bot="bot",
    search="search",
    narrator="narrate:narrate",
    terminal="terminal",
    board_js="board.js",
    rules_page="rules.md",
    encoder="encode",
    preview="preview:preview",
    metrics="metrics:game_metrics",
    public=("board",),
)
