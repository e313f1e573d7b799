# The compiled State's declarations (Cython reads this beside state.py; Python never does): its
# fields, so that a game's state compiled as an extension type of its own can derive from it, and the
# hooks a game implements, cpdef so that the public API reaches a compiled game's hooks by a C call
# (a game's .pxd declares them alike) and a Python subclass still overrides any of them.

from henge.core.record cimport Event


cdef class State:
    cdef public object game
    cdef public object _past
    cdef public list _recent
    cdef public object _legal
    cdef public object _log

    cpdef int current_player(self) except? -99
    cpdef _legal_actions(self)
    cpdef _chance_actions(self)
    cpdef _chance_outcomes(self)
    cpdef _apply(self, int action)
    cpdef _copy(self)
    cpdef _record(self, int actor, public, private=*)
