# The compiled State's declarations (Cython reads this beside state.py; Python never does): its
# fields, so that a game's state compiled as an extension type of its own can derive from it.

cdef class State:
    cdef public object game
    cdef public object _past
    cdef public list _recent
    cdef public object _legal
    cdef public object _log
