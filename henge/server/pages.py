"""The HTML pages: lobby, table and replay. Small server-rendered shells; the browser fills them.

Pages carry only public facts (games, bots, the board, a table's id and
seats). Hands and other secrets reach a browser only over its seat's
WebSocket, as that seat's observation.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from henge import box
from henge.agents import agent_names
from henge.core import plugin
from henge.server.board import FILL, board_svg
from henge.server.tables import games_info, levels_info

STATUS_TITLES = {
    "waiting": "Open tables",
    "running": "Being played",
    "finished": "Finished",
    "broken": "Closed (stored by another version of the rules)",
}


def _json_script(element_id: str, data: Any) -> str:
    # No "<" at all inside the script: a name like "<!--<script>" must not change how HTML reads it.
    text = json.dumps(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script id="{element_id}" type="application/json">{text}</script>'


def _box_data() -> dict[str, Any]:
    return {"colours": list(box.COLOURS), "player_colours": list(box.PLAYER_COLOURS), "fill": FILL}


def has_drawing(game_id: str) -> bool:
    """Returns True if the game's descriptor names a drawing script of its own (served at ``/games/<id>/board.js``)."""
    return plugin(game_id).board_js is not None


def _scripts(game_id: str, page_script: str) -> list[str]:
    scripts = ["/static/henge.js", "/static/board.js", "/static/generic.js"]
    if has_drawing(game_id):
        scripts.append(f"/games/{game_id}/board.js")
    scripts.append(f"/static/{page_script}")
    return scripts


def _page(title: str, body: str, scripts: list[str], *, data: dict[str, Any], tools: str = "") -> str:
    tags = "\n".join(f'<script src="{escape(s)}"></script>' for s in scripts)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/henge.css">
</head>
<body>
<header class="top"><a class="brand" href="/">henge</a><span class="subtitle">{escape(title)}</span>{tools}</header>
{body}
{_json_script("henge-data", data)}
{tags}
</body>
</html>
"""


def _seat_summary(seats: list[dict[str, Any]]) -> str:
    words = []
    for seat in seats:
        if seat["kind"] == "bot":
            words.append(f"bot ({seat['bot']})")
        elif seat["claimed"]:
            words.append("person")
        else:
            words.append("open seat" if seat.get("lobby") else "invited")
    return ", ".join(words)


def _takeable(seat: dict[str, Any], status: str) -> bool:
    """A free person seat its table's creator opened to the lobby (an invitee's seat is not)."""
    free = seat["kind"] == "person" and not seat["claimed"]
    return free and bool(seat.get("lobby")) and status in ("waiting", "running")


def table_rows(summaries: list[dict[str, Any]], names: dict[str, str]) -> str:
    """Returns the lobby's lists of open, running and finished tables as HTML."""
    sections = []
    for status, title in STATUS_TITLES.items():
        rows = [t for t in summaries if t["status"] == status]
        items = []
        for table in rows:
            table_id = escape(table["id"])
            variant = table["options"].get("variant")
            what = f"{escape(names.get(table['game'], table['game']))}, {table['players']} players"
            if variant and variant != "standard":
                what += f", {escape(str(variant))}"
            for name, value in table["options"].items():  # a designer's knob is stored only off its standard value
                if name not in ("variant", "colours"):
                    what += f", {escape(str(name))} {escape(str(value))}"
            label = {"finished": "final table", "broken": "why closed"}.get(status, "watch")
            links = [f'<a href="/tables/{table_id}">{label}</a>']
            if status == "finished":
                links.append(f'<a href="/tables/{table_id}/replay">replay</a>')
            for seat in table["seats"]:
                if _takeable(seat, status):
                    links.append(
                        f'<button class="take" data-table="{table_id}" data-seat="{seat["seat"]}">'
                        f"take seat {seat['seat']}</button>"
                    )
            result = ""
            if table["returns"]:
                best = max(table["returns"])
                winners = [str(k) for k, r in enumerate(table["returns"]) if r == best and best > 0]
                result = f" · won by seat {', '.join(winners)}" if winners else ""
            free = " ".join(str(s["seat"]) for s in table["seats"] if s["kind"] == "person" and not s["claimed"])
            items.append(
                f'<li class="table-row" data-table="{table_id}" data-status="{status}" data-free="{free}">'
                f'<span class="what">{what}</span> <span class="seats">{escape(_seat_summary(table["seats"]))}</span>'
                f'<span class="outcome">{escape(result)}</span> <span class="links">{" ".join(links)}</span>'
                f'<span class="your-links" data-table="{table_id}"></span></li>'
            )
        listing = "\n".join(items) or '<li class="empty">none</li>'
        sections.append(f'<section class="tables" data-status="{status}"><h2>{title}</h2><ul>{listing}</ul></section>')
    return "\n".join(sections)


