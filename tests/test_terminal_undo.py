"""Undo in the terminal: ``u`` (or ``undo``) takes back the person's last move of their turn in
progress, and only that; anything else is refused with the same words the web table uses."""

from __future__ import annotations

import contextlib
import io
import random
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import shipped_games
from rich.console import Console

import henge
import henge.terminal.app as terminal
from henge.agents import heuristics
from henge.cli import main
from henge.core import Game, State, open_turn, steps_of
from henge.server.tables import NO_UNDO
from henge.terminal.app import QuitGame, parse_choice, play_in_terminal

SHIPPED = shipped_games()
DECISIONS = 80
"""The person's decisions per game before the test quits it."""


def _open_turn(game: Game, history: list[int], seat: int) -> int:
    """The person's turn in progress after ``history``, from the engine alone."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return open_turn(steps_of(game, history), seat) if state.current_player() == seat else 0


class Person:
    """Answers the terminal's questions: tries ``u`` at about half of the decisions, else picks a legal
    choice at random, and checks each answer to an undo against the engine."""

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)
        self.state: State | None = None
        self.decisions = 0
        self.tried: tuple[list[int], int] | None = None
        """The history and the expected count of an undo just asked for."""
        self.just_undone = False
        self.refused = self.taken_back = 0
        self.output: io.StringIO | None = None
        self.mark = 0

    def decide(self, state: State) -> None:
        """The terminal asks the person a new question at ``state`` (a copy)."""
        if self.tried is not None:  # the undo was granted: the state is the one before its last move
            history, expected = self.tried
            assert expected > 0, "an undo was granted where the turn rule allows none"
            assert state.history() == history[:-1]
            assert f"taken back: {self.game.action_text(history[-1])}" in self._since()
            self.taken_back += 1
            self.tried = None
            self.just_undone = True
        self.state = state
        self.decisions += 1

    def _since(self) -> str:
        assert self.output is not None
        text = self.output.getvalue()
        shown, self.mark = text[self.mark :], len(text)
        return shown

    def answer(self) -> str:
        state = self.state
        assert state is not None
        if self.tried is not None:  # asked again at the same decision: the undo was refused
            history, expected = self.tried
            assert expected == 0, "an undo was refused where the turn rule allows it"
            assert state.history() == history
            assert NO_UNDO in self._since()
            self.refused += 1
            self.tried = None
            return self._choose(state)
        if self.decisions > DECISIONS:
            return "q"
        if not self.just_undone and self.rng.random() < 0.5:
            self.tried = (state.history(), _open_turn(self.game, state.history(), self.seat))
            self._since()
            return self.rng.choice(["u", "undo", " U "])
        self.just_undone = False
        return self._choose(state)

    def _choose(self, state: State) -> str:
        texts = state.legal_action_texts()
        pick = self.rng.randrange(len(texts))
        return str(pick + 1) if self.rng.random() < 0.5 else texts[pick]


class Scripted(Console):
    """A console whose questions the person answers."""

    def __init__(self, person: Person) -> None:
        self.buffer = io.StringIO()
        super().__init__(file=self.buffer, width=120, color_system=None)
        self.person = person
        person.output = self.buffer

    def input(self, prompt: Any = "", **_options: Any) -> str:
        self.print(prompt, end="")
        return self.person.answer()


@pytest.mark.parametrize("game_id", SHIPPED)
def test_undo_takes_back_exactly_the_moves_of_the_turn_in_progress(monkeypatch, game_id):
    info = henge.game_class(game_id).info
    game = henge.load(game_id, min(max(3, info.min_players), info.max_players))
    person = Person(game, 0, seed=len(game_id))
    original = terminal.make_decision

    def watched(state: State, seat: int, rng: random.Random, *, samples: bool) -> Any:
        if seat == person.seat:
            person.decide(state.clone())
        return original(state, seat, rng, samples=samples)

    monkeypatch.setattr(terminal, "make_decision", watched)
    bots = ["heuristic" if heuristics.has_heuristic(game_id) else "random"]
    with contextlib.suppress(QuitGame):  # the person quits after DECISIONS decisions, or the game ends
        play_in_terminal(Scripted(person), game, seat=0, bots=bots, seed=3)
    assert person.refused > 0
    assert person.taken_back > 0, f"{game_id}: no turn of several moves came up"


def test_undo_words_and_help():
    texts = ["play 13d", "done", "undo the knot"]
    assert parse_choice("u", texts) == "undo"
    assert parse_choice("  UNDO ", texts) == "undo"
    assert parse_choice("undo the knot", texts) == 2  # a choice's own text wins
    assert parse_choice("und", texts) == 2  # and so does the start of one
    result = CliRunner().invoke(
        main, ["play", "stonerush", "-n", "3", "--seed", "3"], input="u\n?\nq\n", terminal_width=120
    )
    assert result.exit_code == 130
    assert "u to undo" in result.output
    assert NO_UNDO in result.output  # a turn's first move: nothing to take back
    assert "u (undo) takes back your last move of this turn" in " ".join(result.output.split())  # the help
