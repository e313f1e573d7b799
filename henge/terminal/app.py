"""The terminal loops: a person at one seat against bots, and stepping through a record."""

from __future__ import annotations

import secrets
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from henge.agents import Agent, Decision, make_agent, make_decision
from henge.core import TERMINAL, Game, GameRecord, State, Step, advance, agent_rng, chance_rng, open_turn
from henge.records import agent_name, chooser, replay
from henge.terminal import decision_text, renderer

QUIT_WORDS = {"q", "quit", "exit"}
UNDO_WORDS = {"u", "undo"}
NO_UNDO = "nothing to undo: only your own moves of this turn, before anything is revealed"
HELP = (
    "Type the number of a choice or its text (the start of it is enough when only one choice begins so); "
    "? lists the choices again, u (undo) takes back your last move of this turn, q quits."
)


class QuitGame(Exception):
    """The person asked to leave the game."""


class TakeBack(Exception):
    """The person asked to take back their last move of the turn in progress."""


class TerminalPlayer:
    """A person at the keyboard: shows the seat's view and asks for a legal choice until given one."""

    name = "human"
    needs_samples = False

    def __init__(self, console: Console, game_id: str) -> None:
        self.console = console
        self.game_id = game_id
        self.render = renderer(game_id)
        self.undoable = 0
        """How many of the person's moves of their turn in progress may be taken back now."""

    def choose(self, decision: Decision) -> int:
        """Returns the action the person picks by number or by text; raises TakeBack when they ask to
        take back a move that may be (a refused undo is answered, and the question asked again)."""
        console = self.console
        console.print(Rule())
        console.print(self.render(decision.observation))
        console.print(Text(decision_text(self.game_id, decision.observation), style="bold cyan"))
        self._list(decision)
        while True:
            answer = console.input("[bold]your choice[/] (number or text, ? to list, u to undo, q to quit): ")
            choice = parse_choice(answer, decision.legal_texts)
            if isinstance(choice, int):
                return decision.legal_actions[choice]
            if choice == "list":
                console.print(Text(HELP, style="dim"))
                self._list(decision)
            elif choice == "quit":
                raise QuitGame
            elif choice == "undo":
                if self.undoable:
                    raise TakeBack
                console.print(Text(NO_UNDO, style="red"))
            else:
                console.print(Text(choice, style="red"))

    def _list(self, decision: Decision) -> None:
        table = Table(show_header=False, box=None, padding=(0, 2))
        for number, text in enumerate(decision.legal_texts, start=1):
            table.add_row(f"{number:>3}", text)
        self.console.print(table)


def parse_choice(answer: str, legal_texts: list[str]) -> int | str:
    """Returns the index of the chosen legal text, or 'list', 'quit', 'undo' or an error message."""
    words = " ".join(answer.split()).lower()
    if words in ("?", "help", "list"):
        return "list"
    if words in QUIT_WORDS:
        return "quit"
    if words.isdigit():
        number = int(words)
        if 1 <= number <= len(legal_texts):
            return number - 1
        return f"there is no choice {number}: choose 1 to {len(legal_texts)}"
    lowered = [t.lower() for t in legal_texts]
    if words in lowered:
        return lowered.index(words)
    if words in UNDO_WORDS:
        return "undo"
    if not words:
        return f"type a number 1 to {len(legal_texts)} or the text of a choice"
    near = [t for t in legal_texts if t.lower().startswith(words)]
    if len(near) == 1:
        return legal_texts.index(near[0])
    hint = f" (did you mean {', '.join(near[:5])}?)" if near else ""
    return f"{answer.strip()!r} is not a legal choice now{hint}; type a number 1 to {len(legal_texts)} or its text"


