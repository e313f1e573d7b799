"""The one game loop, the seeds it draws from, and the record of a game played.

:func:`advance` is the only driver of a game: it applies chance outcomes and the decisions of the
seats that have a chooser until the game ends or a seat without one (a person, an outside agent, a
bot that thinks elsewhere) must act. Whole games, the terminal, the server's tables and the
environments all step through it. A chooser is any callable ``(state, seat) -> action``, so the
core knows no agent.

:class:`GameRecord` is the record a whole game is replayed from (RULINGS G1) and its JSON form.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from henge.core.decision import make_decision
from henge.core.outcomes import sample_chance
from henge.core.registry import load, plugin
from henge.core.state import CHANCE, TERMINAL, Game, State

RECORD_FORMAT = "henge-record"
RECORD_VERSION = 1

Chooser = Callable[[State, int], int]
"""Picks the action of ``seat`` in ``state`` (a decision node of that seat); must not change the state."""

Chance = random.Random | Callable[[State], int]
"""Draws a chance outcome: a generator (one :func:`sample_chance` draw an outcome), or a callable."""

OnAction = Callable[[State, int, int], None]
"""Called as ``on_action(state, actor, action)`` before each action :func:`advance` applies."""


def chance_rng(seed: int) -> random.Random:
    """Returns the generator that samples chance outcomes for a game seed."""
    return random.Random(f"henge/{seed}/chance")


def agent_rng(seed: int, seat: int) -> random.Random:
    """Returns a seat's own generator; it tells nothing of the chance generator."""
    return random.Random(f"henge/{seed}/seat/{seat}")


def advance(
    state: State,
    chance: Chance,
    players: Mapping[int, Chooser],
    on_action: OnAction | None = None,
    decisions: int | None = None,
    stop: Callable[[State], bool] | None = None,
) -> int:
    """Plays ``state`` forward in place until the game ends or a seat without a chooser must act.

    Chance outcomes come from ``chance``; a seat's decisions from ``players[seat]``. Returns the seat
    that must act next, or TERMINAL when the game is over. ``on_action(state, actor, action)`` (actor
    CHANCE for chance) is called before each action is applied, with the state it is applied to.
    With ``decisions``, it also stops as soon as that many decisions were made (before any chance
    that follows the last of them), and with ``stop``, before any action where ``stop(state)`` is
    true; it returns the player to move then (a seat, or CHANCE).
    """
    return _drive(state, chance, players, on_action, decisions, stop)[0]


def _drive(
    state: State,
    chance: Chance,
    players: Mapping[int, Chooser],
    on_action: OnAction | None,
    decisions: int | None,
    stop: Callable[[State], bool] | None = None,
) -> tuple[int, int]:
    """:func:`advance`'s loop; returns the seat to move (or TERMINAL) and the decisions it made."""
    generator: random.Random | None = None
    draw: Callable[[State], int] | None = None
    if isinstance(chance, random.Random):
        generator = chance
    else:
        draw = chance
    made = 0
    while True:
        seat = state.current_player()
        if seat == TERMINAL:
            return TERMINAL, made
        if (decisions is not None and made >= decisions) or (stop is not None and stop(state)):
            return seat, made
        if seat == CHANCE:
            action = sample_chance(state, generator) if draw is None else draw(state)
        else:
            chooser = players.get(seat)
            if chooser is None:
                return seat, made
            action = chooser(state, seat)
            made += 1
        if on_action is not None:
            on_action(state, seat, action)
        state.apply_action(action)


def random_chooser(rng: random.Random) -> Chooser:
    """Returns the uniform random player's chooser: one draw of ``rng`` picks among the legal actions
    (the pick the random agent makes from the same generator)."""

    def choose(state: State, seat: int) -> int:
        legal = state.legal_actions()
        return legal[int(rng.random() * len(legal))]

    return choose


def rule_chooser(game_id: str, rng: random.Random) -> Chooser:
    """Returns the chooser of a game's rule-based player (its ``bot`` part): the only legal action
    where there is one, else the player's pick from the seat's decision (what the ``heuristic`` agent
    does with the same generator). Raises ValueError if the game has no rule-based player."""
    bot = plugin(game_id).load_bot()
    if bot is None:
        raise ValueError(f"{game_id} has no rule-based player")
    choose_from = bot.choose

    def choose(state: State, seat: int) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return choose_from(make_decision(state, seat, rng, samples=False))

    return choose


PLAYERS = ("random", "rule")
"""The players :func:`playouts` seats: the uniform random player and the game's rule-based player."""


@dataclass(frozen=True)
class Playout:
    """One game played to its end by :func:`playouts`."""

    seed: int
    returns: list[float]
    length: int
    """Actions applied, chance outcomes included."""
    decisions: int
    """Actions the seats chose."""
    record: GameRecord | None
    """The game's record, where asked for (its agents are named ``random`` and ``heuristic``)."""


