"""The table page for a person, in Chromium: one screen per turn, the keyboard, rules and previews
at hand, undo, names, the bots' pace, rematches and the small comforts.

Each game is opened at 1366x768 (the board, the hand, the prompt and every legal choice inside the
window, no page scroll) and at 390x844 (one column, targets at least 24 px); Stonerush and Fightin'
are played to their ends with the keyboard alone. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import DESKTOP, PHONE, open_page, require_browser, rule_based_choice, settled, shot
from web_support import Server

import henge
from henge.agents import heuristics
from henge.games.first_druid.narrate import _personal
from henge.server.tables import games_info

require_browser()

FOCUS_BLUE = "rgb(31, 95, 214)"

pytestmark = pytest.mark.timeout(240)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(f"sqlite:///{tmp_path_factory.mktemp('ux') / 'henge.db'}")
    running.start()
    yield running
    running.stop()


def _sit(page: Any, server: Server, game_id: str, players: int, **body: Any) -> str:
    """Creates a table (this page's person at seat 0, heuristic bots elsewhere) and opens its seat."""
    bot = "heuristic" if heuristics.has_heuristic(game_id) else "random"
    body = {"game": game_id, "players": players, "bot": bot, "sit": 0, **body}
    created = page.request.post(f"{server.url}api/tables", data=body).json()
    page.goto(server.url.rstrip("/") + created["links"][0]["url"])
    return str(created["id"])


def _click_some(page: Any, rng: random.Random, clicks: int) -> None:
    for _ in range(clicks):
        if settled(page) == "over":
            return
        actions = page.locator("[data-action]")
        actions.nth(rng.randrange(actions.count())).click(force=True)


def _boxes(page: Any, selector: str) -> list[dict[str, Any]]:
    """The bounding boxes (CSS px, in the viewport) of the visible elements matching ``selector``."""
    return list(
        page.evaluate(
            """(selector) => [...document.querySelectorAll(selector)]
                 .filter((n) => n.getClientRects().length > 0)
                 .map((n) => { const r = n.getBoundingClientRect();
                   return {what: n.dataset.action || n.id || n.className.baseVal || n.className,
                           x: r.x, y: r.y, w: r.width, h: r.height}; })""",
            selector,
        )
    )


def _inside(box: dict[str, Any], viewport: dict[str, int]) -> bool:
    return (
        box["x"] >= -0.5
        and box["y"] >= -0.5
        and box["x"] + box["w"] <= viewport["width"] + 0.5
        and box["y"] + box["h"] <= viewport["height"] + 0.5
    )


# -- one screen per turn, and a phone ---------------------------------------------------------------


@pytest.mark.parametrize("game_id", henge.list_games())
def test_a_turn_fits_one_screen_and_the_page_stacks_on_a_phone(browser, server, game_id):
    """At 1366x768 the board, the hand, the prompt and every legal choice are in the window and the
    page does not scroll, and Tab reaches every choice; at 390x844 the page is one column and every
    target is 24 px or more. Spell Casting (no hand) shows no hand heading; Druid Olympics offers a trilithon only
    when one is legal; another seat's last turn is told and marked on the board."""
    page = open_page(browser, DESKTOP)
    info = next(g for g in games_info() if g["id"] == game_id)
    players = max(info["min_players"], min(3, info["max_players"]))
    _sit(page, server, game_id, players)
    rng = random.Random(5)
    marked = False
    for turn in range(6):
        if settled(page) == "over":
            break
        page.wait_for_timeout(150)  # the board's hit areas are sized after the drawing
        view = page.evaluate("Henge.lastView")
        legal = [a["text"] for a in view["legal"]]
        choices = _boxes(page, "[data-action]")
        assert choices, "it is my turn but nothing is offered"
        assert {c["what"] for c in choices} == set(legal), "every legal action, and only those, is offered"
        outside = [c for c in choices if not _inside(c, DESKTOP)]
        assert not outside, f"choices outside the window: {outside}"
        for part in ("#prompt", ".board-wrap", "#actions", "#turn"):
            assert all(_inside(b, DESKTOP) for b in _boxes(page, part)), part
        assert page.evaluate("document.documentElement.scrollHeight <= innerHeight"), "the page scrolls"
        cards = page.evaluate(f"Henge.drawing({json.dumps(game_id)}).hand(Henge.lastView.observation)")
        assert page.locator("#hand-title").is_visible() == bool(cards), "a hand heading over cards, never over none"
        if game_id == "spell_casting":
            assert cards is None and page.locator("#hand-area").is_hidden()
        if game_id == "druid_olympics":
            offered = any(t.startswith("trilithon ") for t in legal)
            assert ("choose a trilithon" in page.locator("#prompt").inner_text()) == offered
        last_turn = view.get("last_turn")
        if last_turn and last_turn["actions"]:
            told = page.locator("#last-turn").inner_text()
            assert told.startswith(f"Last turn, seat {last_turn['seat']}:"), told
            assert all(action in told for action in last_turn["actions"])
            steps = page.evaluate(
                "[...document.querySelectorAll('#board .space.last-move')]"
                ".map((n) => Number(n.style.getPropertyValue('--step')))"
            )
            assert sorted(steps) == list(range(len(steps))), "the turn's places light up one after another"
            marked = marked or len(steps) > 0
        if turn == 0:
            _tab_reaches_every_choice(page)  # board spaces too, where the game has them
        if turn == 1:
            shot(page, f"ux-{game_id}-1366x768")
        _click_some(page, rng, 1)
    if game_id == "spell_casting":
        assert marked, "another seat's last turn was never marked on the board"
    # A phone: the same page, one column.
    page.set_viewport_size(PHONE)
    settled(page)
    page.wait_for_timeout(250)
    status, board, turn_area = (_boxes(page, s)[0] for s in (".status-block", ".board-wrap", ".turn-area"))
    assert board["y"] >= status["y"] + status["h"] - 1 and turn_area["y"] >= board["y"] + board["h"] - 1
    assert board["w"] >= PHONE["width"] - 40 and turn_area["w"] >= PHONE["width"] - 40
    small = [b for b in _boxes(page, "[data-action], .toolbar button, #undo") if min(b["w"], b["h"]) < 24]
    assert not small, f"targets under 24 px on a phone: {small}"
    shot(page, f"ux-{game_id}-390x844", full_page=True)
    assert page.errors == []
    page.context.close()


# -- the keyboard alone ----------------------------------------------------------------------------


def _focused_action(page: Any) -> str | None:
    return page.evaluate("document.activeElement?.dataset?.action ?? null")


def _tab_to_a_choice(page: Any) -> None:
    for _ in range(40):
        if _focused_action(page) is not None:
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached a legal choice")


def _tab_reaches_every_choice(page: Any) -> None:
    """Tab goes through the whole page; every legal choice is on the way, and shows a focus ring."""
    wanted = {b["what"] for b in _boxes(page, "[data-action]")}
    focusable = page.evaluate("document.querySelectorAll('a, button, input, select, [tabindex]').length")
    reached: set[str] = set()
    for _ in range(focusable + 5):
        page.keyboard.press("Tab")
        action = _focused_action(page)
        if action is None:
            continue
        reached.add(action)
        ring = page.evaluate(
            """() => { const n = document.activeElement;
                 if (!n.matches(':focus-visible')) return 'no :focus-visible';
                 if (n instanceof HTMLElement) return getComputedStyle(n).outlineColor;
                 const shape = n.querySelector('rect, circle, ellipse, path');
                 return shape ? getComputedStyle(shape).stroke : 'no shape'; }"""
        )
        assert ring == FOCUS_BLUE, f"{action!r} has the focus but shows no ring: {ring}"
    assert wanted <= reached, f"Tab never reaches {wanted - reached}"


_PRESSES = """(text) => {
  const order = [...document.querySelectorAll('#board [data-action], #hand [data-action], #actions [data-action]')]
    .filter((n) => n.getClientRects().length > 0);
  const at = order.indexOf(document.activeElement);
  const want = order.findIndex((n) => n.dataset.action === text);
  return want < 0 ? 0 : (want - at + order.length) % order.length;
}"""
"""How many presses of the right arrow take the focus from where it is to ``text``."""


def _keyboard_play(page: Any, text: str, enter: bool) -> None:
    """Moves the focus to ``text`` with the arrow keys and plays it with Enter or Space."""
    _tab_to_a_choice(page)
    for _ in range(page.evaluate(_PRESSES, text)):
        page.keyboard.press("ArrowRight")
    assert _focused_action(page) == text, f"the arrow keys did not reach {text!r}"
    page.keyboard.press("Enter" if enter else " ")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game_id", "players", "table"),
    [("stonerush", 3, {"variant": "bluestones", "bot": "random"}), ("fightin", 2, {})],  # the shorter races
)
def test_a_whole_game_with_the_keyboard_alone(browser, server, game_id, players, table):
    """Tab reaches every legal choice (with a visible focus ring), the arrow keys go round them, Enter
    and Space play them, "u" undoes, "?" and "r" open the keys and the rules (Escape closes them),
    and the live region tells whose turn it is and the newest log line: a whole game, no click.
    At the end the result is in words; a rematch keeps this browser's seat."""
    page = open_page(browser, DESKTOP)
    table_id = _sit(page, server, game_id, players, **table)
    rng = random.Random(11)
    assert settled(page) == "act"
    assert page.locator("#announce").get_attribute("aria-live") == "polite"
    _tab_reaches_every_choice(page)
    page.keyboard.press("?")
    page.wait_for_selector("#help[open]")
    assert "undo" in page.locator("#help").inner_text()
    page.keyboard.press("Escape")
    page.wait_for_selector("#help:not([open])", state="attached")
    page.keyboard.press("r")
    page.wait_for_selector("#rules-pane:not([hidden]) #rules-text h2")
    page.keyboard.press("Escape")
    page.wait_for_selector("#rules-pane", state="hidden")
    undone = False
    moves = 0
    while settled(page) == "act":
        view = page.evaluate("Henge.lastView")
        assert page.title().startswith("● Your turn — ")
        announced = page.locator("#announce").inner_text()
        newest = page.locator("#log li").last.inner_text() if page.locator("#log li").count() else ""
        assert announced.startswith("Your turn.") and newest in announced, announced
        assert page.locator("#undo").is_visible() == (view["undo"] > 0)
        if view["undo"] > 0 and not undone:
            seq = view["seq"]
            page.keyboard.press("u")
            page.wait_for_function(f"Henge.lastView.seq === {seq - 1} && document.body.dataset.status === 'act'")
            undone = True
            continue
        _keyboard_play(page, rule_based_choice(page.evaluate("Henge.lastView"), rng, game_id), enter=moves % 2 == 0)
        moves += 1
        assert moves < 400, "the game does not end"
    assert undone, "undo was never offered"
    assert page.evaluate("Henge.lastView.over")
    verdict = page.locator("#verdict").inner_text()
    assert re.fullmatch(r"You won|Shared win with seats? .+|Seats? \d.* (won|shared the win)|Nobody won", verdict)
    standings = page.locator("#standings li").all_inner_texts()
    assert standings[0].startswith("you: ") and len(standings) == players
    assert "Returns" not in page.locator("#result").inner_text()
    assert not page.title().startswith("●")
    shot(page, f"ux-{game_id}-keyboard-end")
    if game_id == "stonerush":
        mine = json.loads(page.evaluate(f"localStorage.getItem('henge.seat.{table_id}')"))
        page.click("#rematch")
        page.wait_for_url(re.compile(r"/tables/(?!" + table_id + r")\w+$"))
        new_id = page.url.rsplit("/", 1)[1]
        assert json.loads(page.evaluate(f"localStorage.getItem('henge.seat.{new_id}')")) == mine
        page.wait_for_function("document.body.dataset.seat === '0'")
        assert settled(page) == "act"
        page.goto(f"{server.url}tables/{table_id}")
        page.wait_for_selector("#rematch-link")
        assert page.locator("#rematch-link").get_attribute("href") == f"/tables/{new_id}"
    assert page.errors == []
    page.context.close()


