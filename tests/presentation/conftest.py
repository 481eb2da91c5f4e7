"""Fixtures shared by the presentation tests."""

from __future__ import annotations

import pytest
from _browser import CHROMIUM, LAUNCH_ARGS


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium for the tests of one module (use with ``@needs_browser``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()
