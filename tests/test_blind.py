"""Hand-written players that cannot see a rule change: every rule-based player and search evaluation
declares the games and options it was written for, the declarations are true of the games, and
``henge analyze``, ``henge sweep`` and ``henge tournament`` warn (first in their output, and in the
report or the JSON) when a run changes an option such a player in the lineup does not declare or
plays a game it was not written for; never for a declared option or a lineup that reads only the rules."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

import henge
from henge.agents import heuristics
from henge.agents.blind import RULES_ONLY, blind_spots, changed_options, evaluation_blind_spot
from henge.analysis import AnalysisConfig, analyze, sweep
from henge.cli import main
from henge.core import ENTRY_POINT_GROUP, game_problems, plugin, reload_games
from henge.core.parts import mismatch

SHIPPED = ("druid_olympics", "fightin", "first_druid", "spell_casting", "stonerush")


def _cli(args: list[str]) -> Any:
    return CliRunner().invoke(main, args, catch_exceptions=False)


def _warnings(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("warning: ")]


def _report_warnings(report: Path) -> int:
    return report.read_text(encoding="utf-8").count('<p class="warning">')


# --- the declarations ----------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", henge.list_games())
def test_every_declaration_names_the_game_and_options_it_has(game_id: str) -> None:
    """Every part that declares what it was written for names real options of the game it plays, and a
    game henge ships declares it in both of its hand-written parts, its own id among the games."""
    descriptor = plugin(game_id)
    options = {option.name for option in henge.game_class(game_id).info.options}
    known = heuristics.knowledge(game_id)
    declared = [w for w in (known.guide_written_for, known.evaluate_written_for) if w is not None]
    for written in declared:
        if written.options is not None:
            assert set(written.options) <= options, (written.module, set(written.options) - options)
            assert len(set(written.options)) == len(written.options), written.module
    if game_id in SHIPPED:
        assert descriptor.bot is not None and descriptor.search is not None
        assert [w.part for w in declared] == ["bot", "search"]
        for written in declared:
            assert written.games == (game_id,) and written.options is not None, written.module
            assert written.module == f"henge.games.{game_id}.{written.part}"


def test_the_declarations_say_what_each_part_reads() -> None:
    """What the code was read to understand: the cases where a part plays as under the standard rule."""
    understood = {
        g: (heuristics.knowledge(g).guide_written_for, heuristics.knowledge(g).evaluate_written_for) for g in SHIPPED
    }
    bot, search = understood["stonerush"]
    assert bot is not None and search is not None
    assert "hand" not in (bot.options or ()) and "hand" in (search.options or ())
    bot, search = understood["spell_casting"]
    assert bot is not None and search is not None
    assert bot.options == () and set(search.options or ()) == {"variant", "components"}


def test_a_declaration_of_the_wrong_kind_is_refused_by_the_parts_check() -> None:
    def choose(decision: Any) -> int:
        return 0

    assert mismatch("bot", SimpleNamespace(choose=choose, GAMES=("stonerush",), OPTIONS=("track",))) is None
    assert mismatch("bot", SimpleNamespace(choose=choose, OPTIONS="track")) == (
        "has OPTIONS of type str, not a tuple of names"
    )
    assert mismatch("bot", SimpleNamespace(choose=choose, GAMES=["stonerush"])) == (
        "has GAMES of type list, not a tuple of names"
    )
    assert mismatch("search", SimpleNamespace(evaluate=choose, GAMES=("x", 1))) == (
        "has GAMES of type tuple, not a tuple of names"
    )
    assert (
        mismatch("search", SimpleNamespace(evaluate=choose, SEARCH=(1,))) == "has SEARCH of type tuple, not a mapping"
    )


# --- which runs warn -----------------------------------------------------------------------------


def test_changed_options_are_those_off_their_standard_value_and_those_swept() -> None:
    assert changed_options("stonerush", {"track": 30, "hand": 5, "variant": "standard"}) == ["hand"]
    assert changed_options("stonerush", {"track": 30}, swept=["track"]) == ["track"]
    assert changed_options("stonerush", {}) == []


def test_a_warning_names_the_bot_the_part_the_option_and_what_to_use() -> None:
    (warning,) = blind_spots("stonerush", ["heuristic", "random"], {"hand": 5})
    assert warning.startswith("heuristic: the rule-based player (henge.games.stonerush.bot) ")
    assert "option hand" in warning and RULES_ONLY in warning
    # ismcts leans on both parts: only its guide does not know the hand size.
    (warning,) = blind_spots("stonerush", ["ismcts:iterations=5", "ismcts:iterations=9"], {"hand": 5})
    assert warning.startswith("ismcts: its guide, the rule-based player (henge.games.stonerush.bot) ")
    both = blind_spots("spell_casting", ["heuristic", "ismcts"], {"variant": "short"}, swept=["components"])
    assert len(both) == 2 and all("options variant, components" in w for w in both)
    assert [w.split(":")[0] for w in both] == ["heuristic", "ismcts"]
    # A level leans on what its bot for the game leans on, and the warning names the level.
    levels = blind_spots("stonerush", ["beginner", "casual", "strong"], {"hand": 5})
    assert [w.split(":")[0] for w in levels] == [
        "beginner (a level, played by heuristic)",
        "casual (a level, played by heuristic)",
        "strong (a level, played by ismcts)",
    ]


@pytest.mark.parametrize(
    ("game_id", "agents", "options", "swept"),
    [
        ("stonerush", ["heuristic", "ismcts"], {"track": 20, "variant": "standard"}, ["track"]),  # declared
        ("stonerush", ["heuristic"], {"hand": 4}, []),  # the standard value: nothing changed
        ("stonerush", ["random", "policy:net.npz", RULES_ONLY], {"hand": 5}, ["hand"]),  # rules-agnostic
        ("fightin", ["heuristic", "ismcts"], {"rounds": 3}, ["rounds"]),
        ("druid_olympics", ["heuristic", "ismcts"], {"horseshoe_sum": 7}, []),
        ("first_druid", ["heuristic", "ismcts"], {"hand_limit": 6, "colours": "red,blue,white"}, []),
    ],
)
def test_no_warning_for_declared_options_or_a_lineup_that_reads_only_the_rules(
    game_id: str, agents: list[str], options: dict[str, Any], swept: list[str]
) -> None:
    assert blind_spots(game_id, agents, options, swept) == []


# --- henge analyze, henge sweep, henge tournament ------------------------------------------------


def test_analyze_warns_first_and_in_its_report(tmp_path: Path) -> None:
    args = ["analyze", "stonerush", "--option", "hand=5", "--games", "2", "--workers", "1"]
    result = _cli([*args, "--out", str(tmp_path / "a")])
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.startswith("warning: heuristic: the rule-based player") and "option hand" in first
    assert _warnings(result.output) == [first]
    assert _report_warnings(tmp_path / "a" / "report.html") == 1
    config = AnalysisConfig("stonerush", 3, ("heuristic",), 1, options={"hand": 5})
    assert analyze(config).warnings == [first.removeprefix("warning: ")]


def test_analyze_does_not_warn_for_a_declared_option_or_a_rules_only_lineup(tmp_path: Path) -> None:
    declared = _cli(["analyze", "stonerush", "-o", "track=20", "-g", "2", "-w", "1", "--out", str(tmp_path / "d")])
    lineup = ["analyze", "stonerush", "-o", "hand=5", "-a", "random", "-g", "2", "-w", "1"]
    agnostic = _cli([*lineup, "--out", str(tmp_path / "r")])
    for result, out in ((declared, "d"), (agnostic, "r")):
        assert result.exit_code == 0, result.output
        assert _warnings(result.output) == [] and _report_warnings(tmp_path / out / "report.html") == 0


def test_analyze_counts_the_skill_traces_search_in_the_lineup() -> None:
    config = AnalysisConfig("spell_casting", 3, ("random",), 1, options={"components": 3}, budgets=(1,))
    assert [w.split(":")[0] for w in config.warnings()] == ["ismcts", "heuristic"]


def test_sweep_warns_over_an_undeclared_knob_and_not_over_a_declared_one(tmp_path: Path) -> None:
    swept = _cli(["sweep", "stonerush", "-o", "hand=3,4", "-g", "2", "-w", "1", "--out", str(tmp_path / "s")])
    assert swept.exit_code == 0, swept.output
    (warning,) = _warnings(swept.output)
    assert swept.output.startswith(warning) and "option hand" in warning and RULES_ONLY in warning
    assert _report_warnings(tmp_path / "s" / "report.html") == 1
    declared = _cli(["sweep", "stonerush", "-o", "track=20,25", "-g", "2", "-w", "1", "--out", str(tmp_path / "t")])
    assert declared.exit_code == 0, declared.output
    assert _warnings(declared.output) == [] and _report_warnings(tmp_path / "t" / "report.html") == 0
    base = AnalysisConfig("stonerush", 3, ("heuristic",), 1)
    assert len(sweep(base, [("hand", [3, 4])]).warnings) == 1


def test_tournament_warns_and_saves_the_warnings_in_its_json(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    args = ["tournament", "spell_casting", "-v", "short", "-a", "heuristic,random", "-g", "2", "-w", "1"]
    result = _cli([*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    (warning,) = _warnings(result.output)
    assert result.output.startswith(warning)
    assert json.loads(out.read_text())["warnings"] == [warning.removeprefix("warning: ")]
    plain = _cli(["tournament", "spell_casting", "-a", "heuristic,random", "-g", "2", "-w", "1", "--out", str(out)])
    assert _warnings(plain.output) == [] and json.loads(out.read_text())["warnings"] == []


# --- a game its players were not written for ------------------------------------------------------

RESKIN = {
    "henge_test_reskin/__init__": (
        '"""Stone Rush under another name, reusing its rule-based player and evaluation."""\n'
        "from henge.core import GamePlugin\n\n"
        'PLUGIN = GamePlugin(id="reskin", package=__name__, game="rules:Reskin", bot="bot", search="search")\n'
    ),
    "henge_test_reskin/rules": (
        "import dataclasses\n\nfrom henge.games.stonerush.rules import Stonerush\n\n\n"
        "class Reskin(Stonerush):\n"
        '    info = dataclasses.replace(Stonerush.info, id="reskin", name="Reskin")\n'
    ),
    "henge_test_reskin/bot": "from henge.games.stonerush.bot import GAMES, OPTIONS, choose  # noqa: F401\n",
    "henge_test_reskin/search": "from henge.games.stonerush.search import GAMES, OPTIONS, evaluate  # noqa: F401\n",
}


@pytest.fixture
def reskin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Yields the id of a game installed for this test only (through its own dist-info): Stone Rush's rules
    under another id, whose bot and search parts are Stone Rush's."""
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    info = tmp_path / "site" / "henge_test_reskin-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: henge-test-reskin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\nreskin = henge_test_reskin:PLUGIN\n")
    for module, source in RESKIN.items():
        path = tmp_path / "site" / f"{module}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    reload_games()
    yield "reskin"
    monkeypatch.undo()
    for module in RESKIN:
        sys.modules.pop(module.replace("/", ".").removesuffix(".__init__"), None)
    reload_games()
    assert game_problems() == [] and "reskin" not in henge.list_games()


