"""Shared fixtures: every registered game at every player count and variant."""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from browser_support import CHROMIUM, CHROMIUM_ARGS

import henge
from henge.core import reload_games

PLUGINS = Path(__file__).resolve().parent / "plugins"
"""An example game in a package of its own (the henge-example-threecard distribution), installed for
the test session only: importlib.metadata finds its dist-info on sys.path."""
if str(PLUGINS) not in sys.path:
    sys.path.insert(0, str(PLUGINS))
reload_games()


def shipped_games() -> list[str]:
    """Returns the ids of the games henge itself ships: the entry points its pyproject.toml declares."""
    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]
    return sorted(project["entry-points"]["henge.games"])


def game_configs() -> list[tuple[str, int, dict[str, object]]]:
    """Returns (game id, players, options) for every game, player count and variant."""
    configs = []
    for game_id in henge.list_games():
        info = henge.game_class(game_id).info
        option_values = [[(o.name, v) for v in o.values] for o in info.options if o.name == "variant"]
        for players in range(info.min_players, info.max_players + 1):
            for combo in itertools.product(*option_values):
                configs.append((game_id, players, dict(combo)))
    return configs


def knob_configs() -> list[tuple[str, int, dict[str, object]]]:
    """Returns (game id, players, {knob: value}) for every value but the default of every designer
    option (an ``Option`` with ``recorded_at_default=False``), each at one player count: the fewest,
    and the most for a knob's last value (the extremes meet the biggest table)."""
    configs = []
    for game_id in henge.list_games():
        info = henge.game_class(game_id).info
        for option in info.options:
            if option.recorded_at_default:
                continue
            others = [v for v in option.values if v != option.default]
            for value in others:
                players = info.max_players if value == others[-1] else info.min_players
                configs.append((game_id, players, {option.name: value}))
    return configs


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Runs the tests marked slow (whole games, most of a minute each) first, in their order, so that
    the workers of ``pytest -n`` end together on short tests instead of one waiting on the other."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def config_id(config: tuple[str, int, dict[str, object]]) -> str:
    game_id, players, options = config
    return "-".join([game_id, f"{players}p", *(f"{k}={v}" if k != "variant" else str(v) for k, v in options.items())])


POSTGRES_REQUIRED = os.environ.get("HENGE_POSTGRES_REQUIRED") == "1"
"""Set by ``make test``: a PostgreSQL that cannot be had fails the PostgreSQL tests instead of skipping them."""


def postgres_bin() -> Path | None:
    """Returns the folder of PostgreSQL's server programs (initdb, pg_ctl), or None where they are missing."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent
    # Debian keeps them out of PATH, one folder per major version: the newest wins.
    versions = [p.parent for p in Path("/usr/lib/postgresql").glob("*/bin/pg_ctl") if (p.parent / "initdb").exists()]
    return max(versions, key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0, default=None)


def free_port() -> int:
    """Returns a loopback port that is free now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def throwaway_postgres(bin_dir: Path) -> Iterator[str]:
    """Runs a PostgreSQL cluster in a temporary folder, on a free loopback port, and yields a database URL.

    The server never runs as root (initdb refuses to): as root, it runs as the ``postgres`` user.
    """
    as_user: list[str] = []
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            raise RuntimeError("PostgreSQL will not run as root and there is no postgres user to run it") from None
        as_user = ["runuser", "-u", "postgres", "--"]
    # /tmp, not TMPDIR, as root: the postgres user must be able to reach the folder.
    root = Path(tempfile.mkdtemp(prefix="henge-pg-", dir="/tmp" if as_user else None))
    data, sockets, log = root / "data", root / "sockets", root / "server.log"
    if as_user:
        os.chown(root, owner.pw_uid, owner.pw_gid)
    started = False

    def run(*command: str | Path) -> None:
        done = subprocess.run([*as_user, *map(str, command)], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            server_log = log.read_text(errors="replace") if log.exists() else ""
            raise RuntimeError(f"{Path(command[0]).name} failed:\n{done.stdout}{done.stderr}{server_log}")

    try:
        run(bin_dir / "initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync")
        run("mkdir", sockets)
        port = free_port()
        # -F: no fsync, the data is thrown away anyway.
        options = f"-h 127.0.0.1 -p {port} -k {sockets} -F"
        run(bin_dir / "pg_ctl", "-D", data, "-l", log, "-o", options, "-w", "-t", "60", "start")
        started = True
        run(bin_dir / "createdb", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "henge")
        yield f"postgresql://postgres@127.0.0.1:{port}/henge"
    finally:
        if started:
            subprocess.run(
                [*as_user, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                capture_output=True,
                timeout=120,
            )
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL database URL: HENGE_TEST_POSTGRES, else a throwaway local cluster, else a skip.

    Under ``make test`` (HENGE_POSTGRES_REQUIRED=1) a missing PostgreSQL fails instead of skipping.
    """
    url = os.environ.get("HENGE_TEST_POSTGRES")
    if url:
        yield url
        return
    bin_dir = postgres_bin()
    if bin_dir is None:
        reason = "PostgreSQL is not installed (make test installs it) and HENGE_TEST_POSTGRES is not set"
        if POSTGRES_REQUIRED:
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    with throwaway_postgres(bin_dir) as url:
        yield url


def fresh_postgres_database(url: str) -> str:
    """Creates an empty database on the server of ``url``; returns its URL."""
    import secrets

    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    server = make_url(url)
    if server.drivername == "postgresql":
        server = server.set(drivername="postgresql+psycopg")
    name = f"henge_{secrets.token_hex(6)}"
    engine = create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return server.set(database=name).render_as_string(hide_password=False)


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database for the storage tests, on each engine the server supports: an SQLite file,
    and a new database on the test session's PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'h.db'}"
    return fresh_postgres_database(request.getfixturevalue("postgres_url"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, one for each browser test module (see browser_support.py).

    Playwright gives every launch a fresh --user-data-dir of its own.
    """
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()
