"""What every seat knows in First Druid (G3, G6), unmade offers (FD15), the ten-card limit
(FD14), what a loaded state must satisfy (G7) and saved games across versions."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import henge
from henge import box
from henge.core import Deferred, StateFormatError
from henge.games.first_druid import rules as fd
from henge.games.first_druid import trail
from henge.games.first_druid.actions import PLAYER_TEXTS, WITHDRAW
from henge.games.first_druid.rules import FirstDruidState
from henge.records import RECORD_FORMAT, RECORD_VERSION

GAME = "first_druid"


def play(state: FirstDruidState, *texts: str) -> None:
    for text in texts:
        state.apply_text(text)


def dealt(n: int, hands: list[list[str]]) -> FirstDruidState:
    """Returns a real game just after the deal (these five cards to each seat in turn): the
    white seat 0's turn on 1 night, with a record for every seat."""
    state = henge.load(GAME, n).new_initial_state()
    assert isinstance(state, FirstDruidState)
    for hand in hands:
        play(state, *(f"draw {t}" for t in hand))
    return state


def cards(state: FirstDruidState, seat: int) -> set[str]:
    return {box.CARD_TEXT[c] for c in state.hands[seat]}


def replayed(state: henge.State) -> henge.State:
    again = state.game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    return again


def key(state: henge.State) -> str:
    return json.dumps(state.to_json()["state"], sort_keys=True)


HANDS3 = [
    ["3d", "9d", "9n", "20d", "21d"],
    ["5n", "6n", "7n", "8n", "10n"],
    ["11n", "12n", "13n", "14n", "15n"],
]


# --- G6: the record ------------------------------------------------------------------------------


def test_G6_draws_drains_and_bids_name_their_card_only_to_those_who_see_it():
    state = dealt(3, HANDS3)
    assert state.information_state(0)[:2] == [[-1, "seat 0 draws 3d"], [-1, "seat 0 draws 9d"]]
    assert state.information_state(1)[:2] == [[-1, "seat 0 draws a card"], [-1, "seat 0 draws a card"]]
    assert state.information_state(None)[5] == [-1, "seat 1 draws a card"]
    assert state.information_state(1)[5] == [-1, "seat 1 draws 5n"]
    play(state, "pick 9d", "pick 9n", "build", "drain 6n", "drain 13n")
    tail = state.information_state(2)[-5:]
    assert tail == [
        [0, "picks 9d"],
        [0, "picks 9n"],
        [0, "builds upright 1 of trilithon 1, draining"],
        [-1, "seat 0 drains a card from seat 1"],  # FD13: a bystander sees that a card moved
        [-1, "seat 0 drains 13n from seat 2"],
    ]
    assert state.information_state(1)[-2] == [-1, "seat 0 drains 6n from seat 1"]
    assert state.information_state(0)[-2:] == [
        [-1, "seat 0 drains 6n from seat 1"],
        [-1, "seat 0 drains 13n from seat 2"],
    ]
    # the spectator's record is the public texts; a seat's differs only where it saw more
    for seat in (0, 1, 2):
        assert len(state.information_state(seat)) == len(state.information_state(None))


def test_G6_face_down_bids_are_named_to_the_bidder_and_shown_in_order_at_the_reveal():
    state = henge.load(GAME, 3).new_initial_state()
    data = state.to_json()
    fields = data["state"]
    fields.update(
        phase="bid",
        stage="contest",
        contest=2,
        neutral=4,
        draw_count=0,
        knowledge=None,
        hands=[["2d", "8n", "9n"], ["3d"], ["1d"]],
    )
    placed = {"2d", "8n", "9n", "3d", "1d"}
    fields["draw_pile"] = [box.CARD_TEXT[c] for c in state.deck if box.CARD_TEXT[c] not in placed]
    state = state.game.state_from_json(data)
    play(state, "bid 9n", "bid 2d", "seal bid", "pass", "pass")
    assert state.information_state(0)[:2] == [[0, "bids 9n face down"], [0, "bids 2d face down"]]
    assert state.information_state(1)[:3] == [
        [0, "bids a card face down"],
        [0, "bids a card face down"],
        [0, "seals the bid"],
    ]
    reveal = [e for e in state.information_state(1) if e[1].startswith("the bids")]
    assert reveal == [
        [
            -1,
            "the bids for space 2 are shown: seat 0 9n 2d (2), seat 1 nothing (0), seat 2 nothing (0); "
            "seat 0 wins the spirit",
        ]
    ]


