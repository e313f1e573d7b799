"""An analysis written out: ``games.csv`` (one row per game) and ``report.html``, a page that reads
offline (its plots are PNG images inside the page, its style inline: nothing is fetched).

Plots are drawn with matplotlib's Agg backend (no display needed); matplotlib is imported only
when a report is written.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from henge.analysis.core import Analysis, AnalysisConfig, Sweep
from henge.analysis.stats import figure_names, proportion
from henge.core import game_class

BASE_COLUMNS = ("index", "seed")
"""The first columns of games.csv; then agent_K and return_K per seat and :data:`GAME_COLUMNS`."""
GAME_COLUMNS = ("winners", "order", "length", "rounds", "capped", "lead_changes", "decided_at")
"""The columns after the seats', before the game's own figures."""


# --- CSV -----------------------------------------------------------------------------------------


def csv_columns(players: int, rows: Sequence[Mapping[str, Any]], *, label: bool = False) -> list[str]:
    """Returns the columns of a games CSV: index, seed, the seats, the game figures, the game's own."""
    seats = [f"agent_{k}" for k in range(players)] + [f"return_{k}" for k in range(players)]
    return [*(["label"] if label else []), *BASE_COLUMNS, *seats, *GAME_COLUMNS, *figure_names(rows)]


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(int(value))
    return str(value)


def write_csv(path: Path, players: int, rows: Sequence[Mapping[str, Any]], *, label: bool = False) -> None:
    """Writes one row per game (see :func:`csv_columns`); winners and the order of play are written ``0;2``."""
    columns = csv_columns(players, rows, label=label)
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(columns)
        for row in rows:
            cells: dict[str, Any] = {
                "label": row["label"],
                "index": row["index"],
                "seed": row["seed"],
                "winners": ";".join(str(w) for w in row["winners"]),
                "order": ";".join(str(w) for w in row["order"]),
            }
            for seat in range(players):
                cells[f"agent_{seat}"] = row["agents"][seat]
                cells[f"return_{seat}"] = row["returns"][seat]
            for name in GAME_COLUMNS[2:]:
                cells[name] = row[name]
            cells.update(row["figures"])
            writer.writerow([_cell(cells.get(column)) for column in columns])


# --- plots ---------------------------------------------------------------------------------------


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(figure: Any) -> str:
    """Returns a figure as a base64 PNG, and closes it."""
    plt = _pyplot()
    buffer = io.BytesIO()
    title = 0.45 if figure.get_suptitle() else 0.0  # inches kept free for the figure's title
    figure.tight_layout(rect=(0, 0, 1, 1 - title / figure.get_figheight()))
    figure.savefig(buffer, format="png", dpi=90)
    plt.close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _errors(rows: Sequence[Mapping[str, float]], key: str = "rate") -> list[list[float]]:
    return [[max(0.0, r[key] - r["low"]) for r in rows], [max(0.0, r["high"] - r[key]) for r in rows]]


def seat_plot(summary: Mapping[str, Any]) -> str:
    """Returns the win share by seat and by place in the order of play, with Wilson intervals and
    the fair share."""
    plt = _pyplot()
    figure, pair = plt.subplots(1, 2, figsize=(10, 3.3), sharey=True)
    panels = (("seats", "seat", "seat"), ("positions", "position", "place in the order of play (1: first player)"))
    for axes, (key, field, label) in zip(pair, panels, strict=True):
        rows = summary[key]
        names = [str(r[field] + (1 if field == "position" else 0)) for r in rows]
        axes.bar(names, [r["rate"] for r in rows], yerr=_errors(rows), capsize=4, color="#4c72b0")
        axes.axhline(
            summary["fair_share"], color="#c44e52", linestyle="--", label=f"fair share {summary['fair_share']:.3f}"
        )
        axes.set_xlabel(label)
        axes.legend(loc="upper right", fontsize=8)
    pair[0].set_ylabel("win share")
    figure.suptitle("Win share by seat and by order of play, 95% Wilson intervals")
    return _png(figure)


