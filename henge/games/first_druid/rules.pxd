# The compiled FirstDruidState's declarations (Cython reads this beside rules.py; Python never does).
# Its fields are Position's (position.pxd). Its hooks and the steps of the rules are cpdef methods: the
# compiled rules call them directly, and a Python subclass that overrides one (a designer's variant of
# a rule) is still called instead, on either path.

cimport cython

from henge.games.first_druid.combinations cimport offer_actions, opening_actions, turn_actions
from henge.games.first_druid.position cimport Position


cdef class FirstDruidState(Position):
    cpdef int current_player(self) except? -99
    cpdef _legal_actions(self)
    cpdef _chance_actions(self)
    cpdef _apply(self, int action)
    @cython.locals(new=FirstDruidState)
    cpdef _copy(self)
    cpdef _apply_turn(self, int action)
    cpdef _offer_step(self, int action, list side)
    cpdef _resolve(self, int p, int action)
    cpdef _drain(self, int card)
    cpdef _answer(self, int action)
    cpdef _settle(self)
    cpdef _refill(self)
    cpdef _start_round(self)
    cpdef _turn_element(self, int card)
    cpdef _begin_turn(self)
    cpdef _additional_turn(self)
    cpdef _bid(self, int action)
    cpdef scores(self)
    cpdef _finish(self, why)
    cpdef _note(self, text, int taker=*, int victim=*, int card=*)


# The phases, stages, action ids and trail kinds the rules compare and add on every step: C ints in the
# compiled module (imported from actions, trail and the core as they are).
cdef int CHANCE, TERMINAL, _SEATED
cdef int ELEMENT, TURN, ANSWER, DRAIN_PHASE, DRAW_PHASE, DISCARD_PHASE, BID_PHASE, OVER
cdef int SETUP, TURNS, REFRESH, CONTEST, DEAL, WILD_BASE
cdef int PICK_WILD, ADVANCE, CLAN, ALTAR, BUILD, BUILD_ONLY, CONVERT_CLAN, CONVERT_SPIRIT, TAKE_OVER
cdef int OFFER, GIVE, ASK, SEND, ACCEPT, END_TURN, PASS, DISCARD, BID, SEAL
cdef int DRAW, DRAIN, TURN_CARD
cdef int T_DRAW, T_TURN, T_DRAIN, T_PICK, T_EFFECT, T_OFFER, T_GIVE, T_ASK, T_WITHDRAW, T_SEND, T_ANSWER
cdef int T_END, T_DISCARD, T_BID, T_SEAL, T_REFILL, T_REVEAL, T_BEGIN
