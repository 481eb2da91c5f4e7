"""The headless Chromium of the browser tests (Debian's package, installed by `./run test` as root).

`needs_browser` skips a test, with the reason, where Chromium is missing; the `browser`
fixture (tests/presentation/conftest.py) launches one per test module, cut off from the
network's background services so that any request a page makes is the page's own.
"""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_browser = pytest.mark.skipif(CHROMIUM is None,
                                   reason="Chromium is not installed (.ci/run installs Debian's chromium)")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--no-first-run", "--disable-sync"]
