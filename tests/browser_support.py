"""Helpers for the browser tests: Debian's Chromium driven by Playwright against `henge serve`.

Each browser test module calls ``require_browser()`` at its top; the ``browser`` fixture (in conftest.py)
launches Chromium once per module. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from henge.agents import heuristics

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
REQUIRED = os.environ.get("HENGE_BROWSER_REQUIRED") == "1"
"""Set by ``make test``: a missing Chromium fails the browser tests instead of skipping them."""
WAIT_MS = 20_000
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def require_browser() -> Any:
    """Skips the calling test module (call it at module level) where Chromium or Playwright is missing;
    returns Playwright's sync API. Under ``make test`` a missing Chromium is an error."""
    if not CHROMIUM.exists():
        if REQUIRED:
            raise RuntimeError(f"the browser tests need {CHROMIUM}: apt-get install chromium (make test does)")
        pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


def open_page(browser: Any, viewport: dict[str, int], **context: Any) -> Any:
    """Opens a page in a browser context of its own (no storage shared with other pages); the page's
    script errors are collected in ``page.errors``."""
    page = browser.new_context(viewport=viewport, **context).new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def shot(page: Any, name: str, *, full_page: bool = False) -> None:
    """Saves a screenshot of the page (the window, or the whole page) as ``test-artifacts/<name>.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def settled(page: Any) -> str:
    """Waits until it is this seat's turn or the game is over; returns which ("act" or "over")."""
    page.wait_for_function("['act', 'over'].includes(document.body.dataset.status)")
    return str(page.evaluate("document.body.dataset.status"))


def rule_based_choice(view: dict[str, Any], rng: random.Random, game_id: str) -> str:
    """Returns the text of the action the game's rule-based player would pick from a page's view
    (``Henge.lastView``)."""
    from web_support import view_decision  # here: web_support imports conftest, which imports this module

    decision = view_decision(view, rng, game_id)
    return decision.text(heuristics.chooser(game_id)(decision))
