# The compiled Druid Olympics state's declarations (Cython reads this beside rules.py; Python never
# does): its fields as C fields, and its rule methods as cpdef methods, overridable from Python.

cimport cython

from henge.core.state cimport State


@cython.auto_pickle(False)
cdef class DruidOlympicsState(State):
    cdef public int n, horseshoe_sum, phase, player, first, turn, shuffles, target
    cdef public list pos, end, owed, skip, drained, bar, disk, tri, cover
    cdef public object covered  # the spaces under a piece: a mask of 139 bits
    cdef public list hands, since, draw, discard, table
    cdef public object log, winners, reason, trail
    cdef public list trail_tail
    cdef public int _shared  # the lists a clone may share (see _own)

    cpdef int current_player(self) except? -99
    cpdef _legal_actions(self)
    cpdef _chance_actions(self)
    cpdef _apply(self, int action)
    @cython.locals(new=DruidOlympicsState)
    cpdef _copy(self)
    cpdef _trace(self, int kind, int seat, object data)
    cpdef _freeze_trail(self)
    cpdef _refill_draw_pile(self)
    cpdef _start_turn(self)
    cpdef _next_blocker(self, int after)
    cpdef _next_mover(self, int after)
    cpdef _next_drawer(self, int after)
    cpdef _lay(self, int card)
    cpdef _complete_block(self)
    cpdef _move(self, int action)
    cpdef int _pay_need(self) except? -1
    cpdef _finish_coloured(self)
    cpdef _finish_ring(self, int end)
    cpdef _arrive(self, int start, int after)
    cpdef _finish_at_cap(self)
    cpdef _note(self, event)
