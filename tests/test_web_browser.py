"""The web app in a real browser: Playwright driving Debian's Chromium against `henge serve`.

Every game is played to its end by clicking legal actions; two browsers share
a table and each sees only its own hand; a reload and a server restart in the
middle of a game both resume it. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import ARTIFACTS, DESKTOP, PHONE, open_page, require_browser, rule_based_choice, settled, shot
from web_support import Server

import henge
from henge.agents import LEVELS, RULES_ONLY, heuristics
from henge.server.store import Store

require_browser()

VIEWPORT = {"width": 1360, "height": 1000}

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(f"sqlite:///{tmp_path / 'henge.db'}")
    running.start()
    yield running
    running.stop()


def _play(page: Any, rng: random.Random, *, clicks: int | None = None, game_id: str | None = None) -> int:
    """Clicks legal actions (cards, spaces or buttons) until the end or ``clicks``: at random, or
    as the game's rule-based player would where ``game_id`` has one (long games end sooner)."""
    done = 0
    sensible = game_id is not None and heuristics.has_heuristic(game_id)
    while clicks is None or done < clicks:
        if settled(page) == "over":
            break
        actions = page.locator("[data-action]")
        count = actions.count()
        assert count > 0, "it is my turn but nothing is clickable"
        if sensible:
            text = rule_based_choice(page.evaluate("Henge.lastView"), rng, str(game_id))
            target = page.locator(f"[data-action={json.dumps(text)}]")
            assert target.count() > 0, f"the legal action {text!r} is not clickable"
            target.first.click(force=True)
        else:
            actions.nth(rng.randrange(count)).click(force=True)
        done += 1
    return done


def _hand(page: Any) -> list[str]:
    return list(page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)"))


def _log(page: Any) -> list[str]:
    return list(page.locator("#log li").all_inner_texts())


def _play_against_bots(page: Any, server: Server, game_id: str) -> str:
    page.goto(server.url)
    page.select_option("#quick-game", game_id)
    if heuristics.has_heuristic(game_id):
        page.check("#level-casual")
    page.click("#play-bots")
    page.wait_for_url(re.compile(r"/tables/\w+$"))  # the seat's key is in the browser's storage, not the address
    return str(page.url.split("/tables/")[1].split("#")[0])


@pytest.mark.slow
@pytest.mark.parametrize("game_id", henge.list_games())
def test_play_each_game_against_bots_to_the_end(browser, server, game_id):
    page = open_page(browser, VIEWPORT)
    table_id = _play_against_bots(page, server, game_id)
    assert settled(page) == "act"
    board = page.locator("#board")
    for kind, count in [("outer", 30), ("colour", 30), ("sarsen", 30), ("inner", 60), ("bluestone", 19)]:
        assert board.locator(f'.space[data-space^="{kind}:"]').count() == count
    assert board.locator('.space[data-space^="trilithon:"]').count() == 5
    assert board.locator('.space[data-space="altar"]').count() == 1
    assert page.locator("#seats li.you").inner_text().startswith("seat 0: you")
    rng = random.Random(1)
    _play(page, rng, clicks=12)
    settled(page)
    shot(page, f"{game_id}-table", full_page=True)
    _play(page, rng, game_id=game_id)
    verdict = page.locator("#verdict").inner_text()
    assert re.fullmatch(r"You won|Shared win with .+|.+ (won|shared the win)|Nobody won", verdict), verdict
    assert page.locator("#result").is_visible()
    assert "The game is over" in page.locator("#turn").inner_text()
    shot(page, f"{game_id}-end", full_page=True)
    page.click("#replay-link")
    page.wait_for_selector("#hands .seat-hand")
    page.click("#last")
    page.wait_for_function("document.body.dataset.step !== '0'")
    steps = int(page.evaluate("document.body.dataset.step"))
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"document.body.dataset.step === '{steps - 1}'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"document.body.dataset.step === '{steps}'")
    assert page.locator("#hands .seat-hand").count() == page.evaluate("Henge.data.table.players")
    assert page.locator("#result").is_visible()
    shot(page, f"{game_id}-replay-end", full_page=True)
    middle = min(40, steps)  # a short game (the example game) may end before step 40
    page.goto(f"{server.url}tables/{table_id}/replay#step={middle}")
    page.wait_for_function(f"document.body.dataset.step === '{middle}'")
    shot(page, f"{game_id}-replay-step-{middle}", full_page=True)
    assert page.errors == []
    page.context.close()


