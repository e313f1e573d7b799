"""The serve command: the web app for people and bots at shared tables."""

from __future__ import annotations

from typing import Any

import click


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", "-p", type=int, default=8000, show_default=True, help="Port to listen on (0: any free port).")
@click.option(
    "--db",
    default="sqlite:///henge.db",
    show_default=True,
    help="Database URL: sqlite:///FILE or postgresql://USER:PASSWORD@HOST/NAME.",
)
@click.option(
    "--bot-delay", type=float, default=0.8, show_default=True, help="Seconds a bot pauses before each of its turns."
)
@click.option("--quiet", "-q", is_flag=True, help="Log only warnings and errors.")
@click.option(
    "--turn-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=120.0,
    show_default=True,
    help="Seconds a person has for a turn at a lobby table before a bot plays for them.",
)
@click.option(
    "--abandon-after",
    type=click.FloatRange(min=0, min_open=True),
    default=86400.0,
    show_default=True,
    help="Seconds with nobody seated and no action before a table is abandoned.",
)
@click.option(
    "--bot-workers",
    type=click.IntRange(min=0, max=64),
    help="Processes the bots think in [default: one core fewer than the machine has, at least 1; "
    "0: in the server's process].",
)
@click.option(
    "--bot-seconds",
    type=click.FloatRange(min=0, max=3600, min_open=True),
    default=10.0,
    show_default=True,
    help="Processor time one bot decision may take; past it the bot plays a drawn legal action.",
)
@click.option("--max-body-bytes", type=click.IntRange(min=1), help="Largest HTTP request body [default: 65536].")
@click.option("--max-message-bytes", type=click.IntRange(min=1), help="Largest WebSocket message [default: 16384].")
@click.option("--max-json-depth", type=click.IntRange(min=1), help="Deepest nesting of JSON [default: 32].")
@click.option(
    "--tables-per-minute",
    type=click.FloatRange(min=0, min_open=True),
    help="New tables a client may create [default: 30].",
)
@click.option("--table-burst", type=click.IntRange(min=1), help="New tables a client may create at once [default: 10].")
@click.option(
    "--actions-per-second",
    type=click.FloatRange(min=0, min_open=True),
    help="WebSocket messages and other writes a client may send [default: 20].",
)
@click.option("--action-burst", type=click.IntRange(min=1), help="Of those, how many at once [default: 60].")
@click.option(
    "--reads-per-second",
    type=click.FloatRange(min=0, min_open=True),
    help="Pages and API reads a client may make [default: 50].",
)
@click.option("--read-burst", type=click.IntRange(min=1), help="Of those, how many at once [default: 200].")
@click.option(
    "--address-share", type=click.IntRange(min=1), help="Clients' worth of each rate one address may use [default: 4]."
)
def serve_command(
    host: str,
    port: int,
    db: str,
    bot_delay: float,
    quiet: bool,
    turn_limit: float,
    abandon_after: float,
    bot_workers: int | None,
    bot_seconds: float,
    **limits: Any,
) -> None:
    """Play in the browser: serve the lobby and the live tables, stored in a database.

    The options from --max-body-bytes on are the limits on one client (docs/web.md, "Limits").
    """
    from sqlalchemy.exc import SQLAlchemyError

    from henge.server import Limits, serve
    from henge.server.store import describe_error, safe_url

    if bot_delay < 0:
        raise click.BadParameter("must be 0 or more", param_hint="--bot-delay")
    names = {"max_body_bytes": "body_bytes", "max_message_bytes": "message_bytes", "max_json_depth": "json_depth"}
    try:
        chosen = Limits(**{names.get(k, k): v for k, v in limits.items() if v is not None})
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    try:
        serve(
            host=host,
            port=port,
            db=db,
            bot_delay=bot_delay,
            quiet=quiet,
            limits=chosen,
            turn_limit=turn_limit,
            abandon_after=abandon_after,
            bot_workers=bot_workers,
            bot_seconds=bot_seconds,
        )
    except (SQLAlchemyError, ImportError) as error:
        hint = " (pip install 'henge[postgres]' for PostgreSQL)" if isinstance(error, ImportError) else ""
        raise click.UsageError(f"cannot open the database {safe_url(db)}: {describe_error(error, db)}{hint}") from None
    except OSError as error:
        raise click.UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    except KeyboardInterrupt:
        pass
