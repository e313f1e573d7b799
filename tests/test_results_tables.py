"""The strength tables in docs/agents.md are the ones the results files give, row for row."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("strength_table", ROOT / "scripts" / "strength_table.py")
assert _spec and _spec.loader
strength_table = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(strength_table)


@pytest.mark.parametrize("command", ["table", "head-to-head"])
def test_the_table_in_the_docs_is_the_one_the_results_give(command, capsys, monkeypatch):
    monkeypatch.setattr(strength_table, "RESULTS", ROOT / "results" / "decided")
    strength_table.main([command])
    printed = capsys.readouterr().out
    rows = printed.splitlines()
    assert len(rows) > 2, f"`scripts/strength_table.py {command}` found no results"
    docs = (ROOT / "docs" / "agents.md").read_text()
    assert printed in docs, (
        f"docs/agents.md does not hold the table `python scripts/strength_table.py {command}` prints from "
        "results/decided/ (paste it in place of the old one):\n" + printed
    )


_ladder_spec = importlib.util.spec_from_file_location("ladder", ROOT / "scripts" / "ladder.py")
assert _ladder_spec and _ladder_spec.loader
ladder = importlib.util.module_from_spec(_ladder_spec)
_ladder_spec.loader.exec_module(ladder)


def test_the_ladder_in_the_docs_is_the_one_the_results_give(capsys, monkeypatch):
    monkeypatch.setattr(ladder, "RESULTS", ROOT / "results" / "ladder")
    monkeypatch.setattr(ladder, "DECIDED", ROOT / "results" / "decided")
    monkeypatch.setattr(ladder, "LENGTHS", ROOT / "results" / "ladder" / "lengths.json")
    ladder.main(["table"])
    printed = capsys.readouterr().out
    assert len(printed.splitlines()) == 2 + 12, "one row per game and player count"
    assert printed in (ROOT / "docs" / "agents.md").read_text(), (
        "docs/agents.md does not hold the table `python scripts/ladder.py table` prints (paste it in):\n" + printed
    )
