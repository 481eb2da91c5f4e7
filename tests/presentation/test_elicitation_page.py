"""The interactive elicitation page: locked down like the report, and, in a real browser (Playwright +
Chromium), its script asks the Python engine's questions and reaches its estimates to 1e-9.

The expected values come from the Python engine (``isometrics.elicitation.engine_trace`` along the transcript the
page downloads, ``replay`` for the result), an independent implementation of docs/elicitation.md: the page's
JavaScript is a second one. The scripted stakeholders answer the page's own questions, so the Python engine runs once
per session (the page must have asked, at every step, the question the engine asks there).
"""

import base64
import hashlib
import html
import json
import math
import re
import urllib.parse
from pathlib import Path

import numpy as np
import pytest
from _browser import needs_browser

import isometrics as im
from isometrics.elicitation import engine_trace

pytest.importorskip("jinja2")
from isometrics.report import elicitation_page, write_elicitation_page  # noqa: E402

XSS = "<script>window.__pwned = 1</script>"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _scores(seed=0, n=500):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    return y, rng.normal(size=n) + 1.5 * y


def _model_session(**settings):
    y, s = _scores()
    return im.elicitation.Elicitation.from_scores(y, s, **settings)


# Scripted stakeholders: (name, a fresh session, the stakeholder answering it).
SCENARIOS = {
    "noisy, model curve": (
        lambda: _model_session(),
        lambda: im.elicitation.SimulatedStakeholder(2.0, -3.0, pairwise_lambda=50.0, local_lambda=20.0, rng=1),
    ),
    "noiseless, default curve": (
        lambda: im.elicitation.Elicitation(local_lambda=math.inf, pairwise_lambda=math.inf),
        lambda: im.elicitation.SimulatedStakeholder(0.5, -1.0),
    ),
    "few local, small budget": (
        lambda: _model_session(local_budget=3, pairwise_budget=6, tolerance=0.02),
        lambda: im.elicitation.SimulatedStakeholder(3.0, -6.0, pairwise_lambda=30.0, rng=7),
    ),
    "rho taken as zero": (
        lambda: im.elicitation.Elicitation(rho_sign="zero", pairwise_budget=8),
        lambda: im.elicitation.SimulatedStakeholder(1.5, 0.5),
    ),
}


# ---------------------------------------------------------------------------- the page as text
def test_one_script_allowed_by_its_hash_and_no_outside_resource():
    page = elicitation_page(im.elicitation.Elicitation(), title=XSS, model=XSS)
    csp = html.unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1))
    assert "default-src 'none'" in csp and "connect-src" not in csp and "base-uri 'none'" in csp
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, flags=re.S)
    code = [body for attrs, body in scripts if "application/json" not in attrs]
    assert len(code) == 1
    digest = base64.b64encode(hashlib.sha256(code[0].encode("utf-8")).digest()).decode("ascii")
    assert re.findall(r"'sha256-[^']+'", csp) == [f"'sha256-{digest}'"]
    assert XSS not in page and "&lt;script&gt;window.__pwned" in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)


def test_the_embedded_data_is_the_sessions_settings_and_curve():
    session = _model_session(pairwise_budget=9, pairwise_lambda=math.inf)
    page = elicitation_page(session)
    data = json.loads(re.search(r'id="elicitation-data">(.*?)</script>', page, flags=re.S).group(1))
    assert data["settings"]["pairwise_budget"] == 9 and data["settings"]["pairwise_lambda"] == "inf"
    assert tuple(data["curve"]["precision"]) == session.curve[0]
    assert tuple(data["curve"]["thresholds"]) == session.curve[2]


def test_bad_session_type_is_refused(tmp_path):
    with pytest.raises(TypeError, match="elicitation_page: `session` must be an Elicitation"):
        elicitation_page("not a session")
    out = write_elicitation_page(tmp_path / "e.html", elicitation_page())
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


# ---------------------------------------------------------------------------- in a real browser


def _wait(page, expression, timeout=30.0):
    """Until ``expression`` holds in the page (checked there at each animation frame, one call from here). Given as
    a function: Playwright polls a bare expression with ``eval``, which the page's policy refuses, so a condition
    not yet true at the first check failed with an EvalError (test_a_wait_outlasts_the_first_check)."""
    page.wait_for_function(f"() => ({expression})", timeout=timeout * 1000)


def _open(browser, path):
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    log = {"errors": [], "outside": []}
    page.on("console", lambda m: log["errors"].append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: log["errors"].append(str(e)))
    page.on(
        "request", lambda r: log["outside"].append(r.url) if not r.url.startswith(("file:", "data:", "blob:")) else None
    )
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => "
        "(window.__blocked = window.__blocked || []).push(e.violatedDirective + ' ' + e.blockedURI))"
    )
    page.goto(Path(path).as_uri())
    _wait(page, "window.__elicitationState && window.__elicitationState.ready")
    return page, log


