"""Every number the elicitation engine produces on a set of scenarios, to compare two versions bit for bit.

Not a test (no ``test_`` prefix): a speed-up of the engine must leave every double unchanged (issue 24,
item 6), so this script records the engine's outputs (questions, posterior weights and regions after each
answer, information gains, estimates, results, transcripts, traces and replays, the kernel's functions on
the grids) from one source tree and compares them with those recorded from another, with ``==`` on the
bytes of every array (signed zeros and NaN payloads included)::

    mkdir -p /tmp/old && git archive <commit> src | tar -x -C /tmp/old
    OPENBLAS_NUM_THREADS=1 PYTHONPATH=/tmp/old/src python tests/elicitation/_engine_snapshot.py record old.pkl
    OPENBLAS_NUM_THREADS=1 PYTHONPATH=src python tests/elicitation/_engine_snapshot.py record new.pkl
    python tests/elicitation/_engine_snapshot.py compare old.pkl new.pkl

Run both with the same number of BLAS threads (the test suite uses one): a threaded dot product sums in
another order.
"""

import math
import pickle
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

INF = math.inf


def _stratified(n, seed):
    u = (np.arange(n) + 0.5) / n
    v = np.random.default_rng(seed).permutation(u)
    return [(math.exp(math.log(0.2) + math.log(25) * b), -8 + 7.5 * r) for b, r in zip(v, u)]


def _scenarios():
    from _stakeholders import Stakeholder, binormal_curve

    import isometrics as im

    E, S = im.elicitation.Elicitation, im.elicitation.SimulatedStakeholder
    out = {}
    for k, (beta, rho) in enumerate(_stratified(3, seed=12)):
        out[f"noisy 25 #{k}"] = (
            lambda: E(local_budget=0, pairwise_budget=25, tolerance=1e-9),
            lambda beta=beta, rho=rho, k=k: S(beta, rho, pairwise_lambda=50.0, rng=k),
        )
    for k, (beta, rho) in enumerate(_stratified(2, seed=3)):
        out[f"noiseless binormal #{k}"] = (
            lambda k=k: E(
                *binormal_curve(1.0 + k % 3),
                local_budget=0,
                pairwise_budget=12,
                tolerance=1e-9,
                local_lambda=INF,
                pairwise_lambda=INF,
            ),
            lambda beta=beta, rho=rho: Stakeholder(beta, rho),
        )
    out["noiseless local and pairwise"] = (
        lambda: E(local_lambda=INF, pairwise_lambda=INF, pairwise_budget=6),
        lambda: Stakeholder(0.5, -1.0),
    )
    out["contradiction noiseless"] = (
        lambda: E(local_budget=2, local_lambda=INF, pairwise_lambda=INF, pairwise_budget=4),
        lambda: Stakeholder(2.0, -3.0, noise="logistic", lam=5.0, seed=3),
    )
    out["probit lapses binormal"] = (
        lambda: E(*binormal_curve(2.0), local_budget=4, pairwise_budget=6),
        lambda: Stakeholder(2.0, -3.0, noise="probit", local="delta", lapse=0.05, seed=1),
    )
    out["rho zero wider box"] = (
        lambda: E(rho_sign="zero", pairwise_budget=4, beta_range=(0.01, 30)),
        lambda: Stakeholder(1.5, 0.5),
    )
    out["rho positive local"] = (
        lambda: E(local_lambda=INF, rho_sign="positive", pairwise_budget=3),
        lambda: S(3.0, 1.5),
    )
    out["edge of the box, default"] = (
        lambda: E(pairwise_budget=10),
        lambda: Stakeholder(0.05, -2.0, noise="logistic", seed=5),
    )
    out["local delta binormal"] = (
        lambda: E(*binormal_curve(2.0), pairwise_budget=8),
        lambda: Stakeholder(0.368, -0.5, noise="logistic", local="delta", seed=1),
    )
    out["wide box"] = (
        lambda: E(beta_range=(0.005, 200), local_budget=1, pairwise_budget=3),
        lambda: Stakeholder(0.05, -2.0),
    )
    out["asymmetric box, rho -1 and 0 truths"] = (
        lambda: E(beta_range=(0.1, 20), local_budget=3, pairwise_budget=5, tolerance=1e-9),
        lambda: S(1.0, -1.0, pairwise_lambda=20.0, local_lambda=20.0, rng=4),
    )
    out["few curve points"] = (
        lambda: E([0.9, 0.7, 0.5, 0.3], [0.2, 0.5, 0.7, 0.95], local_budget=2, pairwise_budget=6),
        lambda: S(1.0, 0.0, pairwise_lambda=50.0, local_lambda=50.0, rng=7),
    )
    return out


def _arrays(x):
    a = np.asarray(x)
    return (str(a.dtype), a.shape, a.tobytes())


def _joint_state(j):
    gain, pairs = j.information_gain()
    return {
        "weights": _arrays(j.weights()),
        "log_w": _arrays(j.log_w),
        "hard_w": _arrays(j.hard_w),
        "feasible": _arrays(j.feasible),
        "hard": _arrays(j.hard),
        "fine_ok": _arrays(j.fine_ok),
        "estimate": j.estimate(),
        "spread": j.spread(),
        "mode": j.mode(),
        "plausible": _arrays(j.plausible()),
        "pick": j.pick(),
        "risk": j.risk(0.005),
        "edges": j.edges(0.005),
        "quantiles": [j.log_beta_quantile(q) for q in (0.025, 0.5, 0.975)],
        "gain": _arrays(gain),
        "pairs": [_arrays(p) for p in pairs],
        "witness": j.witness,
        "last_clash": j.last_clash,
        "contains": [j.contains(b, r) for b, r in ((0.5, -1.0), (2.0, -3.0), (1.0, 0.0), (1.5, 0.5))],
    }


