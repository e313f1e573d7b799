# The compiled combinations' declarations (Cython reads this beside combinations.py; Python never does):
# the functions that read a position take it as the compiled Position, so that they read its fields
# directly, and the rules call them directly (cpdef: they stay callable from Python too).

from henge.games.first_druid.position cimport Position


cpdef set pick_actions(list hand, int wild, list numbers, bint phase_ok, bint day, int druid, int uses)
cpdef list _table_numbers(Position state)
cpdef bint _phase_ok(Position state)
cpdef int _allowed(Position state, int p) except? -1
cpdef int _work_out_allowed(Position state, int p) except? -1
cpdef list offer_actions(Position state, list hand)
cpdef tuple opening_actions(Position state, list hand)
cpdef list turn_actions(Position state, int p, list hand)
cpdef list _picks(Position state, int p, list hand, list numbers, bint phase_ok)
cpdef list _resolutions(Position state, int p, list numbers, bint phase_ok)


# The action ids and limits the functions add and compare on every step: C ints in the compiled module
# (imported from actions as they are), and the card tables as tuples.
cdef int ADVANCE, ALTAR, ASK, BUILD, BUILD_ONLY, CLAN, CLAN_SUM, CONVERT_CLAN, CONVERT_SPIRIT, END_TURN, GIVE
cdef int MAX_OFFERS, OFFER, PASS, PICK_WILD, SECTIONS, SEND, TAKE_OVER, WILD_BASE, WITHDRAW
cdef tuple NUMBER, IS_DAY
