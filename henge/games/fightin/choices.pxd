# Cython reads this beside choices.py (Python never does): the state's type and the helpers of
# position.py, cimported so that the decisions read the state's C fields and call the helpers
# directly; and the decisions' own entry points, as C functions the rule steps cimport.

from henge.games.fightin.position cimport (
    Position,
    _act,
    _deposit,
    _discard,
    _give,
    _move_loot,
    _multiplier,
    _own,
    _points,
    _take_wee_lawyer,
    _values,
    monster_values,
)

cpdef _chance(Position state, int phase, int seat, int after)
cpdef _ask(Position state, int kind, int seat, int after)
cpdef options(Position state)
cpdef effect(Position state, int action)
