# The compiled StonerushState's declarations (Cython reads this beside rules.py; Python never does): its
# fields, C ints where they always hold ints, and the rule methods the rules call on themselves, cpdef so
# that a subclass written in Python still overrides any of them.

from henge.core.state cimport State

cdef class StonerushState(State):
    cdef public int n, end, hand_size, phase, player, start, turns, fills
    cdef public list pos, hands, draw, discard, played, trilithon
    cdef public tuple last_plays, pushed, discarded, filled
    cdef public object winners, reason, _plan

    cpdef int current_player(self) except? -99
    cpdef _legal_actions(self)
    cpdef _chance_actions(self)
    cpdef _apply(self, int action)
    cpdef _copy(self)
    cpdef _resolve_play(self)
    cpdef int _move(self, int druid, int net)
    cpdef _end_discards(self)
    cpdef _refill_draw_pile(self)
    cpdef _next_turn(self)
    cpdef _finish(self)
    cpdef _result(self)
    cpdef _record_end(self)
