"""Fixtures shared by the presentation tests."""

from __future__ import annotations

import asyncio
import functools
import sys

import pytest
from _browser import CHROMIUM, LAUNCH_ARGS

try:
    import typer.testing
except ImportError:  # the cli extra is missing: the CLI tests skip themselves
    pass
else:
    # typer's CliRunner builds the click command from the Typer app at every invocation (18 ms for isometrics',
    # some 350 invocations in these tests); build it once per app. A click command holds no state between
    # invocations (each parses into a fresh context), and the apps are complete before the tests invoke them.
    typer.testing._get_command = functools.cache(typer.testing._get_command)


@pytest.fixture(scope="session")
def _chromium():
    """One headless Chromium per test process (per pytest-xdist worker), started when a test first needs it:
    starting Playwright's driver and Chromium costs about 1 CPU second, once per module before.

    Between two calls, Playwright's sync API leaves its event loop marked as running in this thread (its
    dispatcher runs the loop in a greenlet), so that ``asyncio.run`` would refuse to start: the mark is
    cleared here and set again only while a module's tests hold ``browser``, as when each module started
    and stopped its own Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        loop = asyncio._get_running_loop()
        asyncio._set_running_loop(None)
        try:
            yield b, loop
        finally:
            asyncio._set_running_loop(loop)
            b.close()


@pytest.fixture(scope="module")
def browser(_chromium):
    """The headless Chromium, for the tests of one module (use with ``@needs_browser``); each page a test
    opens with ``browser.new_page`` has a context of its own (no cookie, storage or cache shared)."""
    b, loop = _chromium
    asyncio._set_running_loop(loop)
    try:
        yield b
    finally:
        asyncio._set_running_loop(None)


@pytest.fixture(autouse=True)
def _no_separator_from_an_earlier_command():
    """A fresh ``--separator`` state for each test: typer's CliRunner runs commands in this process, and a
    command without the option (``elicit``) would read the one an earlier test's command set (the state is
    a context variable set by the option's callback). Under xdist a worker runs any subset, in any order."""
    io_module = sys.modules.get("isometrics.cli._io")
    if io_module is not None:
        io_module.use_separator(None)
