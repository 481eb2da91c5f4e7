"""Old against new page engine (report/static/elicit.js), byte for byte, over scripted sessions.

Runs the same sessions through two versions of elicit.js under node
(``benchmarks/elicit_js_sessions.js``) and compares, at every step of every session, the JSON of
what the page reads (the next question, the full result, the transcript) and of the engine's inner
state (sha256 of the local and joint posterior weights' doubles and of the pairs' information
gains). Sessions: 12 settings and curves (the default curve, a model curve from scores, a binormal
curve, a three-point curve; noiseless, noisy, mixed; rho negative, zero, positive; a wider box;
small and default budgets) times 9 stakeholders (noiseless and logistic at four (beta, rho), random
answers that contradict each other, always recall), plus the browser tests' four scenarios and the
parity test's four with their Python stakeholders' answers.

Usage: python benchmarks/check_elicit_js_identical.py OLD [NEW]
  OLD, NEW: an elicit.js file, or a git commit (its src/isometrics/report/static/elicit.js);
  NEW defaults to the working tree's file.  e.g. python benchmarks/check_elicit_js_identical.py HEAD
Prints the number of sessions and steps, the sha256 of all the steps' JSON and the time node took
(CPU) for each side; exits 1 at the first step that differs.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

import isometrics as im

ROOT = Path(__file__).resolve().parents[1]
ENGINE = "src/isometrics/report/static/elicit.js"
RUNNER = ROOT / "benchmarks" / "elicit_js_sessions.js"
INF = math.inf


def _scores(seed=0, n=500):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    return y, rng.normal(size=n) + 1.5 * y


def _binormal(mu=2.0, prevalence=0.1, n=120):
    from statistics import NormalDist

    phi = NormalDist().cdf
    t = np.linspace(-4.0, mu + 4.0, n)
    tpr = np.array([1 - phi(x - mu) for x in t])
    fpr = np.array([1 - phi(x) for x in t])
    keep = tpr > 1e-9
    tpr, fpr = tpr[keep], fpr[keep]
    precision = prevalence * tpr / (prevalence * tpr + (1 - prevalence) * fpr)
    return precision, tpr


def _settings():
    model = _scores()
    binormal = _binormal()
    return [
        lambda: im.elicitation.Elicitation(),
        lambda: im.elicitation.Elicitation(local_lambda=INF, pairwise_lambda=INF),
        lambda: im.elicitation.Elicitation.from_scores(*model),
        lambda: im.elicitation.Elicitation.from_scores(*model, local_lambda=INF, pairwise_lambda=INF),
        lambda: im.elicitation.Elicitation.from_scores(*model, local_budget=3, pairwise_budget=6, tolerance=0.02),
        lambda: im.elicitation.Elicitation(*binormal, local_lambda=20.0, pairwise_lambda=INF, pairwise_budget=12),
        lambda: im.elicitation.Elicitation(rho_sign="zero", pairwise_budget=8),
        lambda: im.elicitation.Elicitation(rho_sign="positive", pairwise_budget=10),
        lambda: im.elicitation.Elicitation(rho_sign="zero", pairwise_budget=6, beta_range=(0.01, 30)),
        lambda: im.elicitation.Elicitation(beta_range=(0.005, 200), pairwise_lambda=INF, pairwise_budget=10),
        lambda: im.elicitation.Elicitation([0.9, 0.6, 0.3], [0.2, 0.6, 0.95], local_budget=4, pairwise_budget=8),
        lambda: im.elicitation.Elicitation(local_budget=0, pairwise_budget=12, pairwise_lambda=10.0),
    ]


STAKEHOLDERS = [
    {"kind": "exact", "beta": 0.5, "rho": -1.0},
    {"kind": "exact", "beta": 2.0, "rho": -3.0},
    {"kind": "exact", "beta": 1.5, "rho": 0.5},
    {"kind": "exact", "beta": 8.0, "rho": -6.0},
    {"kind": "logistic", "beta": 2.0, "rho": -3.0, "lam": 50.0, "seed": 1},
    {"kind": "logistic", "beta": 0.3, "rho": -0.5, "lam": 20.0, "seed": 7},
    {"kind": "random", "seed": 3},
    {"kind": "random", "seed": 11},
    {"kind": "recall"},
]


def _answered():
    """The browser tests' and the parity test's sessions, answered by their Python stakeholders."""
    sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "presentation"), str(ROOT / "tests" / "elicitation")]
    import test_elicitation_page as page_tests
    import test_engine_parity as parity_tests

    out = []
    for module in (page_tests, parity_tests):
        for make_session, make_stakeholder in module.SCENARIOS.values():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                steps = make_session().run(make_stakeholder()).transcript.to_dict()["steps"]
            out.append((make_session, {"kind": "answers", "answers": [s["answer"] for s in steps]}))
    return out


def jobs():
    pairs = [(make, who) for make in _settings() for who in STAKEHOLDERS] + _answered()
    out = []
    for make, who in pairs:
        t = make().transcript.to_dict()
        out.append({"data": {"settings": t["settings"], "curve": t["curve"]}, "stakeholder": who})
    return out


def _engine_file(spec: str, folder: Path) -> Path:
    if Path(spec).is_file():
        return Path(spec).resolve()
    text = subprocess.run(["git", "show", f"{spec}:{ENGINE}"], cwd=ROOT, capture_output=True, text=True, check=True)
    path = folder / f"elicit-{spec.replace('/', '_')}.js"
    path.write_text(text.stdout, encoding="utf-8")
    return path


def run(engines: list[Path], job_text: str, gains: bool) -> list[tuple[list[str], float]]:
    """Both engines' steps, their node processes side by side, and each one's CPU seconds."""
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is not installed")
    procs = []
    for engine in engines:
        out = tempfile.TemporaryFile("w+", encoding="utf-8")
        args = [node, str(RUNNER), str(engine)] + (["--gains"] if gains else [])
        procs.append((subprocess.Popen(args, stdin=subprocess.PIPE, stdout=out, text=True), out))
    for p, _ in procs:
        p.stdin.write(job_text)
        p.stdin.close()
    results = []
    for p, out in procs:
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode:
            raise SystemExit(f"node failed ({p.returncode})")
        out.seek(0)
        results.append((out.read().splitlines(), usage.ru_utime + usage.ru_stime))
    return results


def main(argv: list[str]) -> int:
    gains = "--gains" in argv
    argv = [a for a in argv if a != "--gains"]
    if not 1 <= len(argv) <= 2:
        print(__doc__)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        old = _engine_file(argv[0], Path(folder))
        new = _engine_file(argv[1], Path(folder)) if len(argv) > 1 else ROOT / ENGINE
        job_text = json.dumps(jobs())
        (a, ta), (b, tb) = run([old, new], job_text, gains)
    n_sessions = len(json.loads(job_text))
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            print(f"step {k} differs:\n old {x[:2000]}\n new {y[:2000]}")
            return 1
    if len(a) != len(b):
        print(f"the old engine gave {len(a)} steps, the new {len(b)}")
        return 1
    digest = hashlib.sha256("\n".join(a).encode()).hexdigest()
    print(
        f"{n_sessions} sessions, {len(a)} steps: identical (sha256 {digest[:16]}...); node CPU {ta:.1f} s old, {tb:.1f} s new"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