def _create_in_lobby(
    page: Any, server: Server, game_id: str, players: int, variant: str | None, seats: list[str], *, keep: bool = False
) -> None:
    """Creates a table with the lobby's form (variant None: a game without variants), the creator at
    seat 0, and goes to it; ``keep``: on the lobby as it is, with the choices already made there."""
    if not keep:
        page.goto(server.url)
        page.select_option("#create-game", game_id)
    page.select_option("#create-players", str(players))
    if variant is not None:
        page.select_option("#create-variant", variant)
    for number, kind in enumerate(seats):
        page.select_option(f"#seat-{number}", kind)
    page.select_option("#create-sit", "0")
    page.click("#create-table")
    page.wait_for_selector("#go-to-table")


def test_two_people_at_one_table_see_only_their_own_hands(browser, server):
    host = open_page(browser, VIEWPORT)
    _create_in_lobby(host, server, "stonerush", 3, "bluestones", ["person", "person", "bot:random"])
    link = host.locator("#created input.link").input_value()
    assert "#seat=1&token=" in link
    host.wait_for_selector('.tables[data-status="waiting"] .your-links .link-row')
    shot(host, "lobby", full_page=True)
    host.click("#go-to-table")
    guest = open_page(browser, VIEWPORT)  # another browser context: no shared storage
    guest.goto(link)
    guest.wait_for_function("document.body.dataset.seat === '1'")
    assert guest.locator("#you").inner_text().startswith("You are seat 1")
    pages = {0: host, 1: guest}
    rng = random.Random(3)
    checked = 0
    for _ in range(60):
        # Wait until one of the two must act: nothing moves until they do.
        host.wait_for_function("document.body.dataset.status !== 'connecting'")
        mover = next((k for k, p in pages.items() if p.evaluate("document.body.dataset.status") == "act"), None)
        if mover is None:
            host.wait_for_timeout(50)
            continue
        other = pages[1 - mover]
        other.wait_for_function("['wait', 'act'].includes(document.body.dataset.status)")
        hands = {k: _hand(p) for k, p in pages.items()}
        assert hands[1 - mover] and not set(hands[0]) & set(hands[1])
        for k, p in pages.items():
            html = p.content()
            for card in hands[1 - k]:
                assert f'data-card="{card}"' not in html, f"seat {k} can see seat {1 - k}'s {card}"
        assert "online" in host.locator('#seats li[data-seat="1"]').inner_text()
        if checked == 0:
            shot(host, "stonerush-bluestones-seat0", full_page=True)
            shot(guest, "stonerush-bluestones-seat1", full_page=True)
        checked += 1
        if checked >= 6:
            break
        _play(pages[mover], rng, clicks=1)
    assert checked >= 6
    assert host.errors == [] and guest.errors == []
    host.context.close()
    guest.context.close()


def test_a_reload_or_reopening_the_page_returns_to_the_seat(browser, server):
    page = open_page(browser, VIEWPORT)
    table_id = _play_against_bots(page, server, "stonerush")
    rng = random.Random(4)
    _play(page, rng, clicks=6)
    settled(page)
    hand, log, info = _hand(page), _log(page), page.locator("#info").inner_text()
    page.reload()
    assert settled(page) == "act"
    assert (_hand(page), _log(page), page.locator("#info").inner_text()) == (hand, log, info)
    context = page.context
    page.close()
    again = context.new_page()  # the page closed and opened again, without the link
    again.goto(f"{server.url}tables/{table_id}")
    assert settled(again) == "act"
    assert again.locator("#you").inner_text().startswith("You are seat 0")
    assert _hand(again) == hand and _log(again) == log
    stranger = open_page(browser, VIEWPORT)  # somebody else, without the link, only watches
    stranger.goto(f"{server.url}tables/{table_id}")
    stranger.wait_for_function("document.body.dataset.seat === 'spectator'")
    assert _hand(stranger) == []
    _play(again, rng, clicks=3)
    context.close()
    stranger.context.close()


