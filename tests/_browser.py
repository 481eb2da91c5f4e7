"""The headless Chromium of the browser tests (Debian's package, installed by `./run test` as root).

Debian's ``chromium-headless-shell`` is preferred: the same Blink and V8 without the browser's UI
processes, so a page costs about a quarter less CPU than in ``chromium --headless`` (the browser tests
of test_report and test_report_lazy: 46 to 50 CPU-s with chromium, 33 to 39 with the headless shell).
The full ``chromium`` is used where the shell is missing.

`scroll_through` scrolls a page as a reader does, so that a report's lazily drawn figures are drawn.

`needs_browser` skips a test, with the reason, where Chromium is missing; the `browser`
fixture (tests/presentation/conftest.py) hands a module's tests the one Chromium of the test
process, cut off from the network's background services so that any request a page makes is
the page's own.
"""

from __future__ import annotations

import shutil
import time

import pytest

CHROMIUM = shutil.which("chromium-headless-shell") or shutil.which("chromium") or shutil.which("chromium-browser")
needs_browser = pytest.mark.skipif(
    CHROMIUM is None,
    reason="Chromium is not installed (`./run test` installs Debian's chromium-headless-shell as root)",
)
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


NEXT_WINDOW = (
    "y => new Promise(done => { window.scrollTo(0, y);"
    " requestAnimationFrame(() => done(document.documentElement.scrollHeight)); })"
)


def scroll_through(page, timeout: float = 60.0) -> None:
    """Scroll ``page`` from top to bottom one window at a time, as a reader does, then back to the top.

    The report draws each figure and explorer when it comes near the window
    (report/static/figures.js, ``window.isometricsLazy``); this returns once none is left to draw,
    so a test sees every figure drawn the way a reader's scrolling draws it. Pages that draw
    everything at load (no ``isometricsLazy``) return at once after the scroll.
    """
    deadline = time.monotonic() + timeout
    while not page.evaluate("document.readyState === 'complete' && !!document.body"):
        assert time.monotonic() < deadline, "timed out waiting for the page to load"
        page.wait_for_timeout(20)
    step, y = page.evaluate("window.innerHeight"), 0
    height = page.evaluate("document.documentElement.scrollHeight")
    while y < height:
        y += step
        # the next window, and one frame for the observer to see it (it reports in the frame's rendering
        # steps, right after the animation frame callbacks), instead of a fixed 30 ms
        height = page.evaluate(NEXT_WINDOW, y)
    while page.evaluate("window.isometricsLazy ? window.isometricsLazy.pending() : 0"):
        assert time.monotonic() < deadline, "timed out waiting for the figures to be drawn"
        page.evaluate("window.scrollBy(0, 0)")
        page.wait_for_timeout(20)
    page.evaluate("window.scrollTo(0, 0)")
