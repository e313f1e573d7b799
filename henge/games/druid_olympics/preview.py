"""Druid Olympics: what a legal action will do, read from the seat's observation alone.

Movement is the point: ``move 16n`` does not say where the runner lands, so the
preview walks the course (:mod:`henge.games.druid_olympics.board`, a public fact
of the board) with the blocks the observation shows: the landing space, a lost
turn for ending on a block, the altar. A coloured-ring move with blocks in the
way says where it stops unpaid and where paying takes it; a horseshoe card says
where ``done`` would take the runner with the cards laid so far. Block choices
say when they move a piece already on the course.
"""

from __future__ import annotations

from typing import Any

from henge import box
from henge.games.druid_olympics import board
from henge.games.druid_olympics.board import ALTAR, BLUESTONE, HORSESHOE, INNER, NEED_END, TRILITHON

_COLOURED_30 = board.NUMBERED - 1
_TRI_CARD = box.TRILITHON_CARD_BASE


def _cover(obs: dict[str, Any]) -> list[int]:
    """Returns the course's block list (``board.py``) from the observation's blocks."""
    cover = [board.EMPTY] * board.SPACES
    for block in obs["blocks"]:
        owner = block["owner"]
        code = owner if owner is not None else TRILITHON + box.PLAYER_COLOURS.index(block["piece"].split()[1])
        cover[board.parse_space(block["space"])] = code
    return cover


class _Runner:
    """The seat's runner as the observation shows it, and the course it moves on."""

    def __init__(self, obs: dict[str, Any], seat: int) -> None:
        me = obs["runners"][seat]
        self.seat = seat
        self.colour: str = me["colour"]
        self.start: int = me["progress"]
        entered = me["entered_at"]
        self.end = int(entered.split()[1]) if entered else 0
        self.cover = _cover(obs)
        self.point_sum: int = obs.get("horseshoe_sum", board.POINT_SUM)  # named only where not D4's 10

    def where(self, after: int, end: int, short: bool = False) -> str:
        """Returns the text of ``after`` with a lost turn or the win it brings (D6, D9)."""
        text = board.runner_text(after, end)
        if after == ALTAR:
            return f"{text}: reaches the altar and wins"
        if after == self.start:
            return text
        space = after if after < HORSESHOE else BLUESTONE + board.stone_at(end, after)
        code = self.cover[space]
        lost = board.lost_turns(code, after >= HORSESHOE, self.seat)
        if not lost:
            return text
        turns = f"loses {lost} turn{'s' if lost > 1 else ''}"
        if short:
            return f"{text} ({turns})"
        piece = "trilithon" if code >= TRILITHON else "bar" if space < INNER else "disk"
        return f"{text}, lands on a {piece}: {turns}"

    def outcome(self, after: int, end: int | None = None) -> str:
        """Returns ``<colour> runner <from> -> <to>`` (or ``stays on``), with its consequence."""
        end = self.end if end is None else end
        came = board.runner_text(self.start, self.end)
        if after == self.start:
            return f"{self.colour} runner stays on {came}"
        return f"{self.colour} runner {came} -> {self.where(after, end)}"


def _cards(texts: list[str]) -> list[int]:
    return [box.parse_card(t) for t in texts]


def _coloured(runner: _Runner, card: int, hand: list[int], paid: int) -> str:
    """A coloured-ring move (D2, D5): where it ends with ``paid`` cards, and with what the hand can pay."""
    colour = box.CARD_COLOUR[card]
    cover, seat, start = runner.cover, runner.seat, runner.start
    _, way = board.coloured_way(cover, seat, start, colour)
    need = sum(board.extra_cost(cover[s], seat) for s in way)
    text = runner.outcome(board.coloured_move(cover, seat, start, colour, paid))
    spare = sum(1 for c in hand if c < _TRI_CARD and box.CARD_COLOUR[c] == colour)
    more = min(need - paid, spare)
    if more > 0:
        reach = board.coloured_move(cover, seat, start, colour, paid + more)
        text += f"; pay {more} {box.COLOURS[colour]}: {board.runner_text(reach, 0)}"
    return text


