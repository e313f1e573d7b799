# The compiled FightinState's declarations (Cython reads this beside rules.py; Python never does): its
# own field and the public API hooks as overridable C methods (cpdef: a Python subclass of the state
# can still override any of them, and its override is the one the rules call); and the rule modules'
# entry points, cimported so that the hooks call them directly.

from henge.games.fightin.choices cimport effect, options
from henge.games.fightin.events cimport run
from henge.games.fightin.position cimport Position

cdef class FightinState(Position):
    cdef public object _known

    cpdef int current_player(self) except? -99
    cpdef _legal_actions(self)
    cpdef _chance_actions(self)
    cpdef _apply(self, int action)
    cpdef _deal_from_deck(self, int seat, int card)
    cpdef _list_deck_draws(self)
    cpdef FightinState _copy(self)
