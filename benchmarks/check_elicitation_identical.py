"""Old against new elicitation engine, bit for bit: every step of many scripted sessions.

Runs the same sessions with two source trees (each in a subprocess with its own ``PYTHONPATH`` and
one BLAS thread, as the test suite runs: a threaded dot product sums in another order) and compares
what the engine produces with ``==`` on every number and on the bytes of every array (their SHA-256): at each step
the question asked, the posterior weights, log weights and regions (feasible, noiseless, cell
samples), the estimate, spread, mode, plausible region and its decision losses, the pick, risk and
edges, the quantiles of log beta, the information gain of every candidate pair, the local phase's
weights, information, width and bounds; then the result, the transcript, the engine trace and the
replay. Sessions: noiseless and noisy stakeholders (every kind of ``SimulatedStakeholder``: logistic
and probit noise, lapses, noisy or noiseless local answers; and the tests' stakeholders written on
``g_beta_rho`` alone, with local answers by the first-order model or by a delta), local and
pairwise phases, the three signs of rho, budgets from 1 to 48, tolerances, four boxes, the default
curve, binormal curves, a few points, a curve from scores, questions of the user's choosing and
contradictions. Each session also runs once without the per-step reads, to check that reading the
state changes nothing.

Usage: python benchmarks/check_elicitation_identical.py OLD_SRC [NEW_SRC]   (NEW_SRC defaults to ./src)
e.g.   mkdir -p /tmp/old && git archive <commit> src | tar -x -C /tmp/old
       python benchmarks/check_elicitation_identical.py /tmp/old/src
"""

from __future__ import annotations

import hashlib
import math
import sys
from pathlib import Path

import _old_new
import numpy as np

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent / "tests" / "elicitation"
INF = math.inf