def test_a_server_restart_in_the_middle_of_a_game_resumes_it(browser, server):
    page = open_page(browser, VIEWPORT)
    _create_in_lobby(page, server, "stonerush", 3, "bluestones", ["person", "bot:random", "bot:random"])
    page.click("#go-to-table")
    table_id = page.url.split("/tables/")[1].split("#")[0]
    token = json.loads(page.evaluate(f"localStorage.getItem('henge.seat.{table_id}')"))["token"]
    rng = random.Random(6)
    _play(page, rng, clicks=8)
    settled(page)
    hand, log = _hand(page), _log(page)
    server.restart()  # SIGKILL: only what was stored before each acknowledgement survives
    page.wait_for_function("document.body && document.body.dataset.status === 'act'", timeout=30_000)
    assert _hand(page) == hand and _log(page) == log
    _play(page, rng)
    assert page.locator("#verdict").is_visible()
    page.context.close()
    store = Store(server.db)
    stored = store.load(table_id, with_actions=False)
    store.close()
    assert stored is not None and stored.status == "finished"
    printed = "".join(server.output)
    assert token not in printed and str(stored.seed) not in printed
    assert "GET /tables/" in printed  # the access log is on, and holds no token


def test_a_game_without_its_own_drawing_is_playable_with_the_generic_one(browser, server):
    """A new game needs no drawing of its own: the observation's fields and the legal actions do."""
    page = open_page(browser, VIEWPORT)
    page.route("**/games/stonerush/board.js", lambda route: route.fulfill(status=404, body=""))
    _create_in_lobby(page, server, "stonerush", 3, "bluestones", ["person", "bot:random", "bot:random"])
    page.click("#go-to-table")
    assert settled(page) == "act"
    assert page.evaluate("Object.keys(Henge.games)") == ["generic"]
    fields = page.locator("#info th").all_inner_texts()
    assert {"druids", "hand sizes", "discard pile", "phase"} <= set(fields)
    assert page.locator("#hand .card.legal").count() > 0  # "play 13d" lands on the card 13d
    rng = random.Random(8)
    _play(page, rng, clicks=4)
    settled(page)
    shot(page, "generic-drawing", full_page=True)
    _play(page, rng)
    assert page.locator("#verdict").is_visible()
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "1366x768"), (PHONE, "390x844")])
def test_the_lobby_offers_the_levels_weakest_first_each_with_its_line(browser, server, viewport, name):
    page = open_page(browser, viewport)
    page.goto(server.url)
    levels = page.locator("#quick-levels label.level")
    assert levels.count() == len(LEVELS)
    for k, level in enumerate(LEVELS):
        text = levels.nth(k).inner_text()
        assert text.strip().startswith(level.name) and level.plays in text
        assert levels.nth(k).is_visible()
    assert page.locator("#quick-levels input:checked").get_attribute("value") == LEVELS[0].name
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]  # nothing runs off the side
    shot(page, f"lobby-levels-{name}")
    page.select_option("#quick-game", "threecard")  # a game without a rule-based player has no levels
    assert page.locator("#quick-levels input").count() == 1
    assert page.locator("#quick-levels input:checked").get_attribute("value") == RULES_ONLY
    page.select_option("#quick-game", "stonerush")
    page.check("#level-strong")
    page.select_option("#quick-game", "fightin")  # the chosen level stays when the game changes
    assert page.locator("#quick-levels input:checked").get_attribute("value") == "strong"
    page.select_option("#quick-game", "stonerush")
    page.check(f"#level-{LEVELS[0].name}")
    page.click("#play-bots")
    page.wait_for_url(re.compile(r"/tables/\w+$"))
    table_id = page.url.split("/tables/")[1].split("#")[0]
    listed = page.evaluate("fetch('/api/tables').then((r) => r.json())")["tables"]
    seats = next(t for t in listed if t["id"] == table_id)["seats"]
    assert [s.get("bot") for s in seats[1:]] == [LEVELS[0].name] * (len(seats) - 1)
    assert page.errors == []
    page.context.close()


