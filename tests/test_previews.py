"""Move previews: what a legal action will do, said from the seat's observation alone.

Over positions of seeded random games, for every legal action with a preview:

* the preview is short (at most 100 characters) and names no card the seat cannot see;
* states the seat cannot tell apart (``resample_from_infostate``) give the same previews, so a
  preview tells nothing the observation does not (the leak property);
* where the preview states an outcome (a landing space, a lost turn, a druid's new space, what
  stays on the board, an award), the action applied to a copy of the real state brings exactly it.

The checks are per game, read from the record and observations after the action.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from games.spell_casting.spell_casting_positions import SPELL_CASTING_PARK, spell_casting_position

import henge
from henge import box
from henge.core import Decision, State, plugin
from henge.games.druid_olympics import board as druid_board
from henge.games.fightin import events as fightin_events
from henge.games.first_druid import scoring as first_druid_scoring
from henge.games.spell_casting import board as sb

CARD = re.compile(r"(?<![\w-])(?:[1-9]|[12]\d|30)[nd]\b|T-(?:white|blue|green|yellow|red)")


def _previews(state: State, seat: int) -> dict[str, str]:
    preview = plugin(state.game.info.id).load_preview()
    assert preview is not None
    obs = state.observation(seat)
    found = {}
    for text in state.legal_action_texts():
        shown = preview(obs, seat, text)
        if shown is not None:
            found[text] = shown
    return found


def _decisions(game_id: str, players: int, seed: int, games: int, bot: float = 0.0, **options: Any) -> Iterator[State]:
    """Yields every decision of seeded games (the state must not be changed): each decision is the
    game's rule-based player's with probability ``bot``, else a random one."""
    game = henge.load(game_id, players, **options)
    player = plugin(game_id).load_bot()
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            yield state
            seat = state.current_player()
            if player is not None and rng.random() < bot:
                legal = state.legal_actions()
                decision = Decision(game_id, seat, state.observation(seat), legal, state.legal_action_texts(), rng)
                state.apply_action(player.choose(decision))
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def _after(state: State, text: str) -> State:
    new = state.clone()
    new.apply_text(text)
    return new


def _entries(before: State, after: State, seat: int) -> list[tuple[int, str]]:
    """Returns the record entries ``seat`` read between two states."""
    old = len(before.information_state(seat))
    return [(actor, text) for actor, text in after.information_state(seat)[old:]]


def _to_decision(state: State, rng: random.Random) -> State:
    """Returns a copy of ``state`` with chance outcomes drawn until a decision or the end."""
    state = state.clone()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _run(
    game_id: str,
    players: int,
    seed: int,
    games: int,
    check: Callable[[State, int, str, str], str | None],
    bot: float = 0.0,
    **options: Any,
) -> Counter[str]:
    """Checks every preview of every decision of the games; returns how often each kind was checked."""
    kinds: Counter[str] = Counter()
    for number, state in enumerate(_decisions(game_id, players, seed, games, bot, **options)):
        seat = state.current_player()
        previews = _previews(state, seat)
        seen = set(CARD.findall(json.dumps(state.observation(seat))))
        for text, shown in previews.items():
            assert len(shown) <= 100, (text, shown)
            for card in CARD.findall(shown):
                assert card in seen, f"{text!r}: {shown!r} names {card}, which seat {seat} does not see"
            kind = check(state, seat, text, shown)
            if kind:
                kinds[kind] += 1
        if number % 11 == 0:  # the leak property: every state the seat cannot tell apart, the same previews
            for k in range(2):
                other = state.resample_from_infostate(seat, random.Random(k))
                assert other.observation(seat) == state.observation(seat)
                assert _previews(other, seat) == previews
            kinds["leak"] += 1
    return kinds


# --- Druid Olympics ------------------------------------------------------------------------------

_RUNNER = re.compile(
    r"^(?:with done: )?(?:\d+ points?: )?\w+ runner (?:stays on (?P<stay>.+?)|(?P<came>.+?) -> (?P<to>.+?))"
    r"(?:, lands on a \w+: loses (?P<lost>\d) turns?|: reaches the altar and (?P<won>wins))?"
    r"(?:; pay (?P<pay>\d) (?P<colour>\w+): (?P<reach>.+))?$"
)
_ENDS = re.compile(r"^\w+ runner -> (?P<one>.+) by stone 1 or (?P<nineteen>.+) by stone 19$")
_SHORT = re.compile(r"^(?P<at>.+?)(?: \(loses (?P<lost>\d) turns?\))?$")


def _moved(before: State, after: State, seat: int) -> tuple[str, str, int, bool]:
    """Returns (from, to, turns lost, won) of the seat's move recorded between two states."""
    move = lost = None
    won = False
    for actor, text in _entries(before, after, seat):
        if actor != seat:
            continue
        if text.startswith("moves with "):
            move = text.split(": ", 1)[1].split(" -> ")
        found = re.match(r"ends on a block on .+ and loses (\d) turn", text)
        if found:
            lost = int(found.group(1))
        won = won or text == "reaches the altar stone and wins"
    assert move is not None, "no move was made"
    return move[0], move[1], lost or 0, won


