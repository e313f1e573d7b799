"""Decided matches: a focal agent against opponents in blocks, until its confidence sequence decides (resumable)."""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from henge.agents import check_agent
from henge.core import load
from henge.tournament.games import _play_games, _players, _Task, game_seed, lineups
from henge.tournament.sequence import BettingConfidenceSequence

DECIDED_FORMAT = "henge-decided-match"
DECIDED_VERSION = 1
DEFAULT_CAP_BLOCKS = 100


class ResumeError(ValueError):
    """A results file that cannot be resumed (or must not be overwritten), with the reason."""


@dataclass(frozen=True)
class MatchConfig:
    """A decided match: a focal agent against opponents, in blocks of every seat arrangement.

    ``focal_seats`` None: the agents share the seats as in a tournament (:func:`lineups`); a number: the
    focal agent holds that many seats of every game, in every choice of them, and the opponents share
    the rest in turn. ``margin``: the match decides whether the focal agent's mean lies above or below
    its fair share less this (the *bar*); 0 asks "better or worse than its fair share?", a margin
    such as 0.05 asks "no worse than the others by more than the margin?" (a non-inferiority test:
    a changed bot against the one before it). ``cap_blocks`` may be raised when a match is resumed;
    nothing else may change.
    """

    game_id: str
    players: int
    focal: str
    opponents: tuple[str, ...]
    focal_seats: int | None = None
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    alpha: float = 0.05
    cap_blocks: int = DEFAULT_CAP_BLOCKS
    truncation: float = 0.5
    margin: float = 0.0

    @property
    def agents(self) -> tuple[str, ...]:
        """Returns the focal agent and then the opponents."""
        return (self.focal, *self.opponents)

    def validate(self) -> None:
        """Raises ValueError if the game, seats, agents, level or cap are wrong."""
        game = load(self.game_id, self.players, **self.options)
        info = game.info
        if info.utility_sum != 1.0 or info.min_utility < 0.0 or info.max_utility > 1.0:
            raise ValueError(f"{self.game_id}: a decided match needs returns in [0, 1] that sum to 1")
        if not self.opponents:
            raise ValueError("name at least one opponent")
        if len(set(self.agents)) != len(self.agents):
            raise ValueError("name each agent once")
        for spec in self.agents:
            check_agent(spec, self.game_id, evaluation=True, players=self.players, options=self.options)
        if self.focal_seats is not None and not 1 <= self.focal_seats < self.players:
            raise ValueError(f"the focal agent holds 1 to {self.players - 1} seats, not {self.focal_seats}")
        if not 0.0 < self.alpha < 1.0:
            raise ValueError(f"alpha must lie strictly between 0 and 1, not {self.alpha}")
        if self.cap_blocks < 1:
            raise ValueError(f"play at least one block, not {self.cap_blocks}")
        if not 0.0 < self.truncation < 1.0:
            raise ValueError(f"truncation must lie strictly between 0 and 1, not {self.truncation}")
        fair = fair_share(self.focal, match_lineups(self), self.players)
        if not 0.0 <= self.margin < fair:
            raise ValueError(f"the margin must lie from 0 up to the fair share {fair:.3f}, not {self.margin}")

    def to_json(self) -> dict[str, Any]:
        """Returns the settings as JSON (as the results file holds them)."""
        return asdict(self) | {"opponents": list(self.opponents), "options": dict(self.options)}


def match_lineups(config: MatchConfig) -> list[tuple[str, ...]]:
    """Returns the seat arrangements of one block, in a fixed order."""
    if config.focal_seats is None:
        return lineups(config.agents, config.players)
    rest = lineups(config.opponents, config.players - config.focal_seats)
    found = []
    for places in itertools.combinations(range(config.players), config.focal_seats):
        for others in rest:
            fill = iter(others)
            found.append(tuple(config.focal if seat in places else next(fill) for seat in range(config.players)))
    return found


def fair_share(focal: str, table: Sequence[Sequence[str]], players: int) -> float:
    """Returns the focal agent's fair mean return per game over a block: its seats over all seats.

    In a game where it holds ``k`` of ``n`` seats an agent no better than the others wins ``k / n`` of
    the time (returns sum to 1), so over a block the fair share is the mean of ``k / n``.
    """
    return sum(list(lineup).count(focal) for lineup in table) / (len(table) * players)