def playouts(
    game: Game,
    count: int,
    *,
    seed: int = 0,
    players: str | Sequence[str] = "random",
    records: bool = False,
) -> list[Playout]:
    """Plays ``count`` whole games of ``game`` and returns each one's result, in order.

    Game ``k`` is played with seed ``seed + k``: chance from :func:`chance_rng`, each seat from its
    own :func:`agent_rng`, so it is the very game ``henge.records.play`` plays with the agents
    ``random`` and ``heuristic`` at that seed. ``players`` is ``"random"``, ``"rule"`` (the game's
    rule-based player) or one of those per seat. With ``records``, each result holds the game's record.
    """
    seats = [players] * game.num_players if isinstance(players, str) else list(players)
    if len(seats) != game.num_players:
        raise ValueError(
            f"{game.info.id} with {game.num_players} players needs {game.num_players} players, not {len(seats)}"
        )
    for kind in seats:
        if kind not in PLAYERS:
            raise ValueError(f"a playout's player is one of {', '.join(PLAYERS)}, not {kind!r}")
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"count must be a whole number of games, not {count!r}")
    game_id = game.info.id
    names = ["random" if kind == "random" else "heuristic" for kind in seats]
    results: list[Playout] = []
    for k in range(count):
        game_seed = seed + k
        choosers: dict[int, Chooser] = {}
        for seat, kind in enumerate(seats):
            rng = agent_rng(game_seed, seat)
            choosers[seat] = random_chooser(rng) if kind == "random" else rule_chooser(game_id, rng)
        state = game.new_initial_state()
        texts: list[str] = []

        def write(state: State, actor: int, action: int, texts: list[str] = texts) -> None:
            texts.append(state.action_to_string(action))

        decisions = _drive(state, chance_rng(game_seed), choosers, write if records else None, None)[1]
        record = GameRecord.of(game, state, seed=game_seed, agents=names, texts=texts) if records else None
        results.append(
            Playout(
                seed=game_seed, returns=state.returns(), length=state.move_number(), decisions=decisions, record=record
            )
        )
    return results


def _record_game(data: Mapping[str, Any]) -> Game:
    """Returns the game a record's JSON form was played with; raises ValueError if it cannot be replayed."""
    if not isinstance(data, Mapping) or data.get("format") != RECORD_FORMAT:
        raise ValueError("not a henge game record (its 'format' must be 'henge-record')")
    if data.get("format_version") != RECORD_VERSION:
        raise ValueError(f"record format version {data.get('format_version')!r}; this henge reads {RECORD_VERSION}")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise ValueError("record field 'options' must be an object")
    game = load(data.get("game"), data.get("players"), **options)  # type: ignore[arg-type]
    if data.get("version") != game.info.version:
        raise ValueError(
            f"the record was made with {game.info.id} version {data.get('version')}; "
            f"this henge plays version {game.info.version}"
        )
    return game


@dataclass(frozen=True)
class GameRecord:
    """The record of one game: what it was, who played it, and every action with its text.

    ``seed`` is None where it stays secret (a server's table); ``texts`` may be None in a record
    written by hand, and is then not checked on replay.
    """

    game: str
    version: str
    players: int
    options: dict[str, Any]
    seed: int | None
    agents: list[str]
    actions: list[int]
    texts: list[str] | None
    returns: list[float]

    @classmethod
    def of(cls, game: Game, state: State, *, seed: int | None, agents: list[str], texts: list[str]) -> GameRecord:
        """Returns the record of ``game`` played to ``state`` (its history is the actions)."""
        return cls(
            game=game.info.id,
            version=game.info.version,
            players=game.num_players,
            options=dict(game.options),
            seed=seed,
            agents=agents,
            actions=state.history(),
            texts=texts,
            returns=state.returns(),
        )

    def as_json(self) -> dict[str, Any]:
        """Returns the record as JSON data, its keys in the order every stored record has them (named
        apart from a state's ``to_json``: a record holds actions and texts, never a hidden card)."""
        return {
            "format": RECORD_FORMAT,
            "format_version": RECORD_VERSION,
            "game": self.game,
            "version": self.version,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "agents": list(self.agents),
            "actions": list(self.actions),
            "texts": None if self.texts is None else list(self.texts),
            "returns": list(self.returns),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        """Returns the record of JSON data; raises ValueError if it is not one this henge can replay."""
        game = _record_game(data)
        actions = data.get("actions")
        texts = data.get("texts")
        if not isinstance(actions, list):
            raise ValueError("record field 'actions' must be a list of action ids")
        if texts is not None and (not isinstance(texts, list) or len(texts) != len(actions)):
            raise ValueError("record field 'texts' must list one text per action")
        return cls(
            game=game.info.id,
            version=game.info.version,
            players=game.num_players,
            options=dict(data.get("options", {})),
            seed=data.get("seed"),
            agents=list(data.get("agents") or []),
            actions=list(actions),
            texts=None if texts is None else list(texts),
            returns=list(data.get("returns") or []),
        )

    def load_game(self) -> Game:
        """Returns the game this record was played with."""
        return load(self.game, self.players, **self.options)

    def replay(self) -> list[State]:
        """Returns every state of the game, from the initial one to the last; raises ValueError where a
        recorded text is not the text of its action."""
        state = self.load_game().new_initial_state()
        states = [state.clone()]
        for step, action in enumerate(self.actions):
            if self.texts is not None and state.action_to_string(action) != self.texts[step]:
                raise ValueError(
                    f"step {step}: action {action} is {state.action_to_string(action)!r}, "
                    f"the record says {self.texts[step]!r}"
                )
            state.apply_action(action)
            states.append(state.clone())
        return states
