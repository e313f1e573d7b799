# The compiled combinations' declarations (Cython reads this beside combinations.py; Python never does):
# the functions that read a position take it as the compiled Position, so that they read its fields
# directly, and the rules call them directly (cpdef: they stay callable from Python too).

from henge.games.first_druid.position cimport Position


cpdef list _table_numbers(Position state)
cpdef bint _phase_ok(Position state)
cpdef int _allowed(Position state, int p) except? -1
cpdef int _work_out_allowed(Position state, int p) except? -1
cpdef list offer_actions(Position state, list hand)
cpdef tuple opening_actions(Position state, list hand)
cpdef list turn_actions(Position state, int p, list hand)
cpdef list _picks(Position state, int p, list hand, list numbers, bint phase_ok)
cpdef list _resolutions(Position state, int p, list numbers, bint phase_ok)
