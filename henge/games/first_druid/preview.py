"""First Druid: what a legal action will do, read from the seat's observation alone.

A pick says what the cards on the table add up to and which effects they could
then be spent on (FD6); an effect says what it changes: where the druid goes,
which bluestone, spirit space or trilithon it takes and what that does to the
seat's score (FD7), what completing the altar does to every druid (FD12). An
inactive turn says how many cards it draws (FD3, FD5), an answer to an offer
what changes hands, and a bid card what the bid is then worth (FD9).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from henge import box

_SUM = 31
_SECTIONS = 3 * box.TRILITHON_SPACES


def _runs(owners: list[int | None], players: int) -> list[int]:
    """Returns each seat's points for unbroken runs: 1 + 2 + 3 ... per run (None is a gap) (FD7)."""
    points = [0] * players
    length = 0
    for i, owner in enumerate(owners):
        length = length + 1 if i and owner == owners[i - 1] else 1
        if owner is not None:
            points[owner] += length
    return points


def _score(obs: dict[str, Any], seat: int, druid: int, clans: list[int], spirits: list[int | None]) -> int:
    players = obs["players"]
    return druid + _runs(list(clans), players)[seat] + _runs(spirits, players)[seat]


def _scored(obs: dict[str, Any], seat: int, text: str, **change: Any) -> str:
    """``text`` with the seat's score before and after the change (druid, clans or spirits)."""
    druid = change.get("druid", obs["druids"][seat])
    after = _score(obs, seat, druid, change.get("clans", obs["bluestones"]), change.get("spirits", obs["spirits"]))
    before = obs["scores"][seat]
    return f"{text}; your score {before} -> {after}" if after != before else text


def _who(seat: int, other: int) -> str:
    return "you" if other == seat else f"seat {other}"


def _table_numbers(obs: dict[str, Any]) -> list[int]:
    return [
        obs["wild_number"] if text.startswith("T-") else box.CARD_NUMBER[box.parse_card(text)] for text in obs["table"]
    ]


def _effects(obs: dict[str, Any], seat: int, numbers: list[int], phase_ok: bool) -> list[str]:
    """Returns the effects the cards on the table could be spent on (the rules' resolutions, FD6, FD10, FD11)."""
    found = []
    disks = obs["disks_left"][seat] > 0
    bars = obs["bars_left"][seat] > 0
    clans = obs["bluestones"]
    total = sum(numbers)
    if phase_ok and total >= obs["druids"][seat]:
        found.append("advance")
    summed = len(numbers) >= 2 and total == _SUM
    pair = len(numbers) == 2 and numbers[0] == numbers[1]
    if summed and disks and len(clans) < box.BLUESTONES:
        found.append("clan")
    if (summed or pair) and bars:
        found.append("dress altar")
    sections = sum(t["sections"] for t in obs["trilithons"])
    if pair and sections < _SECTIONS:
        found.append("build")
        others = any(size for k, size in enumerate(obs["hand_sizes"]) if k != seat)
        if (sections % 3 < 2 and others) or (sections % 3 == 2 and disks):
            found.append("build only")
    ordered = sorted(numbers)
    run = all(b == a + 1 for a, b in pairwise(ordered))
    if run and len(numbers) == 3:
        if disks and clans and clans[-1] != seat:
            found.append("convert clan")
        top = _top_spirit(obs["spirits"])
        if bars and top >= 0 and obs["spirits"][top] != seat:
            found.append("convert spirit")
    if run and len(numbers) == 4 and disks:
        found += [f"take over {t + 1}" for t, tri in enumerate(obs["trilithons"]) if tri["owner"] not in (None, seat)]
    return found


def _top_spirit(spirits: list[int | None]) -> int:
    """Returns the index of the highest-numbered spirit bar on the outer ring, or -1 (FD11)."""
    for index in range(len(spirits) - 1, -1, -1):
        if spirits[index] is not None:
            return index
    return -1


def _pick(obs: dict[str, Any], seat: int, text: str) -> str:
    """``pick X`` / ``pick wild N``: the table then, and what it could be spent on."""
    day = obs["time"]["phase"] == "day"
    cards = [box.parse_card(t) for t in obs["table"]]
    phase_ok = all(c >= box.TRILITHON_CARD_BASE or box.CARD_IS_DAY[c] == day for c in cards)
    numbers = _table_numbers(obs)
    words = text.split()
    if words[1] == "wild":
        numbers.append(int(words[2]))
    else:
        card = box.parse_card(words[1])
        numbers.append(box.CARD_NUMBER[card])
        phase_ok = phase_ok and box.CARD_IS_DAY[card] == day
    effects = _effects(obs, seat, numbers, phase_ok)
    table = f"table {' + '.join(map(str, numbers))} = {sum(numbers)}" if len(numbers) > 1 else f"table {numbers[0]}"
    return f"{table}: {', '.join(effects)} possible" if effects else f"{table}: no effect yet"


