"""Games from other packages: the example game of tests/plugins, installed through its own entry
point (tests/conftest.py puts it on sys.path), plays everywhere with the generic parts; a broken
package or a second package claiming a game id is named, and the other games still load.

The example in the browser is in tests/test_web_browser.py; the conformance suite, the golden
playthroughs and the web server's leak checks run on it as on every registered game.
"""

from __future__ import annotations

import ast
import importlib.metadata
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import game_configs, shipped_games
from rich.pretty import Pretty

import henge
from henge.agents import Decision, HeuristicAgent, heuristics
from henge.cli import main
from henge.core import ENTRY_POINT_GROUP, GamePlugin, PluginError, game_problems, plugin, reload_games
from henge.core import generic_narrator as generic
from henge.server.narrate import narrator
from henge.terminal import decision_text, renderer

SHIPPED = shipped_games()
VERDICTS = ("You win!", "You share the win.", "You lose.")

Installer = Callable[[str, dict[str, str], dict[str, str]], None]


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Installer]:
    """Yields ``install(distribution, entry points, modules)``: a package written into tmp_path, found
    through its dist-info; afterwards the packages are gone and the registry is read again."""
    monkeypatch.syspath_prepend(str(tmp_path))
    modules: list[str] = []

    def installer(name: str, entries: dict[str, str], sources: dict[str, str]) -> None:
        info = tmp_path / f"{name.replace('-', '_')}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
        lines = "".join(f"{entry} = {target}\n" for entry, target in entries.items())
        (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{lines}")
        for module, source in sources.items():  # "package/module" writes a module of a package
            path = tmp_path / f"{module}.py"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(source)
            modules.append(module.replace("/", ".").removesuffix(".__init__"))
        reload_games()

    yield installer
    monkeypatch.undo()
    for module in modules:
        sys.modules.pop(module, None)
    reload_games()
    assert game_problems() == [] and sorted(henge.list_games()) == sorted([*SHIPPED, "threecard"])


def _the_others_still_load(missing: str | None = None) -> None:
    for game_id in [*SHIPPED, "threecard"]:
        if game_id != missing:
            game = henge.load(game_id)
            assert not game.new_initial_state().is_terminal()


# --- the example game ---------------------------------------------------------------------------


def test_the_example_game_comes_from_its_own_distribution_and_plays_to_the_end():
    assert "threecard" in henge.list_games()
    (entry,) = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP, name="threecard")
    assert entry.dist is not None and entry.dist.name == "henge-example-threecard"
    assert entry.value == "henge_example_threecard:PLUGIN"
    descriptor = plugin("threecard")
    assert descriptor is entry.load() and descriptor.package == "henge_example_threecard"
    assert henge.game_class("threecard").__module__ == "henge_example_threecard.rules"
    rules = descriptor.rules_text()
    assert rules is not None and "knock" in rules
    # It names nothing else, so every layer falls back on its generic part.
    assert (descriptor.bot, descriptor.narrator, descriptor.terminal, descriptor.board_js) == (None,) * 4
    assert not heuristics.has_heuristic("threecard") and narrator("threecard") is generic
    assert decision_text("threecard", {}) == "choose an action"
    # The conformance suite runs on it at every player count.
    assert [p for g, p, _ in game_configs() if g == "threecard"] == [2, 3, 4]
    game = henge.load("threecard", players=3)
    for seed in range(20):  # the search bot too: it needs no rule-based player of the game
        record = henge.play(game, ["random", "random", "ismcts:iterations=5"], seed=seed)
        final = henge.replay(record)[-1]
        assert final.is_terminal() and sum(final.returns()) == pytest.approx(1.0)
        assert final.observation(None)["winners"] == [s for s, r in enumerate(record["returns"]) if r > 0]


def test_the_example_game_plays_in_the_terminal_with_the_generic_drawing():
    args = ["play", "threecard", "--players", "2", "--bots", "random", "--seed", "5"]
    result = CliRunner().invoke(main, args, input="draw\n" + "1\n" * 200, terminal_width=120)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "'game': 'threecard'" in out and "'hand_sizes':" in out  # the observation, dumped as it is
    assert "choose an action" in out  # the generic prompt
    assert "'sums':" in out and any(verdict in out for verdict in VERDICTS)
    assert "Traceback" not in out
    assert isinstance(renderer("threecard")({"game": "threecard"}), Pretty)


# --- broken packages ------------------------------------------------------------------------------


def test_a_broken_game_package_is_named_and_the_others_still_load(install: Installer):
    install("henge-exploding", {"exploding": "henge_exploding:PLUGIN"}, {"henge_exploding": "1 / 0\n"})
    install("henge-stringly", {"stringly": "henge_stringly:PLUGIN"}, {"henge_stringly": "PLUGIN = 'a game'\n"})
    problems = game_problems()
    assert len(problems) == 2, problems
    exploding, stringly = sorted(problems)
    assert exploding == (
        "game 'exploding' of package 'henge-exploding' could not be loaded: ZeroDivisionError: division by zero"
    )
    assert stringly == (
        "game 'stringly' of package 'henge-stringly' could not be loaded: "
        "PluginError: henge_stringly:PLUGIN is a str, not a henge GamePlugin"
    )
    for game_id, message in (("exploding", exploding), ("stringly", stringly)):
        assert game_id not in henge.list_games()
        with pytest.raises(PluginError) as raised:
            henge.game_class(game_id)
        assert str(raised.value) == message
    _the_others_still_load()
    listed = CliRunner().invoke(main, ["games"], terminal_width=200)
    assert listed.exit_code == 0
    assert "stonerush" in listed.stdout and "threecard" in listed.stdout and "exploding" not in listed.stdout
    assert sorted(listed.stderr.splitlines()) == [f"not listed: {exploding}", f"not listed: {stringly}"]