def lobby_page(summaries: list[dict[str, Any]]) -> str:
    """Returns the lobby: play against bots, create a table, the tables."""
    games = games_info()
    names = {g["id"]: g["name"] for g in games}
    options = "".join(f'<option value="{escape(g["id"])}">{escape(g["name"])}</option>' for g in games)
    body = f"""
<main class="lobby">
<section class="quick">
  <h2>Play now</h2>
  <form id="quick-form">
    <label>game <select name="game" id="quick-game">{options}</select></label>
    <label>players <select name="players" id="quick-players"></select></label>
    <label id="quick-variant-label">variant <select name="variant" id="quick-variant"></select></label>
    <fieldset id="quick-levels" class="levels"><legend>against bots at</legend></fieldset>
    <button type="submit" id="play-bots" class="primary">Play against bots</button>
  </form>
</section>
<section class="create">
  <h2>Create a table</h2>
  <form id="create-form">
    <label>game <select name="game" id="create-game">{options}</select></label>
    <label>players <select name="players" id="create-players"></select></label>
    <label id="variant-label">variant <select name="variant" id="create-variant"></select></label>
    <div id="create-knobs" class="knob-choices" hidden></div>
    <div id="create-seats" class="seat-choices"></div>
    <label>you sit at <select name="sit" id="create-sit"></select></label>
    <label>when a person leaves <select name="on_leave" id="create-leave">
      <option value="bot">a bot takes the seat</option>
      <option value="open">the seat opens to the lobby</option>
    </select></label>
    <button type="submit" id="create-table">Create table</button>
  </form>
  <div id="created" class="created" hidden></div>
  <p class="error" id="lobby-error" hidden></p>
</section>
<div id="table-lists">{table_rows(summaries, names)}</div>
<section id="your-tables" class="tables" hidden><h2>Your abandoned tables</h2><ul id="your-tables-list"></ul></section>
</main>"""
    return _page(
        "the lobby",
        body,
        ["/static/henge.js", "/static/lobby.js"],
        data={"games": games, "bots": agent_names(), "levels": levels_info(), "box": _box_data()},
    )