def _finish_move(state: State, seat: int) -> State:
    """Ends a move left open (``done`` while paying, or in the horseshoe with cards laid)."""
    obs = state.observation(seat)
    if state.current_player() == seat and obs["phase"] in ("pay", "move") and obs["table"]:
        return _after(state, "done")
    return state


def _druid_check(state: State, seat: int, text: str, shown: str) -> str | None:
    obs = state.observation(seat)
    phase = obs["phase"]
    word = text.split()[0]
    if phase in ("block", "block cards"):
        return _druid_block(state, seat, text, shown)
    assert phase in ("move", "pay", "enter") and word in ("move", "pay", "done", "enter"), (text, shown)
    ends = _ENDS.match(shown)
    if ends:
        entering = _after(state, text)
        assert entering.observation(seat)["phase"] == "enter", shown
        for end, claim in ((1, ends["one"]), (19, ends["nineteen"])):
            short = _SHORT.match(claim)
            assert short is not None
            done = _after(entering, f"enter stone {end}")
            _, to, lost, _ = _moved(state, done, seat)
            assert (to, lost) == (short["at"], int(short["lost"] or 0)), (text, shown, end)
        return "druid_olympics: both ends"
    claim = _RUNNER.match(shown)
    assert claim is not None, shown
    done = _finish_move(_after(state, text), seat)
    came, to, lost, won = _moved(state, done, seat)
    where = claim["stay"] or claim["to"]
    assert came == obs["runners"][seat]["at"] and to == where, (text, shown, came, to)
    assert lost == int(claim["lost"] or 0), (text, shown, lost)
    assert won == bool(claim["won"]), (text, shown)
    if claim["pay"]:  # paying the cards named brings the runner there
        paying = _after(state, text)
        for _ in range(int(claim["pay"])):
            pays = [t for t in paying.legal_action_texts() if t.startswith("pay ")]
            assert pays, (text, shown)
            paying = _after(paying, pays[0])
        _, reached, _, _ = _moved(state, _finish_move(paying, seat), seat)
        assert reached == claim["reach"], (text, shown, reached)
        return "druid_olympics: pay"
    if word == "move" and obs["runners"][seat]["progress"] >= druid_board.HORSESHOE:
        return "druid_olympics: horseshoe"
    return f"druid_olympics: {word}"


def _druid_block(state: State, seat: int, text: str, shown: str) -> str:
    placing = _after(state, text)
    if text.startswith("use "):
        target = shown.removeprefix("completes the payment: places ")
        assert any(t.startswith(f"places {target} with ") for _, t in _entries(state, placing, seat)), shown
        return "druid_olympics: use"
    while placing.observation(seat)["phase"] == "block cards":
        placing = _after(placing, placing.legal_action_texts()[0])
    me = placing.observation(seat)["runners"][seat]
    if shown.startswith("lays your whole hand"):
        assert me["drained"], shown
        return "druid_olympics: drained"
    target = druid_board.parse_target(text)
    found = re.match(r"moves (?:your (\w+)|the (\w+) trilithon) from (.+)$", shown)
    assert found is not None, shown
    if found[1]:
        assert state.observation(seat)["runners"][seat][found[1]] == found[3]
        assert me[found[1]] == druid_board.SPACE_TEXT[target.spaces[0]], (text, shown)
    else:
        assert state.observation(seat)["trilithons"][found[2]] == found[3]
        assert placing.observation(seat)["trilithons"][found[2]] == druid_board.place_text(target.spaces), (text, shown)
    return "druid_olympics: block moved"