def scenarios():
    """name -> (make the session, make the stakeholder or a list of (question, answer) to record)."""
    sys.path.insert(0, str(TESTS))
    from _stakeholders import Stakeholder, binormal_curve, stratified_truths

    import isometrics as im
    from isometrics.elicitation import LocalQuestion, PairwiseQuestion

    E, S = im.elicitation.Elicitation, im.elicitation.SimulatedStakeholder
    out = {}
    # noisy pairwise sessions (the tests' budgets: 25 questions, the stopping rule at 40)
    for k, (beta, rho) in enumerate(stratified_truths(4, seed=12)):
        out[f"noisy 25 #{k}"] = (
            lambda: E(local_budget=0, pairwise_budget=25, tolerance=1e-9),
            lambda beta=beta, rho=rho, k=k: S(beta, rho, pairwise_lambda=50.0, rng=k),
        )
    for k, (beta, rho) in enumerate(stratified_truths(3, seed=13)):
        out[f"stopping rule #{k}"] = (
            lambda: E(local_budget=0, pairwise_budget=40),
            lambda beta=beta, rho=rho, k=k: S(beta, rho, pairwise_lambda=50.0, rng=100 + k),
        )
    # noiseless pairwise sessions
    for k, (beta, rho) in enumerate(stratified_truths(3, seed=11)):
        out[f"noiseless 12 #{k}"] = (
            lambda: E(local_budget=0, pairwise_budget=12, tolerance=1e-9, pairwise_lambda=INF),
            lambda beta=beta, rho=rho: S(beta, rho),
        )
    for k, (beta, rho) in enumerate(stratified_truths(3, seed=3)):
        out[f"noiseless binormal #{k}"] = (
            lambda k=k: E(
                *binormal_curve(1.0 + k),
                local_budget=0,
                pairwise_budget=12,
                tolerance=1e-9,
                local_lambda=INF,
                pairwise_lambda=INF,
            ),
            lambda beta=beta, rho=rho: Stakeholder(beta, rho),
        )
    # every kind of SimulatedStakeholder, with local questions first
    kinds = {
        "logistic": dict(pairwise_lambda=50.0, local_lambda=50.0),
        "probit": dict(pairwise_lambda=50.0, local_lambda=50.0, noise="probit"),
        "lapses": dict(pairwise_lambda=50.0, local_lambda=50.0, lapse=0.2),
        "noiseless local, noisy pairwise": dict(pairwise_lambda=20.0),
        "sharp": dict(pairwise_lambda=200.0, local_lambda=200.0),
    }
    truths = [(2.0, -3.0), (0.5, -1.0), (1.0, 0.0), (3.0, 1.5), (0.3, -6.0)]
    for k, (name, kw) in enumerate(kinds.items()):
        beta, rho = truths[k]
        out[f"kind {name}"] = (
            lambda: E(local_budget=6, pairwise_budget=10, tolerance=1e-9),
            lambda beta=beta, rho=rho, kw=kw, k=k: S(beta, rho, rng=7 + k, **kw),
        )
    # the tests' stakeholders (not the engine's likelihood)
    out["probit lapses binormal"] = (
        lambda: E(*binormal_curve(2.0), local_budget=4, pairwise_budget=6),
        lambda: Stakeholder(2.0, -3.0, noise="probit", local="delta", lapse=0.05, seed=1),
    )
    out["local delta binormal"] = (
        lambda: E(*binormal_curve(2.0), pairwise_budget=8),
        lambda: Stakeholder(0.368, -0.5, noise="logistic", local="delta", seed=1),
    )
    out["far from the assumed sign"] = (
        lambda: E(local_budget=8, pairwise_budget=6, tolerance=1e-9),
        lambda: Stakeholder(1.5, 2.0, noise="logistic", seed=2),
    )
    # noiseless local and pairwise answers, contradictions
    out["noiseless local and pairwise"] = (
        lambda: E(local_lambda=INF, pairwise_lambda=INF, pairwise_budget=6),
        lambda: Stakeholder(0.5, -1.0),
    )
    out["contradiction noiseless"] = (
        lambda: E(local_budget=2, local_lambda=INF, pairwise_lambda=INF, pairwise_budget=4),
        lambda: Stakeholder(2.0, -3.0, noise="logistic", lam=5.0, seed=3),
    )
    out["contradiction noisy"] = (
        lambda: E(local_budget=3, pairwise_budget=8),
        lambda: Stakeholder(1.0, -2.0, noise="logistic", lam=3.0, seed=4),
    )
    out["recorded questions, noiseless"] = (
        lambda: E(local_budget=0, pairwise_lambda=INF, local_lambda=INF),
        lambda: [
            (PairwiseQuestion((0.9, 0.3), (0.3, 0.9)), "a"),
            (PairwiseQuestion((0.25, 0.85), (0.95, 0.35)), "a"),
            (LocalQuestion(0.9, 0.36), "recall"),
            (PairwiseQuestion((0.6, 0.6), (0.8, 0.4)), "b"),
            (LocalQuestion(0.5, 0.8), "precision"),
            (PairwiseQuestion((0.6, 0.6), (0.8, 0.4)), "a"),
        ],
    )
    out["recorded questions, noisy"] = (
        lambda: E(local_budget=0),
        lambda: [
            (PairwiseQuestion((0.9, 0.3), (0.3, 0.9)), "a"),
            (LocalQuestion(0.9, 0.36), "recall"),
            (PairwiseQuestion((0.25, 0.85), (0.95, 0.35)), "a"),
            (PairwiseQuestion((1.0, 0.1), (0.1, 1.0)), "b"),
        ],
    )
    # signs of rho, boxes, curves, budgets
    out["rho zero wider box"] = (
        lambda: E(rho_sign="zero", pairwise_budget=4, beta_range=(0.01, 30)),
        lambda: Stakeholder(1.5, 0.5),
    )
    out["rho positive local"] = (
        lambda: E(local_lambda=INF, rho_sign="positive", pairwise_budget=3),
        lambda: S(3.0, 1.5),
    )
    out["rho positive noisy"] = (
        lambda: E(rho_sign="positive", local_budget=5, pairwise_budget=5),
        lambda: S(0.4, 2.5, pairwise_lambda=50.0, local_lambda=50.0, rng=11),
    )
    out["edge of the box, default"] = (
        lambda: E(pairwise_budget=10),
        lambda: Stakeholder(0.05, -2.0, noise="logistic", seed=5),
    )
    out["wide box"] = (
        lambda: E(beta_range=(0.005, 200), local_budget=1, pairwise_budget=3),
        lambda: Stakeholder(0.05, -2.0),
    )
    out["asymmetric box, rho -1 truth"] = (
        lambda: E(beta_range=(0.1, 20), local_budget=3, pairwise_budget=5, tolerance=1e-9),
        lambda: S(1.0, -1.0, pairwise_lambda=20.0, local_lambda=20.0, rng=4),
    )
    out["few curve points"] = (
        lambda: E([0.9, 0.7, 0.5, 0.3], [0.2, 0.5, 0.7, 0.95], local_budget=2, pairwise_budget=6),
        lambda: S(1.0, 0.0, pairwise_lambda=50.0, local_lambda=50.0, rng=7),
    )
    out["one pairwise question"] = (
        lambda: E(local_budget=12, pairwise_budget=1),
        lambda: S(2.0, -2.0, local_lambda=50.0, rng=8),
    )
    out["default session, long"] = (
        lambda: E(),
        lambda: S(1.3, -2.5, pairwise_lambda=50.0, local_lambda=50.0, rng=9),
    )
    out["budget 48, noiseless, tight tolerance"] = (
        lambda: E(local_budget=12, pairwise_budget=48, tolerance=1e-4, local_lambda=INF, pairwise_lambda=INF),
        lambda: S(0.7, -4.0),
    )
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    score = y + rng.normal(0, 1.0, 400)
    out["from scores"] = (
        lambda: E.from_scores(y, score, local_budget=2, pairwise_budget=5),
        lambda: S(2.0, -2.0, pairwise_lambda=50.0, rng=1),
    )
    return out


def _a(x):
    """An array as its dtype, shape and the SHA-256 of its bytes (equal bytes, equal digests)."""
    a = np.ascontiguousarray(x)
    return (str(a.dtype), a.shape, hashlib.sha256(a.tobytes()).hexdigest())