def test_G6_a_drain_leaves_a_bystander_knowing_the_card_is_with_the_victim_or_the_taker():
    """The finding: seat 2 forgot a publicly traded 3d once seat 0 drained seat 1, and its
    resamples dealt 3d into the draw pile, where it cannot be."""
    state = dealt(3, HANDS3)
    play(state, "offer seat 1", "give 3d", "ask 5n", "send offer", "accept")
    assert state.observation(2)["known_cards"][1] == ["3d"]  # a trade is public (FD2)
    play(state, "pick 9d", "pick 9n", "build", "drain 6n", "drain 13n")
    seen = state.observation(2)
    assert "3d" not in seen["known_cards"][1] and "3d" not in seen["known_cards"][0]
    assert {"card": "3d", "seats": [0, 1]} in seen["either_or"]  # G6: the victim's or the taker's
    assert seen["shown_cards"][1] == [] and {"card": "3d", "seats": [0, 1]} in state.observation(None)["either_or"]
    assert state.observation(1)["known_cards"][0] == ["5n", "6n"]  # traded, and what it lost
    assert "3d" in state.observation(0)["known_cards"][1]  # the taker knows 3d stayed
    three = box.parse_card("3d")
    where = set()
    rng = random.Random(2)
    for _ in range(60):
        sample = state.resample_from_infostate(2, rng)
        assert three not in sample.draw and three not in sample.discard
        holders = [h for h in (0, 1) if three in sample.hands[h]]
        assert len(holders) == 1
        where.add(holders[0])
        assert sample.observation(2) == seen
    assert where == {0, 1}  # both are possible, and both come out


def test_G6_a_drained_single_card_is_certainly_the_takers():
    state = dealt(3, HANDS3)
    play(state, "offer seat 1", "give 3d", "ask 5n", "ask 6n", "ask 7n", "ask 8n", "ask 10n", "send offer", "accept")
    assert cards(state, 1) == {"3d"}
    play(state, "pick 9d", "pick 9n", "build", "drain 3d", "drain 13n")
    seen = state.observation(2)
    assert "3d" in seen["known_cards"][0] and all(e["card"] != "3d" for e in seen["either_or"])
    rng = random.Random(3)
    for _ in range(20):
        assert box.parse_card("3d") in state.resample_from_infostate(2, rng).hands[0]


def test_G6_resamples_replay_to_the_same_record_and_vary_the_hidden_cards():
    state = dealt(3, HANDS3)
    play(state, "pick 9d", "pick 9n", "build", "drain 6n", "drain 13n")
    for seat in range(3):
        worlds = set()
        rng = random.Random(seat)
        for _ in range(15):
            sample = state.resample_from_infostate(seat, rng)
            assert key(replayed(sample)) == key(sample)
            assert sample.information_state(seat) == state.information_state(seat)
            assert sample.observation(seat) == state.observation(seat)
            worlds.add(key(sample))
        assert len(worlds) > 1
    before = key(state)
    state.resample_from_infostate(1, random.Random(9))
    assert key(state) == before  # the real state is left as it was


def test_G6_a_samples_record_is_made_when_read_and_is_its_historys():
    """A search never reads a sample's record, so it is made only when read (from the sample's
    history); read, every seat's is the one its history gives, and a clone's goes on from it."""
    state = henge.load(GAME, 4).new_initial_state()
    rng = random.Random(5)
    while state.move_number() < 300:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    seat = state.current_player() if state.current_player() >= 0 else 0
    sample = state.resample_from_infostate(seat, rng)
    assert isinstance(sample._log, Deferred)
    later = sample.clone()
    legal = later.legal_actions()
    later.apply_action(legal[0])
    for s in [None, *range(4)]:
        assert sample.information_state(s) == replayed(sample).information_state(s)
        assert later.information_state(s) == replayed(later).information_state(s)
    assert sample.information_state(seat) == state.information_state(seat)


