# Cython reads this beside events.py (Python never does): the state's type and the helpers of
# position.py and choices.py, cimported so that the steps read the state's C fields and call the
# helpers directly; and the steps' entry point, as a C function the state cimports.

from henge.games.fightin.choices cimport _ask, _chance
from henge.games.fightin.position cimport (
    Position,
    _deposit,
    _discard,
    _give,
    _loot_count,
    _move_loot,
    _multiplier,
    _note,
    _own,
    _take_wee_lawyer,
    _total,
    _values,
    monster_values,
)

cpdef run(Position state)