def _joint_state(j):
    gain, pairs = j.information_gain()
    region = j.plausible()
    return {
        "weights": _a(j.weights()),
        "log_w": _a(j.log_w),
        "hard_w": _a(j.hard_w),
        "feasible": _a(j.feasible),
        "hard": _a(j.hard),
        "fine_ok": _a(j.fine_ok),
        "estimate": j.estimate(),
        "spread": j.spread(),
        "mode": j.mode(),
        "plausible": _a(region),
        "losses": j.decision_losses(region),
        "pick": j.pick(),
        "risk": (j.risk(0.005), j.risk(1e-9), j.stable(0.005)),
        "edges": j.edges(0.005),
        "quantiles": [j.log_beta_quantile(q) for q in (0.025, 0.5, 0.975)],
        "gain": _a(gain),
        "pairs": [_a(p) for p in pairs],
        "witness": j.witness,
        "last_clash": j.last_clash,
        "contains": [j.contains(b, r) for b, r in ((0.5, -1.0), (2.0, -3.0), (1.0, 0.0), (1.5, 0.5))],
        "feasible_fraction": j.feasible_fraction(),
    }


def _local_state(loc):
    return {
        "weights": _a(loc.weights()),
        "log_w": _a(loc.log_w),
        "converged": loc.converged(),
        "information": loc.information(),
        "width": loc.width(),
        "bounds": loc.exact_bounds(),
        "quantiles": [loc.quantile(q) for q in (0.025, 0.5, 0.975)],
        "next": repr(loc.next_question()),
    }


def _result(r):
    return {
        "dict": repr(r.to_dict()),
        "region": (_a(r.region_log_beta), _a(r.region_rho)),
        "numbers": repr(
            (r.beta, r.rho, r.beta_sd_log, r.rho_sd, r.mode_beta, r.mode_rho, r.beta_interval, r.beta_range)
        ),
        "decision": repr(r.decision),
        "contradictions": repr(r.contradictions),
        "notes": r.notes,
        "summary": r.summary,
    }


def _session(make, answers, read):
    from isometrics.elicitation import engine_trace, replay

    s = make()
    steps = []
    who = answers()
    script = list(who) if isinstance(who, list) else None
    while True:
        if script is not None:
            if not script:
                break
            q, a = script.pop(0)
        else:
            q = s.next_question()
            if q is None:
                break
            a = who(q)
        step = [repr(q.to_dict()), a]
        if read:
            step += [s.stop_reason, _local_state(s._local), _joint_state(s._joint)]
        steps.append(step)
        if script is not None:
            s.record(q, a)
        else:
            s.answer(a)
    steps.append(("stop", s.stop_reason, _local_state(s._local), _joint_state(s._joint)))
    result = s.result()
    return {
        "steps": steps,
        "result": _result(result),
        "transcript": result.transcript.to_json(),
        "trace": repr(engine_trace(result.transcript)),
        "replay": _result(replay(result.transcript)),
    }


def _kernel():
    from isometrics.elicitation import _kernel as K
    from isometrics.elicitation.pairwise import level_candidates

    out = {}
    for box in ((0.05, 20.0), (0.005, 200.0), (0.1, 20.0), (0.01, 30.0)):
        lb, rho = K.pairwise_grid(box)
        x = K.local_grid(box)
        for p, r in ((0.9, 0.3), (1.0, 1.0), (0.001, 0.999), (0.5, 0.5), (1e-9, 0.7), (0.3, 1e-6)):
            out[("log_g", box, p, r)] = _a(K.log_g(lb, rho, p, r))
            out[("local_g_margin", box, p, r)] = _a(K.local_g_margin(lb, rho, p, r))
            g2 = np.meshgrid(x, rho[:121], indexing="ij")
            out[("local_g_margin local", box, p, r)] = _a(K.local_g_margin(g2[0], g2[1], p, r))
        pts = np.linspace(0.01, 1.0, 23)
        out[("g_values", box)] = _a(K.g_values(lb, rho, pts, pts[::-1]))
        out[("g_values sub", box)] = _a(K.g_values(lb[::7], rho[::7], pts, pts[::-1]))
    m = np.linspace(-0.5, 0.5, 1001)
    for lam in (50.0, 5.0, INF):
        out[("likelihood_entropy", lam)] = [_a(a) for a in K.likelihood_entropy(m, lam)]
        out[("log_likelihood", lam)] = _a(K.log_likelihood(m, lam))
    for lb0, rho0 in ((0.3, -2.0), (0.0, 0.0), (-1.2, -1.0), (2.0, 3.5), (-2.9, -8.0), (1.1, 0.0), (0.0, -1.0)):
        out[("level_candidates", lb0, rho0)] = [_a(a) for a in level_candidates(lb0, rho0)]
    return out


CASES = ["kernel", *scenarios()]


def outputs() -> list[dict]:
    """The kernel's values, then each session's steps read and not read (one dict a case of CASES)."""
    out = [{"kernel": _kernel()}]
    for make, answers in scenarios().values():
        out.append({"read": _session(make, answers, read=True), "plain": _session(make, answers, read=False)})
    return out


def main():
    _old_new.main(CASES, outputs, __file__)


if __name__ == "__main__":
    main()