def histogram_plot(series: Sequence[tuple[str, Sequence[float]]], title: str) -> str:
    """Returns histograms of several figures side by side."""
    plt = _pyplot()
    figure, axes_list = plt.subplots(1, len(series), figsize=(4 * len(series), 3), squeeze=False)
    for axes, (name, values) in zip(axes_list[0], series, strict=True):
        distinct = len(set(values))
        axes.hist(values, bins=max(1, min(30, distinct)), color="#55a868", edgecolor="white")
        axes.set_xlabel(name)
        axes.set_ylabel("games")
    figure.suptitle(title)
    return _png(figure)


def category_plot(name: str, categories: Mapping[str, Mapping[str, float]]) -> str:
    """Returns a category's shares of games with Wilson intervals."""
    plt = _pyplot()
    keys = list(categories)
    rows = [categories[k] for k in keys]
    figure, axes = plt.subplots(figsize=(max(4, 1.1 * len(keys) + 2), 3))
    axes.bar(keys, [r["rate"] for r in rows], yerr=_errors(rows), capsize=4, color="#8172b2")
    axes.set_ylabel("share of games")
    axes.set_title(f"{name}, 95% Wilson intervals")
    return _png(figure)


def skill_plot(lines: Sequence[tuple[str, Sequence[Mapping[str, Any]]]], fair: float) -> str:
    """Returns the skill trace: the search bot's win share against its iteration budget."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(6, 3.4))
    for label, points in lines:
        axes.errorbar(
            [p["budget"] for p in points],
            [p["rate"] for p in points],
            yerr=_errors(points),
            marker="o",
            capsize=4,
            label=label or None,
        )
    axes.axhline(fair, color="#c44e52", linestyle="--", label=f"fair share {fair:.3f}")
    axes.set_xscale("log")
    budgets = sorted({p["budget"] for _, points in lines for p in points})
    axes.set_xticks(budgets, [str(b) for b in budgets])
    axes.minorticks_off()
    axes.set_xlabel("ismcts iterations per decision")
    axes.set_ylabel("win share of the ismcts seat")
    axes.set_title("Skill trace, 95% Wilson intervals")
    axes.legend(fontsize=8)
    return _png(figure)


# --- HTML ----------------------------------------------------------------------------------------

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.92em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f4f4f4; }
img { max-width: 100%; display: block; margin: 0.8em 0; }
p.note { color: #555; font-size: 0.9em; }
p.warning { background: #fff3cd; border: 1px solid #e0c060; padding: 0.4em 0.7em; }
code { background: #f4f4f4; padding: 0 0.2em; }
"""


def _number(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        return f"{value:.{digits}f}"
    return str(value)


def _interval(row: Mapping[str, float], key: str = "rate", digits: int = 3) -> str:
    return f"{_number(row[key], digits)} ({_number(row['low'], digits)}-{_number(row['high'], digits)})"


def _table(head: Sequence[str], body: Sequence[Sequence[Any]]) -> str:
    cells = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in body)
    return f"<table><tr>{cells}</tr>{rows}</table>"


def _image(png: str, alt: str) -> str:
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{png}">'


def _page(title: str, body: str) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>\n{body}\n</body></html>\n"
    )


def warnings_html(warnings: Sequence[str]) -> str:
    """Returns the warnings as paragraphs at the top of a report ("" for none)."""
    return "".join(f'<p class="warning">warning: {html.escape(text)}</p>\n' for text in warnings)


def _settings(config: AnalysisConfig, command: str, analysis: Analysis | None, wall: float, backend: str) -> str:
    info = game_class(config.game_id).info
    rows = [
        ("game", f"{info.name} ({config.game_id}, version {info.version})"),
        ("players", config.players),
        ("options", ", ".join(f"{k}={v}" for k, v in config.options.items()) or "defaults"),
        ("agents", ", ".join(config.tournament().agents)),
        ("games", config.games),
        ("seed", config.seed),
        ("played on", backend),
    ]
    if analysis is not None:
        games = len(analysis.rows) + len(analysis.trace_rows)
        cpu = sum(r["cpu_seconds"] for r in analysis.rows + analysis.trace_rows)
        rows.append(("time", f"{wall:.1f} s wall-clock, {cpu:.1f} processor seconds, {games / wall:.2f} games/s"))
    return f"<p>Command: <code>{html.escape(command)}</code></p>" + _table(("setting", "value"), rows)