def test_a_game_from_another_package_is_offered_and_drawn_by_the_generic_drawing(browser, server):
    """The example game of tests/plugins names no drawing: the lobby offers it, the table page loads
    no script of its own, and the generic drawing shows its hand, its fields and its actions."""
    page = open_page(browser, VIEWPORT)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    _create_in_lobby(page, server, "threecard", 2, None, ["person", "bot:random"])
    page.click("#go-to-table")
    assert settled(page) == "act"
    assert page.evaluate("Object.keys(Henge.games)") == ["generic"]
    assert not [url for url in requested if "/games/" in url]
    assert {"hand sizes", "draw pile", "discard pile", "phase"} <= set(page.locator("#info th").all_inner_texts())
    assert len(_hand(page)) == 3
    assert page.locator('[data-action="draw"]').count() == 1  # a button: "draw" names no card
    assert page.locator('[data-action="knock"]').count() == 0  # nobody knocks in the first round
    page.locator('[data-action="draw"]').click()
    page.wait_for_function("document.body.dataset.status === 'act' && Henge.lastView.legal.length === 4")
    assert page.locator("#hand .card.legal").count() == 4  # "discard 7d" lands on the card 7d
    assert "hand_sizes: 3 3 → 4 3" in _log(page)  # the generic log: the fields that changed
    shot(page, "threecard-generic-drawing", full_page=True)
    page.locator("#hand .card.legal").first.click()
    _play(page, random.Random(9))
    assert page.locator("#verdict").is_visible()
    assert page.errors == []
    page.context.close()


def test_a_table_with_a_designers_option_from_the_lobby(browser, server):
    """The create form offers each game's designer options at their standard values; a changed one
    reaches the game (Stonerush's race ends on space 12) and the lobby's list names it."""
    page = open_page(browser, VIEWPORT)
    page.goto(server.url)
    page.select_option("#create-game", "fightin")
    assert page.locator("#create-knobs select").count() == 1 and page.locator("#knob-rounds").input_value() == "7"
    page.select_option("#create-game", "stonerush")
    assert page.locator("#knob-track").input_value() == "30" and page.locator("#knob-hand").input_value() == "4"
    assert "(standard)" in page.locator("#knob-track option:checked").inner_text()
    page.select_option("#knob-track", "12")
    shot(page, "lobby-designer-options", full_page=True)
    _create_in_lobby(page, server, "stonerush", 3, "standard", ["person", "bot:random", "bot:random"], keep=True)
    page.click("#go-to-table")
    assert settled(page) == "act"
    assert page.evaluate("Henge.lastView.observation.track_end") == 12
    assert page.locator('#board .space[data-space="sarsen:12"]').count() == 1
    page.goto(server.url)
    assert "Stonerush, 3 players, track 12" in page.locator("#table-lists").inner_text()
    assert page.errors == []
    page.context.close()


def _seat_of(page: Any) -> str:
    return str(page.evaluate("document.body.dataset.seat"))


