# The compiled board module's declarations (Cython reads this beside board.py; Python never does): the
# displacement's helpers as cpdef functions, so that the compiled rules call them in C.

cpdef int displace_target(int at, int direction) except? -99
cpdef list displace_options(list cells, int at, list moved)
cpdef int slide_target(list cells, int at) except? -99