def analysis_body(analysis: Analysis) -> str:
    """Returns the report's sections for one analysis."""
    config = analysis.config
    summary = analysis.summary
    rows = analysis.rows
    parts = ["<h2>Win share by seat and by order of play</h2>", _image(seat_plot(summary), "win share by seat")]
    parts.append(
        _table(
            ("seat / place in the order of play", "win share by seat", "win share by place (1: first player)"),
            [
                (s["seat"], _interval(s), f"{p['position'] + 1}: {_interval(p)}")
                for s, p in zip(summary["seats"], summary["positions"], strict=True)
            ],
        )
    )
    parts.append(
        '<p class="note">95% Wilson intervals over the games. A win shared by m seats counts 1/m to each. The '
        "order of play is the order in which the seats first decide (the first player first). With one agent "
        f"in every seat, a share far from the fair share {summary['fair_share']:.3f} is an advantage the rules "
        "give that seat or place.</p>"
    )
    if len(summary["agents"]) > 1:
        parts.append(
            _table(
                ("agent", "seats", "win share per seat (95% Wilson interval)"),
                [(a["agent"], a["seats"], _interval(a)) for a in summary["agents"]],
            )
        )
    outcomes = summary["outcomes"]
    capped = summary["capped"]
    parts.append("<h2>How games end</h2>")
    ends = [
        ("one winner", _interval(outcomes["outright"])),
        ("a win shared by some seats", _interval(outcomes["shared"])),
        ("a draw (every seat shares the win)", _interval(outcomes["draw"])),
        (
            f"ended by the round cap ({game_class(config.game_id).info.round_cap} rounds)",
            _interval(capped) if capped is not None else "not reported by the game",
        ),
    ]
    parts.append(_table(("outcome", "share of games (95% Wilson interval)"), ends))
    parts.append("<h2>Length</h2>")
    parts.append(
        _image(
            histogram_plot(
                [("actions (chance included)", [r["length"] for r in rows]), ("rounds", [r["rounds"] for r in rows])],
                "Game length",
            ),
            "game length and rounds",
        )
    )
    numbers = [("length in actions", summary["length"]), ("rounds", summary["rounds"])]
    if summary["lead_changes"] is not None:
        numbers += [
            ("lead changes", summary["lead_changes"]),
            ("decided at (fraction of the game)", summary["decided_at"]),
        ]
    parts.append(_numbers_table(numbers))
    if summary["lead_changes"] is not None:
        parts.append("<h2>Lead changes and decisiveness</h2>")
        parts.append(
            _image(
                histogram_plot(
                    [
                        ("lead changes", [r["lead_changes"] for r in rows]),
                        ("decided at (fraction of the game)", [r["decided_at"] for r in rows]),
                    ],
                    "Leads, by the game's position evaluation",
                ),
                "lead changes and decided point",
            )
        )
        parts.append(
            '<p class="note">The leader after each turn is the seat the game\'s position evaluation gives the best '
            "chance; a lead change is a new single leader. Decided at: the fraction of the game's actions from "
            "which the eventual winner stayed ahead to the end (1.0: only at the end).</p>"
        )
    parts.extend(_figures_section(summary, rows))
    if analysis.skill:
        parts.append("<h2>Skill trace</h2>")
        parts.append(_image(skill_plot([("", analysis.skill)], summary["fair_share"]), "skill trace"))
        parts.append(
            _table(
                ("iterations", "games", "win share of the ismcts seat (95% Wilson interval)"),
                [(p["budget"], p["games"], _interval(p)) for p in analysis.skill],
            )
        )
        parts.append(
            f'<p class="note">ismcts in one seat (each seat in turn) against {config.trace_match(1).opponents[0]} '
            "in every other seat. A share rising with the budget says skill pays in this rule set.</p>"
        )
    return "\n".join(parts)


def _numbers_table(numbers: Sequence[tuple[str, Mapping[str, float] | None]]) -> str:
    body = [
        (name, _interval(row, "mean", 3), _number(row["median"]), _number(row["min"]), _number(row["max"]))
        for name, row in numbers
        if row is not None
    ]
    return _table(("figure", "mean (95% bootstrap interval)", "median", "min", "max"), body)