@pytest.mark.parametrize("players", [3, 5])
def test_druid_olympics_previews_say_where_the_runner_lands(players: int) -> None:
    kinds = _run("druid_olympics", players, 7 + players, 4, _druid_check)
    for kind in ("move", "pay", "done", "enter", "both ends", "horseshoe", "use", "block moved", "drained"):
        if players == 5 and kind in ("pay", "both ends", "drained"):
            continue  # rarer: the three-player games cover them
        assert kinds[f"druid_olympics: {kind}"], (kind, kinds)
    assert kinds["leak"]


def test_druid_olympics_every_movement_action_names_its_landing_space() -> None:
    movement = 0
    for state in _decisions("druid_olympics", 4, 3, 3):
        seat = state.current_player()
        obs = state.observation(seat)
        previews = _previews(state, seat)
        for text in state.legal_action_texts():
            moving = text.startswith(("move ", "pay ", "enter stone ")) or (text == "done" and bool(obs["table"]))
            if not moving:
                continue
            movement += 1
            shown = previews.get(text)
            assert shown is not None and "runner" in shown, (text, shown)
            assert re.search(r"(->|stays on) (coloured|numbered|inner|bluestone|altar)", shown), shown
    assert movement > 50


# --- Stonerush -----------------------------------------------------------------------------------

_DRUID = re.compile(
    r"^(?P<done>with done: )?(?:(?P<black>black cards only: no druid moves)|(?P<druid>\w+) druid(?: \(yours\))? "
    r"(?:stays on (?P<stay>\d+)|(?P<start>\d+) -> (?P<to>\d+)(?:, bumped past the druids? on (?P<bumped>[\d, ]+))?"
    r"(?P<end>: the race ends)?))$"
)


def _stonerush_check(state: State, seat: int, text: str, shown: str) -> str:
    claim = _DRUID.match(shown)
    assert claim is not None, shown
    obs = state.observation(seat)
    after = _after(state, text)
    if claim["done"]:
        after = _after(after, "done")
    ended = [t for actor, t in _entries(state, after, seat) if actor == seat and t.startswith("ends the play")]
    assert len(ended) == 1, (text, shown)
    if claim["black"]:
        assert ended[0] == "ends the play: no druid moves"
        return "stonerush: black"
    druid = claim["druid"]
    if claim["stay"]:
        assert ended[0] == f"ends the play: the {druid} druid stays on {claim['stay']}", (text, shown, ended)
        return "stonerush: stays"
    assert ended[0] == f"ends the play: the {druid} druid moves from {claim['start']} to {claim['to']}", (shown, ended)
    if claim["bumped"]:
        others = {p for d, p in obs["druids"].items() if d != druid}
        assert {int(x) for x in claim["bumped"].split(", ")} <= others, shown
    assert bool(claim["end"]) == after.is_terminal(), (text, shown)
    if claim["end"]:
        return "stonerush: race ends"
    return "stonerush: bumped" if claim["bumped"] else "stonerush: moves"


@pytest.mark.parametrize("variant", ["standard", "bluestones"])
def test_stonerush_previews_say_where_the_druid_goes(variant: str) -> None:
    kinds = _run("stonerush", 3, 11, 3, _stonerush_check, variant=variant)
    for kind in ("black", "stays", "moves", "bumped", "race ends"):
        assert kinds[f"stonerush: {kind}"], (kind, kinds)
    assert kinds["leak"]


# --- Stonehenge Spell Casting Game ---------------------------------------------------------------

