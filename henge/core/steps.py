"""Turns: runs of one seat's decisions, as undo, the log and the table read them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from henge.core.state import Game


@dataclass(frozen=True)
class Step:
    """One applied action as turns see it: who took it (CHANCE for a chance outcome) and whether
    it was a reveal (:meth:`State.reveals`; always False for chance)."""

    actor: int
    reveal: bool = False


@dataclass(frozen=True)
class Turn:
    """A turn: ``seat``'s decisions ``steps[start:end]``, a maximal run of one seat's decisions
    with no other seat's decision, chance event or reveal between; a reveal ends its turn."""

    seat: int
    start: int
    end: int


def steps_of(game: Game, history: Sequence[int]) -> list[Step]:
    """Returns the steps of ``history`` (every action, chance outcomes included) replayed from the
    start of ``game``: who took each and whether it was a reveal."""
    state = game.new_initial_state()
    found = []
    for action in history:
        actor = state.current_player()
        found.append(Step(actor, actor >= 0 and state.reveals(action)))
        state.apply_action(action)
    return found


def turns(steps: Sequence[Step]) -> list[Turn]:
    """Returns the turns of a game's steps, oldest first (chance steps belong to none)."""
    found: list[Turn] = []
    start = 0
    for index, step in enumerate(steps):
        if step.actor < 0:
            start = index + 1
            continue
        opened = index == start or steps[index - 1].actor != step.actor or steps[index - 1].reveal
        if opened:
            start = index
            found.append(Turn(step.actor, index, index + 1))
        else:
            found[-1] = Turn(step.actor, start, index + 1)
    return found


def latest_turns(steps: Sequence[Step], end: int | None = None) -> Iterator[Turn]:
    """Yields the turns of ``steps[:end]`` newest first, as :func:`turns` finds them, reading back
    from ``end`` only as far as the caller asks (the latest turns of a long game cost no more)."""
    index = len(steps) if end is None else end
    while index > 0:
        step = steps[index - 1]
        if step.actor < 0:
            index -= 1
            continue
        start = index - 1
        while start > 0 and steps[start - 1].actor == step.actor and not steps[start - 1].reveal:
            start -= 1
        yield Turn(step.actor, start, index)
        index = start


def open_turn(steps: Sequence[Step], to_move: int) -> int:
    """Returns how many of the last ``steps`` are the turn ``to_move`` has in progress: its own
    decisions since the last chance event, other seat's decision or reveal (0 if none). These are
    the steps a seat may take back (undo) and that nobody else sees until the turn ends."""
    count = 0
    for step in reversed(steps):
        if step.actor != to_move or step.reveal:
            break
        count += 1
    return count
