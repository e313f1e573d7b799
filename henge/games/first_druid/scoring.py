"""First Druid's board: the altar, the trilithons, the spirit contest and the score (FD7, FD9, FD10, FD12)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henge import box
from henge.games.first_druid.actions import NUMBER, WILD_BASE
from henge.games.first_druid.knowledge import note_bids_shown

if TYPE_CHECKING:
    from henge.games.first_druid.position import Position


def run_points(owners: list[int], players: int) -> list[int]:
    """Returns each seat's points for unbroken runs: 1 + 2 + 3 ... per run (-1 is a gap)."""
    points = [0] * players
    length = 0
    for i, owner in enumerate(owners):
        length = length + 1 if i and owner == owners[i - 1] else 1
        if owner >= 0:
            points[owner] += length
    return points


def scores(state: Position) -> list[int]:
    """FD7: the druid's number plus 1 + 2 + 3 ... per unbroken run of clans and of spirits."""
    n = state.n
    clans = run_points(state.clans, n)
    spirits = run_points(state.spirits, n)
    return [state.pos[s] + clans[s] + spirits[s] for s in range(n)]


def complete_altar(state: Position) -> str:
    """The altar is dressed: bars go home, the single top dresser +1, those without a bar -1 (FD12)."""
    counts = [state.altar.count(s) for s in range(state.n)]
    state.altar = []
    best = max(counts)
    text = "; the altar is complete"
    if counts.count(best) == 1:
        top = counts.index(best)
        state.pos[top] = min(state.pos[top] + 1, box.RING_SPACES)
        text += f", seat {top} moves forward"
    for seat in range(state.n):
        if counts[seat] == 0:
            state.pos[seat] = max(state.pos[seat] - 1, 1)
    return text


def build(state: Position, p: int, full: bool) -> str:
    """Builds the next section; ``full``: an upright drains (FD13), a capstone takes a disk (FD10)."""
    section = state.sections
    state.sections += 1
    t = section // 3
    if section % 3 < 2:
        if full:  # FD13: one random card from each other non-empty hand
            state.drains = [(p + i) % state.n for i in range(1, state.n) if state.hands[(p + i) % state.n]]
        return f"builds upright {section % 3 + 1} of trilithon {t + 1}" + (", draining" if full else "")
    if full and state.disks_left(p) > 0:
        state.owners[t] = p
        return f"completes trilithon {t + 1} and claims it"
    return f"completes trilithon {t + 1}, unclaimed"


def bid_value(state: Position, seat: int, cards: list[int], colour: int | None = None) -> int:
    """FD9: the sum of the contest colour's cards (``colour``: the contest's colour index, worked
    out from the state if not given); all cards count for that colour's player; the own trilithon
    card counts 30 of the contest colour; others' trilithon cards 0."""
    if not cards:
        return 0
    if colour is None:
        colour = box.colour_index(state.contest)
    element = state.colours[seat] == colour
    value = 0
    for c in cards:
        if c >= WILD_BASE:
            value += 30 if c - WILD_BASE == state.colours[seat] else 0
        elif element or box.CARD_COLOUR[c] == colour:
            value += NUMBER[c]
    return value


def reveal(state: Position) -> tuple[str, str]:
    """FD9: the bids are shown; a single highest bid above 0 places a bar; all bid cards go.

    Returns the record's text (every bid, in the order its cards were laid) and the log's."""
    colour = box.colour_index(state.contest)
    values = [bid_value(state, s, state.bids[s], colour) for s in range(state.n)]
    best = max(values)
    winner = values.index(best) if best > 0 and values.count(best) == 1 else -1
    placed = winner >= 0 and state.bars_left(winner) > 0  # FD10
    if placed:
        state.spirits[state.contest - 1] = winner
        state.board_changed()
    bids = tuple(map(tuple, state.bids))
    state.last_contest = (state.contest, bids, tuple(values), winner, placed)
    shown = ", ".join(
        [
            f"seat {seat} {' '.join([box.CARD_TEXT[c] for c in bid]) if bid else 'nothing'} ({values[seat]})"
            for seat, bid in enumerate(bids)
        ]
    )
    for seat in range(state.n):
        state.discard.extend(state.bids[seat])
        state.bids[seat] = []
    note_bids_shown(state, bids)
    outcome = f"seat {winner} wins the spirit" if placed else "no spirit is placed"
    space = state.contest
    state.contest = 0
    return f"the bids for space {space} are shown: {shown}; {outcome}", f"spirit contest for space {space}: {outcome}"
