"""A short load test on loopback: people acting at several tables while search bots think elsewhere.

The full one is a benchmark (``henge bench --server``); this one stops by itself within 15 seconds and
checks what must hold under load, not how fast: every action acknowledged, stored once, no error,
the bots moving, the server answering afterwards.
"""

from __future__ import annotations

import pytest

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
