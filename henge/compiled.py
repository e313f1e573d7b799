"""Which path the engine runs on: the modules compiled from their own source, or the source itself.

The modules named in :data:`COMPILED` are compiled by Cython when the package is installed
(``setup.py`` reads the list from here). Each stays valid Python: its ``.py`` file is the one source
of the rules, and the extension module built from it is that same file, compiled. Python imports an
extension module in preference to the ``.py`` beside it, so an import hook (:class:`SourceFinder`,
installed before any of them is imported) loads the ``.py`` files instead when ``HENGE_PURE=1`` asks
for them, or where a source file changed after it was compiled.

This module imports nothing of henge: ``henge/__init__.py`` imports it first (which installs the hook),
and ``setup.py`` and the Makefile run it on their own to read :data:`COMPILED`.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import re
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

PURE_ENV = "HENGE_PURE"
"""Set to 1 to run every module from its Python source even where a compiled one is installed."""

COMPILED: tuple[str, ...] = (
    # the core: the state and the chains every state shares with its clones
    "henge/core/state.py",
    "henge/core/history.py",
    "henge/core/record.py",
    "henge/core/trail.py",
    "henge/core/outcomes.py",
    "henge/core/loop.py",
    "henge/core/decision.py",
    # each game's rules and the modules they step through
    "henge/games/stonerush/rules.py",
    "henge/games/stonerush/bot.py",
    "henge/games/stonerush/search.py",
    "henge/games/fightin/rules.py",
    "henge/games/fightin/position.py",
    "henge/games/fightin/actions.py",
    "henge/games/fightin/events.py",
    "henge/games/fightin/choices.py",
    "henge/games/fightin/scoring.py",
    "henge/games/fightin/bot.py",
    "henge/games/fightin/search.py",
    "henge/games/druid_olympics/rules.py",
    "henge/games/druid_olympics/board.py",
    "henge/games/druid_olympics/placements.py",
    "henge/games/druid_olympics/bot.py",
    "henge/games/druid_olympics/search.py",
    "henge/games/first_druid/rules.py",
    "henge/games/first_druid/position.py",
    "henge/games/first_druid/actions.py",
    "henge/games/first_druid/knowledge.py",
    "henge/games/first_druid/trail.py",
    "henge/games/first_druid/scoring.py",
    "henge/games/first_druid/combinations.py",
    "henge/games/first_druid/bot.py",
    "henge/games/first_druid/search.py",
    "henge/games/spell_casting/rules.py",
    "henge/games/spell_casting/board.py",
    "henge/games/spell_casting/bot.py",
    "henge/games/spell_casting/search.py",
    # the search: its tree, selection and rollouts
    "henge/agents/tree.py",
    "henge/agents/ismcts.py",
    # the research environments' views: each seat's observation and its tensors
    "henge/core/encoding.py",
    "henge/games/stonerush/encode.py",
    "henge/games/fightin/observation.py",
    "henge/games/fightin/encode.py",
    "henge/games/druid_olympics/encode.py",
    "henge/games/first_druid/observation.py",
    "henge/games/first_druid/encode.py",
    "henge/games/spell_casting/encode.py",
)
"""The modules compiled, as paths from the project's root: those where random play, the rule-based
players and the search spend their time (the core's state, chains and driver, each game's rules,
rule-based player and evaluation, the search's tree), and those the research environments spend
theirs in (each seat's observation and its tensors)."""

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The folder that holds the ``henge`` package: the paths of :data:`COMPILED` are relative to it."""


def pure_requested() -> bool:
    """Returns True when ``HENGE_PURE=1`` asks for the pure-Python path."""
    return os.environ.get(PURE_ENV, "") == "1"


def _module(path: str) -> str:
    return path[: -len(".py")].replace("/", ".")


def _built(root: str, path: str) -> str | None:
    """Returns the compiled extension beside the source ``path`` (under ``root``), if there is one."""
    stem = os.path.join(root, path[: -len(".py")])
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if os.path.exists(stem + suffix):
            return stem + suffix
    return None


_CIMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+cimport|cimport\s+([\w.]+))", re.MULTILINE)


def _declarations(root: str, path: str) -> list[str]:
    """Returns the ``.pxd`` files a module of ``path`` is compiled against: its own, and those they
    cimport (of this project: found under ``root``), transitively."""
    found: list[str] = []
    pending = [os.path.join(root, path[: -len(".py")] + ".pxd")]
    while pending:
        pxd = pending.pop()
        if pxd in found or not os.path.exists(pxd):
            continue
        found.append(pxd)
        with open(pxd, encoding="utf-8") as file:
            for match in _CIMPORT.finditer(file.read()):
                name = match.group(1) or match.group(2)
                pending.append(os.path.join(root, *name.split(".")) + ".pxd")
    return found


def stale_modules(root: str = _ROOT, paths: Sequence[str] = COMPILED) -> list[str]:
    """Returns the modules of ``paths`` whose compiled extension is missing or older than its source
    (the ``.py``, or a ``.pxd`` of declarations it is compiled against: its own and those it cimports),
    where any of them is compiled at all: a compiled module is built against the others' declarations,
    so they are used all or none."""
    built = {path: _built(root, path) for path in paths}
    if not any(built.values()):
        return []
    stale = []
    for path, extension in built.items():
        if extension is None:
            stale.append(_module(path))
            continue
        when = os.path.getmtime(extension)
        sources = [os.path.join(root, path), *_declarations(root, path)]
        if any(os.path.getmtime(source) > when for source in sources if os.path.exists(source)):
            stale.append(_module(path))
    return stale


class SourceFinder:
    """An import hook that finds the modules of :data:`COMPILED` as their ``.py`` source where it must.

    With ``HENGE_PURE=1`` it always does. Otherwise it does where any of them changed after it was
    compiled (a rule edited since the install), or was not compiled: the compiled modules would run
    the old rule, or no longer fit the source run beside them, so the whole engine runs as Python,
    and a line on standard error says which changed and how to build again.
    """

    def __init__(self, pure: bool, root: str = _ROOT, paths: Sequence[str] = COMPILED) -> None:
        self.pure = pure
        self.names = frozenset(_module(path) for path in paths)
        self.stale: list[str] = [] if pure else stale_modules(root, paths)
        """The modules that changed after they were compiled (or were not): the source runs for all."""
        self.source = pure or bool(self.stale)
        if self.stale:
            shown = ", ".join(self.stale[:6]) + (f" and {len(self.stale) - 6} more" if len(self.stale) > 6 else "")
            print(
                f"henge: {shown}: compiled before its source or the declarations it is built against "
                "changed (or not compiled); the engine runs as Python ('pip install -e .' or 'make' "
                "compiles it again)",
                file=sys.stderr,
            )

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None) -> ModuleSpec | None:
        if not self.source or name not in self.names:
            return None  # Python's own finders: the compiled module where there is one
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.origin is None or spec.origin.endswith(".py"):
            return spec
        source = os.path.join(os.path.dirname(spec.origin), name.rpartition(".")[2] + ".py")
        if not os.path.exists(source):
            return spec
        return importlib.util.spec_from_file_location(name, source)


def install_hook() -> SourceFinder:
    """Puts a :class:`SourceFinder` first among the import hooks (once) and returns it."""
    for finder in sys.meta_path:
        if isinstance(finder, SourceFinder):
            return finder
    finder = SourceFinder(pure_requested())
    sys.meta_path.insert(0, finder)
    return finder


def compiled_modules() -> list[str]:
    """Returns the modules of :data:`COMPILED` that are imported now from a compiled extension."""
    loaded = []
    for name in sorted(_module(path) for path in COMPILED):
        module = sys.modules.get(name)
        if module is not None and not (getattr(module, "__file__", None) or "").endswith(".py"):
            loaded.append(name)
    return loaded


def available() -> bool:
    """Returns True if the compiled modules are installed (whether or not ``HENGE_PURE`` is set): the
    core's state, compiled whenever anything is, has its extension module beside its source."""
    return _built(_ROOT, "henge/core/state.py") is not None


def engine_path() -> str:
    """Returns a line saying which path runs: compiled, or pure Python and why (read from the modules
    imported so far: importing henge imports the core's)."""
    compiled = compiled_modules()
    if compiled:
        return f"compiled ({len(compiled)} modules imported so far, built from their Python source by Cython)"
    if pure_requested():
        return f"pure Python ({PURE_ENV}=1)"
    stale = install_hook().stale
    if stale:
        return f"pure Python (changed since compiled, or not compiled: {', '.join(stale)})"
    if available():
        return "pure Python (the compiled modules were not imported)"
    return "pure Python (no compiled modules installed: built without a C compiler, or not built)"


_warned = False


def warn_if_pure() -> None:
    """Says once on standard error that the engine runs pure Python though nobody asked for it."""
    global _warned
    if _warned or pure_requested():
        return
    _warned = True
    if not compiled_modules():
        print(f"henge: the engine runs {engine_path()}; it is several times slower", file=sys.stderr)


if __name__ == "henge.compiled":  # imported as part of henge (not read by setup.py or the Makefile)
    install_hook()