def play_in_terminal(console: Console, game: Game, *, seat: int, bots: list[str], seed: int | None) -> dict[str, Any]:
    """Plays one game with a person at ``seat`` and bots elsewhere; returns the record.

    Chance and the bots draw from ``seed`` as :func:`henge.records.play` makes them. The person may
    take back their moves of the turn in progress (see :func:`henge.core.open_turn`): the state is
    replayed from its history without the last one."""
    person = TerminalPlayer(console, game.info.id)
    bot_names = iter(bots * game.num_players)
    players: list[Agent] = [person if k == seat else make_agent(next(bot_names)) for k in range(game.num_players)]
    if seed is None:
        seed = secrets.randbits(62)
    chance = chance_rng(seed)
    rngs = [agent_rng(seed, k) for k in range(game.num_players)]
    bots_at = {k: chooser(agent, rngs[k]) for k, agent in enumerate(players) if agent is not person}
    state = game.new_initial_state()
    steps: list[Step] = []
    texts: list[str] = []

    def write(state: State, actor: int, action: int) -> None:
        steps.append(Step(actor, actor >= 0 and state.reveals(action)))
        texts.append(state.action_to_string(action))

    while (player := advance(state, chance, bots_at, write)) != TERMINAL:
        decision = make_decision(state, player, rngs[player], samples=person.needs_samples)
        person.undoable = open_turn(steps, player)
        try:
            action = person.choose(decision)
        except TakeBack:
            state = _without_last(game, state)
            steps.pop()
            console.print(Text(f"taken back: {texts.pop()}", style="yellow"))
            continue
        write(state, player, action)
        state.apply_action(action)
    record = GameRecord.of(game, state, seed=seed, agents=[agent_name(a) for a in players], texts=texts).as_json()
    final = replay(record)[-1]
    console.print(Rule("the end"))
    console.print(renderer(game.info.id)(final.observation(seat)))
    returns = record["returns"]
    mine = returns[seat]
    best = max(returns)
    verdict = (
        "You win!"
        if mine == best and returns.count(best) == 1
        else "You share the win."
        if mine == best
        else "You lose."
    )
    console.print(Text(verdict, style="bold green" if mine == best else "bold red"))
    return record


def _without_last(game: Game, state: State) -> State:
    """Returns the state replayed from ``state``'s history without its last action."""
    again = game.new_initial_state()
    for action in state.history()[:-1]:
        again.apply_action(action)
    return again


def show_replay(console: Console, record: dict[str, Any], *, step: int | None = None) -> None:
    """Steps through a recorded game with everything revealed (or shows one step)."""
    states = replay(record)
    game_id = record["game"]
    texts = record["texts"]
    draw = renderer(game_id)
    if step is not None:
        _show_step(console, draw, states, texts, step)
        return
    at = 0
    while True:
        _show_step(console, draw, states, texts, at)
        answer = (
            console.input(
                f"[bold]step {at}/{len(states) - 1}[/] (enter: next, b: back, number: go to step, e: end, q: quit): "
            )
            .strip()
            .lower()
        )
        if answer in QUIT_WORDS:
            return
        if answer == "b":
            at = max(0, at - 1)
        elif answer == "e":
            at = len(states) - 1
        elif answer.isdigit():
            at = min(int(answer), len(states) - 1)
        elif answer == "":
            if at == len(states) - 1:
                return
            at += 1
        else:
            console.print(Text("enter, b, e, q or a step number", style="red"))


def _show_step(console: Console, draw: Any, states: list[State], texts: list[str], at: int) -> None:
    if not 0 <= at < len(states):
        raise ValueError(f"steps run 0..{len(states) - 1}, not {at}")
    state = states[at]
    console.print(Rule(f"step {at}" + (f": {texts[at - 1]}" if at else ": the start")))
    console.print(draw(state.observation(None)))
    # Everything revealed: what each seat sees beyond the spectator's view.
    public = state.observation(None)
    hands = Table(title="hidden from the others", title_justify="left", box=None, show_header=False)
    for seat in range(state.game.num_players):
        seen = state.observation(seat)
        secret = {k: v for k, v in seen.items() if k != "seat" and public.get(k) != v}
        hands.add_row(f"seat {seat}", Text(", ".join(f"{k}: {v}" for k, v in secret.items()) or "-"))
    console.print(hands)