@needs_browser
def test_a_wait_outlasts_the_first_check(browser, tmp_path):
    path = write_elicitation_page(tmp_path / "wait.html", elicitation_page(im.elicitation.Elicitation()))
    page, log = _open(browser, path)
    page.evaluate("window.__later = false; setTimeout(() => { window.__later = true; }, 300)")
    _wait(page, "window.__later === true", timeout=10.0)
    page.close()
    assert log["errors"] == [] and log["outside"] == []


# What the tests read of the page's state after each answer (window.__elicitationState), in one call.
_STATE = (
    "(s => ({n_answers: s.n_answers, asked: s.asked, stop_reason: s.stop_reason, log_beta: s.log_beta, rho: s.rho,"
    " feasible_fraction: s.feasible_fraction}))(window.__elicitationState)"
)
# The click event on an answer's button (as Playwright's dispatch_event makes it), then the state, in one call.
_DISPATCH = (
    "answer => { document.getElementById('answer-' + answer).dispatchEvent(new MouseEvent('click', "
    "{bubbles: true, cancelable: true, composed: true})); return " + _STATE + "; }"
)


def _answer(page, kind, answer, clicked):
    """Answer the question shown and return the page's state after it (``_STATE``). The first question of each kind
    (local, pairwise) a test answers, with a real click (Playwright checks that the button is visible, enabled and on
    top, then moves the mouse and presses it); the next ones by dispatching the click event on the button, which runs
    the same handler without the 50 ms and 45 CPU ms of a real click (some 150 answers in this module), and reading
    the state the handler left in the same call to the page."""
    if kind in clicked:
        return page.evaluate(_DISPATCH, answer)
    n = page.evaluate("window.__elicitationState.n_answers")
    page.click(f"#answer-{answer}")
    clicked.add(kind)
    _wait(page, f"window.__elicitationState.n_answers === {n + 1}")
    return page.evaluate(_STATE)


def _question(q):
    """The page's question (its state's ``asked``) as the engine's question object."""
    if q["kind"] == "local":
        return im.elicitation.LocalQuestion(q["precision"], q["recall"])
    return im.elicitation.PairwiseQuestion(tuple(q["a"]), tuple(q["b"]))


def _same_question(engine, shown):
    if engine is None or shown is None:
        return engine is None and shown is None
    if engine["kind"] != shown["kind"]:
        return False
    keys = ("precision", "recall") if engine["kind"] == "local" else ("a", "b")
    a = np.ravel([engine[k] for k in keys])
    b = np.ravel([shown[k] for k in keys])
    return bool(np.allclose(a, b, rtol=1e-12, atol=0.0))


@needs_browser
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_page_asks_the_engines_questions_and_reaches_its_estimates(browser, tmp_path, scenario):
    """The stakeholder answers the page's questions; then the Python engine, along the page's transcript, must have
    asked the same question and held the same estimate at every step, and reach the same result."""
    make_session, make_stakeholder = SCENARIOS[scenario]
    stakeholder = make_stakeholder()
    path = tmp_path / "elicit.html"
    write_elicitation_page(path, elicitation_page(make_session(), title=XSS, model=XSS))
    page, log = _open(browser, path)
    clicked, shown, answers = set(), [page.evaluate(_STATE)], []
    while shown[-1]["asked"] is not None:
        assert len(answers) < 200, "the page never stopped asking"
        answers.append(stakeholder(_question(shown[-1]["asked"])))
        shown.append(_answer(page, shown[-1]["asked"]["kind"], answers[-1], clicked))
    # the download link holds the transcript
    href = page.get_attribute("#download", "href")
    assert href.startswith("data:application/json")
    downloaded = json.loads(urllib.parse.unquote(href.split(",", 1)[1]))
    trace = engine_trace(downloaded)
    assert len(trace) == len(shown)
    for k, (engine, state) in enumerate(zip(trace, shown)):
        assert state["n_answers"] == k
        assert _same_question(engine["asked"], state["asked"]), (k, engine["asked"], state["asked"])
        assert state["stop_reason"] == engine["stop_reason"]
        assert abs(state["log_beta"] - engine["log_beta"]) <= 1e-9, (k, state["log_beta"], engine["log_beta"])
        assert abs(state["rho"] - engine["rho"]) <= 1e-9, (k, state["rho"], engine["rho"])
        assert abs(state["feasible_fraction"] - engine["feasible_fraction"]) <= 1e-12
    # the transcript holds the engine's questions and the answers given, and replaying it gives the page's result
    assert downloaded["steps"] == [{**engine["asked"], "answer": a} for engine, a in zip(trace, answers)]
    expected = im.elicitation.replay(downloaded)
    final = page.evaluate("window.__elicitationState.result")
    assert final["metric"]["spec"] == expected.metric.spec
    assert final["decision"]["index"] == expected.decision.index
    assert abs(final["decision"]["max_loss"] - expected.decision.max_loss) <= 1e-9
    assert np.allclose(final["beta_range"], expected.beta_range, rtol=1e-12)
    assert np.allclose(final["rho_range"], expected.rho_range, rtol=1e-12, atol=1e-12)
    assert page.is_visible("#final") and expected.metric.spec in page.inner_text("#final-metric")
    # locked down: no request, no error, no violation, user text shown literally and inert
    assert log["outside"] == [] and log["errors"] == []
    assert page.evaluate("window.__blocked === undefined && window.__pwned === undefined")
    assert XSS in page.inner_text("h1")
    page.close()


