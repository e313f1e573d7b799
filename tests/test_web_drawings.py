"""The board's drawings in a real browser (Playwright driving Debian's Chromium, as in
test_web_browser.py).

- Colours without hue: every piece of a player colour, and every space of the coloured ring, is
  drawn in greyscale, binarized, and its silhouette differs from every other colour's.
- Legal targets on a phone: at 390x844 every legal choice is at least 24x24 CSS pixels, a click on
  the middle of each board target lands on that target, and board targets are buttons to the
  keyboard and to screen readers.
- First Druid's trade composer: an offer built card by card from two rows of cards, withdrawn, and
  another sent, with a handful of buttons on screen instead of one per card.
- Board.highlight marks a space of the last turn.

Screenshots of each game at 390x844 and 1366x768 go to ``test-artifacts/``.
"""

from __future__ import annotations

import itertools
import random
import re
import struct
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import DESKTOP, PHONE, open_page, require_browser, rule_based_choice, settled, shot
from web_support import Server

from henge.server.board import colour_marks

require_browser()

PLAYER_COLOURS = ("white", "blue", "green", "yellow", "red")
GAMES = ("stonerush", "first_druid", "druid_olympics", "spell_casting", "fightin")
MIN_PX = 24
THRESHOLD = 128
"""Grey level (0-255) that splits a greyscale picture into dark and light."""
DIFFERENT = 0.03
"""The least share of pixels in which two colours' binarized pictures of the middle of a piece must
differ, at their best alignment: without a mark two colours that binarize alike differ in none."""

pytestmark = pytest.mark.timeout(240)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(f"sqlite:///{tmp_path_factory.mktemp('drawings') / 'henge.db'}")
    running.start()
    yield running
    running.stop()


def _table(page: Any, server: Server, game_id: str) -> None:
    """Opens a table of the game with this page at seat 0 and the rule-based bots elsewhere."""
    page.goto(server.url)
    page.select_option("#quick-game", game_id)
    page.check("#level-casual")
    page.click("#play-bots")
    page.wait_for_url(re.compile(r"/tables/\w+$"))


def _act(page: Any) -> bool:
    """Waits until this seat must act (True) or the game is over (False)."""
    return settled(page) == "act"


def _legal(page: Any) -> list[str]:
    return [a["text"] for a in page.evaluate("Henge.lastView.legal")]


def _send(page: Any, text: str) -> None:
    """Plays one legal action by clicking where the page shows it; waits for the answer."""
    seq = page.evaluate("Henge.lastView.seq")
    page.locator(f'[data-action="{text}"]').first.click(force=True)
    page.wait_for_function(f"Henge.lastView.seq > {seq} || document.body.dataset.status === 'over'")


# --- a PNG reader (8-bit RGB or RGBA, not interlaced: what Chromium's screenshots are) ---------


