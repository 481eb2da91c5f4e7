"""Fixtures shared by the presentation tests."""

from __future__ import annotations

import sys

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


@pytest.fixture(autouse=True)
def _no_separator_from_an_earlier_command():
    """A fresh ``--separator`` state for each test: typer's CliRunner runs commands in this process, and a
    command without the option (``elicit``) would read the one an earlier test's command set (the state is
    a context variable set by the option's callback). Under xdist a worker runs any subset, in any order."""
    io_module = sys.modules.get("isometrics.cli._io")
    if io_module is not None:
        io_module.use_separator(None)