def table_page(info: dict[str, Any]) -> str:
    """Returns a table's page: the board, the hand, the actions, the seats and the log."""
    game_id = info["game"]
    scripts = _scripts(game_id, "table.js")
    abandoned = (
        '<p class="notice" id="abandoned">This table was abandoned: nobody sat at it and nothing happened for too '
        "long, so it left the lobby and its bots stopped. A person with a seat's link picks the game up again.</p>"
        if info["status"] == "abandoned"
        else ""
    )
    body = f"""
<main class="table-page live" id="table">
<section class="status-block">
  {abandoned}
  <div class="status-line"><span id="you"></span> <span id="turn"></span> <span id="clock"></span>
    <button type="button" id="undo" hidden title="take back your last action of this turn (u)">Undo</button></div>
  <p id="standin" class="notice" hidden></p>
</section>
<div class="board-wrap">{board_svg()}</div>
<section class="turn-area" aria-label="your move">
  <div id="prompt" class="prompt"></div>
  <p id="last-turn" class="last-turn" hidden></p>
  <div class="hand-area" id="hand-area"><h3 id="hand-title">your hand</h3><div id="hand" class="hand"></div></div>
  <div id="actions" class="actions"></div>
  <p id="preview" class="preview"></p>
  <p id="error" class="error" role="alert" hidden></p>
  <div id="result" class="result" hidden></div>
</section>
<aside class="side">
  <section><h3>Seats</h3><ul id="seats" class="seat-list"></ul>
    <form id="name-form" class="name-form" hidden>
      <label for="name-input">your name</label>
      <input id="name-input" name="name" maxlength="24" autocomplete="nickname" placeholder="1-24 characters">
      <button type="submit" id="name-save">Set</button>
    </form>
    <div id="invites"></div>
    <div id="seat-actions"></div></section>
  <section id="creator-panel" hidden><h3>Your table</h3><div id="creator"></div></section>
  <section><h3>The table</h3><div id="info" class="info"></div></section>
  <section><h3>Log</h3><ol id="log" class="log"></ol></section>
</aside>
<aside id="rules-pane" class="rules-pane" hidden aria-label="rules" tabindex="-1">
  <div class="pane-head"><h2>Rules of {escape(info["name"])}</h2>
    <button type="button" id="rules-close" title="close (Escape)">Close</button></div>
  <div id="rules-text" class="rules-text">loading…</div>
</aside>
<div id="announce" class="visually-hidden" aria-live="polite" role="status"></div>
</main>
<dialog id="help" class="help" aria-labelledby="help-title">
  <h2 id="help-title">Keys</h2>
  <dl class="keys">
    <dt><kbd>Tab</kbd> / <kbd>Shift</kbd>+<kbd>Tab</kbd></dt><dd>go through the page; every legal card, space and
      button is on the way</dd>
    <dt><kbd>←</kbd> <kbd>→</kbd> <kbd>↑</kbd> <kbd>↓</kbd></dt><dd>the previous or next legal choice</dd>
    <dt><kbd>Home</kbd> / <kbd>End</kbd></dt><dd>the first or last legal choice</dd>
    <dt><kbd>c</kbd></dt><dd>go to your choices</dd>
    <dt><kbd>Enter</kbd> / <kbd>Space</kbd></dt><dd>play the choice that has the focus</dd>
    <dt><kbd>u</kbd></dt><dd>undo your last action of this turn (when offered)</dd>
    <dt><kbd>r</kbd></dt><dd>show or hide the rules</dd>
    <dt><kbd>?</kbd></dt><dd>this list</dd>
    <dt><kbd>Escape</kbd></dt><dd>close this list or the rules</dd>
  </dl>
  <form method="dialog"><button type="submit" id="help-close">Close</button></form>
</dialog>"""
    title = f"{info['name']} · table {info['id']}"
    return _page(title, body, scripts, data={"table": info, "box": _box_data()}, tools=_TABLE_TOOLS)


_TABLE_TOOLS = """
<div class="toolbar">
  <button type="button" id="rules-button" aria-controls="rules-pane" aria-expanded="false"
    title="the rules of this game (r)">Rules</button>
  <button type="button" id="help-button" aria-controls="help" title="the keys of this page (?)">Keys</button>
  <label class="toggle" title="a short sound when it becomes your turn">
    <input type="checkbox" id="sound"> sound on your turn</label>
  <label class="toggle" id="pace-label" hidden title="bots move at once instead of pausing before each turn">
    <input type="checkbox" id="skip-wait"> skip waiting for bots</label>
</div>"""
"""The table page's tools in the top bar: the rules, the keys, the sound, the bots' pace."""


def replay_page(info: dict[str, Any]) -> str:
    """Returns the replay page of a finished table: every step, everything revealed."""
    game_id = info["game"]
    scripts = _scripts(game_id, "replay.js")
    body = f"""
<main class="table-page replay" id="replay">
<section class="play-area">
  <div class="controls">
    <button id="first" title="the start (Home)">|◀</button>
    <button id="back" title="one step back (←)">◀</button>
    <input id="slider" type="range" min="0" max="0" value="0">
    <button id="forward" title="one step forward (→)">▶</button>
    <button id="last" title="the end (End)">▶|</button>
    <span id="step-label" class="step-label"></span>
  </div>
  <div id="step-text" class="prompt"></div>
  <div class="board-wrap">{board_svg()}</div>
  <div id="hands" class="all-hands"></div>
  <div id="result" class="result" hidden></div>
</section>
<aside class="side">
  <section><h3>The table</h3><div id="info" class="info"></div></section>
  <section><h3>Moves</h3><ol id="moves" class="log moves"></ol></section>
</aside>
</main>"""
    title = f"{info['name']} · replay of table {info['id']}"
    return _page(title, body, scripts, data={"table": info, "box": _box_data()})


def not_found_page(message: str) -> str:
    """Returns a plain page for a missing table."""
    return _page("not found", f'<main class="lobby"><p class="error">{escape(message)}</p></main>', [], data={})