def _png_grey(data: bytes) -> tuple[int, int, list[list[int]]]:
    """Returns a PNG's width, height and rows of grey levels (the mean of red, green and blue)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks, header = 8, [], b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour_type in (2, 6) and interlace == 0, "an 8-bit RGB(A) picture"
    channels = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows: list[list[int]] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([sum(line[x * channels : x * channels + 3]) // 3 for x in range(width)])
        previous = line
    return width, height, rows


def _silhouette(page: Any, selector: str, centre: tuple[float, float], size: tuple[int, int]) -> list[list[bool]]:
    """Draws only the element ``selector`` on the board, in greyscale, and returns its picture
    round ``centre`` (``size`` CSS pixels) binarized: True where it is dark."""
    page.evaluate(
        """(selector) => {
            for (const node of document.querySelectorAll('[data-alone]')) node.removeAttribute('data-alone');
            document.querySelector(selector).setAttribute('data-alone', '');
            document.getElementById('board').style.filter = 'grayscale(1)';
            document.body.classList.add('drawing-alone');
        }""",
        selector,
    )
    w, h = size
    clip = {"x": round(centre[0] - w / 2), "y": round(centre[1] - h / 2), "width": w, "height": h}
    _, _, rows = _png_grey(page.screenshot(clip=clip))
    return [[level < THRESHOLD for level in row] for row in rows]


ALONE_CSS = """
body.drawing-alone #board * { visibility: hidden !important; }
body.drawing-alone #board [data-alone], body.drawing-alone #board [data-alone] * { visibility: visible !important; }
"""


def _difference(a: list[list[bool]], b: list[list[bool]]) -> float:
    """The share of pixels in which two pictures of one size differ, at their best alignment
    (shifted by up to one pixel each way: a piece may stand a fraction of a pixel off)."""
    height, width = len(a), len(a[0])
    best = 1.0
    for dx, dy in itertools.product((-1, 0, 1), repeat=2):
        differ = total = 0
        for y in range(max(0, dy), min(height, height + dy)):
            row_a, row_b = a[y], b[y - dy]
            for x in range(max(0, dx), min(width, width + dx)):
                total += 1
                differ += row_a[x] != row_b[x - dx]
        best = min(best, differ / total)
    return best


# The observation a First Druid table starts with has no druid on the board yet: the test draws
# one made from it with every seat's druid, clan, spirit and altar bar (the game's own drawing).
FIRST_DRUID_SPREAD = """() => {
    const view = Henge.lastView;
    const obs = structuredClone(view.observation);
    obs.druids = obs.colours.map((_, k) => 3 + 6 * k);
    obs.bluestones = obs.colours.map((_, k) => k);
    obs.spirits = obs.spirits.map((_, i) => (i % 6 === 2 && i / 6 < obs.players ? (i - 2) / 6 : null));
    obs.altar = obs.colours.map((_, k) => k);
    obs.trilithons[0] = { sections: 3, owner: 0 };
    Board.clear();
    const ctx = { seat: null, view: { ...view, legal: [] }, mine: false, table: view.table };
    Henge.drawing('first_druid').draw(Board, obs, ctx);
}"""


@pytest.mark.parametrize("game_id", GAMES)
def test_every_player_colour_is_told_apart_in_greyscale(browser, server, game_id):
    """Each colour's pieces (figures, disks, bars, trilithons) binarize to silhouettes that differ
    from every other colour's of the same kind; so do the spaces of the coloured ring."""
    page = open_page(browser, DESKTOP, device_scale_factor=2)
    _table(page, server, game_id)
    assert _act(page)
    shot(page, f"drawings-{game_id}-1366x768")
    if game_id == "first_druid":
        page.evaluate(FIRST_DRUID_SPREAD)
    page.add_style_tag(content=ALONE_CSS)
    page.evaluate("for (const node of document.querySelectorAll('#pieces .mine')) node.classList.remove('mine')")
    # One piece of each kind and colour, and the middle of its body (where a mark must stand).
    pieces = page.evaluate(
        """(colours) => {
            const found = {};
            for (const node of document.querySelectorAll('#pieces [data-colour]')) {
                const colour = node.dataset.colour;
                const kind = ['figure', 'disk', 'bar', 'trilithon'].find((k) => node.classList.contains(k));
                const body = node.querySelector('.piece-body');
                if (!colours.includes(colour) || !kind || !body || found[`${kind}/${colour}`]) continue;
                node.dataset.probe = `${kind}-${colour}`;
                const r = body.getBoundingClientRect();
                const side = Math.min(r.width, r.height) * 0.7;
                found[`${kind}/${colour}`] = { kind, colour, x: r.x + r.width / 2, y: r.y + r.height / 2, side };
            }
            return Object.values(found);
        }""",
        list(PLAYER_COLOURS),
    )
    kinds: dict[str, list[dict[str, Any]]] = {}
    for piece in pieces:
        kinds.setdefault(piece["kind"], []).append(piece)
    compared = 0
    for kind, members in kinds.items():
        if len(members) < 2:
            continue
        side = max(4, round(min(p["side"] for p in members)))
        pictures = {
            p["colour"]: _silhouette(page, f'[data-probe="{kind}-{p["colour"]}"]', (p["x"], p["y"]), (side, side))
            for p in members
        }
        for (one, a), (other, b) in itertools.combinations(pictures.items(), 2):
            share = _difference(a, b)
            assert share >= DIFFERENT, f"{game_id}: the {one} and {other} {kind}s look alike in greyscale ({share:.3f})"
            compared += 1
    assert compared >= 3, f"{game_id}: too few pieces of one kind in different colours to compare ({pieces})"
    if game_id == "druid_olympics":  # a runner runs to the next coloured space of its card's colour
        spots = page.evaluate(
            """(spots) => {
                const board = document.getElementById('board');
                const matrix = board.getScreenCTM();
                const side = board.getBoundingClientRect().width / 1000 * 12;
                return spots.map(([n, x, y]) => {
                    const p = new DOMPoint(x, y).matrixTransform(matrix);
                    return { n, x: p.x, y: p.y, side };
                });
            }""",
            [[n, *colour_marks(n)[1]] for n in range(1, 7)],
        )
        side = round(spots[0]["side"])
        spaces = {}
        for spot in spots:
            where = f'.space[data-space="colour:{spot["n"]}"]'
            spaces[spot["n"]] = _silhouette(page, where, (spot["x"], spot["y"]), (side, side))
        for (one, a), (other, b) in itertools.combinations(spaces.items(), 2):
            share = _difference(a, b)
            assert share >= DIFFERENT, f"coloured spaces {one} and {other} look alike in greyscale ({share:.3f})"
    assert page.errors == []
    page.context.close()