def test_a_second_package_offering_a_game_id_is_named_with_the_first(install: Installer):
    source = "from henge.core import GamePlugin\n\nPLUGIN = GamePlugin(id='stonerush', package=__name__, game='x:Y')\n"
    install("henge-rival-stonerush", {"stonerush": "henge_rival_stonerush:PLUGIN"}, {"henge_rival_stonerush": source})
    (problem,) = game_problems()
    assert problem.startswith("game id 'stonerush' is offered by two packages, ")
    assert "'henge'" in problem and "'henge-rival-stonerush'" in problem and problem.endswith(": uninstall one")
    assert "stonerush" not in henge.list_games()
    with pytest.raises(PluginError) as raised:
        henge.game_class("stonerush")
    assert str(raised.value) == problem
    _the_others_still_load(missing="stonerush")


# --- parts that do not match their interface ------------------------------------------------------

BROKEN = "from henge.core import GamePlugin\n\nPLUGIN = GamePlugin(id='broken', package=__name__, game='rules:X', {})\n"
"""A game package naming the parts given (its rules are never loaded by these tests)."""


def _broken(install: Installer, fields: str, modules: dict[str, str]) -> GamePlugin:
    sources = {"henge_broken/__init__": BROKEN.format(fields), **{f"henge_broken/{m}": s for m, s in modules.items()}}
    install("henge-broken", {"broken": "henge_broken:PLUGIN"}, sources)
    return plugin("broken")


def _refused(load: Callable[[], object]) -> str:
    with pytest.raises(PluginError) as raised:
        load()
    return str(raised.value)


def test_a_part_named_but_missing_is_named_when_it_is_first_loaded(install: Installer):
    broken = _broken(install, "bot='bot', narrator='narrate:narrate', encoder='encode'", {"narrate": "x = 1\n"})
    assert "broken" in henge.list_games() and game_problems() == []  # listing loads no part
    assert (
        _refused(broken.load_bot)
        == "game 'broken': its bot part henge_broken.bot is missing: there is no module henge_broken.bot"
    )
    assert (
        _refused(broken.load_narrator)
        == "game 'broken': its narrator part henge_broken.narrate has no narrate(before, after)"
    )
    assert _refused(broken.load_encoder).startswith("game 'broken': its encoder part henge_broken.encode is missing")
    # The bots reach the rule-based player through the same check.
    assert _refused(lambda: heuristics.knowledge("broken")) == _refused(broken.load_bot)
    decision = Decision("broken", 0, {}, [0, 1], ["a", "b"], random.Random(0))
    assert _refused(lambda: HeuristicAgent().choose(decision)) == _refused(broken.load_bot)
    _the_others_still_load()


def test_a_part_that_does_not_match_its_interface_is_named_with_what_it_lacks(install: Installer):
    modules = {
        "bot": "def choose(decision, extra):\n    return 0\n",
        "search": "def evaluate(state):\n    return []\n\ndef settled():\n    return True\n",
        "terminal": "render = 3\n\ndef describe_decision(observation):\n    return ''\n",
        "preview": "def preview(observation, seat):\n    return None\n",
        "metrics": "def game_metrics(game, history, returns, *, scale):\n    return {}\n",
        "encode": "def observation_shape(players, options):\n    return (1,)\n",
        "failing": "raise RuntimeError('no luck')\n",
    }
    fields = (
        "bot='bot', search='search', terminal='terminal', preview='preview:preview', "
        "metrics='metrics:game_metrics', encoder='encode', narrator='failing:narrate'"
    )
    broken = _broken(install, fields, modules)
    said = "game 'broken': its"
    assert (
        _refused(broken.load_bot)
        == f"{said} bot part henge_broken.bot has choose(decision, extra), not choose(decision)"
    )
    assert _refused(broken.load_search) == f"{said} search part henge_broken.search has settled(), not settled(state)"
    assert _refused(broken.load_terminal) == (
        f"{said} terminal part henge_broken.terminal has render of type int, not a function render(observation)"
    )
    assert _refused(broken.load_preview) == (
        f"{said} preview part henge_broken.preview has preview(observation, seat), "
        "not preview(observation, seat, action_text)"
    )
    assert _refused(broken.load_metrics) == (
        f"{said} metrics part henge_broken.metrics has game_metrics(game, history, returns, *, scale), "
        "not game_metrics(game, history, returns)"
    )
    assert (
        _refused(broken.load_encoder)
        == f"{said} encoder part henge_broken.encode has no observation_tensor(observation)"
    )
    assert _refused(broken.load_narrator) == (
        f"{said} narrator part henge_broken.failing could not be loaded: RuntimeError: no luck"
    )
    _the_others_still_load()


def test_listing_the_games_imports_no_part_but_the_rules():
    code = (
        "import sys, henge\n"
        "for game_id in henge.list_games():\n"
        "    henge.game_class(game_id)\n"
        "print(sorted(m for m in sys.modules if m.startswith('henge.games.') and m.count('.') == 3))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = {name.rsplit(".", 1)[1] for name in ast.literal_eval(out)}
    assert loaded and not loaded & {"bot", "search", "narrate", "terminal", "encode", "preview", "metrics"}, loaded
