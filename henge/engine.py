"""The names of the core as plugins written before :mod:`henge.core` import them.

Kept so that a game package written against ``henge.engine`` still loads; new code imports
:mod:`henge.core`, and nothing inside henge imports this module (an import contract says so).
"""

from henge.core import *  # noqa: F403
from henge.core import __all__ as __all__
