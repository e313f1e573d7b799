"""Storage of tables through SQLAlchemy: an SQLite file by default, PostgreSQL when asked.

Three tables hold everything a restart needs:

* ``henge_tables``: one row per table (game, players, options, the secret
  seed, status, the result once finished, the SHA-256 of the creator's
  token, the turn limit, what becomes of a seat its person leaves and the
  id of its rematch);
* ``henge_seats``: one row per seat (person or bot, the SHA-256 of the
  seat's secret token, whether somebody has claimed it, whether it is open
  to the lobby, its person's display name);
* ``henge_actions``: one row per applied action, chance outcomes included,
  keyed by (table, step). Replaying them from the initial state rebuilds the
  exact state, so nothing else about the position is stored.

Every method is synchronous and commits before it returns; the server calls
them from a worker thread and acknowledges an action only after the commit.

Columns added since the first release are nullable, and :func:`add_missing_columns`
adds them to an older database when the store opens it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    delete,
    event,
    func,
    inspect,
    select,
    update,
)
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

WAITING, RUNNING, FINISHED, BROKEN = "waiting", "running", "finished", "broken"
"""Table statuses: seats still open; being played; over; cannot be resumed by this henge."""
ABANDONED = "abandoned"
"""A table nobody played or watched from a seat for too long: out of the lobby, its bots stopped."""
NAME_CHARS = 24
"""A seat's display name is 1 to this many characters."""


class Base(DeclarativeBase):
    """The declarative base of henge's tables."""


class TableRow(Base):
    """One game table."""

    __tablename__ = "henge_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    game_version: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)
    returns: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Added later: nullable, so that an older database gains them (add_missing_columns).
    creator_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    turn_limit: Mapped[float | None] = mapped_column(Float, nullable=True)
    on_leave: Mapped[str | None] = mapped_column(String(8), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The id of the table made for a rematch of this one (None: none yet)."""


class SeatRow(Base):
    """One seat of a table: a person (with a hashed secret token) or a bot."""

    __tablename__ = "henge_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("henge_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed: Mapped[bool] = mapped_column(Boolean, default=False)
    lobby: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # added later; None: private
    name: Mapped[str | None] = mapped_column(String(NAME_CHARS), nullable=True)  # added later; None: no name


class ActionRow(Base):
    """One applied action (or chance outcome) of a table, in order."""

    __tablename__ = "henge_actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("henge_tables.id"), primary_key=True)
    step: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    actor: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass
class SeatRecord:
    """A seat as stored."""

    seat: int
    kind: str
    bot: str | None
    token_hash: str | None
    claimed: bool
    lobby: bool = False
    """Open to the lobby: anybody may take it while it is unclaimed (else only its link opens it)."""
    name: str | None = None
    """The display name its person chose (None: none)."""


@dataclass
class TableRecord:
    """A table as stored, with its seats and (when asked for) its actions."""

    id: str
    game: str
    game_version: str
    players: int
    options: dict[str, Any]
    seed: int
    status: str
    returns: list[float] | None
    created_at: datetime
    updated_at: datetime
    seats: list[SeatRecord]
    actions: list[int]
    creator_hash: str | None = None
    turn_limit: float | None = None
    on_leave: str | None = None
    rematch: str | None = None
    """The id of the table made for a rematch of this one (None: none yet)."""
    actors: list[int] = field(default_factory=list)
    """Who took each of ``actions``: a seat, or -1 for a chance outcome."""


def now() -> datetime:
    """Returns the current time in UTC."""
    return datetime.now(UTC)


def database_url(text: str) -> URL:
    """Returns the SQLAlchemy URL for a ``--db`` value, choosing psycopg 3 for ``postgresql://``."""
    url = make_url(text)
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    return url


def safe_url(text: str) -> str:
    """Returns a database URL fit to print: any password is masked."""
    try:
        return make_url(text).render_as_string(hide_password=True)
    except Exception:  # an unparsable URL is not echoed: it might hold a password
        return "(an unreadable database URL)"


def describe_error(error: BaseException, url_text: str) -> str:
    """Returns the first line of a database error with the URL's password masked."""
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines()
    message = f"{type(cause).__name__}: {lines[0]}" if lines else type(cause).__name__
    try:
        password = make_url(url_text).password
    except Exception:
        return type(cause).__name__
    return message.replace(str(password), "***") if password else message


def make_engine(text: str) -> Engine:
    """Returns an engine for a database URL; SQLite files get WAL and foreign keys."""
    url = database_url(text)
    if url.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    memory = url.database in (None, "", ":memory:")
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False},
        poolclass=StaticPool if memory else None,
    )

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