def test_resampling_along_a_game_keeps_the_plans_of_the_newest_position_only():
    """A seat's resampling plan is cached on the trail it was made from; the plans of earlier
    positions are let go, so a long game with bots does not hold one per decision."""
    state = henge.load(GAME, 4).new_initial_state()
    rng = random.Random(3)
    earlier = state
    made = 0
    while not state.is_terminal() and made < 12:
        if state.current_player() >= 0 and state.move_number() > 40 * (made + 1):
            for seat in range(4):
                state.resample_from_infostate(seat, rng)
            made += 1
            if made == 6:
                earlier = state.clone()
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert made == 12

    def plans(of: FirstDruidState) -> list[int]:
        node = trail.freeze(of)
        found = []
        while node is not None:
            found.append(len(node.memo or {}))
            node = node.parent
        return [count for count in found if count]

    assert plans(state) == [4]  # the twelfth position's, one per seat
    assert plans(earlier) == []
    sample = earlier.resample_from_infostate(0, rng)  # an earlier position still resamples
    assert sample.information_state(0) == earlier.information_state(0)
    assert plans(earlier) == [1]


def test_G6_a_state_loaded_with_its_history_resamples_and_one_without_is_refused():
    state = dealt(3, HANDS3)
    play(state, "pick 9d", "pick 9n", "build", "drain 6n", "drain 13n")
    loaded = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert loaded.information_state(2) == state.information_state(2)
    sample = loaded.resample_from_infostate(2, random.Random(1))
    assert sample.information_state(2) == state.information_state(2)
    data = state.to_json()
    data["history"] = []
    bare = state.game.state_from_json(data)
    with pytest.raises(ValueError, match="loaded without the history"):
        bare.resample_from_infostate(2, random.Random(1))


# --- FD15: an offer is the author's until it is sent; a withdrawn one still counts -----------------


def test_FD15_composing_an_offer_is_seen_by_its_author_alone_until_it_is_sent():
    state = dealt(3, HANDS3)
    before = [state.information_state(seat) for seat in (1, 2, None)]
    play(state, "offer seat 1", "give 3d", "ask 5n")
    assert state.information_state(0)[-3:] == [
        [0, "starts an offer to seat 1"],
        [0, "puts 3d in the offer"],
        [0, "asks for 5n in the offer"],
    ]
    assert [state.information_state(seat) for seat in (1, 2, None)] == before  # nothing of it is public
    assert state.observation(0)["offer"] == {"from": 0, "to": 1, "give": ["3d"], "ask": ["5n"]}
    for seat in (1, 2, None):
        view = state.observation(seat)
        assert view["offer"] is None and view["offers_made"] == 0
        assert "3d" not in view["known_cards"][0]  # the card put in is not shown yet
    assert state.observation(0)["offers_made"] == 1
    play(state, "send offer")
    assert state.information_state(None)[-1] == [0, "offers seat 1 3d for 5n"]
    assert state.observation(2)["offer"] == {"from": 0, "to": 1, "give": ["3d"], "ask": ["5n"]}
    assert state.observation(2)["known_cards"][0] == ["3d"] and state.observation(2)["offers_made"] == 1


