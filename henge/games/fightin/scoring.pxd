# Cython reads this beside the module's .py (Python never does): the state's type, cimported so that
# the rule steps read and write its C fields directly (their ``state`` is declared a Position).

from henge.games.fightin.position cimport Position
