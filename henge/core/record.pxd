# The compiled record entry's declarations (Cython reads this beside record.py; Python never does): its
# fields, so that the compiled State makes an entry without a Python call (henge/core/state.py).

cdef class Event:
    cdef public object parent
    cdef public object actor
    cdef public object public
    cdef public object private
    cdef public object _digests