def test_FD15_a_withdrawn_offer_shows_nothing_and_counts_as_one_of_the_three():
    state = dealt(3, HANDS3)
    assert "withdraw offer" not in state.legal_action_texts()  # only an offer being made is withdrawn
    play(state, "offer seat 2", "give 20d", "ask 14n")
    assert "withdraw offer" in state.legal_action_texts()
    play(state, "withdraw offer")
    assert state.information_state(0)[-1] == [0, "withdraws the offer"]
    assert state.observation(0)["offer"] is None and state.observation(0)["offers_made"] == 1
    assert state.observation(1)["offers_made"] == 0  # the others never learn of it
    assert state.observation(1)["known_cards"][0] == []
    play(state, "offer seat 1", "withdraw offer", "offer seat 2", "give 21d", "ask 11n", "send offer", "decline")
    assert not any(t.startswith("offer seat") for t in state.legal_action_texts())  # three offers made
    assert state.observation(2)["offers_made"] == 1
    play(state, "pass")  # a withdrawn offer, like a declined one, is no action: the turn was inactive
    assert state.is_chance_node() and state.offers == 0 and state.withdrawn == 0


def test_FD15_a_seat_cannot_tell_a_turn_with_withdrawn_offers_from_one_without():
    quiet = dealt(3, HANDS3)
    busy = dealt(3, HANDS3)
    play(busy, "offer seat 1", "give 3d", "ask 6n", "withdraw offer", "offer seat 2", "withdraw offer")
    for seat in (1, 2, None):
        assert busy.information_state(seat) == quiet.information_state(seat)
        assert busy.information_state_string(seat) == quiet.information_state_string(seat)
        assert busy.observation(seat) == quiet.observation(seat)
    assert busy.information_state(0) != quiet.information_state(0)
    # and its resamples of either cover the unmade offers it cannot see: none, some withdrawn,
    # one being put together now, within the three of a turn
    seen = set()
    rng = random.Random(4)
    for _ in range(120):
        sample = quiet.resample_from_infostate(1, rng)
        assert sample.information_state(1) == quiet.information_state(1)
        assert key(replayed(sample)) == key(sample)
        seen.add((sample.offers, sample.withdrawn, sample.offer_to >= 0))
    assert (0, 0, False) in seen and (1, 1, False) in seen and (1, 0, True) in seen
    assert all(offers <= 3 and offers == withdrawn + composing for offers, withdrawn, composing in seen)


def test_FD15_withdraw_offer_has_a_new_id_after_all_of_version_1_0_0():
    game = henge.load(GAME, 3)
    assert fd.FirstDruid.info.version == "1.1.0"
    assert WITHDRAW == 373 and game.num_distinct_actions() == 374
    assert game.action_text(373) == "withdraw offer"
    assert [game.action_text(a) for a in (0, 60, 90, 102, 107, 172, 237, 241, 242, 307, 372)] == [
        "pick 1n",
        "pick wild 1",
        "advance",
        "offer seat 0",
        "give 1n",
        "ask 1n",
        "send offer",
        "pass",
        "discard 1n",
        "bid 1n",
        "seal bid",
    ]
    assert PLAYER_TEXTS[-1] == "withdraw offer"


def test_FD15_a_record_or_state_of_version_1_0_0_is_refused_naming_both_versions():
    game = henge.load(GAME, 3)
    state = game.new_initial_state()
    play(state, "draw 1n", "draw 2d")
    record = {
        "format": RECORD_FORMAT,
        "format_version": RECORD_VERSION,
        "game": GAME,
        "version": "1.0.0",
        "players": 3,
        "options": {"colours": "cycle"},
        "seed": 0,
        "agents": ["random"] * 3,
        "actions": state.history(),
        "texts": ["draw 1n", "draw 2d"],
        "returns": [0.0, 0.0, 0.0],
    }
    with pytest.raises(ValueError, match=r"version 1\.0\.0.*version 1\.1\.0"):
        henge.replay(record)
    assert len(henge.replay({**record, "version": "1.1.0"})) == 3
    data = state.to_json()
    data["version"] = "1.0.0"
    with pytest.raises(StateFormatError, match=r"'1\.0\.0'; expected '1\.1\.0'"):
        game.state_from_json(data)


