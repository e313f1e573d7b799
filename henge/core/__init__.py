"""The core: the contract every game part is written against, and the helpers parts are written with.

Every layer above (agents, server, terminal, adapters, analysis, tournaments, the command line)
imports from here, ``henge.core``, and never from its modules; a game package imports
``henge.box`` and ``henge.core`` and nothing else of henge. The modules, each one subject:

========================  ==================================================================
``state``                 :class:`Game` and :class:`State`, the public State API
``info``                  :class:`GameInfo` and :class:`Option`, a rule set's metadata
``errors``                :class:`IllegalActionError` and :class:`StateFormatError`
``record``                the event record a seat's information state is read from (G6)
``history``               a state's history as frozen blocks its clones share
``trail``                 a record of hidden events a resampler replays, as blocks clones share
``outcomes``              uniform chance outcomes, shared-win returns, drawing an outcome
``fields``                checks of a state's JSON fields, for a game's ``_load``
``steps``                 steps and turns: runs of one seat's decisions
``registry``              the plugin contract (:class:`GamePlugin`) and the registry of games
``parts``                 the interface of each part a plugin names, checked when it is loaded
``decision``              a seat's :class:`Decision`, all a fair player is given
``narrate``               the helpers of a game's log lines, and the generic narrator
``encoding``              the encoder contract, and the base a game's encoder subclasses
``drawing``               the colours and cards of a game's terminal drawing
``loop``                  the one game loop (:func:`advance`), its seeds, a game's :class:`GameRecord`
========================  ==================================================================
"""

from henge.compiled import engine_path, warn_if_pure
from henge.core.decision import Decision, canonical_state, make_decision
from henge.core.drawing import STYLE, card, card_colour, cards
from henge.core.encoding import (
    CARD_ID,
    ENCODINGS,
    Encoder,
    Layout,
    actor_index,
    layout_size,
    seat_tensor,
    slice_starts,
    write_cards,
)
from henge.core.errors import IllegalActionError, StateFormatError
from henge.core.fields import check, load_cards, load_int
from henge.core.info import GameInfo, Option
from henge.core.loop import (
    RECORD_FORMAT,
    RECORD_VERSION,
    Chance,
    Chooser,
    GameRecord,
    OnAction,
    Playout,
    advance,
    agent_rng,
    chance_rng,
    playouts,
    random_chooser,
    rule_chooser,
)
from henge.core.narrate import Narrator, Observation, grew, seat_name, short
from henge.core.narrate import generic as generic_narrator
from henge.core.outcomes import sample_chance, shared_win, uniform
from henge.core.parts import (
    PARTS,
    DrawingPart,
    EncoderExtras,
    EncoderPart,
    MetricsPart,
    NarratorPart,
    Part,
    PlayerPart,
    PreviewPart,
    RulesPart,
    SearchExtras,
    SearchPart,
)
from henge.core.record import Deferred, Event, made, replayed_record
from henge.core.registry import (
    ENTRY_POINT_GROUP,
    PLUGIN_API,
    GamePlugin,
    PluginError,
    game_class,
    game_problems,
    list_games,
    load,
    plugin,
    reload_games,
)
from henge.core.state import CHANCE, JSON_FORMAT, TERMINAL, Game, State, scaled_returns
from henge.core.steps import Step, Turn, latest_turns, open_turn, steps_of, turns
from henge.core.trail import TRAIL_BLOCK, Trail, Trailed, freeze_trail, trail_entries

__all__ = [
    "CARD_ID",
    "CHANCE",
    "ENCODINGS",
    "ENTRY_POINT_GROUP",
    "JSON_FORMAT",
    "PARTS",
    "PLUGIN_API",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "STYLE",
    "TERMINAL",
    "TRAIL_BLOCK",
    "Chance",
    "Chooser",
    "Decision",
    "Deferred",
    "DrawingPart",
    "Encoder",
    "EncoderExtras",
    "EncoderPart",
    "Event",
    "Game",
    "GameInfo",
    "GamePlugin",
    "GameRecord",
    "IllegalActionError",
    "Layout",
    "MetricsPart",
    "Narrator",
    "NarratorPart",
    "Observation",
    "OnAction",
    "Option",
    "Part",
    "PlayerPart",
    "Playout",
    "PluginError",
    "PreviewPart",
    "RulesPart",
    "SearchExtras",
    "SearchPart",
    "State",
    "StateFormatError",
    "Step",
    "Trail",
    "Trailed",
    "Turn",
    "actor_index",
    "advance",
    "agent_rng",
    "canonical_state",
    "card",
    "card_colour",
    "cards",
    "chance_rng",
    "check",
    "engine_path",
    "freeze_trail",
    "game_class",
    "game_problems",
    "generic_narrator",
    "grew",
    "latest_turns",
    "layout_size",
    "list_games",
    "load",
    "load_cards",
    "load_int",
    "made",
    "make_decision",
    "open_turn",
    "playouts",
    "plugin",
    "random_chooser",
    "reload_games",
    "replayed_record",
    "rule_chooser",
    "sample_chance",
    "scaled_returns",
    "seat_name",
    "seat_tensor",
    "shared_win",
    "short",
    "slice_starts",
    "steps_of",
    "trail_entries",
    "turns",
    "uniform",
    "warn_if_pure",
    "write_cards",
]