def block_observation(focal: str, games: Sequence[dict[str, Any]]) -> float:
    """Returns the focal agent's mean return per game over a block's games: its returns summed per game."""
    total = sum(sum(r for a, r in zip(g["lineup"], g["returns"], strict=True) if a == focal) for g in games)
    value = total / len(games)
    if not -1e-9 <= value <= 1.0 + 1e-9:
        raise ValueError(f"a block's mean return of {value} lies outside [0, 1]")
    return min(1.0, max(0.0, value))


def block_tasks(config: MatchConfig, block: int, table: Sequence[tuple[str, ...]] | None = None) -> list[_Task]:
    """Returns the games of one block: every arrangement once, all with the block's seed.

    Numbered and seeded as a tournament's games, so with ``focal_seats`` None the first ``b`` blocks of
    a match are the first ``b`` rotations of ``henge tournament`` with the same agents and seed.
    """
    table = match_lineups(config) if table is None else table
    seed = game_seed(config.seed, block)
    return [
        _Task(block * len(table) + j, config.game_id, config.players, dict(config.options), lineup, seed)
        for j, lineup in enumerate(table)
    ]


def default_match_path(config: MatchConfig) -> Path:
    """Returns ``results/decided/GAME[-OPTIONS]_Np_FOCAL[xK]_vs_OPPONENTS_seedS.json``."""

    def clean(text: Any) -> str:
        return re.sub(r"[^A-Za-z0-9._-]+", "-", str(text)).strip("-")

    game = "-".join([config.game_id, *(clean(v) for _, v in sorted(config.options.items()))])
    focal = clean(config.focal) + ("" if config.focal_seats is None else f"x{config.focal_seats}")
    rivals = "_".join(clean(o) for o in config.opponents)
    bar = f"_margin{config.margin:g}" if config.margin else ""
    return Path("results") / "decided" / f"{game}_{config.players}p_{focal}_vs_{rivals}{bar}_seed{config.seed}.json"