# -- rules, previews, undo, names, pace, sound, the tab's title -------------------------------------


def test_rules_previews_undo_names_pace_sound_and_title(browser, tmp_path):
    paced = Server(f"sqlite:///{tmp_path / 'henge.db'}", options=["--bot-delay", "0.5"])
    paced.start()
    try:
        page = open_page(browser, DESKTOP)
        table_id = _sit(page, paced, "stonerush", 3)
        assert settled(page) == "act"
        assert page.title().startswith("● Your turn — Stonerush")
        # The rules, fetched when first asked for: the server's fragment, as it sent it.
        rules = page.request.get(f"{paced.url}games/stonerush/rules")
        assert rules.ok
        assert page.locator("#rules-pane").is_hidden()
        page.click("#rules-button")
        page.wait_for_selector("#rules-text h2")
        same = page.evaluate(
            """(html) => { const t = document.createElement('template'); t.innerHTML = html;
                 return t.innerHTML === document.getElementById('rules-text').innerHTML; }""",
            rules.text(),
        )
        assert same, "the pane shows the server's rules fragment"
        page.click("#rules-close")
        assert page.locator("#rules-pane").is_hidden()
        page.click("#help-button")
        page.wait_for_selector("#help[open]")
        page.keyboard.press("Escape")
        page.wait_for_selector("#help:not([open])", state="attached")
        # Previews: on each choice (its title), and under the choices for the one under the pointer.
        previews = page.evaluate("Henge.lastView.previews")
        assert previews, "Stonerush previews its plays"
        text, preview = next(iter(previews.items()))
        target = page.locator(f"#hand [data-action={json.dumps(text)}], #actions [data-action={json.dumps(text)}]")
        assert preview in target.first.get_attribute("title")
        target.first.hover()
        page.wait_for_function(f"document.getElementById('preview').textContent.includes({json.dumps(preview)})")
        # The sound is off until asked for; then a tone when the turn comes back.
        assert not page.locator("#sound").is_checked()
        assert page.evaluate("Henge.beeps || 0") == 0
        page.check("#sound")
        # Undo: a play can be taken back while the turn goes on.
        hand = page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
        play = next(t for t in (a["text"] for a in page.evaluate("Henge.lastView.legal")) if t.startswith("play "))
        seq = page.evaluate("Henge.lastView.seq")
        page.click(f"[data-action={json.dumps(play)}]")
        page.wait_for_function(f"Henge.lastView.seq === {seq + 1} && document.body.dataset.status === 'act'")
        assert page.locator("#undo").is_visible()
        page.click("#undo")
        page.wait_for_function(f"Henge.lastView.seq === {seq} && Henge.lastView.undo === 0")
        assert page.locator("#undo").is_hidden()
        assert page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)") == hand
        # The bots pause before each turn; the title says whose turn it is meanwhile.
        assert page.locator("#skip-wait").is_visible() and not page.locator("#skip-wait").is_checked()
        page.click(f"[data-action={json.dumps(play)}]")
        for _ in range(12):  # done, and any discards, until the bots' turns
            page.wait_for_function("['act', 'wait'].includes(document.body.dataset.status)")
            if page.evaluate("document.body.dataset.status") == "wait":
                break
            done = page.locator('[data-action="done"]')
            (done if done.count() else page.locator("[data-action]")).first.click()
        assert page.evaluate("document.body.dataset.status") == "wait"
        assert page.title().startswith("Stonerush")
        assert settled(page) == "act"
        page.wait_for_function("Henge.beeps === 1")
        page.check("#skip-wait")
        page.wait_for_function("Henge.lastView.pace.skip === true")
        page.uncheck("#skip-wait")
        page.wait_for_function("Henge.lastView.pace.skip === false")
        # A name: shown to everybody as text, never as markup; a blank one is refused beside the play.
        odd = '<i>Ann</i> & "Bo"'
        page.fill("#name-input", odd)
        page.press("#name-input", "Enter")
        page.wait_for_function(f"Henge.lastView.table.seats[0].name === {json.dumps(odd)}")
        assert page.locator("#seats li.you .name").inner_text() == odd
        assert page.locator("#seats i").count() == 0
        watcher = open_page(browser, DESKTOP)
        watcher.goto(f"{paced.url}tables/{table_id}")
        watcher.wait_for_function("document.body.dataset.seat === 'spectator'")
        assert watcher.locator('#seats li[data-seat="0"] .name').inner_text() == odd
        assert watcher.locator("#seats i").count() == 0
        page.fill("#name-input", "   ")
        page.press("#name-input", "Enter")
        page.wait_for_selector("#error:not([hidden])")
        assert "a name is 1-24 printable characters" in page.locator("#error").inner_text()
        shot(page, "ux-names-previews")
        assert page.errors == [] and watcher.errors == []
        page.context.close()
        watcher.context.close()
    finally:
        paced.stop()