_COMPONENT = re.compile(
    r"^(?P<who>your|\w+'s) component (?:(?P<source>\w+ \d+) )?-> (?P<target>\w+ \d+(?: night| day)?)"
    r"(?:, pushing (?P<pushed>your|\w+'s) component on(?:: it slides to (?P<slide>\w+ \d+))?)?"
    r"(?: \((?P<inside>\d) of \d inside\)|: (?P<winner>\w+) casts? the spell and wins?)?$"
)
_FIGURE = re.compile(r"^(?P<figure>\w+) figure (?P<start>\d+ (?:night|day)) -> (?P<to>\d+ (?:night|day))$")


def _cell_owner(obs: dict[str, Any], cell: int) -> int | None:
    rings = obs["rings"]
    if cell >= sb.INNER_BASE:
        return rings["inner"][cell - sb.INNER_BASE]
    return rings[sb.RING_NAMES[cell // 30]][cell % 30]


def _spell_check(state: State, seat: int, text: str, shown: str) -> str:
    obs = state.observation(seat)
    after = _after(state, text)
    now = after.observation(seat)
    figure = _FIGURE.match(shown)
    if figure:
        assert obs["figures"][figure["figure"]] == figure["start"]
        assert now["figures"][figure["figure"]] == figure["to"], (text, shown)
        return "spell_casting: figure"
    claim = _COMPONENT.match(shown)
    assert claim is not None, shown

    def seat_of(who: str) -> int:
        return seat if who == "your" else obs["colours"].index(who.removesuffix("'s"))

    owner = seat_of(claim["who"])
    target = sb.CELL_BY_TEXT[claim["target"]]
    if claim["source"]:
        assert _cell_owner(obs, sb.CELL_BY_TEXT[claim["source"]]) == owner, shown
    else:
        assert obs["chain"]["component"] == owner, shown
    if claim["winner"]:
        assert after.is_terminal() and after.returns()[owner] > 0, (text, shown)
        return "spell_casting: wins"
    assert _cell_owner(now, target) == owner, (text, shown)
    if claim["inside"]:
        assert now["inner_counts"][owner] == int(claim["inside"]), (text, shown)
        return "spell_casting: inside"
    if claim["pushed"]:
        pushed = seat_of(claim["pushed"])
        assert _cell_owner(obs, target) == pushed, shown
        if claim["slide"]:
            assert now["phase"] != "displace" or now["chain"]["from"] != claim["target"], shown
            assert _cell_owner(now, sb.CELL_BY_TEXT[claim["slide"]]) == pushed, (text, shown)
            return "spell_casting: slides"
        assert now["phase"] == "displace" and now["chain"]["component"] == pushed, (text, shown)
        assert now["chain"]["from"] == claim["target"], (text, shown)
        return "spell_casting: pushes"
    assert _cell_owner(obs, target) is None, shown
    return "spell_casting: moves"


@pytest.mark.parametrize("players", [3, 4])
def test_spell_casting_previews_say_where_components_and_figures_go(players: int) -> None:
    kinds = _run("spell_casting", players, 5, 1, _spell_check)
    for kind in ("figure", "moves", "pushes", "inside", "wins"):
        assert kinds[f"spell_casting: {kind}"], (kind, kinds)
    assert kinds["leak"]


def test_spell_casting_a_push_with_no_way_left_says_where_it_slides() -> None:
    # The chain of the SC5 slide scenario: G pushed onto outer 5 leaves H there no legal direction.
    board = {"outer 7": 0, "outer 6": 1, "coloured 6": 2, "coloured 5": 3, "coloured 4": 1, "outer 4": 2}
    board["outer 5"] = 3
    state = spell_casting_position(board=board, park=SPELL_CASTING_PARK[:27] + ["middle 30"])
    for text in ("take in1", "done", "move outer 7 left", "displace in", "displace left", "displace left"):
        state.apply_text(text)
    state.apply_text("displace out")
    shown = _previews(state, 0)["displace right"]
    assert shown == "green's component -> outer 5, pushing yellow's component on: it slides to outer 7"
    assert _spell_check(state, 0, "displace right", shown) == "spell_casting: slides"


# --- First Druid ---------------------------------------------------------------------------------

_EFFECTS = ("advance", "clan", "dress altar", "build", "build only", "convert clan", "convert spirit")


def _score_claim(shown: str) -> int | None:
    found = re.search(r"your score \d+ -> (\d+)$", shown)
    return int(found.group(1)) if found else None


def _first_druid_check(state: State, seat: int, text: str, shown: str) -> str:
    obs = state.observation(seat)
    after = _after(state, text)
    now = after.observation(seat)
    score = _score_claim(shown)
    if score is not None:
        assert now["scores"][seat] == score, (text, shown, now["scores"])
    if text.startswith("pick "):
        found = re.match(r"^table (?:[\d + ]+ = )?(\d+): (?:(.+) possible|no effect yet)$", shown)
        assert found is not None, shown
        numbers = [now["wild_number"] if t.startswith("T-") else int(t[:-1]) for t in now["table"]]
        assert sum(numbers) == int(found[1]), (text, shown)
        legal = {t for t in after.legal_action_texts() if t in _EFFECTS or t.startswith("take over ")}
        assert legal == set(found[2].split(", ") if found[2] else []), (text, shown, legal)
        return "first_druid: pick"
    if text == "advance":
        found = re.match(r"your druid (\d+) -> (\d+)", shown)
        assert found is not None and obs["druids"][seat] == int(found[1]) and now["druids"][seat] == int(found[2])
        return "first_druid: advance"
    if text == "clan":
        found = re.match(r"your clan on bluestone (\d+)", shown)
        assert found is not None and now["bluestones"][int(found[1]) - 1] == seat, shown
        assert len(now["bluestones"]) == int(found[1])
        return "first_druid: clan"
    if text in ("convert clan", "convert spirit"):
        found = re.match(r"seat (\d+)'s (clan on bluestone|spirit on space) (\d+) turns yours", shown)
        assert found is not None, shown
        place = int(found[3]) - 1
        board = "bluestones" if text == "convert clan" else "spirits"
        assert obs[board][place] == int(found[1]) and now[board][place] == seat, (text, shown)
        return "first_druid: convert"
    if text.startswith("take over "):
        t = int(text.split()[-1]) - 1
        assert f"from seat {obs['trilithons'][t]['owner']} to you" in shown and now["trilithons"][t]["owner"] == seat
        return "first_druid: take over"
    if text == "dress altar":
        if shown.startswith("your bar on the altar"):
            found = re.match(r"your bar on the altar \((\d+) of \d+\)", shown)
            assert found is not None and len(now["altar"]) == int(found[1]) and now["altar"][-1] == seat, shown
            return "first_druid: altar"
        assert now["altar"] == [], shown
        moved = dict.fromkeys(range(obs["players"]), None)
        for who, before, later in re.findall(r"(you|seat \d+) (\d+) -> (\d+)", shown):
            moved[seat if who == "you" else int(who.split()[1])] = (int(before), int(later))
        for other, change in moved.items():
            expected = change or (obs["druids"][other], obs["druids"][other])
            assert (obs["druids"][other], now["druids"][other]) == expected, (shown, other)
        return "first_druid: altar completed"
    if text in ("build", "build only"):
        sections = sum(t["sections"] for t in now["trilithons"])
        assert sections == sum(t["sections"] for t in obs["trilithons"]) + 1
        found = re.match(r"upright (\d) of trilithon (\d)(?:, draining a card from (\d) hands?)?$", shown)
        if found:
            t = int(found[2]) - 1
            assert now["trilithons"][t]["sections"] == int(found[1]), shown
            assert len(now["drains_pending"]) == int(found[3] or 0), (shown, now["drains_pending"])
            return "first_druid: upright"
        found = re.match(r"completes trilithon (\d)(?: and claims it|, (unclaimed))$", shown)
        assert found is not None, shown
        t = int(found[1]) - 1
        assert now["trilithons"][t]["sections"] == 3
        assert now["trilithons"][t]["owner"] == (None if found[2] else seat), shown
        return "first_druid: capstone"
    if text == "pass":
        return _first_druid_pass(state, seat, shown)
    if text == "accept":
        offer = obs["offer"]
        assert shown == f"you give {' '.join(offer['ask'])} and get {' '.join(offer['give'])}"
        hand = Counter(now["hand"])
        assert hand == Counter(obs["hand"]) - Counter(offer["ask"]) + Counter(offer["give"]), shown
        return "first_druid: accept"
    if text == "seal bid" or text.startswith("bid "):
        bidder: Any = after if text.startswith("bid ") else state  # the bid as it stands once the card is laid
        worth = first_druid_scoring.bid_value(bidder, seat, bidder.bids[seat])
        assert shown.endswith(f" {worth}"), (text, shown, worth)
        return "first_druid: bid"
    raise AssertionError(f"no check for {text!r}: {shown!r}")


def _first_druid_pass(state: State, seat: int, shown: str) -> str:
    """The inactive turn's draws: the seat's draws right after it passed."""
    found = re.match(r"inactive turn: (?:you draw (\d+) cards?|no draw, .+)$", shown)
    assert found is not None, shown
    after = _to_decision(_after(state, "pass"), random.Random(0))
    entries = _entries(state, after, seat)
    assert entries[0] == (seat, "passes: the inactive turn")
    drawn = 0
    for _, text in entries[1:]:
        if text.startswith(f"seat {seat} draws "):
            drawn += 1
        elif text != "the discard pile becomes the draw pile":
            break
    assert drawn == int(found[1] or 0), (shown, entries)
    return "first_druid: pass"


@pytest.mark.parametrize(("players", "games"), [(3, 2), (4, 1)])
def test_first_druid_previews_say_what_picks_and_effects_bring(players: int, games: int) -> None:
    kinds = _run("first_druid", players, 13, games, _first_druid_check, bot=0.5)
    for kind in ("pick", "advance", "clan", "altar", "upright", "pass", "bid"):
        assert kinds[f"first_druid: {kind}"], (kind, kinds)
    assert kinds["leak"]


@pytest.mark.slow
def test_first_druid_previews_of_rarer_effects() -> None:
    kinds = _run("first_druid", 3, 100, 2, _first_druid_check, bot=0.9)  # the rule-based player builds and trades
    for kind in ("altar completed", "capstone", "convert", "take over", "accept"):
        assert kinds[f"first_druid: {kind}"], (kind, kinds)


# --- Fightin' an' Drinkin' an' Stealin'! --------------------------------------------------------

_EVENT_NOUNS = ("fighter", "drinker", "thief")


def _fightin_place(state: State, seat: int, text: str, shown: str) -> str:
    noun, card_text = text.split()
    event = _EVENT_NOUNS.index(noun)
    other = 1 - seat
    after = _after(state, text)
    real: Any = after
    card = box.parse_card(card_text)
    # Played on until the event's newcomers are turned over: who had one, and whose Gonagal worked.
    rng = random.Random(1)
    play = after.clone()
    turned: list[int] = []
    lines: list[str] = []
    while not play.is_terminal() and not turned:
        before = play.clone()
        play.apply_action(rng.choice(play.legal_actions()))
        for actor, entry in _entries(before, play, seat):
            if entry.startswith(f"turns over {noun} "):
                turned.append(actor)
            lines.append(entry)
    assert turned, (text, shown)
    gonagal = re.match(r"your Gonagal wins \S+ outright(, unless theirs comes too)?$", shown)
    if gonagal:
        assert card == fightin_events.GONAGAL[seat]
        if not gonagal[1]:
            assert f"seat {seat}'s Gonagal plays the pipes" in lines, (shown, lines)
        return "fightin: gonagal"
    found = re.match(
        r"^(?:counts 0 under your (\w+) Wee Lawyer; )?your \w+ ([\d + ]+?)(?: = (\d+))? against ([\d +?]+|none)"
        r"(?:; Big Lawyer on (\d+))?$",
        shown,
    )
    assert found is not None, shown
    mine = [fightin_events.value(real, c) for c in real.board[event * 2 + seat]] + [fightin_events.value(real, card)]
    assert [int(v) for v in found[2].split(" + ")] == mine, (text, shown, mine)
    theirs = [str(fightin_events.value(real, c)) for c in real.board[event * 2 + other]]
    if other in turned:
        theirs.append("?")
    assert found[4] == (" + ".join(theirs) or "none"), (text, shown, theirs)
    if found[1]:
        assert fightin_events.value(real, card) == 0 and real.wee[box.COLOURS.index(found[1])] == seat
    if found[5]:
        assert real.lawyer == int(found[5])
    return f"fightin: {noun}"


def _fightin_check(state: State, seat: int, text: str, shown: str) -> str:
    obs = state.observation(seat)
    word = text.split()[0]
    if obs["decision"] == "place":
        return _fightin_place(state, seat, text, shown)
    after = _after(state, text)
    now = after.observation(seat)
    gained = {c: now["awards"][seat][c] - obs["awards"][seat][c] for c in obs["awards"][seat]}
    if word in ("discard", "kill") and "monster" in shown:
        found = re.match(r"^(?:(.+) stays as the monster|no monster is left)(?:; you earn (.+))?$", shown)
        assert found is not None, shown
        assert now["monsters"] == (found[1].split() if found[1] else []), (text, shown, now["monsters"])
        if word == "kill":
            earned = dict.fromkeys(gained, 0)
            for count, colour in re.findall(r"(\d) (\w+)", found[2] or ""):
                earned[colour] = int(count)
            assert gained == earned, (text, shown, gained)
            return "fightin: kill"
        return "fightin: discard monster"
    if word == "discard":
        found = re.match(r"^(your|their) (?:last (\w+) goes|(.+) stays at (\S+))$", shown)
        assert found is not None, shown
        owner = seat if found[1] == "your" else 1 - seat
        event = obs["event"]
        assert now["events"][event]["cards"][owner] == (found[3].split() if found[3] else []), (text, shown)
        return "fightin: discard"
    if word == "steal":
        found = re.match(r"^your thief (\S+) takes (.+) from (\S+)$", shown)
        assert found is not None, shown
        thief, source = found[1], found[3]
        assert thief == obs["highest_thief"] and source == text.split()[-1]
        if thief in now["events"]["stealin"]["cards"][seat]:  # not caught by the lawyer yet
            took = Counter({c: int(n) for n, c in re.findall(r"(\d) (\w+)", found[2])})
            assert Counter(now["loot"].get(thief, {})) == Counter(obs["loot"].get(thief, {})) + took, (shown, now)
            return "fightin: steal"
        return "fightin: steal, caught"
    if word == "scarper":
        banked = {c: 0 for c in gained}
        for count, colour in re.findall(r"(\d) (\w+)", shown):
            banked[colour] = int(count)
        assert gained == banked, (text, shown, gained)
        return "fightin: scarper"
    if word == "name":
        found = re.match(r"^seat (\d) takes the (\w+) Wee Lawyer( from you)?$", shown)
        assert found is not None, shown
        assert (obs["wee_lawyers"][found[2]] == seat) == bool(found[3])
        assert now["wee_lawyers"][found[2]] == int(found[1]), (text, shown)
        return "fightin: name"
    if word == "drop":
        rng = random.Random(2)
        while not after.is_terminal():
            after = _after(after, rng.choice(after.legal_action_texts()))
        assert shown == f"your final score {after.observation(seat)['scores'][seat]:g}", shown
        return "fightin: drop"
    raise AssertionError(f"no check for {text!r}: {shown!r}")


def test_fightin_previews_say_what_a_card_is_worth_and_what_stays() -> None:
    kinds = _run("fightin", 2, 17, 12, _fightin_check)
    for kind in ("fighter", "drinker", "thief", "gonagal", "discard", "kill", "scarper", "steal", "name", "drop"):
        assert kinds[f"fightin: {kind}"], (kind, kinds)
    assert kinds["fightin: discard monster"] or kinds["fightin: kill"]
    assert kinds["leak"]