def _result(r):
    d = r.to_dict()
    return {
        "dict": repr(d),
        "region": (_arrays(r.region_log_beta), _arrays(r.region_rho)),
        "numbers": repr((r.beta, r.rho, r.beta_sd_log, r.rho_sd, r.mode_beta, r.mode_rho, r.beta_interval)),
        "decision": repr(r.decision),
        "contradictions": repr(r.contradictions),
        "notes": r.notes,
        "summary": r.summary,
    }


def record():
    import isometrics as im
    from isometrics.elicitation import _kernel as K
    from isometrics.elicitation import engine_trace, replay
    from isometrics.elicitation.pairwise import level_candidates

    out = {}
    # the kernel's functions on the grids
    for box in ((0.05, 20.0), (0.005, 200.0), (0.1, 20.0)):
        lb, rho = K.pairwise_grid(box)
        x = K.local_grid(box)
        for p, r in ((0.9, 0.3), (1.0, 1.0), (0.001, 0.999), (0.5, 0.5), (1e-9, 0.7)):
            out[("log_g", box, p, r)] = _arrays(K.log_g(lb, rho, p, r))
            out[("local_g_margin", box, p, r)] = _arrays(K.local_g_margin(lb, rho, p, r))
            g2 = np.meshgrid(x, rho[:121], indexing="ij")
            out[("local_g_margin local", box, p, r)] = _arrays(K.local_g_margin(g2[0], g2[1], p, r))
        pts = np.linspace(0.01, 1.0, 23)
        out[("g_values", box)] = _arrays(K.g_values(lb, rho, pts, pts[::-1]))
        out[("g_values sub", box)] = _arrays(K.g_values(lb[::7], rho[::7], pts, pts[::-1]))
        m = np.linspace(-0.5, 0.5, 1001)
        for lam in (50.0, 5.0, INF):
            out[("likelihood_entropy", lam)] = [_arrays(a) for a in K.likelihood_entropy(m, lam)]
            out[("log_likelihood", lam)] = _arrays(K.log_likelihood(m, lam))
    for lb0, rho0 in ((0.3, -2.0), (0.0, 0.0), (-1.2, -1.0), (2.0, 3.5), (-2.9, -8.0)):
        out[("level_candidates", lb0, rho0)] = [_arrays(a) for a in level_candidates(lb0, rho0)]
    # sessions, step by step
    for name, (make, stakeholder) in _scenarios().items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            s, stake = make(), stakeholder()
            steps = []
            while (q := s.next_question()) is not None:
                a = stake(q)
                steps.append((repr(q.to_dict()), a, repr(s._local.weights().tobytes()), _joint_state(s._joint)))
                s.answer(a)
                if s.n_local and s.n_pairwise == 0:
                    steps.append(("local", s._local.information(), s._local.width(), s._local.exact_bounds()))
            steps.append(("stop", s.stop_reason, _joint_state(s._joint)))
            result = s.result()
            out[("session", name)] = {
                "steps": steps,
                "result": _result(result),
                "transcript": result.transcript.to_json(),
                "trace": repr(engine_trace(result.transcript)),
                "replay": _result(replay(result.transcript)),
            }
    # a session from scores (the CLI's path)
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    score = y + rng.normal(0, 1.0, 400)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = im.elicitation.Elicitation.from_scores(y, score, local_budget=2, pairwise_budget=5)
        out["from_scores"] = _result(s.run(im.elicitation.SimulatedStakeholder(2.0, -2.0, pairwise_lambda=50.0, rng=1)))
    return out


def _diff(a, b, path, bad):
    if type(a) is not type(b):
        bad.append((path, "type", type(a).__name__, type(b).__name__))
    elif isinstance(a, dict):
        if a.keys() != b.keys():
            bad.append((path, "keys"))
        for k in a.keys() & b.keys():
            _diff(a[k], b[k], path + (k,), bad)
    elif isinstance(a, (list, tuple)):
        if len(a) != len(b):
            bad.append((path, "length", len(a), len(b)))
        for k, (x, y) in enumerate(zip(a, b)):
            _diff(x, y, path + (k,), bad)
    elif isinstance(a, float) and math.isnan(a):
        if not (isinstance(b, float) and math.isnan(b)):
            bad.append((path, a, b))
    elif a != b:
        bad.append((path, a if not isinstance(a, bytes) else "bytes", b if not isinstance(b, bytes) else "bytes"))


def compare(old, new):
    bad = []
    _diff(old, new, (), bad)
    for line in bad[:40]:
        print("DIFFERS:", *line)
    n = len(old)
    print(f"{n} entries compared, {len(bad)} differences")
    return not bad


if __name__ == "__main__":
    if sys.argv[1] == "record":
        with open(sys.argv[2], "wb") as fh:
            pickle.dump(record(), fh)
    else:
        with open(sys.argv[2], "rb") as a, open(sys.argv[3], "rb") as b:
            sys.exit(0 if compare(pickle.load(a), pickle.load(b)) else 1)
