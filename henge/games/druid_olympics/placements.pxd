# The compiled placements' tables of mask words (Cython reads this beside placements.py; Python
# never does): C arrays of 64-bit words, filled from the tables that placements.py makes.

cdef unsigned long long _SINGLE_W[65 * 3]
cdef unsigned long long _PAIR_W[65 * 65 * 3]
cdef unsigned long long _DUO_W[65 * 65 * 3]
cdef unsigned long long _TRIPLE_W[3 * 91 * 3]
cdef unsigned long long _TARGET_W[659 * 3]
cdef unsigned long long _SPACE_W[139 * 3]
cdef unsigned long long _covered_w[3]
cdef object _covered_last