def test_FD15_the_rule_based_player_never_withdraws_and_plays_whole_games_legally():
    record = henge.play(henge.load(GAME, 4), ["heuristic"] * 4, seed=3)
    assert "withdraw offer" not in record["texts"]
    assert henge.replay(record)[-1].is_terminal()
    random_record = henge.play(henge.load(GAME, 3), ["random"] * 3, seed=5)
    assert "withdraw offer" in random_record["texts"]  # random play does withdraw, legally
    assert henge.replay(random_record)[-1].is_terminal()


# --- FD14: one act, then the ten-card limit --------------------------------------------------------


def position(n: int = 3, **fields: Any) -> FirstDruidState:
    """A crafted position (no history): seat 0's turn on 1 night unless ``fields`` say otherwise."""
    game = henge.load(GAME, n)
    data = game.new_initial_state().to_json()
    state = data["state"]
    state.update(phase="turn", stage="turns", player=0, first=0, turn=0, draw_count=0, knowledge=None)
    state["hands"] = [[] for _ in range(n)]
    state.update(fields)
    placed = {c for h in state["hands"] for c in h}
    state["draw_pile"] = [box.CARD_TEXT[c] for c in game.new_initial_state().deck if box.CARD_TEXT[c] not in placed]
    loaded = game.state_from_json(data)
    assert isinstance(loaded, FirstDruidState)
    return loaded


NINE = ["1d", "2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d"]


def test_FD14_the_inactive_turns_draws_all_come_before_the_ten_card_limit():
    state = position(sections=6, trilithon_owners=[0, 0, -1, -1, -1], hands=[NINE, ["1n"], ["2n"]])
    play(state, "pass", "draw 10d")
    assert state.is_chance_node() and len(state.hands[0]) == 10
    play(state, "draw 11d")
    assert state.is_chance_node() and len(state.hands[0]) == 11  # no discard between the draws
    play(state, "draw 12d")
    view = state.observation(0)
    assert view["phase"] == "discard" and view["discard_owed"] == 2 and len(view["hand"]) == 12


def test_FD14_a_plays_drains_all_come_before_the_ten_card_limit():
    ten = ["9d", "9n", "1d", "2d", "3d", "4d", "5d", "6d", "7d", "8d"]
    state = position(5, hands=[ten, ["1n", "2n"], ["3n", "4n"], ["5n", "6n"], ["7n", "8n"]])
    play(state, "pick 9d", "pick 9n", "build", "drain 1n", "drain 3n", "drain 5n")
    assert state.is_chance_node() and len(state.hands[0]) == 11  # above ten, and still draining
    play(state, "drain 7n")
    view = state.observation(0)
    assert view["phase"] == "discard" and view["discard_owed"] == 2 and "7n" in view["hand"]


def test_FD14_an_accepted_trade_is_one_act_for_both_sides():
    ten_a = ["1d", "2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d", "10d"]
    ten_b = ["1n", "2n", "3n", "4n", "5n", "6n", "7n", "8n", "9n", "10n"]
    state = position(hands=[ten_a, ten_b, ["11n"]])
    play(state, "offer seat 1", "give 1d", "ask 1n", "ask 2n", "send offer", "accept")
    # seat 0 now holds 11, seat 1 holds 9: only seat 0 discards, after the whole trade
    assert len(state.hands[0]) == 11 and len(state.hands[1]) == 9
    assert state.observation(0)["phase"] == "discard" and state.current_player() == 0
    state = position(hands=[["1d", "2d", "3d"], ten_b[:9] + ["11d"], ["11n"]])
    play(state, "offer seat 1", "give 1d", "give 2d", "ask 11d", "send offer", "accept")
    assert len(state.hands[1]) == 11 and state.current_player() == 1 and state.observation(1)["discard_owed"] == 1


# --- G7: what a loaded state must satisfy ---------------------------------------------------------


def loaded_variant(change: dict[str, Any], *, offer: bool = True) -> dict[str, Any]:
    state = dealt(3, HANDS3)
    if offer:
        play(state, "offer seat 1", "give 3d", "ask 5n")
    data = json.loads(json.dumps(state.to_json()))
    data["history"] = []
    data["state"].update(change)
    return data