@needs_browser
def test_the_plot_moves_with_the_answers_and_a_screenshot_is_saved(browser, tmp_path):
    path = tmp_path / "elicit.html"
    write_elicitation_page(path, elicitation_page(_model_session(), model="scores.csv, column model_a"))
    page, log = _open(browser, path)
    stakeholder = im.elicitation.SimulatedStakeholder(2.0, -3.0)
    levels = [page.inner_html("#plot [data-role=levels]")]
    clicked = set()
    text = page.inner_text("#question")
    assert "of 1,000 cases flagged" in text and "gain in recall" in text
    state = page.evaluate(_STATE)
    for _ in range(14):
        if state["asked"] is None:
            break
        q = state["asked"]
        if q["kind"] == "pairwise":
            shown = page.inner_text("#question")
            assert "precision" in shown and "of 1,000 real positives" in shown
        n = state["n_answers"]
        state = _answer(page, q["kind"], stakeholder(_question(q)), clicked)
        assert state["n_answers"] == n + 1
        levels.append(page.inner_html("#plot [data-role=levels]"))
    assert len(set(levels)) > len(levels) // 2  # the level curves and break-even line move
    assert page.locator("#plot [data-role=break-even]").count() == 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "elicitation-page.png"), full_page=True)
    assert log["outside"] == [] and log["errors"] == []
    page.close()


# ---------------------------------------------------------------------------- issue 21 item 8: the words
def _always_recall(question):
    if question.kind == "local":
        return "recall"
    return "a" if question.a[1] > question.b[1] else "b"


def _answer_all(page, stakeholder, limit=60):
    clicked = set()
    state = page.evaluate(_STATE)
    for _ in range(limit):
        if state["asked"] is None:
            return page.evaluate("window.__elicitationState")
        n = state["n_answers"]
        state = _answer(page, state["asked"]["kind"], stakeholder(_question(state["asked"])), clicked)
        assert state["n_answers"] == n + 1
    raise AssertionError("the page never stopped asking")


@needs_browser
def test_the_page_warns_when_its_pick_flags_everyone_and_never_says_weight_of_recall(browser, tmp_path):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = im.elicitation.Elicitation().run(_always_recall)
    assert expected.trivial_decision == "everyone" and expected.rho > 0
    path = tmp_path / "elicit.html"
    write_elicitation_page(path, elicitation_page(im.elicitation.Elicitation()))
    page, log = _open(browser, path)
    state = _answer_all(page, _always_recall)
    assert state["trivial_decision"] == "everyone"
    assert tuple(state["summary"]) == expected.summary  # the same words as the Python result
    table = page.inner_text("#estimate")
    for gone in ("weight of recall", "taken as exact", "loses at most"):
        assert gone not in table
    assert "at which a point of either is worth the same" in table and "you preferred a gain in recall" in table
    assert "flags (nearly) every case" in table
    assert page.is_visible("#final-warning")
    assert (
        "Warning: the metric picks the top-recall end of the curve (recall 100.0%, its lowest precision 20.0%)"
        in page.inner_text("#final-warning")
    )
    assert expected.summary[0] in page.inner_text("#final-summary")
    assert log["errors"] == [] and log["outside"] == []
    page.close()


@needs_browser
def test_the_page_calls_an_unfinished_metric_provisional_and_a_balanced_pick_warns_nothing(browser, tmp_path):
    path = tmp_path / "elicit.html"
    write_elicitation_page(path, elicitation_page(_model_session(local_budget=3, pairwise_budget=4)))
    page, log = _open(browser, path)
    page.click("#answer-recall")
    _wait(page, "window.__elicitationState.n_answers === 1")
    assert "(provisional: 1 answer so far)" in page.inner_text("#estimate")
    state = _answer_all(page, im.elicitation.SimulatedStakeholder(1.0, -2.0))
    assert state["trivial_decision"] == "" and not page.is_visible("#final-warning")
    assert "provisional" not in page.inner_text("#estimate")
    assert tuple(state["summary"]) == im.elicitation.replay(state["transcript"]).summary  # the Python result's words
    assert log["errors"] == []
    page.close()
