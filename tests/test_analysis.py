"""henge analyze and henge sweep: the metric functions on planted values, each game's own figures
on a real game, reproducibility across workers and Ray, the files written, bad input refused before
any game is played, and the report opening in a browser with every plot loaded."""

from __future__ import annotations

import csv
import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import henge
from henge.analysis import AnalysisConfig, analyze, sweep
from henge.analysis import core as analysis_core
from henge.analysis.command import option_value, option_values
from henge.analysis.report import csv_columns, write_analysis
from henge.analysis.stats import decided_at, lead_changes, leaders, mean_interval, summarize, wilson
from henge.cli import main
from henge.core import plugin


def _cli(args: list[str]) -> Any:
    return CliRunner().invoke(main, args, catch_exceptions=False)


def _same(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows without their timings (the only thing that may differ between runs)."""
    return [{k: v for k, v in row.items() if k != "cpu_seconds"} for row in rows]


# --- the metric functions, on planted values ------------------------------------------------------


def test_wilson_interval_matches_the_formula() -> None:
    # 5 of 10: centre 0.5, half-width z*sqrt(0.025 + z^2/400) / (1 + z^2/10), worked by hand.
    z = 1.959963984540054
    half = z * math.sqrt(0.25 / 10 + z * z / 400) / (1 + z * z / 10)
    assert wilson(5, 10) == pytest.approx((0.5 - half, 0.5 + half))
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    low, high = wilson(0, 20)
    assert low == 0.0 and high == pytest.approx(0.1611, abs=1e-4)
    assert wilson(20, 20)[1] == 1.0
    assert all(math.isnan(x) for x in wilson(0, 0))


def test_leaders_and_lead_changes() -> None:
    assert leaders([0.2, 0.5, 0.5 - 1e-12, 0.1]) == {1, 2}
    points = [frozenset(s) for s in ({0}, {0}, {1}, {0, 1}, {1}, {2}, {0, 1, 2}, {2})]
    assert lead_changes(points) == 2  # 0 -> 1 and 1 -> 2; ties are passed over
    assert lead_changes([frozenset({3})] * 4) == 0


def test_decided_at_is_where_the_winner_last_took_the_lead() -> None:
    points = [(0.0, frozenset({1})), (0.25, frozenset({0})), (0.5, frozenset({0, 1})), (0.75, frozenset({0}))]
    assert decided_at(points, [0], 2) == 0.75  # a tie at 0.5 is not ahead
    assert decided_at(points[:2], [0], 2) == 0.25
    assert decided_at(points[:1], [0], 2) == 1.0  # never ahead before the end
    everyone = [(0.0, frozenset({0, 1, 2})), (0.5, frozenset({2}))]
    assert decided_at(everyone, [2], 3) == 0.5  # all seats level is nobody ahead
    assert decided_at([(0.1, frozenset({0, 1}))], [0, 1], 3) == 0.1  # a shared win: both winners lead
    assert decided_at([(0.2, frozenset({0, 1}))], [0, 1], 2) == 1.0  # a draw: level all game, nobody ahead


def _row(returns: list[float], order: list[int], length: int, **extra: Any) -> dict[str, Any]:
    return {
        "label": "",
        "agents": ["a", "b"],
        "returns": returns,
        "order": order,
        "length": length,
        "rounds": length // 10,
        "capped": extra.pop("capped", 0),
        "lead_changes": extra.pop("lead_changes", None),
        "decided_at": extra.pop("decided_at", None),
        "figures": extra,
    }


def test_summary_of_planted_games() -> None:
    rows = [
        _row([1.0, 0.0], [0, 1], 10, capped=0, lead_changes=1, decided_at=0.5, colour="red", margin=2),
        _row([0.0, 1.0], [1, 0], 20, capped=1, lead_changes=3, decided_at=1.0, colour="blue", margin=4),
        _row([1.0, 0.0], [1, 0], 30, capped=0, lead_changes=2, decided_at=0.25, colour="red", margin=0),
        _row([0.5, 0.5], [0, 1], 40, capped=None, lead_changes=0, decided_at=1.0, colour="red"),
    ]
    summary = summarize(rows, 2, seed=7)
    assert summary["games"] == 4
    assert [s["rate"] for s in summary["seats"]] == [2.5 / 4, 1.5 / 4]
    # Order of play: the first player won game 0 (seat 0), game 1 (seat 1), lost game 2, shared game 3.
    assert [p["rate"] for p in summary["positions"]] == [2.5 / 4, 1.5 / 4]
    assert summary["positions"][0]["count"] == 2.5
    assert summary["outcomes"]["outright"]["count"] == 3
    assert summary["outcomes"]["draw"]["count"] == 1 and summary["outcomes"]["shared"]["count"] == 0
    assert summary["capped"]["count"] == 1 and summary["capped"]["games"] == 3  # a game that does not say is left out
    assert summary["capped"]["low"] == pytest.approx(wilson(1, 3)[0])
    length = summary["length"]
    assert (length["mean"], length["median"], length["min"], length["max"]) == (25.0, 25.0, 10, 40)
    assert length["low"] <= 25.0 <= length["high"] and length["low"] >= 10 and length["high"] <= 40
    assert summary["lead_changes"]["mean"] == 1.5
    assert summary["decided_at"]["mean"] == pytest.approx(0.6875)
    assert summary["figures"]["numbers"]["margin"]["mean"] == 2.0
    assert summary["figures"]["numbers"]["margin"]["count"] == 3
    colours = summary["figures"]["categories"]["colour"]
    assert colours["red"]["count"] == 3 and colours["blue"]["count"] == 1 and colours["red"]["games"] == 4
    assert summarize(rows, 2, seed=7) == summary  # seeded intervals: the same games, the same figures


def test_bootstrap_interval_is_seeded() -> None:
    values = [1.0, 5.0, 2.0, 8.0, 3.0, 9.0, 4.0]
    assert mean_interval(values, 3, "x") == mean_interval(values, 3, "x")
    mean, low, high = mean_interval(values, 3, "x")
    assert mean == pytest.approx(32 / 7) and 1.0 < low < mean < high < 9.0


# --- each game's own figures, on a real game ---------------------------------------------------------


def _finished(game_id: str, players: int, seed: int, agents: str = "heuristic") -> tuple[Any, dict[str, Any], Any]:
    game = henge.load(game_id, players)
    record = henge.play(game, [agents] * players, seed=seed)
    return game, record, henge.replay(record)[-1]


def _figures(game: Any, record: dict[str, Any]) -> dict[str, Any]:
    hook = plugin(game.info.id).load_metrics()
    assert hook is not None
    return hook(game, record["actions"], record["returns"])


def test_stonerush_figures() -> None:
    game, record, final = _finished("stonerush", 4, 3)
    figures = _figures(game, record)
    seen = final.observation(None)
    (winner,) = seen["winners"]
    colour = seen["trilithons"][winner]
    assert figures["winning_colour"] == colour
    druids = seen["druids"]
    assert figures["winner_space"] == druids[colour]
    rivals = [druids[seen["trilithons"][s]] for s in range(4) if s != winner]
    assert figures["margin"] == druids[colour] - max(rivals) > 0
    others = [space for name, space in druids.items() if name != colour]
    assert figures["others_behind"] == pytest.approx(sum(druids[colour] - s for s in others) / 4)
    assert figures["capped"] == int(max(druids.values()) < seen["track_end"])
    assert figures["rounds"] == seen["round"]


def test_fightin_figures_count_each_award_to_its_event() -> None:
    from henge.games.fightin.metrics import event_awards

    game, record, final = _finished("fightin", 2, 3)  # awards earned, won at the altar and taken by a Gonagal
    figures = _figures(game, record)
    gained = event_awards(final)
    totals = [sum(final.awards[s * 5 : s * 5 + 5]) for s in (0, 1)]
    assert [sum(g[s] for g in gained) for s in (0, 1)] == totals
    # Replayed action by action: wherever an action's record shows no Stealin', the awards it changed are
    # exactly the Fightin' and Drinkin' awards its lines announce.
    state = game.new_initial_state()
    announced = re.compile(r"seat (\d)(?: earns|'s biggest drinker wins|'s Gonagal takes) (\d+)")
    checked = everything = 0
    for action in record["actions"]:
        before = [sum(state.awards[s * 5 : s * 5 + 5]) for s in (0, 1)]
        seen = len(state.information_state(None))
        state.apply_action(action)
        lines = [text for _, text in state.information_state(None)[seen:]]
        said = [0, 0]
        for line in lines:
            found = announced.search(line)
            if found:
                said[int(found.group(1))] += int(found.group(2))
        everything += sum(said)
        if any(word in line for line in lines for word in ("thie", "steal", "scarper", "Habeas", "loot")):
            continue
        change = [sum(state.awards[s * 5 : s * 5 + 5]) - before[s] for s in (0, 1)]
        assert change == said, lines
        checked += sum(said)
    assert everything == sum(gained[0]) + sum(gained[1]) and checked > everything / 2
    winner = final.winners[0]
    margins = [g[winner] - g[1 - winner] for g in gained]
    assert [figures[f"{e}_margin"] for e in ("fightin", "drinkin", "stealin")] == margins
    assert figures["deciding_event"] == ("fightin", "drinkin", "stealin")[margins.index(max(margins))]
    assert (figures["rounds"], figures["capped"]) == (7, 0)


def test_druid_olympics_figures_count_the_turns_sat_out() -> None:
    game, record, final = _finished("druid_olympics", 3, 2)
    figures = _figures(game, record)
    seen = final.observation(None)
    # Turns owed by landing on blocks (D6), less those still owed at the end, were sat out.
    owed = Counter()
    for actor, text in final.information_state(None):
        found = re.search(r"and loses (\d) turn", text)
        if actor >= 0 and found:
            owed[actor] += int(found.group(1))
    still = {runner["seat"]: runner["lost_turns"] for runner in seen["runners"]}
    served = {seat: owed[seat] - still[seat] for seat in range(3)}
    assert figures["lost_turns"] == sum(served.values()) > 0
    winners = seen["winners"]
    assert figures["lost_turns_winner"] == sum(served[s] for s in winners) / len(winners)
    assert figures["block_landings"] == sum(1 for a, t in final.information_state(None) if a >= 0 and "block" in t)
    assert figures["rounds"] == seen["turn"] and figures["capped"] == 0


def test_first_druid_figures_name_the_winners_combinations() -> None:
    game, record, final = _finished("first_druid", 3, 2)
    figures = _figures(game, record)
    (winner,) = final.winners
    said = Counter()
    for actor, text in final.information_state(None):
        if actor == winner:
            for prefix, kind in (
                ("advances to", "advance"),
                ("wins a clan", "clan"),
                ("dresses the altar", "altar"),
                ("builds", "build"),
                ("completes trilithon", "build"),
                ("converts the clan", "convert_clan"),
                ("converts the spirit", "convert_spirit"),
                ("takes over", "take_over"),
            ):
                said[kind] += text.startswith(prefix)
    for kind in ("advance", "clan", "altar", "build", "convert_clan", "convert_spirit", "take_over"):
        assert figures[f"winner_{kind}"] == said[kind], kind
    assert figures["winner_advance"] > 0
    others = {k: v for k, v in said.items() if k != "advance"}
    assert figures["winner_main"] == max(others, key=lambda k: (others[k], -list(others).index(k)))
    assert figures["winner_druid"] == final.pos[winner]


def test_spell_casting_figures_share_the_turns_by_action() -> None:
    game, record, final = _finished("spell_casting", 3, 4)
    figures = _figures(game, record)
    # Each turn's takes (or holds) are consecutive decisions of its seat: the first names the action.
    runs = []
    current = None
    for actor, text in final.information_state(None):
        word = text.split()[0] if actor >= 0 else None
        if word == "pass":
            runs.append("pass")
            current = None
        elif word in ("take", "hold"):
            if current != actor:
                runs.append("c" if word == "hold" else "a" if text.split()[-1].startswith("in") else "b")
                current = actor
        else:
            current = None
    counted = Counter(runs)
    turns = len(runs)
    assert turns == final.turns + (1 - figures["capped"])  # the casting turn never ends
    for kind in ("a", "b", "c", "pass"):
        assert figures[f"share_{kind}"] == pytest.approx(counted[kind] / turns)
    assert sum(figures[f"winner_share_{k}"] for k in ("a", "b", "c", "pass")) == pytest.approx(1.0)


# --- reproducibility -----------------------------------------------------------------------------------


def test_same_seed_same_games_with_one_or_two_workers() -> None:
    config = AnalysisConfig("stonerush", 3, ("heuristic", "random"), 8, seed=11)
    one = analyze(config, workers=1)
    two = analyze(config, workers=2)
    assert _same(one.rows) == _same(two.rows)
    assert one.summary == two.summary
    assert [r["index"] for r in one.rows] == list(range(8))
    assert {tuple(r["agents"]) for r in one.rows[:6]} == {
        ("heuristic", "heuristic", "random"),
        ("heuristic", "random", "heuristic"),
        ("random", "heuristic", "heuristic"),
        ("heuristic", "random", "random"),
        ("random", "heuristic", "random"),
        ("random", "random", "heuristic"),
    }
    other = analyze(AnalysisConfig("stonerush", 3, ("heuristic", "random"), 8, seed=12), workers=1)
    assert _same(other.rows) != _same(one.rows)


@pytest.mark.slow
def test_ray_gives_the_numbers_of_the_process_pool() -> None:
    pytest.importorskip("ray")
    config = AnalysisConfig("fightin", 2, ("heuristic",), 4, seed=5)
    pool = analyze(config, workers=2)
    ray = analyze(config, ray_address="auto")
    assert _same(ray.rows) == _same(pool.rows)
    assert ray.summary == pool.summary
    assert ray.backend == "Ray at auto"


# --- the command line and its files ---------------------------------------------------------------


def test_analyze_writes_the_csv_and_the_report(tmp_path: Path) -> None:
    out = tmp_path / "stonerush"
    result = _cli(["analyze", "stonerush", "--players", "3", "--games", "5", "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    with (out / "games.csv").open() as handle:
        table = list(csv.DictReader(handle))
    columns = ["index", "seed", "agent_0", "agent_1", "agent_2", "return_0", "return_1", "return_2"]
    columns += ["winners", "order", "length", "rounds", "capped", "lead_changes", "decided_at"]
    columns += ["winning_colour", "winner_space", "margin", "others_behind"]
    assert list(table[0]) == columns
    assert len(table) == 5 and [int(r["index"]) for r in table] == list(range(5))
    for row in table:
        assert {row[f"agent_{k}"] for k in range(3)} == {"heuristic"}
        returns = [float(row[f"return_{k}"]) for k in range(3)]
        assert sum(returns) == pytest.approx(1.0)
        assert [int(w) for w in row["winners"].split(";")] == [k for k in range(3) if returns[k] == max(returns)]
        assert sorted(int(s) for s in row["order"].split(";")) == [0, 1, 2]
        assert int(row["length"]) > 0 and row["capped"] in ("0", "1") and 0 < float(row["decided_at"]) <= 1
    page = (out / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 5
    assert 'src="http' not in page and "href=" not in page  # nothing fetched from elsewhere
    assert "henge analyze stonerush --players 3 --games 5 --seed 0" in page
    assert "win share by seat" in result.output


def test_a_game_without_a_bot_or_figures_of_its_own(tmp_path: Path) -> None:
    config = AnalysisConfig("threecard", 2, (analysis_core.default_agent("threecard"),), 4, seed=1)
    analysis = analyze(config)
    assert config.agents == ("random",)
    assert all(r["capped"] is None and r["lead_changes"] is None and r["figures"] == {} for r in analysis.rows)
    assert all(r["rounds"] >= 1 for r in analysis.rows)
    page = write_analysis(analysis, tmp_path, "henge analyze threecard").read_text()
    assert "not reported by the game" in page and "Lead changes and decisiveness" not in page
    assert csv_columns(2, analysis.rows)[-1] == "decided_at"


def test_sweep_compares_the_values_of_an_option(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    args = ["sweep", "stonerush", "--players", "3", "--option", "variant=standard,bluestones", "--games", "3"]
    result = _cli([*args, "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    for value in ("standard", "bluestones"):
        with (out / f"variant={value}" / "games.csv").open() as handle:
            assert len(list(csv.DictReader(handle))) == 3
    page = (out / "report.html").read_text()
    assert "variant=standard" in page and "variant=bluestones" in page
    assert "win share, place 1 in play" in page and "winner_space" in page
    assert page.count("data:image/png;base64,") == 1
    # Bluestones races on 19 stones, the standard track on 30: the winner's space tells them apart.
    spaces = re.search(r"<td>winner_space</td><td>([\d.]+) [^<]*</td><td>([\d.]+) ", page)
    assert spaces is not None and (float(spaces.group(1)), float(spaces.group(2))) == (30.0, 19.0)


def test_skill_trace_plays_the_search_at_each_budget(tmp_path: Path) -> None:
    config = AnalysisConfig("fightin", 2, ("heuristic",), 2, seed=3, budgets=(1, 3), trace_games=2)
    analysis = analyze(config)
    assert [p["budget"] for p in analysis.skill] == [1, 3]
    assert [p["games"] for p in analysis.skill] == [2, 2]
    for row in analysis.trace_rows:
        assert row["label"] in ("ismcts:iterations=1:seconds=none", "ismcts:iterations=3:seconds=none")
        assert sorted(row["agents"]) == sorted([row["label"], "heuristic"])
    for point in analysis.skill:
        games = [r for r in analysis.trace_rows if r["label"] == point["bot"]]
        assert [r["agents"].index(point["bot"]) for r in games] == [0, 1]  # the search takes each seat in turn
        won = [r["returns"][r["agents"].index(point["bot"])] for r in games]
        assert point["count"] == sum(won) and point["rate"] == sum(won) / 2
    write_analysis(analysis, tmp_path, "henge analyze fightin --skill-trace")
    with (tmp_path / "skill_trace.csv").open() as handle:
        assert [r["label"] for r in csv.DictReader(handle)] == [r["label"] for r in analysis.trace_rows]


def test_search_bots_play_on_iteration_budgets() -> None:
    assert analysis_core.budgeted("ismcts:iterations=50") == "ismcts:iterations=50:seconds=none"
    assert analysis_core.budgeted("heuristic") == "heuristic"
    with pytest.raises(ValueError, match="iteration budgets"):
        analysis_core.budgeted("ismcts:seconds=2")


_BAD = [
    (["analyze", "nosuchgame"], "unknown game 'nosuchgame'"),
    (["analyze", "stonerush", "--option", "speed=3"], "stonerush has no option 'speed'; options: variant"),
    (["analyze", "stonerush", "--option", "variant=short"], "option variant of stonerush takes standard, bluestones"),
    (["analyze", "stonerush", "--option", "variant"], "write an option as NAME=VALUE"),
    (["analyze", "stonerush", "--variant", "bluestones", "--option", "variant=standard"], "give the variant once"),
    (["analyze", "stonerush", "--games", "0"], "play at least one game, not 0"),
    (["analyze", "stonerush", "--games", "-5"], "play at least one game, not -5"),
    (["analyze", "stonerush", "--players", "7"], "stonerush is for 3-5 players, not 7"),
    (["analyze", "fightin", "--players", "3"], "fightin is for 2 players, not 3"),
    (["analyze", "stonerush", "--agents", "heuristic,wizard"], "unknown bot 'wizard'"),
    (["analyze", "stonerush", "--agents", "ismcts:seconds=1"], "iteration budgets"),
    (["analyze", "stonerush", "--workers", "2", "--ray", "auto"], "--workers and --ray do not go together"),
    (["analyze", "stonerush", "--workers", "0"], "use at least one worker"),
    (["analyze", "stonerush", "--budgets", "10"], "go only with --skill-trace"),
    (["analyze", "stonerush", "--skill-trace", "--budgets", "10,x"], "write budgets as whole numbers"),
    (["sweep", "stonerush", "--option", "variant=standard"], "name an option to sweep with two or more values"),
    (["sweep", "stonerush", "--option", "variant=standard,moon"], "takes standard, bluestones, not 'moon'"),
]


@pytest.mark.parametrize(("args", "message"), _BAD, ids=[" ".join(a) for a, _ in _BAD])
def test_bad_input_is_refused_before_any_game(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_games(*_args: Any, **_kwargs: Any) -> None:
        raise AssertionError("a game was started")

    monkeypatch.setattr(analysis_core, "execute", no_games)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split()), result.output
    assert not out.exists()


def test_every_option_a_game_declares_is_read_from_its_text() -> None:
    for game_id in henge.list_games():
        info = henge.game_class(game_id).info
        for option in info.options:
            assert option_value(info, option.name, str(option.default)) == option.default
            last = option_value(info, option.name, str(option.values[-1]))
            assert last == option.values[-1] and type(last) is type(option.values[-1])
    info = henge.game_class("first_druid").info
    assert option_values(info, "colours", "cycle,red,blue,white") == ["cycle", "red,blue,white"]


def test_a_sweep_over_a_designer_knob() -> None:
    """Stonerush's track length, where the game declares it: the winner's druid finishes on the last space."""
    if "track" not in [o.name for o in henge.game_class("stonerush").info.options]:
        pytest.skip("stonerush declares no track option")
    base = AnalysisConfig("stonerush", 3, ("heuristic",), 3, seed=4)
    result = sweep(base, [("track", [12, 30])])
    ((name, runs),) = result.knobs
    assert name == "track" and [value for value, _ in runs] == [12, 30]
    short, full = (analysis for _, analysis in runs)
    assert short.config.options == {"track": 12}
    assert {r["figures"]["winner_space"] for r in short.rows if not r["capped"]} == {12}
    assert short.summary["length"]["mean"] < full.summary["length"]["mean"]


# --- the report in a browser ------------------------------------------------------------------------


def test_report_opens_in_chromium_with_every_plot(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    from browser_support import open_page, require_browser, shot

    require_browser()
    browser = request.getfixturevalue("browser")
    config = AnalysisConfig("fightin", 2, ("heuristic",), 4, seed=2, budgets=(1, 2), trace_games=2)
    report = write_analysis(analyze(config), tmp_path, "henge analyze fightin --skill-trace")
    page = open_page(browser, {"width": 1100, "height": 900})
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(("file:", "data:")) else None)
    page.goto(report.as_uri())
    page.wait_for_load_state("load")
    images = page.evaluate("Array.from(document.images).map(i => [i.alt, i.complete, i.naturalWidth])")
    names = [alt for alt, _, _ in images]
    assert "win share by seat" in names and "skill trace" in names and "deciding_event" in names
    assert len(images) == 7
    assert all(complete and width > 0 for _, complete, width in images), images
    assert outside == [] and page.errors == []
    assert page.title().startswith("Fightin'")
    shot(page, "analysis-report", full_page=True)


@pytest.mark.parametrize(
    ("game_id", "knob", "low"),
    [
        ("stonerush", "track", 12),
        ("fightin", "rounds", 3),
        ("druid_olympics", "horseshoe_sum", 5),
        ("first_druid", "hand_limit", 5),
        ("spell_casting", "components", 2),
    ],
)
def test_a_sweep_over_each_games_designer_knob(tmp_path: Path, game_id: str, knob: str, low: int) -> None:
    """Every game's knob sweeps from the command line: a value far from the standard one plays other
    games than the standard value does from the same seeds (an option the games ignored would play
    the same ones)."""
    default = next(o.default for o in henge.game_class(game_id).info.options if o.name == knob)
    out = tmp_path / "sweep"
    args = ["sweep", game_id, "--option", f"{knob}={low},{default}", "--games", "2", "--workers", "1"]
    result = _cli([*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = {}
    for value in (low, default):
        with (out / f"{knob}={value}" / "games.csv").open() as handle:
            rows[value] = list(csv.DictReader(handle))
        assert len(rows[value]) == 2
    assert [r["seed"] for r in rows[low]] == [r["seed"] for r in rows[default]]
    assert [r["length"] for r in rows[low]] != [r["length"] for r in rows[default]]
    page = (out / "report.html").read_text()
    assert f"{knob}={low}" in page and f"{knob}={default}" in page