def test_G7_a_real_position_loads_with_or_without_its_history():
    data = loaded_variant({})
    game = henge.load(GAME, 3)
    assert game.state_from_json(data).to_json()["state"] == data["state"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"stage": "contest"}, "in the contest stage the phase is one of bid"),
        ({"withdrawn": 2}, "every offer, withdrawn or not, is counted"),
        ({"ask": ["9d"]}, "an offer asks only for cards its maker cannot see"),
        ({"give": ["5n"]}, "offered cards must be in the offering hand"),
        ({"give": ["9d", "3d"]}, "an offer names each card once, in order"),
        ({"draw_count": 2}, "cards are owed only while they are drawn"),
        ({"drains": [1]}, "drains are taken at once"),
        ({"offers": 0, "offer_to": -1, "give": [], "ask": [], "withdrawn": 0, "ending": True}, "a turn is under way"),
        ({"druids": [30, 1, 1]}, "the game is over once a druid reaches 30"),
        ({"turned": ["2n"]}, "cards are set aside only while the element is sought"),
    ],
)
def test_G7_phases_counters_and_the_offer_must_fit_each_other(change, message):
    data = loaded_variant(change)
    if "turned" in change:
        data["state"]["draw_pile"].remove("2n")
    with pytest.raises(StateFormatError, match=message):
        henge.load(GAME, 3).state_from_json(data)


def test_G7_the_first_player_is_the_days_colours():
    data = loaded_variant({"first": 1, "player": 1}, offer=False)  # 1 night is white: seat 0's
    with pytest.raises(StateFormatError, match="the first player is the day's colour or the element card's"):
        henge.load(GAME, 3).state_from_json(data)


def test_G7_every_views_knowledge_must_be_true_of_the_position():
    data = loaded_variant({})
    knowledge = data["state"]["knowledge"]
    seat2 = knowledge["seat 2"]
    knowledge["seat 2"] = [" ".join(t for t in seat2[0].split() if t != "9d"), *seat2[1:]]  # 9d nowhere
    with pytest.raises(StateFormatError, match="knowledge of seat 2: 9d is where it may be"):
        henge.load(GAME, 3).state_from_json(data)
    data = loaded_variant({})
    data["state"]["knowledge"]["seat 1"][1] += " 20d"  # seat 1 would think 20d is its own
    with pytest.raises(StateFormatError, match="a seat knows its own cards"):
        henge.load(GAME, 3).state_from_json(data)
    data = loaded_variant({})
    data["state"]["knowledge"] = {"seat 0": []}
    with pytest.raises(StateFormatError, match="knowledge must be null or an object with the views"):
        henge.load(GAME, 3).state_from_json(data)


def test_G7_the_deal_fills_the_hands_in_seat_order():
    state = henge.load(GAME, 3).new_initial_state()
    play(state, "draw 1n", "draw 2n")
    data = json.loads(json.dumps(state.to_json()))
    data["history"] = []
    henge.load(GAME, 3).state_from_json(data)
    data["state"]["hands"][2] = ["3n"]
    data["state"]["draw_pile"].remove("3n")
    data["state"]["knowledge"] = None
    with pytest.raises(StateFormatError, match="the deal gives five cards to each seat in turn"):
        henge.load(GAME, 3).state_from_json(data)


def test_FD15_the_narrator_tells_only_the_author_of_an_unmade_offer():
    from henge.server.narrate import narrator

    narrate = narrator(GAME)
    state = dealt(3, HANDS3)
    before = [state.observation(seat) for seat in (0, 1)]
    play(state, "offer seat 1", "give 3d")
    middle = [state.observation(seat) for seat in (0, 1)]
    play(state, "withdraw offer")
    after = [state.observation(seat) for seat in (0, 1)]
    author = narrate(before[0], middle[0]) + narrate(middle[0], after[0])
    assert author == ["you start an offer to seat 1", "you withdraw the offer"]
    assert narrate(before[1], middle[1]) + narrate(middle[1], after[1]) == []
