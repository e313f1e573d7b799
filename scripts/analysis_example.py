"""The worked example of docs/analysis.md: the first player's advantage in Stonerush at 3, 4 and 5
players, with the rule-based player in every seat. Plays the same games as

    henge analyze stonerush --players N --games 400 --seed 1      (N = 3, 4, 5)

draws the win share by place in the order of play with 95% Wilson intervals into
docs/analysis/stonerush-order-of-play.png and prints the figures as a Markdown table.

    .venv/bin/python scripts/analysis_example.py [--games 400] [--workers 2]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from henge.analysis import AnalysisConfig, analyze

OUT = Path(__file__).resolve().parents[1] / "docs" / "analysis" / "stonerush-order-of-play.png"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 3.6))
    print("| players | games | " + " | ".join(f"place {k}" for k in range(1, 6)) + " | capped | rounds |")
    print("|---|---|" + "---|" * 7)
    for offset, players in enumerate((3, 4, 5)):
        config = AnalysisConfig("stonerush", players, ("heuristic",), args.games, seed=args.seed)
        summary = analyze(config, workers=args.workers).summary
        places = summary["positions"]
        xs = [p["position"] + 1 + (offset - 1) * 0.22 for p in places]
        rates = [p["rate"] for p in places]
        errors = [[p["rate"] - p["low"] for p in places], [p["high"] - p["rate"] for p in places]]
        line = axes.errorbar(xs, rates, yerr=errors, fmt="o", capsize=3, label=f"{players} players")
        axes.hlines(1 / players, 0.6, players + 0.4, colors=line[0].get_color(), linestyles="dotted", linewidth=1)
        cells = [f"{p['rate']:.3f} ({p['low']:.3f}-{p['high']:.3f})" for p in places] + ["-"] * (5 - players)
        capped = summary["capped"]
        rounds = summary["rounds"]
        cells.append(f"{capped['rate']:.3f} ({capped['low']:.3f}-{capped['high']:.3f})")
        cells.append(f"{rounds['mean']:.1f} ({rounds['low']:.1f}-{rounds['high']:.1f})")
        print(f"| {players} | {summary['games']} | " + " | ".join(cells) + " |")
    axes.set_xticks(range(1, 6), [str(k) for k in range(1, 6)])
    axes.set_xlabel("place in the order of play (1: the starting player)")
    axes.set_ylabel("win share")
    axes.set_title(
        "Stonerush, rule-based players: win share by place in the order of play\n"
        "(95% Wilson intervals; dotted: the fair share)",
        fontsize=10,
    )
    axes.legend(fontsize=8)
    figure.tight_layout()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(OUT, dpi=100)
    print(f"plot: {OUT}")


if __name__ == "__main__":
    main()