@dataclass(frozen=True)
class MatchResult:
    """Where a decided match stands: its decision, the interval and what it cost.

    ``decision``: ``"above"`` or ``"below"`` (the interval lies wholly above or below the bar: the fair
    share less the match's margin, the fair share itself when it has none),
    ``"undecided"`` (the cap was reached first) or ``"running"`` (reported after a block, before the end).
    ``low``, ``high`` and ``mean`` are on the scale of the observations, the focal agent's mean return per
    game; ``seats_per_game`` (its mean seats per game) turns them into rates per seat.
    """

    config: MatchConfig
    decision: str
    low: float
    high: float
    mean: float
    fair_share: float
    bar: float
    """The fair share less the match's margin: the point the decision is about."""
    seats_per_game: float
    blocks: int
    games: int
    cpu_seconds: float
    wall_seconds: float
    data: dict[str, Any] = field(repr=False, compare=False)

    @property
    def interval(self) -> tuple[float, float]:
        return (self.low, self.high)

    def line(self) -> str:
        """Returns the one line that says how the match ended (or stands)."""
        config = self.config
        level = f"{100 - 100 * config.alpha:.12g}%"
        bar = f"its fair share {self.fair_share:.3f}"
        if config.margin:
            bar = f"its fair share less {config.margin:g}, {self.bar:.3f}"
        if self.decision in ("above", "below"):
            head = f"decided: {config.focal} is {self.decision} {bar}"
        elif self.decision == "undecided":
            head = f"undecided at the cap of {config.cap_blocks} blocks: {bar.removeprefix('its ')} is inside"
        else:
            head = f"running: {bar.removeprefix('its ')} is inside"
        per_seat = self.seats_per_game
        return (
            f"{config.game_id}, {config.players} players, {config.focal} vs {', '.join(config.opponents)}: {head}; "
            f"{level} confidence sequence {self.low:.3f}-{self.high:.3f} for its mean return per game "
            f"(mean {self.mean:.3f}; per seat {self.low / per_seat:.3f}-{self.high / per_seat:.3f} "
            f"against {1 / config.players:.3f}); {_count(self.blocks, 'block')}, {_count(self.games, 'game')}, "
            f"{self.cpu_seconds:.1f} processor seconds"
        )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _agent_figures(agents: Sequence[str], games: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for agent in agents:
        seats = decisions = 0
        total = cpu = 0.0
        for game in games:
            for k, name in enumerate(game["lineup"]):
                if name == agent:
                    seats += 1
                    total += game["returns"][k]
                    decisions += game["decisions"][k]
                    cpu += game["cpu_seconds"][k]
        rows.append(
            {
                "agent": agent,
                "seats": seats,
                "mean_return_per_seat": total / seats if seats else math.nan,
                "decisions": decisions,
                "cpu_seconds": cpu,
                "cpu_seconds_per_decision": cpu / decisions if decisions else 0.0,
            }
        )
    return rows


class _Match:
    """A decided match as it stands: its blocks and the confidence sequence over them."""

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.table = match_lineups(config)
        self.fair = fair_share(config.focal, self.table, config.players)
        self.bar = self.fair - config.margin
        self.sequence = BettingConfidenceSequence(config.alpha, truncation=config.truncation, watch=(self.bar,))
        self.blocks: list[dict[str, Any]] = []

    @property
    def open(self) -> bool:
        return self.sequence.verdict(self.bar) is None and len(self.blocks) < self.config.cap_blocks

    @property
    def decision(self) -> str:
        verdict = self.sequence.verdict(self.bar)
        if verdict is not None:
            return verdict
        return "undecided" if len(self.blocks) >= self.config.cap_blocks else "running"

    def add(self, block: dict[str, Any]) -> None:
        self.sequence.update(block["observation"])
        self.blocks.append(block)

    def games(self) -> list[dict[str, Any]]:
        return [game for block in self.blocks for game in block["games"]]

    def result(self) -> MatchResult:
        games = self.games()
        status = {
            "decision": self.decision,
            "blocks": len(self.blocks),
            "games": len(games),
            "mean": self.sequence.mean,
            "interval": list(self.sequence.interval),
            "fair_share": self.fair,
            "bar": self.bar,
            "seats_per_game": self.fair * self.config.players,
            "cpu_seconds": sum(game["game_cpu_seconds"] for game in games),
            "wall_seconds": sum(block["wall_seconds"] for block in self.blocks),
        }
        data = {
            "format": DECIDED_FORMAT,
            "version": DECIDED_VERSION,
            "config": self.config.to_json(),
            "method": "hedged betting confidence sequence, predictable plug-in bets (Waudby-Smith and Ramdas 2023)",
            "lineups": [list(x) for x in self.table],
            "status": status,
            "agents": _agent_figures(self.config.agents, games),
            "blocks": self.blocks,
        }
        return MatchResult(
            config=self.config,
            decision=status["decision"],
            low=self.sequence.low,
            high=self.sequence.high,
            mean=status["mean"],
            fair_share=self.fair,
            bar=self.bar,
            seats_per_game=status["seats_per_game"],
            blocks=status["blocks"],
            games=status["games"],
            cpu_seconds=status["cpu_seconds"],
            wall_seconds=status["wall_seconds"],
            data=data,
        )


def write_json_atomic(path: Path, data: Any) -> None:
    """Writes JSON to a file next to ``path`` and renames it over ``path``: a reader sees the old or the new."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w") as out:
            json.dump(data, out, indent=1)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def _stored_blocks(path: Path, match: _Match) -> list[dict[str, Any]]:
    """Returns the blocks of a results file, after checking that it holds this match."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ResumeError(f"cannot resume from {path}: {error}") from None
    if not isinstance(data, dict) or data.get("format") != DECIDED_FORMAT:
        raise ResumeError(f"cannot resume from {path}: it is not a decided match ({DECIDED_FORMAT})")
    if data.get("version") != DECIDED_VERSION:
        raise ResumeError(f"cannot resume from {path}: version {data.get('version')}, not {DECIDED_VERSION}")
    stored = data.get("config")
    stored = stored if isinstance(stored, dict) else {}
    stored = {"margin": 0.0, **stored}  # a file written before matches had a margin holds none
    mine = match.config.to_json()
    keys = sorted(set(mine) | set(stored))
    differ = [key for key in keys if key != "cap_blocks" and stored.get(key) != mine.get(key)]
    if differ:
        what = "; ".join(f"{key} {stored.get(key)!r} there, {mine.get(key)!r} here" for key in differ)
        raise ResumeError(f"cannot resume from {path}: it holds a different match ({what})")
    blocks = data.get("blocks")
    if not isinstance(blocks, list):
        raise ResumeError(f"cannot resume from {path}: it holds no list of blocks")
    if len(blocks) > match.config.cap_blocks:
        raise ResumeError(
            f"cannot resume from {path}: it holds {len(blocks)} blocks, more than the cap of {match.config.cap_blocks}"
        )
    for number, block in enumerate(blocks):
        expected = [(t.index, list(t.lineup), t.seed) for t in block_tasks(match.config, number, match.table)]
        try:
            found = [(g["index"], g["lineup"], g["seed"]) for g in block["games"]]
            same = found == expected and block["block"] == number
            same = same and block["observation"] == block_observation(match.config.focal, block["games"])
        except (KeyError, TypeError, ValueError):
            same = False
        if not same:
            raise ResumeError(f"cannot resume from {path}: its block {number} is not this match's")
    return list(blocks)


def decided_match(
    game_id: str,
    players: int,
    focal: str,
    opponents: str | Sequence[str],
    *,
    focal_seats: int | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    alpha: float = 0.05,
    cap_blocks: int = DEFAULT_CAP_BLOCKS,
    margin: float = 0.0,
    workers: int = 1,
    out: str | Path | None = None,
    resume: bool = False,
    on_game: Callable[[dict[str, Any]], None] | None = None,
    on_block: Callable[[MatchResult], None] | None = None,
) -> MatchResult:
    """Plays ``focal`` against ``opponents`` block by block until the answer is known or the cap is reached.

    One observation per block: the focal agent's mean return per game over the block's games (its
    returns summed over its seats), in [0, 1]. After every block the :class:`BettingConfidenceSequence`
    at level ``1 - alpha`` is updated; the match stops as soon as it lies wholly above or below the fair
    share (:func:`fair_share`) less ``margin``, or after ``cap_blocks`` blocks. A block's games run in ``workers``
    processes. With ``out`` the whole match is written there (atomically) after every block; an
    existing file is refused unless ``resume``, which checks that it holds the same match (only
    ``cap_blocks`` may differ) and plays on from the next block: the result is the one an uninterrupted
    run gives. Resuming a finished match returns its result at once.
    """
    config = MatchConfig(
        game_id=game_id,
        players=players,
        focal=focal,
        opponents=(opponents,) if isinstance(opponents, str) else tuple(opponents),
        focal_seats=focal_seats,
        seed=seed,
        options=dict(options or {}),
        alpha=alpha,
        cap_blocks=cap_blocks,
        margin=margin,
    )
    return run_match(config, workers=workers, out=out, resume=resume, on_game=on_game, on_block=on_block)


def run_match(
    config: MatchConfig,
    *,
    workers: int = 1,
    out: str | Path | None = None,
    resume: bool = False,
    on_game: Callable[[dict[str, Any]], None] | None = None,
    on_block: Callable[[MatchResult], None] | None = None,
) -> MatchResult:
    """Plays a decided match from its settings (see :func:`decided_match`)."""
    config.validate()
    path = None if out is None else Path(out)
    if resume and path is None:
        raise ResumeError("resuming a match needs its results file")
    match = _Match(config)
    if path is not None and path.exists():
        if not resume:
            raise ResumeError(f"{path} already exists: resume the match it holds, or choose another file")
        for block in _stored_blocks(path, match):
            if not match.open:
                raise ResumeError(f"cannot resume from {path}: it goes on after the match ended")
            match.add(block)
    if not match.open:
        if path is not None:
            write_json_atomic(path, match.result().data)
        return match.result()
    with _players(workers) as play_all:
        while match.open:
            number = len(match.blocks)
            todo = block_tasks(config, number, match.table)
            start = time.perf_counter()
            games = _play_games(play_all, todo, on_game)
            block = {
                "block": number,
                "seed": todo[0].seed,
                "observation": block_observation(config.focal, games),
                "cpu_seconds": sum(game["game_cpu_seconds"] for game in games),
                "wall_seconds": time.perf_counter() - start,
                "games": games,
            }
            match.add(block)
            result = match.result()
            if path is not None:
                write_json_atomic(path, result.data)
            if on_block is not None:
                on_block(result)
    return match.result()
