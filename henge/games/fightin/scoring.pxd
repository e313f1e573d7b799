# Cython reads this beside scoring.py (Python never does): the state's type and the helpers the
# scoring steps call, cimported so that they read the state's C fields and call the helpers directly.

from henge.games.fightin.choices cimport _ask
from henge.games.fightin.position cimport Position, _note, _points
