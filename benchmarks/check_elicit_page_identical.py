"""Old against new elicitation page, in Chromium: the same plot, question, estimate table, final box, state and
download link after every answer.

Builds the page of each of the browser tests' sessions (tests/presentation/test_elicitation_page.py: the four
scenarios, the always-recall, plot and provisional sessions) from two source trees, answers each with the
answers the Python engine's run got from the test's stakeholder, and compares the pages' markup (the SVG plot
included, its level curves' coordinates) and ``data-state`` after every answer with ``==``.

Usage: python benchmarks/check_elicit_page_identical.py OLD_COMMIT   (the new page: this working tree)
Needs Chromium (tests/_browser.py) and Playwright; exits 1 if a page differs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "presentation")]

import test_elicitation_page as T  # noqa: E402
from _browser import CHROMIUM, LAUNCH_ARGS  # noqa: E402

import isometrics as im  # noqa: E402

SESSIONS = {
    **{name: (make, who) for name, (make, who) in T.SCENARIOS.items()},
    "always recall": (im.elicitation.Elicitation, lambda: T._always_recall),
    "plot": (T._model_session, lambda: im.elicitation.SimulatedStakeholder(2.0, -3.0)),
    "provisional": (
        lambda: T._model_session(local_budget=3, pairwise_budget=4),
        lambda: im.elicitation.SimulatedStakeholder(1.0, -2.0),
    ),
}
# run with PYTHONPATH = a tree's src, then benchmarks/: this module's sessions, that tree's page
BUILD = (
    "import sys; import check_elicit_page_identical as B; from isometrics.report import elicitation_page; "
    "open(sys.argv[2], 'w', encoding='utf-8').write(elicitation_page(B.SESSIONS[sys.argv[1]][0](), title=B.T.XSS, "
    "model=B.T.XSS))"
)
READ = (
    "['plot', 'question', 'estimate', 'contradictions'].map(id => document.getElementById(id).innerHTML)"
    ".concat([document.getElementById('final').outerHTML, document.body.getAttribute('data-state'),"
    " document.getElementById('download').href])"
)


def _page(src: Path, name: str, out: Path) -> None:
    """The page of session ``name`` built by the package under ``src``."""
    env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{ROOT / 'benchmarks'}"}
    subprocess.run([sys.executable, "-c", BUILD, name, str(out)], env=env, check=True)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    from playwright.sync_api import sync_playwright

    bad = 0
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        old = Path(folder) / "old"
        old.mkdir()
        archive = subprocess.run(["git", "archive", argv[0], "src"], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        for name, (make, who) in SESSIONS.items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                answers = [s.answer for s in make().run(who()).transcript.steps]
            seen = []
            for side, src in (("old", old / "src"), ("new", ROOT / "src")):
                path = Path(folder) / f"{side}.html"
                _page(src, name, path)
                page = browser.new_page()
                page.goto(path.as_uri())
                page.wait_for_function("window.__elicitationState && window.__elicitationState.ready")
                states = [page.evaluate(READ)]
                for a in answers:
                    page.evaluate("a => document.getElementById('answer-' + a).click()", a)
                    states.append(page.evaluate(READ))
                page.close()
                seen.append(states)
            same = seen[0] == seen[1]
            bad += not same
            print(f"{name}: {len(seen[0])} states, {'identical' if same else 'DIFFERENT'}", flush=True)
        browser.close()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
