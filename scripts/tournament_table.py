"""Prints a Markdown table row per agent from saved tournament results (``henge tournament --out``).

Usage: python scripts/tournament_table.py results/*.json
"""

from __future__ import annotations

import json
import sys


def rows(path: str) -> list[str]:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    config = data["config"]
    pairing = " vs ".join(config["agents"])
    out = []
    for entry in data["summary"]:
        out.append(
            f"| {config['game_id']} | {config['players']} | {pairing} | {config['games']} | {entry['agent']} "
            f"| {entry['win_rate']:.3f} | {entry['ci_low']:.3f}-{entry['ci_high']:.3f} | {entry['elo']:.0f} "
            f"| {entry['cpu_seconds_per_decision']:.4f} |"
        )
    return out


def main(paths: list[str]) -> None:
    print("| game | players | pairing | games | agent | win rate per seat | 95% CI | Elo | cpu s/decision |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in paths:
        for row in rows(path):
            print(row)


if __name__ == "__main__":
    main(sys.argv[1:])