def test_invitations_stay_private_and_the_creator_manages_the_table(browser, server):
    """The create form keeps invited seats private unless opened to the lobby; join links leave the
    address bar once read; only the creator's browser shows the creator's controls, which replace a
    link (the old one is refused) and delete the table."""
    host = open_page(browser, VIEWPORT)
    host.goto(server.url)
    host.select_option("#create-game", "stonerush")
    host.select_option("#create-players", "3")
    for number in range(3):
        host.select_option(f"#seat-{number}", "person")
    host.select_option("#create-sit", "0")
    assert host.locator("#lobby-0").is_hidden() and host.locator("#lobby-1").is_visible()  # not your own seat
    host.check("#lobby-2")
    host.click("#create-table")
    host.wait_for_selector("#go-to-table")
    links = host.locator("#created input.link").evaluate_all("inputs => inputs.map(i => i.value)")
    invite = next(link for link in links if "#seat=1&token=" in link)
    table_id = invite.split("/tables/")[1].split("#")[0]
    # The lobby offers seat 2, open to it, and never seat 1, kept for the invitee.
    stranger = open_page(browser, VIEWPORT)
    stranger.goto(server.url)
    takes = stranger.locator(f'button.take[data-table="{table_id}"]')
    offered = takes.evaluate_all("buttons => buttons.map(b => b.dataset.seat)")
    assert offered == ["2"]
    assert "invited" in stranger.locator(f'.table-row[data-table="{table_id}"]').inner_text()
    # Join links leave the address bar as soon as the page has read them.
    host.click("#go-to-table")
    host.wait_for_function("document.body.dataset.seat === '0'")
    assert host.url == f"{server.url}tables/{table_id}"
    guest = open_page(browser, VIEWPORT)
    guest.goto(invite)
    guest.wait_for_function("document.body.dataset.seat === '1'")
    assert guest.url == f"{server.url}tables/{table_id}" and "token" not in guest.evaluate("location.href")
    assert invite.split("token=")[1] in guest.evaluate(f"localStorage.getItem('henge.seat.{table_id}')")
    # Only the creator's browser shows the creator's controls.
    host.wait_for_selector("#creator-panel .creator-seat")
    assert host.locator("#creator .creator-seat").count() == 3
    stranger.goto(f"{server.url}tables/{table_id}")
    stranger.wait_for_function("document.body.dataset.seat === 'spectator'")
    assert guest.locator("#creator-panel").is_hidden() and stranger.locator("#creator-panel").is_hidden()
    shot(host, "creator-controls", full_page=True)
    host.locator("aside.side").screenshot(path=str(ARTIFACTS / "creator-controls-panel.png"))
    # A new link for seat 1: its holder now watches, the old link is refused, the new one opens it.
    host.click('#creator button.new-link[data-seat="1"]')
    guest.wait_for_function("document.body.dataset.seat === 'spectator'")
    assert "replaced this seat's link" in guest.locator("#error").inner_text()
    host.wait_for_selector('#invites input.link[value*="#seat=1&"]')
    fresh = host.locator('#invites input.link[value*="#seat=1&"]').input_value()
    assert fresh != invite
    late = open_page(browser, VIEWPORT)
    late.goto(invite)
    late.wait_for_function("document.body.dataset.seat === 'spectator'")
    assert "token is wrong or was replaced" in late.locator("#error").inner_text()
    late.goto(fresh)
    late.reload()  # goto with another fragment only changes the fragment
    late.wait_for_function("document.body.dataset.seat === '1'")
    # Deleting asks once more, then everybody at the table is told.
    host.click("#delete-table")
    assert "Really delete" in host.locator("#delete-table").inner_text()
    host.click("#delete-table")
    for page in (host, late, stranger):
        page.wait_for_function("document.body.dataset.status === 'gone'")
        assert "deleted" in page.locator("#turn").inner_text()
    assert host.evaluate(f"localStorage.getItem('henge.creator.{table_id}')") is None
    for page in (host, guest, stranger, late):
        assert page.errors == []
        page.context.close()


def test_a_stand_in_plays_for_a_person_whose_time_ran_out_until_they_take_the_seat_back(browser, tmp_path):
    server = Server(f"sqlite:///{tmp_path / 'henge.db'}", options=["--bot-delay", "0.4"])
    server.start()
    try:
        page = open_page(browser, VIEWPORT)
        page.goto(server.url)
        seats = [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
        body = {"game": "stonerush", "seats": seats, "sit": 0, "turn_limit": 1.5}
        created = page.request.post(f"{server.url}api/tables", data=body).json()
        page.goto(server.url.rstrip("/") + created["links"][0]["url"])
        assert settled(page) == "act"
        assert "you have" in page.locator("#clock").inner_text()
        page.wait_for_selector("#standin:not([hidden])", timeout=10_000)
        assert "a bot (heuristic) plays your seat" in page.locator("#standin").inner_text()
        assert page.locator("[data-action]").count() == 0
        shot(page, "stand-in", full_page=True)
        page.click("#take-back")
        page.wait_for_selector("#standin", state="hidden")
        assert settled(page) == "act"
        _play(page, random.Random(10), clicks=1)
        assert page.errors == []
        page.context.close()
    finally:
        server.stop()
