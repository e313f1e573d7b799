"""Bots' pacing: ``--bot-delay`` is paid once per bot turn, not per decision, and the seated people
may skip it.

A person plays Spell Casting (whose turns are many decisions each) against the rule-based bots. The
time the person waits between two of their turns is at most one delay per bot turn between them (and
a margin for thinking), far less than a delay per bot decision would make it; once the person asks
to skip the pause it is close to nothing, and a pause under way ends as soon as they ask.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_support import MACHINE_PACE, Seat, create, credentials, live_table, seat

from henge.agents import heuristics
from henge.core import Decision, steps_of, turns
from henge.server.app import create_app

pytestmark = pytest.mark.timeout(240)

DELAY = 1.0
"""Seconds of ``--bot-delay`` here."""
GAPS = 3
"""Waits of the person between two of their turns measured per run."""


@contextlib.contextmanager
def _served(db: str, delay: float) -> Iterator[TestClient]:
    """An app whose bots think in a thread of its own (no worker processes to start: only the pause counts)."""
    with TestClient(create_app(db, bot_delay=delay, limits=MACHINE_PACE, bot_workers=0)) as client:
        yield client


def _choose(view: dict[str, Any], rng: Any) -> int:
    legal = view["legal"]
    decision = Decision(
        game_id="spell_casting",
        seat=view["seat"],
        observation=view["observation"],
        legal_actions=[a["id"] for a in legal],
        legal_texts=[a["text"] for a in legal],
        rng=rng,
    )
    return int(heuristics.chooser("spell_casting")(decision))


@dataclass
class Waits:
    """The person's waits between their turns, and the bots' turns and decisions in those waits."""

    seconds: float = 0.0
    bot_turns: int = 0
    bot_decisions: int = 0
    gaps: int = 0


def _play(client: TestClient, table_id: str, person: Seat, waits: Waits, gaps: int, rng: random.Random) -> None:
    """Plays the person's turns (rule-based choices) and times each wait for their next turn, until
    ``gaps`` waits are measured in all or the game ends."""
    table = live_table(client, table_id)
    portal: Any = client.portal
    view = person.until_turn_or_end()
    while waits.gaps < gaps and not view["over"]:
        answer = person.act(_choose(view, rng), seq=view["seq"])
        assert answer["type"] == "ack", answer
        acted = time.monotonic()
        view = person.until_turn_or_end()
        waited = time.monotonic() - acted
        if view["over"]:
            return
        history = portal.call(lambda: table.state.history())
        steps = steps_of(table.game, history)
        done = max(k for k, step in enumerate(steps) if step.actor == 0) + 1  # after the person's last step
        between = [t for t in turns(steps) if t.start >= done]
        if not between:  # the person's turn goes on (or comes again after the dealer): no wait
            continue
        waits.seconds += waited
        waits.bot_turns += len(between)
        waits.bot_decisions += sum(t.end - t.start for t in between)
        waits.gaps += 1


def _measure(client: TestClient, gaps: int, *, skip: bool) -> Waits:
    """Measures ``gaps`` waits of a person at Spell Casting tables (another table when a game ends
    first), the person asking to skip the bots' pause or not."""
    rng = random.Random(5)
    waits = Waits()
    while waits.gaps < gaps:
        created = create(client, game="spell_casting", players=3, bot="heuristic")
        number, token = credentials(created["links"][0]["url"])
        assert number == 0
        with seat(client, created["id"], 0, token) as person:
            if skip:
                person.send({"type": "pace", "skip": True, "ref": 1})
                answer = person.until(lambda m: m["type"] in ("ack", "error"))
                assert answer == {"type": "ack", "ref": 1, "pace": {"delay": DELAY, "skip": True}}, answer
                assert person.view is not None and person.view["pace"] == {"delay": DELAY, "skip": True}
            _play(client, created["id"], person, waits, gaps, rng)
    return waits


def _spell_casting(client: TestClient) -> tuple[str, str]:
    created = create(client, game="spell_casting", players=3, bot="heuristic")
    number, token = credentials(created["links"][0]["url"])
    assert number == 0
    return created["id"], token


