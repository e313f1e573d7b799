"""The web app's parts on their own: the board drawing, the log lines, storage URLs, `henge serve`."""

from __future__ import annotations

import asyncio
import itertools
import random
import socket
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner
from positions import random_game
from web_support import CARD

import henge
from henge import box
from henge.cli import main
from henge.core import generic_narrator as generic
from henge.games.stonerush import narrate as stonerush_log
from henge.server.board import FILL, board_svg
from henge.server.narrate import narrator
from henge.server.store import database_url, describe_error, safe_url

SVG = "{http://www.w3.org/2000/svg}"


def _spaces() -> dict[str, ET.Element]:
    root = ET.fromstring(board_svg())
    return {g.get("data-space", ""): g for g in root.iter(f"{SVG}g") if g.get("class") == "space"}


def test_the_board_has_every_space_of_the_box():
    spaces = _spaces()
    counts: dict[str, int] = {}
    for name in spaces:
        kind = name.split(":")[0]
        counts[kind] = counts.get(kind, 0) + 1
    assert counts == {
        "outer": box.RING_SPACES,
        "colour": box.RING_SPACES,
        "sarsen": box.RING_SPACES,
        "inner": box.INNER_STONES,
        "bluestone": box.BLUESTONES,
        "trilithon": box.TRILITHON_SPACES,
        "altar": 1,
        "label": 1,
    }
    for n in box.NUMBERS:
        path = spaces[f"colour:{n}"].find(f"{SVG}path")
        assert path is not None and path.get("fill") == FILL[box.colour_of(n)]
        text = spaces[f"sarsen:{n}"].find(f"{SVG}text")
        assert text is not None and text.text == str(n)
    for index in range(box.INNER_STONES):
        n, day = box.inner_stone(index)
        rect = spaces[f"inner:{index}"].find(f"{SVG}rect")
        assert rect is not None and ("day" if day else "night") in (rect.get("class") or "")
    labels = [spaces[f"bluestone:{k}"].find(f"{SVG}text") for k in range(1, 20)]
    assert [t.text for t in labels if t is not None] == [str(k) for k in range(1, 20)]


def test_numbers_run_clockwise_and_the_horseshoe_fills_from_one_end():
    spaces = _spaces()
    angles = [float(spaces[f"sarsen:{n}"].get("data-a", "")) for n in box.NUMBERS]
    assert angles == sorted(angles) and angles[0] < 12 < angles[1]  # 1 just right of the top
    inner = [float(spaces[f"inner:{i}"].get("data-a", "")) for i in range(60)]
    assert inner == sorted(inner)
    first, middle, last = (spaces[f"bluestone:{k}"] for k in (1, 10, 19))
    assert float(first.get("data-x", "")) < 500 < float(last.get("data-x", ""))  # the two ends
    assert float(middle.get("data-y", "")) < 500  # the middle stone at the top, near the altar
    altar = spaces["altar"]
    assert float(middle.get("data-y", "")) < float(altar.get("data-y", "")) < 500


def _observations(seed: int, players: int = 3) -> list[list[dict]]:
    """Returns every viewer's observation after every step of a random Stonerush game."""
    viewers = [*range(players), None]
    return [
        [state.observation(v) for v in viewers]
        for state in random_game(henge.load("stonerush", players), random.Random(seed))
    ]


def test_stonerush_log_lines_name_only_cards_the_seat_has_seen():
    steps = _observations(4)
    lines_by_viewer: dict[int, list[str]] = {}
    for before, after in itertools.pairwise(steps):
        for viewer, (old, new) in enumerate(zip(before, after, strict=True)):
            lines = stonerush_log.narrate(old, new)
            seen = set(CARD.findall(str(old))) | set(CARD.findall(str(new)))
            for line in lines:
                assert set(CARD.findall(line)) <= seen, (viewer, line)
            lines_by_viewer.setdefault(viewer, []).extend(lines)
    me, spectator = lines_by_viewer[0], lines_by_viewer[3]
    assert any(line.startswith("you draw ") for line in me)
    assert any(line.startswith("seat 1 draws a card") for line in me)
    assert not any(line.startswith("you ") or "your" in line for line in spectator)
    assert any("druid moves" in line for line in spectator)
    assert spectator[-1].endswith(("wins", "win"))


def test_the_generic_log_names_the_fields_that_changed():
    before = {"game": "x", "seat": 0, "phase": "play", "pile": ["1d"], "score": {"a": 1}, "hand": ["2d", "3n"]}
    after = {"game": "x", "seat": 0, "phase": "draw", "pile": ["1d", "7n"], "score": {"a": 2}, "hand": ["3n"]}
    assert generic(before, after) == ["phase: play → draw", "pile: + 7n", "score.a: 1 → 2", "hand: 2d 3n → 3n"]
    assert generic(None, after) == []
    many = {f"f{k}": k for k in range(20)}
    assert len(generic(many, {k: v + 1 for k, v in many.items()})) == 8
    assert narrator("stonerush") is stonerush_log.narrate
    with pytest.raises(ValueError, match="unknown game 'no_such_game'"):
        narrator("no_such_game")


def test_database_urls():
    assert database_url("postgresql://u:p@localhost/henge").drivername == "postgresql+psycopg"
    assert database_url("sqlite:///henge.db").drivername == "sqlite"
    assert safe_url("postgresql://u:secret@localhost/henge") == "postgresql://u:***@localhost/henge"
    assert safe_url("postgresql://u:secret@local:host:port") == "(an unreadable database URL)"
    error = OSError("password secret was refused")
    assert describe_error(error, "postgresql://u:secret@localhost/henge") == "OSError: password *** was refused"


def test_serve_refuses_a_port_in_use_and_a_bad_database(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'h.db'}"])
    assert result.exit_code == 2 and "cannot listen on 127.0.0.1" in result.output
    result = CliRunner().invoke(main, ["serve", "--db", "nonsense://"])
    assert result.exit_code == 2 and "database" in result.output
    result = CliRunner().invoke(main, ["serve", "--bot-delay", "-1"])
    assert result.exit_code == 2


@pytest.mark.parametrize("word", ["--host", "--port", "--db", "--bot-delay"])
def test_serve_help_lists_its_options(word):
    assert word in CliRunner().invoke(main, ["serve", "--help"]).output


def test_the_served_socket_sends_small_messages_at_once():
    """A connection accepted on ``henge serve``'s socket has Nagle's algorithm off (TCP_NODELAY): with it
    on, an acknowledgement sent just after a view waited for the client's delayed ACK (~40 ms)."""
    from henge.server import _socket

    async def accepted_nodelay() -> int:
        found: list[int] = []

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            sock = writer.get_extra_info("socket")
            found.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        listening = _socket("127.0.0.1", 0)
        server = await asyncio.start_server(handle, sock=listening)
        async with server:
            port = listening.getsockname()[1]
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            for _ in range(200):
                if found:
                    break
                await asyncio.sleep(0.01)
            writer.close()
        return found[0]

    assert asyncio.run(accepted_nodelay()) == 1
