# The compiled Position's declarations (Cython reads this beside position.py; Python never does): the
# fields of a Fightin' position as C fields (ints where they only ever hold ints, -1 for none), so
# that the rule modules, which cimport it, read and write a state without a Python attribute lookup.

from henge.core.state cimport State

cdef class Position(State):
    cdef public int _shared  # the groups of lists a clone may share (see _own)
    cdef public int phase, step, kind, player, event, round, rounds
    cdef public int altar, lawyer, gonagal, lead, high, second, taken
    cdef public list hands, decks, deck_draws, board, down, monsters, monster_deck, discards
    cdef public list monster_discards, loot, awards, stock, wee, habeas, dropped
    cdef public tuple scores, winners
    cdef public object log, trail, trail_tail

    cpdef _chance_actions(self)

# The helpers the rule modules call, as C functions they cimport (each still a Python function too).
cpdef _own(Position state, int bits)
cpdef _values(Position state)
cpdef _total(tuple values, list cards)
cpdef monster_values(monsters)
cpdef _points(Position state, seat)
cpdef int _multiplier(Position state) except? -1
cpdef _give(Position state, int seat, int colour, int count)
cpdef _discard(Position state, int card)
cpdef _loot_count(Position state, int card)
cpdef _move_loot(Position state, int source, int target)
cpdef _deposit(Position state, int card)
cpdef _take_wee_lawyer(Position state, seat, colour)
cpdef _note(Position state, text)
cpdef _act(Position state, seat, text, line=*)