def add_missing_columns(engine: Engine) -> list[str]:
    """Adds to an older database the columns of henge's tables that it lacks; returns them (``table.column``).

    Only nullable columns are ever added after a release, so the rows already stored stay valid
    and read as the columns' defaults.
    """
    inspector = inspect(engine)
    quote = engine.dialect.identifier_preparer.quote
    added = []
    with engine.begin() as connection:
        for table in Base.metadata.sorted_tables:
            present = {column["name"] for column in inspector.get_columns(table.name)}
            for column in table.columns:
                if column.name in present:
                    continue
                if not column.nullable or column.primary_key:  # pragma: no cover - a mistake in this file
                    raise RuntimeError(f"{table.name}.{column.name} cannot be added to a stored table: not nullable")
                kind = column.type.compile(dialect=engine.dialect)
                connection.exec_driver_sql(f"ALTER TABLE {quote(table.name)} ADD COLUMN {quote(column.name)} {kind}")
                added.append(f"{table.name}.{column.name}")
    return added


class Store:
    """The database of tables, seats and actions."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        Base.metadata.create_all(self.engine)
        self.added_columns = add_missing_columns(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        """Releases the database connections."""
        self.engine.dispose()

    # -- writing ------------------------------------------------------------------

    def create_table(
        self,
        *,
        table_id: str,
        game: str,
        game_version: str,
        players: int,
        options: dict[str, Any],
        seed: int,
        status: str,
        seats: Sequence[SeatRecord],
        creator_hash: str | None = None,
        turn_limit: float | None = None,
        on_leave: str | None = None,
        rematch_of: str | None = None,
    ) -> None:
        """Stores a new table with its seats; ``rematch_of``, when given, is the finished table whose
        rematch it is, linked to it in the same transaction."""
        stamp = now()
        with self._session.begin() as session:
            session.add(
                TableRow(
                    id=table_id,
                    game=game,
                    game_version=game_version,
                    players=players,
                    options=dict(options),
                    seed=seed,
                    status=status,
                    returns=None,
                    created_at=stamp,
                    updated_at=stamp,
                    creator_hash=creator_hash,
                    turn_limit=turn_limit,
                    on_leave=on_leave,
                )
            )
            session.flush()
            for seat in seats:
                session.add(
                    SeatRow(
                        table_id=table_id,
                        seat=seat.seat,
                        kind=seat.kind,
                        bot=seat.bot,
                        token_hash=seat.token_hash,
                        claimed=seat.claimed,
                        lobby=seat.lobby,
                        name=seat.name,
                    )
                )
            if rematch_of is not None:
                session.execute(update(TableRow).where(TableRow.id == rematch_of).values(rematch=table_id))

    def append_actions(
        self,
        table_id: str,
        first_step: int,
        actions: Sequence[tuple[int, str, int]],
        *,
        status: str | None = None,
        returns: list[float] | None = None,
    ) -> None:
        """Stores actions ``(action, text, actor)`` from ``first_step`` on, in one transaction.

        A step that is already stored makes the whole write fail (the primary
        key), so two writers can never both extend a table.
        """
        stamp = now()
        with self._session.begin() as session:
            for offset, (action, text, actor) in enumerate(actions):
                session.add(
                    ActionRow(
                        table_id=table_id, step=first_step + offset, action=action, text=text, actor=actor, at=stamp
                    )
                )
            session.flush()
            # The time of a table's last change is public (the lobby lists it): an action that nobody
            # else saw (a First Druid offer withdrawn) must not show in it, so only the end does.
            values: dict[str, Any] = {}
            if status is not None:
                values["status"] = status
                values["updated_at"] = stamp
            if returns is not None:
                values["returns"] = list(returns)
            if values:
                session.execute(update(TableRow).where(TableRow.id == table_id).values(**values))

    def remove_last_action(self, table_id: str, step: int) -> None:
        """Deletes a table's action at ``step``, which must be its last one (a seat took it back), in
        one transaction; raises ValueError, deleting nothing, if it is not the last stored action.
        Like an action, it leaves the table's ``updated_at`` alone."""
        with self._session.begin() as session:
            last = session.scalar(select(func.max(ActionRow.step)).where(ActionRow.table_id == table_id))
            if last != step:
                raise ValueError(f"step {step} is not the last stored action of table {table_id}")
            session.execute(delete(ActionRow).where(ActionRow.table_id == table_id, ActionRow.step == step))

    def claim_seat(self, table_id: str, seat: int, *, token_hash: str | None = None, status: str | None = None) -> None:
        """Marks a seat claimed (with a new token hash if given) and sets the table status."""
        with self._session.begin() as session:
            values: dict[str, Any] = {"claimed": True}
            if token_hash is not None:  # a new person at the seat: the name was the one before's
                values["token_hash"] = token_hash
                values["name"] = None
            session.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat).values(**values))
            table_values: dict[str, Any] = {"updated_at": now()}
            if status is not None:
                table_values["status"] = status
            session.execute(update(TableRow).where(TableRow.id == table_id).values(**table_values))

    def set_status(self, table_id: str, status: str) -> None:
        """Sets a table's status."""
        with self._session.begin() as session:
            session.execute(update(TableRow).where(TableRow.id == table_id).values(status=status, updated_at=now()))

    _SEAT_COLUMNS = frozenset({"kind", "bot", "token_hash", "claimed", "lobby", "name"})
    _TABLE_COLUMNS = frozenset({"status", "turn_limit"})

    def update_seat(
        self, table_id: str, seat: int, values: dict[str, Any], *, table: dict[str, Any] | None = None
    ) -> None:
        """Changes a seat's columns (kind, bot, token_hash, claimed, lobby, name) and, in the same transaction,
        its table's (status, turn_limit)."""
        table_values = dict(table or {})
        unknown = (set(values) - self._SEAT_COLUMNS) | (set(table_values) - self._TABLE_COLUMNS)
        if unknown:
            raise ValueError(f"not a column a seat change may set: {', '.join(sorted(unknown))}")
        with self._session.begin() as session:
            if values:
                session.execute(
                    update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat).values(**values)
                )
            table_values["updated_at"] = now()
            session.execute(update(TableRow).where(TableRow.id == table_id).values(**table_values))

    def delete_table(self, table_id: str) -> bool:
        """Deletes a table with its seats and actions; returns False if there was none."""
        with self._session.begin() as session:
            session.execute(delete(ActionRow).where(ActionRow.table_id == table_id))
            session.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
            deleted = session.execute(delete(TableRow).where(TableRow.id == table_id))
            return bool(getattr(deleted, "rowcount", 0))

    # -- reading ------------------------------------------------------------------

    def table_ids(self, *, statuses: Sequence[str] | None = None) -> list[str]:
        """Returns the ids of the tables (with one of ``statuses``), newest first."""
        query = select(TableRow.id).order_by(TableRow.created_at.desc(), TableRow.id)
        if statuses is not None:
            query = query.where(TableRow.status.in_(list(statuses)))
        with self._session() as session:
            return list(session.scalars(query))

    def load(self, table_id: str, *, with_actions: bool = True) -> TableRecord | None:
        """Returns a stored table (its actions in order), or None if there is none."""
        with self._session() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            seats = session.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat))
            actions: list[int] = []
            actors: list[int] = []
            if with_actions:
                query = select(ActionRow.action, ActionRow.actor).where(ActionRow.table_id == table_id)
                rows = session.execute(query.order_by(ActionRow.step))
                for action, actor in rows:
                    actions.append(action)
                    actors.append(actor)
            return TableRecord(
                id=row.id,
                game=row.game,
                game_version=row.game_version,
                players=row.players,
                options=dict(row.options),
                seed=row.seed,
                status=row.status,
                returns=None if row.returns is None else list(row.returns),
                created_at=row.created_at,
                updated_at=row.updated_at,
                seats=[
                    SeatRecord(s.seat, s.kind, s.bot, s.token_hash, s.claimed, bool(s.lobby), s.name) for s in seats
                ],
                actions=actions,
                creator_hash=row.creator_hash,
                turn_limit=row.turn_limit,
                on_leave=row.on_leave,
                rematch=row.rematch,
                actors=actors,
            )

    def action_count(self, table_id: str) -> int:
        """Returns how many actions of a table are stored."""
        with self._session() as session:
            count = session.scalar(select(func.count()).select_from(ActionRow).where(ActionRow.table_id == table_id))
            return int(count or 0)

    def summaries(self, *, limit: int = 200) -> list[dict[str, Any]]:
        """Returns the public facts of the newest tables (no seed, no tokens) for the lobby.

        Abandoned tables are left out: only a direct link (and their creator's browser) finds them.
        """
        with self._session() as session:
            query = select(TableRow).where(TableRow.status != ABANDONED)
            rows = list(session.scalars(query.order_by(TableRow.created_at.desc()).limit(limit)))
            ids = [r.id for r in rows]
            seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
            if ids:
                for seat in session.scalars(select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.seat)):
                    seats[seat.table_id].append(seat)
            return [
                {
                    "id": r.id,
                    "game": r.game,
                    "players": r.players,
                    "options": json.loads(json.dumps(r.options)),
                    "status": r.status,
                    "returns": r.returns,
                    "created_at": r.created_at.isoformat(),
                    "updated_at": r.updated_at.isoformat(),
                    "seats": [
                        {
                            "seat": s.seat,
                            "kind": s.kind,
                            "bot": s.bot,
                            "claimed": s.claimed,
                            "lobby": bool(s.lobby),
                            "name": s.name,
                        }
                        for s in seats[r.id]
                    ],
                }
                for r in rows
            ]
