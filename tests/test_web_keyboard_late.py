"""The last turns of Druid Olympics, First Druid and Spell Casting, played to the end in Chromium with
the keyboard alone, from late positions.

Each late position is a game of the rule-based players, recorded offline and cut at the start of one
of seat 0's last turns. The cut history is written into a fresh database as a running table (seat 0 a
person with a known token, rule-based bots elsewhere); ``henge serve`` then resumes it from its stored
actions, as it does every unfinished table at start. The person's page is opened at 1366x768 and played
with Tab, the arrow keys and Enter until the verdict: the turn the record had at the cut (Druid
Olympics: a bar, disk or entry laid on a board space; Spell Casting: a move on the board), or a trade
offer composed in First Druid's composer (a card to give and one to ask for), then the rule-based
player's choices. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from browser_support import DESKTOP, open_page, require_browser, rule_based_choice, settled, shot
from web_support import Server

import henge
from henge.server.store import FINISHED, RUNNING, SeatRecord, Store
from henge.server.tables import BOT, LEAVE_BOT, PERSON, new_token, token_hash

sync_api = require_browser()

PLAYERS = 3
MOST_DECISIONS = 150
"""The most decisions seat 0 may take with the keys after the cut (the cuts leave far fewer)."""

pytestmark = pytest.mark.timeout(240)


def _lays_on_the_board(turn: list[str], _legal: list[str]) -> bool:
    return any(t.startswith(("enter ", "bar on ", "disk on ")) for t in turn)


def _moves_on_the_board(turn: list[str], _legal: list[str]) -> bool:
    return any(t.startswith(("move ", "figure ", "pull ", "push ")) for t in turn)


def _may_trade(_turn: list[str], legal: list[str]) -> bool:
    return any(t.startswith("offer seat ") for t in legal)


@dataclass(frozen=True)
class Cut:
    """Where a game's recorded history is cut: the latest start of a seat-0 turn that ``wanted``
    (given the turn's recorded actions and the legal ones at its start) and that leaves the record
    at least ``least_left`` decisions of seat 0."""

    seed: int
    least_left: int
    wanted: Callable[[list[str], list[str]], bool]
    trade: bool = False
    """Seat 0 composes a trade offer first (else it plays the turn the record has)."""


CUTS = {
    "druid_olympics": Cut(seed=3, least_left=8, wanted=_lays_on_the_board),
    "first_druid": Cut(seed=0, least_left=10, wanted=_may_trade, trade=True),
    "spell_casting": Cut(seed=2, least_left=20, wanted=_moves_on_the_board),
}


@dataclass
class Late:
    """A table stored at a late position."""

    game_id: str
    table_id: str
    token: str
    stored: list[tuple[int, str, int]]
    """The stored steps: (action, text, actor), the chance outcomes' actor being -1."""
    turn: list[str]
    """Seat 0's decisions at the cut in the record, until another seat or chance moves."""
    legal: list[str]
    """Seat 0's legal actions at the cut."""
    left: int
    """Seat 0's decisions from the cut to the end, in the record."""
    trade: bool
    """Seat 0 composes a trade offer first."""


def _late(game_id: str, cut: Cut) -> Late:
    """Plays a seeded game of the rule-based players and cuts it where ``cut`` says."""
    game = henge.load(game_id, PLAYERS)
    record = henge.play(game, ["heuristic"] * PLAYERS, seed=cut.seed)
    state = game.new_initial_state()
    actors: list[int] = []
    legal: list[list[str]] = []
    for action in record["actions"]:
        actors.append(state.current_player())
        legal.append(state.legal_action_texts() if actors[-1] == 0 else [])
        state.apply_action(action)
    texts = record["texts"]
    chosen = None
    for start in range(len(actors)):
        if actors[start] != 0 or (start > 0 and actors[start - 1] == 0):
            continue  # not the start of a turn of seat 0
        end = start
        while end < len(actors) and actors[end] == 0:
            end += 1
        left = actors[start:].count(0)
        if left >= cut.least_left and cut.wanted(texts[start:end], legal[start]):
            chosen = (start, texts[start:end], left)
    assert chosen is not None, f"no late turn of seat 0 in {game_id} seed {cut.seed} fits the cut"
    start, turn, left = chosen
    stored = list(zip(record["actions"][:start], texts[:start], actors[:start], strict=True))
    return Late(game_id, secrets.token_hex(5), new_token(), stored, turn, legal[start], left, cut.trade)


def _store(store: Store, late: Late, seed: int) -> None:
    """Writes a running table with its stored history, as the server stores tables and actions."""
    game = henge.load(late.game_id, PLAYERS)
    seats = [SeatRecord(0, PERSON, None, token_hash(late.token), True)]
    seats += [SeatRecord(k, BOT, "heuristic", None, True) for k in range(1, PLAYERS)]
    store.create_table(
        table_id=late.table_id,
        game=late.game_id,
        game_version=game.info.version,
        players=PLAYERS,
        options=game.options,
        seed=seed,
        status=RUNNING,
        seats=seats,
        on_leave=LEAVE_BOT,
    )
    store.append_actions(late.table_id, 0, late.stored)


@pytest.fixture(scope="module")
def late_tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, Late]]]:
    """A server started on a database that holds one late table per game (it resumes them at start)."""
    db = f"sqlite:///{tmp_path_factory.mktemp('late') / 'henge.db'}"
    store = Store(db)
    lates = {}
    for game_id, cut in CUTS.items():
        lates[game_id] = _late(game_id, cut)
        _store(store, lates[game_id], cut.seed)
    store.close()
    server = Server(db)
    server.start()
    yield server, lates
    server.stop()


