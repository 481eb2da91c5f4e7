"""The page's engine (src/isometrics/report/static/elicit.js, run by node) against the Python engine on
the same answers: the same next question, stop reason, estimate (1e-9) and feasible area at every step.

The browser test (tests/presentation/test_elicitation_page.py) checks the same in Chromium through the
page; this one runs where node is installed and Chromium is not. Answers come from stakeholders that do
not share the engine's likelihood (``_stakeholders``).
"""

import json
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from _stakeholders import Stakeholder, binormal_curve

import isometrics as im
from isometrics.elicitation import engine_trace

NODE = shutil.which("node")
RUNNER = Path(__file__).with_name("_engine_trace.js")
INF = math.inf

SCENARIOS = {
    "noiseless, default curve": (
        lambda: im.elicitation.Elicitation(local_lambda=INF, pairwise_lambda=INF, pairwise_budget=6),
        lambda: Stakeholder(0.5, -1.0),
    ),
    "a contradiction, noiseless": (
        lambda: im.elicitation.Elicitation(local_budget=2, local_lambda=INF, pairwise_lambda=INF, pairwise_budget=4),
        lambda: Stakeholder(2.0, -3.0, noise="logistic", lam=5.0, seed=3),
    ),
    "probit with lapses, binormal curve": (
        lambda: im.elicitation.Elicitation(*binormal_curve(2.0), local_budget=4, pairwise_budget=6),
        lambda: Stakeholder(2.0, -3.0, noise="probit", local="delta", lapse=0.05, seed=1),
    ),
    "rho taken as zero, wider box": (
        lambda: im.elicitation.Elicitation(rho_sign="zero", pairwise_budget=4, beta_range=(0.01, 30)),
        lambda: Stakeholder(1.5, 0.5),
    ),
}


def _same_question(engine, shown):
    if engine is None or shown is None:
        return engine is None and shown is None
    keys = ("precision", "recall") if engine["kind"] == "local" else ("a", "b")
    return engine["kind"] == shown["kind"] and bool(
        np.allclose(np.ravel([engine[k] for k in keys]), np.ravel([shown[k] for k in keys]), rtol=1e-12, atol=0.0)
    )


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("scenario", SCENARIOS)
# Two scenarios end on a pick that flags everyone: the result warns (tested in test_wording.py); here
# only the two engines' agreement is at stake.
@pytest.mark.filterwarnings("ignore:ElicitationResult.*flags:isometrics.exceptions.DegenerateDataWarning")
def test_the_page_engine_follows_the_python_engine(scenario):
    make_session, make_stakeholder = SCENARIOS[scenario]
    expected = make_session().run(make_stakeholder())
    data = expected.transcript.to_dict()
    job = {
        "data": {"settings": data["settings"], "curve": data["curve"]},
        "answers": [step["answer"] for step in data["steps"]],
    }
    out = subprocess.run([NODE, str(RUNNER)], input=json.dumps(job), capture_output=True, text=True, check=True)
    js = json.loads(out.stdout)
    trace = engine_trace(expected.transcript)
    assert len(js["trace"]) == len(trace)
    for k, (engine, shown) in enumerate(zip(trace, js["trace"])):
        assert _same_question(engine["asked"], shown["asked"]), (k, engine["asked"], shown["asked"])
        assert shown["stop_reason"] == engine["stop_reason"]
        assert abs(shown["log_beta"] - engine["log_beta"]) <= 1e-9 and abs(shown["rho"] - engine["rho"]) <= 1e-9
        assert abs(shown["feasible_fraction"] - engine["feasible_fraction"]) <= 1e-12
    final = js["result"]
    assert final["metric"]["spec"] == expected.metric.spec
    assert [c for c in final["contradictions"]] == [c.message for c in expected.contradictions]
    assert final["decision"]["index"] == expected.decision.index
    assert abs(final["decision"]["max_loss"] - expected.decision.max_loss) <= 1e-9
    assert np.allclose(final["beta_interval"], expected.beta_interval, rtol=1e-9)
    low, high = expected.beta_bounds
    assert final["beta_bounds"] == [low, "inf" if math.isinf(high) else high]