# Every action the page sends, in order (the page's socket is wrapped before its script runs).
RECORD_SENT = """
window.sentActions = [];
const originalSend = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
    try {
        const message = JSON.parse(data);
        if (message.type === 'act') window.sentActions.push(message.action);
    } catch (_e) {}
    return originalSend.call(this, data);
};
"""

# Every legal choice at least MIN_PX square; every board target a button whose middle, once
# scrolled into view, is the target itself under the pointer, and at least MIN_PX from any other's.
CHECK_TARGETS = """(least) => {
    const problems = [];
    const all = [...document.querySelectorAll('[data-action]')].filter((n) => n.getClientRects().length > 0);
    for (const node of all) {
        const r = node.getBoundingClientRect();
        if (r.width < least - 0.01 || r.height < least - 0.01) {
            problems.push(`${node.dataset.action}: ${r.width.toFixed(1)} x ${r.height.toFixed(1)} px`);
        }
    }
    const board = all.filter((n) => n.closest('#board'));
    for (const node of board) {
        node.scrollIntoView({ block: 'center', inline: 'center' });
        const r = node.getBoundingClientRect();
        const text = node.dataset.action;
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        const owner = hit ? hit.closest('[data-action]') : null;
        if (owner !== node) {
            problems.push(`${text}: its middle hits ${owner ? owner.dataset.action : hit ? hit.tagName : 'nothing'}`);
        }
        const label = node.getAttribute('aria-label') || '';
        const [tabindex, role] = [node.getAttribute('tabindex'), node.getAttribute('role')];
        if (tabindex !== '0' || role !== 'button' || !label.startsWith(text)) {
            problems.push(`${text}: not a focusable button (${tabindex}, ${role}, ${label})`);
        }
    }
    // Two targets closer than that would share the finger's spot (WCAG's 24 px target spacing).
    const middles = board.map((n) => {
        const r = n.getBoundingClientRect();
        return [n.dataset.action, r.x + r.width / 2, r.y + r.height / 2];
    });
    for (const [i, [one, x1, y1]] of middles.entries()) {
        for (const [other, x2, y2] of middles.slice(i + 1)) {
            const apart = Math.hypot(x1 - x2, y1 - y2);
            if (apart < least - 0.01) problems.push(`${one} and ${other}: ${apart.toFixed(1)} px apart`);
        }
    }
    const zoomed = document.querySelector('.board-wrap').classList.contains('board-zoomed');
    return { problems, board: board.length, zoomed };
}"""


SHOWN = """(selector) => [...document.querySelectorAll(selector)]
    .filter((n) => n.getClientRects().length)
    .map((n) => n.dataset.action)"""
"""The actions of the elements ``selector`` finds on the page and shows."""


def _click_middle(page: Any, text: str) -> None:
    """Clicks the middle of the first element showing the legal action ``text`` with the mouse, as
    a finger would, and checks that the page sent exactly that action."""
    box = page.evaluate(
        """(text) => {
            const node = [...document.querySelectorAll('[data-action]')]
                .find((n) => n.dataset.action === text && n.getClientRects().length);
            node.scrollIntoView({ block: 'center', inline: 'center' });
            const r = node.getBoundingClientRect();
            return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
        }""",
        text,
    )
    seq = page.evaluate("Henge.lastView.seq")
    page.mouse.click(box["x"], box["y"])
    page.wait_for_function(f"Henge.lastView.seq > {seq} || document.body.dataset.status === 'over'")
    assert page.evaluate("window.sentActions.at(-1)") == text