def _figures_section(summary: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> list[str]:
    figures = summary["figures"]
    if not figures["numbers"] and not figures["categories"]:
        return []
    parts = ["<h2>The game's own figures</h2>"]
    numbers = figures["numbers"]
    if numbers:
        parts.append(_numbers_table(list(numbers.items())))
        names = list(numbers)
        for start in range(0, len(names), 3):
            chunk = names[start : start + 3]
            series = [(n, [float(r["figures"][n]) for r in rows if n in r["figures"]]) for n in chunk]
            parts.append(_image(histogram_plot(series, "The game's own figures"), ", ".join(chunk)))
    for name, categories in figures["categories"].items():
        parts.append(_image(category_plot(name, categories), name))
        parts.append(
            _table(
                (name, "games", "share (95% Wilson interval)"),
                [(key, int(row["count"]), _interval(row)) for key, row in categories.items()],
            )
        )
    return parts


def write_analysis(analysis: Analysis, out: Path, command: str) -> Path:
    """Writes ``games.csv`` (and ``skill_trace.csv``) and ``report.html`` into ``out``; returns the report."""
    out.mkdir(parents=True, exist_ok=True)
    config = analysis.config
    write_csv(out / "games.csv", config.players, analysis.rows)
    if analysis.trace_rows:
        write_csv(out / "skill_trace.csv", config.players, analysis.trace_rows, label=True)
    info = game_class(config.game_id).info
    title = f"{info.name}, {config.players} players: analysis of {len(analysis.rows)} games"
    body = warnings_html(analysis.warnings)
    body += _settings(config, command, analysis, analysis.wall_seconds, analysis.backend) + analysis_body(analysis)
    body += '<p class="note">Every game is a row of games.csv beside this page.</p>'
    path = out / "report.html"
    path.write_text(_page(title, body), encoding="utf-8")
    return path


# --- sweeps --------------------------------------------------------------------------------------


def value_folder(name: str, value: Any) -> str:
    """Returns the folder of one value's games in a sweep: ``name=value``, safe as a file name."""
    text = "".join(c if c.isalnum() or c in "-_." else "-" for c in str(value))
    return f"{name}={text}"


def _sweep_metrics(analyses: Sequence[Analysis]) -> list[tuple[str, list[Mapping[str, float] | None], str]]:
    """Returns (figure, per value its row, key of the estimate) for every figure compared in a sweep."""
    summaries = [a.summary for a in analyses]
    found: list[tuple[str, list[Mapping[str, float] | None], str]] = []
    players = analyses[0].config.players
    for place in range(players):
        found.append((f"win share, place {place + 1} in play", [s["positions"][place] for s in summaries], "rate"))
    found.append(("length (actions)", [s["length"] for s in summaries], "mean"))
    found.append(("rounds", [s["rounds"] for s in summaries], "mean"))
    found.append(("capped share", [s["capped"] for s in summaries], "rate"))
    found.append(("shared or drawn share", [_shared(s) for s in summaries], "rate"))
    found.append(("lead changes", [s["lead_changes"] for s in summaries], "mean"))
    found.append(("decided at", [s["decided_at"] for s in summaries], "mean"))
    names: dict[str, None] = {}
    for s in summaries:
        names.update(dict.fromkeys(s["figures"]["numbers"]))
    for name in names:
        found.append((name, [s["figures"]["numbers"].get(name) for s in summaries], "mean"))
    categories: dict[tuple[str, str], None] = {}
    for s in summaries:
        for name, counts in s["figures"]["categories"].items():
            categories.update(dict.fromkeys((name, key) for key in counts))
    for name, key in categories:
        found.append((f"{name}: {key}", [_category(s, name, key) for s in summaries], "rate"))
    for point, budget in enumerate(analyses[0].config.budgets):
        found.append((f"ismcts share at {budget} iterations", [a.skill[point] for a in analyses], "rate"))
    return [(name, rows, key) for name, rows, key in found if any(r is not None for r in rows)]


def _category(summary: Mapping[str, Any], name: str, key: str) -> Mapping[str, float] | None:
    """Returns a category's share of games, 0 where the figure was given but never took that value."""
    counts = summary["figures"]["categories"].get(name)
    if not counts:
        return None
    return counts.get(key) or proportion(0, next(iter(counts.values()))["games"])


def _shared(summary: Mapping[str, Any]) -> Mapping[str, float]:
    outcomes = summary["outcomes"]
    return proportion(outcomes["shared"]["count"] + outcomes["draw"]["count"], summary["games"])


def sweep_plot(name: str, values: Sequence[Any], metrics: Sequence[tuple[str, list[Any], str]]) -> str:
    """Returns one small plot per figure against the knob's values, with 95% intervals."""
    plt = _pyplot()
    columns = 3
    count = len(metrics)
    lines = math.ceil(count / columns)
    figure, grid = plt.subplots(lines, columns, figsize=(4.2 * columns, 2.8 * lines), squeeze=False)
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    xs = list(values) if numeric else list(range(len(values)))
    for k, (title, rows, key) in enumerate(metrics):
        axes = grid[k // columns][k % columns]
        points = [(x, r) for x, r in zip(xs, rows, strict=True) if r is not None]
        axes.errorbar(
            [x for x, _ in points],
            [r[key] for _, r in points],
            yerr=_errors([r for _, r in points], key),
            marker="o",
            capsize=3,
        )
        axes.set_title(title, fontsize=9)
        axes.set_xticks(xs, [str(v) for v in values], fontsize=8)
        axes.tick_params(labelsize=8)
    for k in range(count, lines * columns):
        grid[k // columns][k % columns].axis("off")
    figure.suptitle(f"Figures against {name} (95% intervals)")
    return _png(figure)


def write_sweep(result: Sweep, out: Path, command: str) -> Path:
    """Writes each value's games (``NAME=VALUE/games.csv``) and one ``report.html`` comparing them."""
    out.mkdir(parents=True, exist_ok=True)
    base = result.base
    info = game_class(base.game_id).info
    parts = [warnings_html(result.warnings), _settings(base, command, None, result.wall_seconds, result.backend)]
    games = sum(len(a.rows) + len(a.trace_rows) for _, runs in result.knobs for _, a in runs)
    parts.append(
        f"<p>{games} games in {result.wall_seconds:.1f} s wall-clock (values shared by knobs counted once each).</p>"
    )
    for name, runs in result.knobs:
        option = next(o for o in info.options if o.name == name)
        values = [value for value, _ in runs]
        analyses = [analysis for _, analysis in runs]
        for value, analysis in runs:
            folder = out / value_folder(name, value)
            folder.mkdir(parents=True, exist_ok=True)
            write_csv(folder / "games.csv", base.players, analysis.rows)
            if analysis.trace_rows:
                write_csv(folder / "skill_trace.csv", base.players, analysis.trace_rows, label=True)
        metrics = _sweep_metrics(analyses)
        parts.append(f"<h2>Knob <code>{html.escape(name)}</code></h2>")
        parts.append(f"<p>{html.escape(option.doc)} (standard: {html.escape(str(option.default))}).</p>")
        head = ["figure", *[f"{name}={v}" for v in values]]
        body = [[title, *[_interval(r, key) if r is not None else "-" for r in rows]] for title, rows, key in metrics]
        parts.append(_table(head, body))
        parts.append(_image(sweep_plot(name, values, metrics), f"figures against {name}"))
        if base.budgets:
            lines = [(f"{name}={value}", analysis.skill) for value, analysis in runs]
            parts.append(_image(skill_plot(lines, analyses[0].summary["fair_share"]), f"skill trace against {name}"))
        folders = ", ".join(f"<code>{html.escape(value_folder(name, v))}/games.csv</code>" for v in values)
        parts.append(f'<p class="note">Every game of each value: {folders}.</p>')
    parts.append(
        '<p class="note">Proportions: 95% Wilson intervals; means: 95% percentile bootstrap over games. '
        "Every value is played with the same game seeds.</p>"
    )
    title = f"{info.name}, {base.players} players: sweep of {', '.join(n for n, _ in result.knobs)}"
    path = out / "report.html"
    path.write_text(_page(title, "\n".join(parts)), encoding="utf-8")
    return path