def _focused(page: Any) -> str | None:
    return page.evaluate("document.activeElement?.dataset?.action ?? null")


_PRESSES = """(text) => {
  const order = [...document.querySelectorAll('#board [data-action], #hand [data-action], #actions [data-action]')]
    .filter((n) => n.getClientRects().length > 0);
  const at = order.indexOf(document.activeElement);
  const want = order.findIndex((n) => n.dataset.action === text);
  return want < 0 ? -1 : (want - at + order.length) % order.length;
}"""
"""How many presses of the right arrow take the focus from where it is to ``text`` (-1: it is not offered)."""

_WHERE = """() => { const n = document.activeElement;
  return n.closest('#composer') ? 'composer'
    : n.closest('#board') ? 'board' : n.closest('#hand') ? 'hand' : 'actions'; }"""
"""Where the focused choice is: a board space, a card of the hand, the trade composer, a button."""


def _play(page: Any, text: str) -> str:
    """Takes the focus to ``text`` with Tab and the arrow keys, plays it with Enter; returns where it was."""
    for _ in range(40):
        if _focused(page) is not None:
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached a legal choice")
    presses = page.evaluate(_PRESSES, text)
    assert presses >= 0, f"{text!r} is legal but nothing on the page offers it"
    for _ in range(presses):
        page.keyboard.press("ArrowRight")
    assert _focused(page) == text, f"the arrow keys did not reach {text!r}"
    where = str(page.evaluate(_WHERE))
    seq = page.evaluate("Henge.lastView.seq")
    page.keyboard.press("Enter")
    try:  # sent (the page waits for the answer), or already answered
        page.wait_for_function(f"document.body.dataset.status !== 'act' || Henge.lastView.seq > {seq}", timeout=5000)
    except sync_api.TimeoutError:
        raise AssertionError(f"Enter on {text!r} ({where}) played nothing") from None
    return where


_TRADE = ("offer seat ", "give ", "ask ", "send offer")
"""A trade offer, one step at a time: to whom, a card to give, a card to ask for, and send it."""


@pytest.mark.parametrize("game_id", list(CUTS))
def test_the_last_turns_with_the_keyboard_alone(browser, late_tables, game_id):
    """The page opens at the stored late position (seat 0 to act, its earlier actions counted, the
    legal actions those of the cut) and is played to the verdict with Tab, the arrow keys and Enter
    alone, each Enter playing its choice: board spaces, the hand's cards, First Druid's composer and
    the buttons. The stored history is then the late position, one action per key-driven decision of
    seat 0 and the bots' turns, finished with the result the page shows."""
    server, lates = late_tables
    late = lates[game_id]
    assert late.left <= MOST_DECISIONS // 2, "the cut leaves too long a game for this test"
    page = open_page(browser, DESKTOP)
    page.goto(f"{server.url}tables/{late.table_id}#seat=0&token={late.token}")
    # The table resumed at the stored position: seat 0 to act there, with what it had already done counted.
    assert settled(page) == "act"
    view = page.evaluate("Henge.lastView")
    assert view["seat"] == 0 and view["undo"] == 0
    assert view["seq"] == sum(1 for _, _, actor in late.stored if actor == 0)
    assert [a["text"] for a in view["legal"]] == late.legal
    assert page.locator("#log li").count() > 0, "the stored history is told in the log"

    rng = random.Random(CUTS[game_id].seed)
    script = [] if late.trade else list(late.turn)
    trade = list(_TRADE) if late.trade else []
    played: list[tuple[str, str]] = []
    while settled(page) == "act":
        view = page.evaluate("Henge.lastView")
        legal = [a["text"] for a in view["legal"]]
        if trade:
            text = next(t for t in legal if t.startswith(trade[0]))
            trade.pop(0)
        elif script:
            text = script.pop(0)
            assert text in legal, f"the recorded turn's {text!r} is not legal at the stored position"
        else:
            text = rule_based_choice(view, rng, game_id)
        played.append((_play(page, text), text))
        assert len(played) <= MOST_DECISIONS, "the game does not end"
    assert not script and not trade, f"the game ended before seat 0 played its opening: {played}"

    # The end, in words; the person's seat first.
    assert page.evaluate("Henge.lastView.over")
    verdict = page.locator("#verdict").inner_text()
    assert re.fullmatch(r"You won|Shared win with seats? .+|Seats? \d.* (won|shared the win)|Nobody won", verdict)
    standings = page.locator("#standings li").all_inner_texts()
    assert standings[0].startswith("you: ") and len(standings) == PLAYERS
    shot(page, f"keyboard-late-{game_id}-end")

    # Every kind of choice the turns needed was reached with the keys.
    places = {where for where, _ in played}
    if game_id == "first_druid":
        composed = [text for where, text in played if where == "composer"]
        assert [t.split(" ")[0] for t in composed[:4]] == ["offer", "give", "ask", "send"], composed
        assert "hand" in places, "no card of the hand was played"
    else:
        assert "board" in places, f"no board space was played: {played}"

    # The stored history is the late position, then what was played on the page: the game's end.
    store = Store(server.db)
    try:
        record = store.load(late.table_id)
    finally:
        store.close()
    assert record is not None and record.status == FINISHED
    assert record.actions[: len(late.stored)] == [action for action, _, _ in late.stored]
    after = record.actors[len(late.stored) :]
    assert after.count(0) == len(played), "each key-driven decision is one stored action of seat 0"
    assert any(actor > 0 for actor in after), "the bots played on after the cut"
    assert record.returns == page.evaluate("Henge.lastView.returns")
    assert page.errors == []
    page.context.close()
