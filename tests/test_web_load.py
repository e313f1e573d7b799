"""A short load test on loopback: people acting at several tables while search bots think elsewhere.

The full one is a benchmark (``henge bench --server``); this one stops by itself within 15 seconds and
checks what must hold under load, not how fast: every action acknowledged, stored once, no error,
the bots moving, the server answering afterwards.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from henge.cli import main
from henge.server.load import serve_and_load


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_a_short_load_on_loopback_loses_nothing():
    figures = serve_and_load(seconds=6.0, tables=6, search_tables=2, bot_workers=1, seed=3)
    assert figures["errors"] == 0, figures["first_errors"]
    assert figures["acks"] >= 30, figures
    assert figures["acks_not_stored"] == 0, figures
    assert figures["search_bot_moves"] > 0, figures
    assert figures["healthy_after"] is True
    assert figures["p50_ms"] is not None and figures["p99_ms"] >= figures["p50_ms"]


def test_henge_bench_server_runs_the_load_test_within_a_minute(monkeypatch):
    import henge.server.load as load

    asked: dict[str, object] = {}

    def fake(**options: object) -> dict[str, object]:
        asked.update(options)
        return {"acks": 3, "p50_ms": 1.0}

    monkeypatch.setattr(load, "serve_and_load", fake)
    result = CliRunner().invoke(main, ["bench", "--server", "--tables", "5", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"acks": 3, "p50_ms": 1.0}
    assert (asked["seconds"], asked["tables"], asked["search_tables"]) == (30.0, 5, 2)
    refused = CliRunner().invoke(main, ["bench", "--server", "--seconds", "61"])
    assert refused.exit_code == 2 and "60 seconds at most" in refused.output