@pytest.mark.parametrize("game_id", GAMES)
def test_every_legal_target_is_24_px_and_clicked_where_it_is_on_a_phone(browser, server, game_id):
    """At 390x844, in positions with legal targets on the board (Druid Olympics' blocking round:
    some thirty spaces, the inner stones among them), every choice is at least 24 px square and the
    middle of each board target is that target; a click there, and Enter on a focused target, play
    its action."""
    page = open_page(browser, PHONE)
    page.add_init_script(RECORD_SENT)
    _table(page, server, game_id)
    rng = random.Random(5)
    with_board = 0
    for step in range(8 if game_id == "stonerush" else 40):  # Stonerush has cards and buttons only
        if not _act(page):
            break
        if step == 0 or (with_board == 0 and page.locator("#board [data-action]").count()):
            shot(page, f"drawings-{game_id}-390x844")  # as it is shown, before the checks scroll it
        result = page.evaluate(CHECK_TARGETS, MIN_PX)
        assert result["problems"] == [], f"{game_id}: {result['problems']}"
        shown = page.evaluate(SHOWN, "[data-action]")
        if result["board"]:
            with_board += 1
            on_board = page.evaluate(SHOWN, "#board [data-action]")
            if game_id == "druid_olympics" and with_board == 1:
                assert result["board"] >= 20 and result["zoomed"], "the blocking round's spaces, the board drawn larger"
                # The keyboard: a board target takes the focus and Enter plays it.
                text = on_board[len(on_board) // 2]
                seq = page.evaluate("Henge.lastView.seq")
                page.locator(f'#board [data-action="{text}"]').focus()
                page.keyboard.press("Enter")
                page.wait_for_function(f"Henge.lastView.seq > {seq}")
                assert page.evaluate("window.sentActions.at(-1)") == text
                continue
            if with_board >= 3:
                break
            _click_middle(page, rng.choice(on_board))
            continue
        # Mostly as the game's rule-based player would: it reaches choices on the board sooner.
        if rng.random() < 0.7:
            _click_middle(page, rule_based_choice(page.evaluate("Henge.lastView"), rng, game_id))
        else:
            _click_middle(page, rng.choice(shown))
    if game_id != "stonerush":
        assert with_board >= 1, f"{game_id}: no position with a legal target on the board came up"
    assert page.errors == []
    page.context.close()


def _offer_state(page: Any) -> Any:
    return page.evaluate("Henge.lastView.observation.offer")


def _trade_buttons(page: Any) -> int:
    return int(page.locator("#actions button:visible").count())


def test_first_druid_offers_are_composed_from_two_rows_of_cards(browser, server):
    """An offer to another seat is put together in the composer: a card of the hand to give, a card
    to ask for, the offer shown as it grows, then withdrawn; another one is sent and answered. A
    handful of buttons is on screen throughout, not one per card."""
    page = open_page(browser, PHONE)
    page.add_init_script(RECORD_SENT)
    _table(page, server, "first_druid")
    rng = random.Random(11)
    for _ in range(40):  # play on (never trading) until an offer may be begun
        assert _act(page)
        legal = _legal(page)
        if any(t.startswith("offer seat ") for t in legal):
            break
        _send(page, rng.choice([t for t in legal if not t.startswith(("give ", "ask "))]))
    starts = [t for t in legal if t.startswith("offer seat ")]
    assert starts, "no offer could be begun"
    composer = page.locator("#composer")
    assert composer.locator("button[data-action^='offer seat ']").count() == len(starts)
    assert composer.locator("[data-action^='ask ']").count() == 0
    to = int(starts[0].split()[-1])

    def compose(keyboard: bool) -> tuple[str, str]:
        _send(page, f"offer seat {to}")
        page.wait_for_selector("#composer.composing")
        legal = _legal(page)
        asks = [t for t in legal if t.startswith("ask ")]
        gives = [t for t in legal if t.startswith("give ")]
        # Every card to give and to ask for is a card in the composer, and no card is a button.
        assert sorted(page.evaluate(SHOWN, "#composer .give-row [data-action]")) == sorted(gives)
        assert sorted(page.evaluate(SHOWN, "#composer .ask-row [data-action]")) == sorted(asks)
        assert len(asks) > 20 and _trade_buttons(page) <= 3, "Send and Withdraw, not a wall of buttons"
        assert page.locator("#composer button:has-text('Send')").is_disabled()
        give, ask = gives[0], asks[len(asks) // 2]
        _send(page, give)
        target = page.locator(f'#composer [data-action="{ask}"]')
        if keyboard:
            seq = page.evaluate("Henge.lastView.seq")
            target.focus()
            page.keyboard.press("Enter")
            page.wait_for_function(f"Henge.lastView.seq > {seq}")
        else:
            _send(page, ask)
        offer = _offer_state(page)
        assert (offer["to"], offer["give"], offer["ask"]) == (to, [give[5:]], [ask[4:]])
        shown = page.locator("#offer-text [data-card]").evaluate_all("ns => ns.map(n => n.dataset.card)")
        assert shown == [give[5:], ask[4:]] and f"seat {to}" in page.locator("#offer-text").inner_text()
        assert page.locator('#composer [data-action="send offer"]').is_enabled()
        assert _trade_buttons(page) <= 3
        return give[5:], ask[4:]

    compose(keyboard=False)
    shot(page, "drawings-first_druid-composer-390x844")
    _send(page, "withdraw offer")
    assert _offer_state(page) is None and page.evaluate("Henge.lastView.observation.offers_made") == 1
    give, ask = compose(keyboard=True)
    _send(page, "send offer")
    answered = f"seat 0 offers seat {to} {give} for {ask}: "
    page.wait_for_function(f"Henge.lastView.observation.log.some((line) => line.startsWith({answered!r}))")
    assert page.evaluate("window.sentActions").count("send offer") == 1
    assert page.errors == []
    page.context.close()


def test_board_highlight_marks_a_space_until_the_board_is_cleared(browser, server):
    page = open_page(browser, DESKTOP)
    _table(page, server, "stonerush")
    assert _act(page)
    marked = page.evaluate(
        """() => {
            const plain = getComputedStyle(document.querySelector('.space[data-space="sarsen:6"] rect')).stroke;
            const found = Board.highlight('sarsen:5');
            const space = Board.space('sarsen:5');
            const stroke = getComputedStyle(space.querySelector('rect')).stroke;
            const missing = Board.highlight('sarsen:31');
            const before = space.classList.contains('last-move');
            Board.clear();
            return { found, missing, before, after: space.classList.contains('last-move'), changed: stroke !== plain };
        }"""
    )
    assert marked == {"found": True, "missing": False, "before": True, "after": False, "changed": True}
    page.context.close()


def test_a_shorter_stonerush_track_rings_its_last_stone_and_keeps_the_druids_on_it(browser, server):
    """The designer option ``track``: the finish ring stands on the track's last sarsen stone, the
    druids on stones up to it, and the table says where the finish is."""
    page = open_page(browser, DESKTOP)
    bots = [{"kind": "bot", "bot": "random"}] * 2
    body = {"game": "stonerush", "options": {"track": 12}, "seats": [{"kind": "person"}, *bots]}
    created = page.request.post(f"{server.url}api/tables", data=body)
    assert created.status == 201, created.text()
    page.goto(server.url.rstrip("/") + created.json()["links"][0]["url"])
    settled(page)
    drawn = page.evaluate(
        """() => {
            const ring = document.querySelector('#pieces .finish-mark');
            const at = Board.anchor('sarsen:12');
            const titles = document.querySelectorAll('#pieces [data-piece^="druid-"] title');
            const druids = [...titles].map((t) => t.textContent);
            return { ring: [+ring.getAttribute('cx'), +ring.getAttribute('cy')], at: [at.x, at.y], druids };
        }"""
    )
    assert drawn["ring"] == drawn["at"]
    spaces = [int(re.search(r" on (\d+)", title).group(1)) for title in drawn["druids"]]
    assert len(spaces) == 5 and all(1 <= space <= 12 for space in spaces)
    assert "space 12" in page.inner_text("body")
    shot(page, "stonerush-track-12-desktop")
    assert page.errors == []
    page.context.close()