def _ring(runner: _Runner, card: int) -> str:
    """A numbered- or inner-ring move (D3, D5); reaching the horseshoe, both ends."""
    steps = box.CARD_NUMBER[card]
    after = board.ring_walk(runner.cover, runner.seat, runner.start, steps, runner.end)
    if after != NEED_END:
        return runner.outcome(after)
    ways = []
    for end in board.ENDS:
        reach = board.ring_walk(runner.cover, runner.seat, runner.start, steps, end)
        ways.append(f"{runner.where(reach, end if reach >= HORSESHOE else 0, short=True)} by stone {end}")
    return f"{runner.colour} runner -> {' or '.join(ways)}"


def _horseshoe(runner: _Runner, table: list[int]) -> str:
    """The horseshoe (D4): every full 10 of the cards laid is one movement point (or the
    designer option's sum, which the observation names as ``horseshoe_sum``)."""
    points = sum(box.CARD_NUMBER[c] for c in table) // runner.point_sum
    after = board.horseshoe_walk(runner.cover, runner.seat, runner.end, runner.start, points)
    return f"{points} point{'' if points == 1 else 's'}: {runner.outcome(after)}"


def _block(obs: dict[str, Any], seat: int, text: str) -> str | None:
    """A block placement: whether it moves a piece already on the course, or drains the runner."""
    try:
        target = board.parse_target(text)
    except ValueError:
        return None
    if target.need == board.NEED_ALL:
        return "lays your whole hand: your runner does not move this turn"
    if target.piece < TRILITHON:
        name = board.PIECES[target.piece]
        held = obs["runners"][seat][name]
        return f"moves your {name} from {held}" if held else None
    colour = box.PLAYER_COLOURS[target.colour]
    place = obs["trilithons"][colour]
    return f"moves the {colour} trilithon from {place}" if place else None


def _use(obs: dict[str, Any], text: str) -> str | None:
    """A card paying for the block chosen: whether it completes the payment (D8)."""
    card = box.parse_card(text.split()[1])
    target = board.parse_target(obs["target"])
    hand = _cards(obs["hand"])
    hand.remove(card)
    if board.completions(target, hand, [*_cards(obs["table"]), card]) == [()]:
        return f"completes the payment: places {target.text}"
    return None


def preview(observation: dict[str, Any], seat: int, action_text: str) -> str | None:
    """Returns what ``action_text`` will do for ``seat``, from its observation alone (None: the text says it)."""
    obs = observation
    if obs.get("current_player") != seat or obs.get("hand") is None:
        return None
    phase = obs["phase"]
    word = action_text.split(" ", 1)[0]
    if phase == "block":
        return None if word == "pass" else _block(obs, seat, action_text)
    if phase == "block cards":
        return _use(obs, action_text) if word == "use" else None
    runner = _Runner(obs, seat)
    table = _cards(obs["table"])
    if phase == "move":
        if word == "move":
            card = box.parse_card(action_text.split()[1])
            if runner.start >= HORSESHOE:
                return "with done: " + _horseshoe(runner, [*table, card])
            if runner.start < _COLOURED_30:
                hand = _cards(obs["hand"])
                hand.remove(card)
                return _coloured(runner, card, hand, 0)
            return _ring(runner, card)
        if word == "done" and table:
            return _horseshoe(runner, table)
        return None
    if phase == "pay":
        paying = obs["paying"]
        hand = _cards(obs["hand"])
        if word == "pay":
            card = box.parse_card(action_text.split()[1])
            hand.remove(card)
            paid = paying["paid"] + 1
            text = _coloured(runner, table[0], hand, paid)
            return text if paid == paying["need"] else "with done: " + text
        if word == "done":
            return runner.outcome(
                board.coloured_move(runner.cover, seat, runner.start, box.CARD_COLOUR[table[0]], paying["paid"])
            )
        return None
    if phase == "enter" and word == "enter":
        end = int(action_text.split()[-1])
        after = board.ring_walk(runner.cover, seat, runner.start, box.CARD_NUMBER[table[0]], end)
        return runner.outcome(after, end if after >= HORSESHOE else 0)
    return None
