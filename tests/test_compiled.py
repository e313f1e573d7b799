"""The compiled path and the pure-Python path: which one runs, and that both behave identically."""

from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import shipped_games

import henge
from henge import compiled
from henge.cli import main

ROOT = Path(__file__).resolve().parent.parent
REQUIRED = os.environ.get("HENGE_COMPILED_REQUIRED") == "1"


def _run(code: str, *, pure: bool) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(compiled.PURE_ENV, None)
    if pure:
        env[compiled.PURE_ENV] = "1"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


LOADED = """
import henge
from henge import compiled
for game_id in henge.list_games():
    henge.load(game_id).new_initial_state()
import henge.games.fightin.rules as rules
print(len(compiled.compiled_modules()), rules.__file__.endswith(".py"), compiled.engine_path())
"""


def test_pure_path_really_runs_the_source() -> None:
    count, source, path = _run(LOADED, pure=True).strip().split(" ", 2)
    assert (count, source) == ("0", "True")
    assert path == "pure Python (HENGE_PURE=1)"


def _require_compiled() -> None:
    if not compiled.available():
        if REQUIRED:
            pytest.fail("the compiled modules are not built (pip install -e . compiles them)")
        pytest.skip("the compiled modules are not built here")


def test_the_suite_runs_on_the_compiled_path() -> None:
    _require_compiled()
    for game_id in henge.list_games():
        henge.load(game_id).new_initial_state()
    assert compiled.install_hook().stale == [], "sources changed since they were compiled: pip install -e ."
    loaded = set(compiled.compiled_modules())
    core = {"henge.core.state", "henge.core.loop", "henge.core.record", "henge.core.history"}
    rules = {f"henge.games.{game_id}.rules" for game_id in shipped_games()}
    assert core | rules <= loaded
    count, source, path = _run(LOADED, pure=False).strip().split(" ", 2)
    assert int(count) >= len(core | rules) and source == "False"
    assert path.startswith("compiled (")


def test_henge_games_and_bench_say_which_path_runs() -> None:
    result = CliRunner().invoke(main, ["games"])
    assert result.exit_code == 0
    assert f"Engine: {compiled.engine_path()}" in " ".join(result.output.split())


def test_both_paths_give_identical_views_records_and_returns() -> None:
    """Every step's views over the start of a random game per game and count, and the actions and
    returns of whole random and rule-based games: the same digests on both paths (the script is the
    benchmark-sized check's, at a small size)."""
    _require_compiled()
    script = str(ROOT / "scripts" / "paths_identity.py")
    runs = {}
    for pure in (False, True):
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop(compiled.PURE_ENV, None)
        if pure:
            env[compiled.PURE_ENV] = "1"
        runs[pure] = subprocess.Popen(
            [sys.executable, script, "--steps", "200", "--games", "6", "--rule-games", "1"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    outputs = {}
    for pure, run in runs.items():
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, err
        outputs[pure] = out.splitlines()
    assert outputs[False][0] == "engine: compiled"
    assert outputs[True][0] == "engine: pure Python"
    assert len(outputs[False]) > 20
    for fast, slow in zip(outputs[False][1:], outputs[True][1:], strict=True):
        assert fast == slow, "the compiled and the pure path differ"


def test_a_source_edited_after_compiling_runs_the_whole_engine_as_python(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A compiled module older than its source (or its declarations) would run the old rule, and the
    others are built against its declarations: the whole engine runs from source, and a line says so.
    (Files that are not loadable extensions stand in for the build: they are never loaded, which is
    the point.)"""
    package = tmp_path / "stalepkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    paths = ["stalepkg/rule.py", "stalepkg/other.py"]
    for name in ("rule", "other"):
        (package / f"{name}.py").write_text(textwrap.dedent(f"VALUE = 'the {name} source'\n"))
        (package / f"{name}{suffix}").write_bytes(b"not an extension")
        os.utime(package / f"{name}.py", (1_000_000, 1_000_000))
    fresh = compiled.SourceFinder(pure=False, root=str(tmp_path), paths=paths)
    assert fresh.stale == []
    assert fresh.find_spec("stalepkg.other", [str(package)]) is None  # Python's finders: the extension
    assert capsys.readouterr().err == ""
    # The rule edited after the build: every module runs from its source, the unchanged one too.
    os.utime(package / "rule.py", None)
    finder = compiled.SourceFinder(pure=False, root=str(tmp_path), paths=paths)
    assert finder.stale == ["stalepkg.rule"]
    for name in ("rule", "other"):
        spec = finder.find_spec(f"stalepkg.{name}", [str(package)])
        assert spec is not None and spec.origin == str(package / f"{name}.py")
    assert "stalepkg.rule: compiled before its source" in capsys.readouterr().err
    # Its declarations edited, or those it cimports, or a module never compiled: the same.
    os.utime(package / "rule.py", (1_000_000, 1_000_000))
    (package / "other.pxd").write_text("cdef class Other:\n    cdef public int value\n")
    assert compiled.SourceFinder(pure=False, root=str(tmp_path), paths=paths).stale == ["stalepkg.other"]
    (package / "rule.pxd").write_text("from stalepkg.other cimport Other\n")
    os.utime(package / "rule.pxd", (1_000_000, 1_000_000))
    stale = compiled.SourceFinder(pure=False, root=str(tmp_path), paths=paths).stale
    assert stale == ["stalepkg.rule", "stalepkg.other"]
    (package / "other.pxd").unlink()
    (package / "rule.pxd").unlink()
    (package / f"rule{suffix}").unlink()
    assert compiled.SourceFinder(pure=False, root=str(tmp_path), paths=paths).stale == ["stalepkg.rule"]
    # Nothing compiled at all: the pure path, with nothing to say about it here.
    (package / f"other{suffix}").unlink()
    assert compiled.SourceFinder(pure=False, root=str(tmp_path), paths=paths).stale == []
    # Asked for the pure path: the source, whatever the dates.
    (package / f"rule{suffix}").write_bytes(b"not an extension")
    pure = compiled.SourceFinder(pure=True, root=str(tmp_path), paths=paths)
    spec = pure.find_spec("stalepkg.rule", [str(package)])
    assert spec is not None and spec.origin == str(package / "rule.py")
    assert compiled.SourceFinder(pure=True).find_spec("json", None) is None  # not ours: left to Python


def test_an_engine_without_its_compiled_modules_says_so_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    monkeypatch.setattr(compiled, "_warned", False)
    monkeypatch.setattr(compiled, "compiled_modules", lambda: [])
    compiled.warn_if_pure()
    compiled.warn_if_pure()
    err = capsys.readouterr().err
    assert err.count("henge: the engine runs pure Python") == 1
    monkeypatch.setattr(compiled, "_warned", False)
    monkeypatch.setenv(compiled.PURE_ENV, "1")  # asked for: nothing to say
    compiled.warn_if_pure()
    assert capsys.readouterr().err == ""