def _altar(obs: dict[str, Any], seat: int) -> str:
    """``dress altar``: a bar on the altar; the last one completes it (FD12)."""
    players = obs["players"]
    altar = [*obs["altar"], seat]
    if len(altar) < players:
        return f"your bar on the altar ({len(altar)} of {players})"
    counts = [altar.count(s) for s in range(players)]
    best = max(counts)
    druids = list(obs["druids"])
    if counts.count(best) == 1:
        top = counts.index(best)
        druids[top] = min(druids[top] + 1, box.RING_SPACES)
    for s in range(players):
        if counts[s] == 0:
            druids[s] = max(druids[s] - 1, 1)
    moved = [
        f"{_who(seat, s)} {a} -> {b}" for s, (a, b) in enumerate(zip(obs["druids"], druids, strict=True)) if a != b
    ]
    return "completes the altar: " + (", ".join(moved) if moved else "no druid moves")


def _build(obs: dict[str, Any], seat: int, full: bool) -> str:
    """``build`` / ``build only``: the next section of a trilithon (FD10, FD13)."""
    section = sum(t["sections"] for t in obs["trilithons"])
    t = section // 3 + 1
    if section % 3 < 2:
        text = f"upright {section % 3 + 1} of trilithon {t}"
        if full:
            drained = sum(1 for k, size in enumerate(obs["hand_sizes"]) if k != seat and size)
            text += f", draining a card from {drained} hand{'' if drained == 1 else 's'}"
        return text
    if full and obs["disks_left"][seat] > 0:
        return f"completes trilithon {t} and claims it"
    return f"completes trilithon {t}, unclaimed"


def _effect(obs: dict[str, Any], seat: int, text: str) -> str | None:
    druid = obs["druids"][seat]
    clans = obs["bluestones"]
    spirits = obs["spirits"]
    if text == "advance":
        after = druid + 1
        end = ": the game ends" if after >= box.RING_SPACES else ""
        return _scored(obs, seat, f"your druid {druid} -> {after}{end}", druid=after)
    if text == "clan":
        return _scored(obs, seat, f"your clan on bluestone {len(clans) + 1}", clans=[*clans, seat])
    if text == "convert clan":
        return _scored(
            obs, seat, f"seat {clans[-1]}'s clan on bluestone {len(clans)} turns yours", clans=[*clans[:-1], seat]
        )
    if text == "convert spirit":
        top = _top_spirit(spirits)
        changed = [*spirits[:top], seat, *spirits[top + 1 :]]
        return _scored(obs, seat, f"seat {spirits[top]}'s spirit on space {top + 1} turns yours", spirits=changed)
    if text.startswith("take over "):
        t = int(text.split()[-1])
        return f"trilithon {t} passes from seat {obs['trilithons'][t - 1]['owner']} to you"
    if text == "dress altar":
        return _altar(obs, seat)
    if text in ("build", "build only"):
        return _build(obs, seat, text == "build")
    return None


def _bid_value(obs: dict[str, Any], seat: int, cards: list[int]) -> int:
    """FD9: the contest colour's cards; all of them for that colour's player; the own wild card 30."""
    contest = obs["contest"]
    colour = box.COLOURS.index(contest["colour"])
    own = box.COLOURS.index(obs["colours"][seat])
    value = 0
    for c in cards:
        if c >= box.TRILITHON_CARD_BASE:
            value += 30 if c - box.TRILITHON_CARD_BASE == own else 0
        elif own == colour or box.CARD_COLOUR[c] == colour:
            value += box.CARD_NUMBER[c]
    return value


def _bid(obs: dict[str, Any], seat: int, text: str) -> str | None:
    bid = [box.parse_card(t) for t in obs["contest"]["bid"]]
    space = obs["contest"]["number"]
    if text == "seal bid":
        return f"your bid for space {space} is worth {_bid_value(obs, seat, bid)}"
    if text.startswith("bid "):
        before = _bid_value(obs, seat, bid)
        after = _bid_value(obs, seat, [*bid, box.parse_card(text.split()[1])])
        return f"your bid for space {space}: {before} -> {after}"
    return None


def _pass(obs: dict[str, Any], seat: int) -> str:
    """The inactive turn (FD3): 1 + trilithons owned, none while the neutral figure is ahead (FD5)."""
    if not obs["in_contact"][seat]:
        return "inactive turn: no draw, the neutral figure is ahead of your druid"
    owned = sum(1 for t in obs["trilithons"] if t["owner"] == seat)
    count = min(1 + owned, obs["draw_pile"] + len(obs["discard_pile"]))
    return f"inactive turn: you draw {count} card{'' if count == 1 else 's'}"


def preview(observation: dict[str, Any], seat: int, action_text: str) -> str | None:
    """Returns what ``action_text`` will do for ``seat``, from its observation alone (None: the text says it)."""
    obs = observation
    if obs.get("current_player") != seat or obs.get("hand") is None:
        return None
    phase = obs["phase"]
    if phase == "turn":
        if action_text.startswith("pick "):
            return _pick(obs, seat, action_text)
        if action_text == "pass":
            return _pass(obs, seat)
        return _effect(obs, seat, action_text)
    if phase == "answer" and action_text == "accept":
        offer = obs["offer"]
        return f"you give {' '.join(offer['ask'])} and get {' '.join(offer['give'])}"
    if phase == "bid":
        return _bid(obs, seat, action_text)
    return None
