# The compiled Position's declarations (Cython reads this beside position.py; Python never does): its
# fields as C fields (ints where they always hold ints) and its questions as C-callable methods that
# a Python subclass can still override (cpdef), so that the compiled rules read and call them directly.

from henge.core.state cimport State


cdef class Position(State):
    cdef public bint acted
    cdef public list allowed
    cdef public list altar
    cdef public list ask
    cdef public int bidder
    cdef public list bids
    cdef public list clans
    cdef public tuple colours
    cdef public int contest
    cdef public tuple deck
    cdef public list discard
    cdef public list drains
    cdef public list draw
    cdef public int draw_count
    cdef public int draw_seat
    cdef public int element
    cdef public bint ending
    cdef public int first
    cdef public list give
    cdef public int hand_limit
    cdef public list hands
    cdef public tuple last_contest
    cdef public tuple log
    cdef public int n
    cdef public int neutral
    cdef public int offer_to
    cdef public tuple offering
    cdef public int offers
    cdef public object opening
    cdef public list owners
    cdef public int phase
    cdef public object picked
    cdef public int player
    cdef public list pos
    cdef public object reason
    cdef public int refreshed
    cdef public bint rooted
    cdef public tuple seat_of
    cdef public int sections
    cdef public list spirits
    cdef public int stage
    cdef public list table
    cdef public int table_wild
    cdef public object trail
    cdef public list trail_tail
    cdef public int turn
    cdef public list turned
    cdef public object views
    cdef public tuple winners
    cdef public int withdrawn

    cpdef int active(self)
    cpdef int disks_left(self, int seat)
    cpdef int bars_left(self, int seat)
    cpdef int top_spirit(self)
    cpdef bint behind(self, int seat)
    cpdef board_changed(self)
