"""The plotly.js the report inlines: the "basic" partial bundle, not Plotly's full one.

The full bundle that plotly.py ships (maps, 3-D, WebGL: 4.8 MB) made a 24-row report weigh
4.9 MB. The report draws only scatter traces (lines and markers on cartesian axes), so it
inlines plotly.js's own partial bundle ``plotly-basic.min.js`` (trace types scatter, bar
and pie; 1.2 MB), vendored unchanged from the npm package ``plotly.js-basic-dist-min`` at
the version below, with its MIT licence beside it (``static/plotly-basic.LICENSE.txt``; the
file keeps its own licence header). To update it: ``npm pack plotly.js-basic-dist-min@X``,
copy ``package/plotly-basic.min.js`` and ``package/LICENSE`` over these, and change the
version and hash here (the tests check both, and a browser test draws every figure with it).

A panel that needs another trace type (heatmap, histogram, box...) must switch to the
``cartesian`` partial bundle (same steps, package ``plotly.js-cartesian-dist-min``): the
test that every trace type of a full report is in :data:`_TRACES` fails until it does.
"""

from __future__ import annotations

from importlib.resources import files

#: The vendored file, in ``static/``.
_FILE = "plotly-basic.min.js"

#: The plotly.js release it is (the one plotly.py 7.1 ships in full).
_VERSION = "4.1.1"

#: SHA-256 of the file as published in the npm package (checked by the tests).
_SHA256 = "99784e3abfb07b142a15e521a439e6d9addceadb3f79553fd24c72774f0649ba"

#: The trace types the bundle registers: every trace the report draws must be one of them.
_TRACES = frozenset({"scatter", "bar", "pie"})


def _plotly_bundle() -> str:
    """The vendored plotly.js source, as text."""
    return (files("isometrics.report") / "static" / _FILE).read_text(encoding="utf-8")