def test_a_game_played_by_another_games_players_is_warned_of(reskin: str, tmp_path: Path) -> None:
    assert game_problems() == [] and reskin in henge.list_games()
    spots = blind_spots(reskin, ["ismcts", "heuristic"], {})
    assert spots == [
        f"ismcts: its guide, the rule-based player (henge.games.stonerush.bot) was written for stonerush, "
        f"not {reskin}; use {RULES_ONLY}, which reads only the rules",
        f"ismcts: its evaluation (henge.games.stonerush.search) was written for stonerush, "
        f"not {reskin}; use {RULES_ONLY}, which reads only the rules",
        f"heuristic: the rule-based player (henge.games.stonerush.bot) was written for stonerush, "
        f"not {reskin}; use {RULES_ONLY}, which reads only the rules",
    ]
    lead = (
        "lead changes and decided at: the evaluation that reads the lead (henge.games.stonerush.search) "
        f"was written for stonerush, not {reskin}"
    )
    result = _cli(["analyze", reskin, "--games", "2", "--workers", "1", "--out", str(tmp_path / "a")])
    assert result.exit_code == 0, result.output
    assert _warnings(result.output) == [f"warning: {spots[2]}", f"warning: {lead}"]
    assert result.output.startswith("warning: ")
    assert _report_warnings(tmp_path / "a" / "report.html") == 2
    swept = ["sweep", reskin, "-o", "track=20,25", "-g", "2", "-w", "1", "--out", str(tmp_path / "s")]
    result = _cli(swept)
    assert result.exit_code == 0, result.output
    assert _warnings(result.output) == [f"warning: {spots[2]}", f"warning: {lead}"]
    assert _report_warnings(tmp_path / "s" / "report.html") == 2
    # A lineup that reads only the rules plays the game as it is; only the lead figures lean on the evaluation.
    assert blind_spots(reskin, ["random"], {"hand": 5}) == []
    assert AnalysisConfig(reskin, 3, ("random",), 1).warnings() == [lead]
    assert evaluation_blind_spot("stonerush", {"hand": 5}, ["track"]) is None