def test_the_bots_pause_once_per_turn_and_not_at_all_when_skipped(tmp_path):
    with _served(f"sqlite:///{tmp_path / 'h.db'}", DELAY) as client:
        paced = _measure(client, GAPS, skip=False)
        assert paced.bot_decisions >= 2 * paced.bot_turns, "the bots' turns were single decisions: no test"
        # Every bot turn paused once (the pause is at least its delay) ...
        assert paced.seconds >= 0.9 * paced.bot_turns * DELAY, paced
        # ... and only once: a margin for thinking, far below a pause per decision.
        assert paced.seconds <= paced.bot_turns * DELAY + 0.05 * paced.bot_decisions + 0.5, paced
        assert paced.seconds < 0.5 * paced.bot_decisions * DELAY, paced
        skipped = _measure(client, GAPS, skip=True)
        assert skipped.bot_turns > 0
        assert skipped.seconds < 0.5 * skipped.bot_turns * DELAY, skipped


def test_a_pause_under_way_ends_when_the_person_asks_to_skip_it(tmp_path):
    with _served(f"sqlite:///{tmp_path / 'h.db'}", 60.0) as client:
        table_id, token = _spell_casting(client)
        table = live_table(client, table_id)
        portal: Any = client.portal
        with seat(client, table_id, 0, token) as person:
            view = person.until(lambda m: m["type"] == "view")
            assert view["pace"] == {"delay": 60.0, "skip": False}
            if portal.call(lambda: table.state.current_player()) == 0:  # let the bots' turn come
                view = person.until_turn_or_end()
                while True:
                    assert person.act(view["legal"][0]["id"], seq=view["seq"])["type"] == "ack"
                    if portal.call(lambda: table.state.current_player()) != 0:
                        break
                    view = person.until_turn_or_end()
            time.sleep(0.3)
            before = portal.call(lambda: table.state.move_number())
            assert portal.call(lambda: table.state.current_player()) != 0
            started = time.monotonic()
            person.send({"type": "pace", "skip": True, "ref": 2})
            deadline = started + 20
            while portal.call(lambda: table.state.move_number()) == before:
                assert time.monotonic() < deadline, "the bots still wait"
                time.sleep(0.01)
            assert time.monotonic() - started < 5


def test_the_pause_is_skipped_only_while_every_seated_person_connected_asks(tmp_path):
    with _served(f"sqlite:///{tmp_path / 'h.db'}", 60.0) as client:
        created = create(
            client,
            game="spell_casting",
            players=3,
            seats=[{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "heuristic"}],
            sit=None,
        )
        table_id = created["id"]
        tokens = dict(credentials(link["url"]) for link in created["links"])
        table = live_table(client, table_id)
        portal: Any = client.portal
        skipping = lambda: portal.call(table.skipping)  # noqa: E731
        with seat(client, table_id, 0, tokens[0]) as first, seat(client, table_id, None) as watcher:
            first.until(lambda m: m["type"] == "view")
            watcher.until(lambda m: m["type"] == "view")
            assert not skipping()
            watcher.send({"type": "pace", "skip": True, "ref": 3})
            refused = watcher.until(lambda m: m["type"] in ("ack", "error"))
            assert refused["type"] == "error" and refused["code"] == "not_seated", refused
            for bad in ("yes", 1, None, [True]):
                first.send({"type": "pace", "skip": bad, "ref": 4})
                refused = first.until(lambda m: m["type"] in ("ack", "error"))
                assert refused["type"] == "error" and refused["code"] == "bad_message", refused
            assert not skipping()
            first.send({"type": "pace", "skip": True, "ref": 5})
            assert first.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
            assert skipping()  # the only seated person connected asks
            with seat(client, table_id, 1, tokens[1]) as second:
                second.until(lambda m: m["type"] == "view")
                assert not skipping()  # a second one who does not
                assert second.view is not None and second.view["pace"] == {"delay": 60.0, "skip": False}
                second.send({"type": "pace", "skip": True, "ref": 6})
                assert second.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
                assert skipping()
                first.send({"type": "pace", "skip": False, "ref": 7})
                assert first.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
                assert not skipping()
            first.send({"type": "pace", "skip": True, "ref": 8})
            assert first.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
            assert skipping()
            assert watcher.view is not None and watcher.view["pace"] == {"delay": 60.0, "skip": False}
