# The compiled SpellCastingState's declarations (Cython reads this beside rules.py; Python never does):
# its fields as C fields, and its rule methods as cpdef methods, so that the rules call each other in C
# while a Python subclass can still override any of them (a designer's rule change).

cimport cython

from henge.core.state cimport State
from henge.games.spell_casting.board cimport displace_options, displace_target, slide_target

# Pickled as the core's State pickles (every name in __slots__), not by Cython's own reduction.
@cython.auto_pickle(False)

cdef class SpellCastingState(State):
    cdef public int n, target, kind, take_cup, sources, chain_at, chain_owner
    cdef public int player, private_seat, phase, turns
    cdef public list cells, figures, energy, private, placed, held, inner, hand, uses, chain_moved
    cdef public list setup_cards, draw_pile
    cdef public tuple recent
    cdef public object winners, reason

    cpdef int current_player(self) except? -99
    cpdef _legal_actions(self)
    cpdef list _legal_takes(self)
    cpdef list _legal_uses(self)
    cpdef _chance_actions(self)
    cpdef _apply(self, int action)
    @cython.locals(new=SpellCastingState, cls=type)
    cpdef _copy(self)
    cpdef _turn_card(self, int card)
    cpdef _take(self, int action)
    cpdef _use(self, int action)
    cpdef _shift(self, int source, int target)
    cpdef _displace(self, int direction)
    cpdef _end_chain(self)
    cpdef _arrive(self, int seat)
    cpdef _after_use(self)
    cpdef _end_turn(self)