# -- the lobby and the icon ----------------------------------------------------------------------


def test_play_now_asks_the_game_the_players_and_the_variant(browser, server):
    page = open_page(browser, DESKTOP)
    page.goto(server.url)
    assert page.locator('link[rel="icon"]').get_attribute("href") == "/static/favicon.svg"
    icon = page.request.get(f"{server.url}favicon.ico")
    assert icon.ok and icon.headers["content-type"].startswith("image/svg+xml") and "<svg" in icon.text()
    page.select_option("#quick-game", "fightin")
    assert page.locator("#quick-players option").all_inner_texts() == ["2 (you and 1 bot)"]
    assert page.locator("#quick-variant-label").is_hidden()
    page.select_option("#quick-game", "stonerush")
    assert page.locator("#quick-players").input_value() == "4"
    assert page.locator("#quick-variant").input_value() == "standard"
    page.select_option("#quick-game", "spell_casting")
    assert page.locator("#quick-variant-label").is_visible()
    page.select_option("#quick-players", "3")
    page.select_option("#quick-variant", "short")
    shot(page, "ux-lobby")
    page.click("#play-bots")
    page.wait_for_url(re.compile(r"/tables/\w+$"))
    page.wait_for_function("document.body.dataset.seat === '0'")
    table = page.evaluate("Henge.data.table")
    assert table["players"] == 3 and table["options"] == {"variant": "short"}
    assert [s["kind"] for s in table["seats"]] == ["person", "bot", "bot"]
    assert page.errors == []
    page.context.close()


def test_the_log_says_you_offer_not_you_offers():
    """First Druid's log names the reader "you", with the verb agreeing."""
    assert _personal({"seat": 0}, "seat 0 offers seat 2 7d for 9n: accepted") == "you offer seat 2 7d for 9n: accepted"
    assert _personal({"seat": 2}, "seat 0 offers seat 2 7d for 9n: declined") == "seat 0 offers you 7d for 9n: declined"
