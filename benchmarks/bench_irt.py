"""beta^3-IRT: isometrics' MAP fit against birt-gd (Beta3 and Beta4), on simulated and KEEL matrices.

birt-gd is GPL-3: it is never imported here, by the package or by the tests. It lives in its own
virtual environment, ``benchmarks/.venv-birt`` (made by ``bash benchmarks/peers/setup_birt.sh``;
another with ``--birt-venv``), and runs in a subprocess of that environment's python on the same
matrix, which it reads from a .npy file.

Reported per data set and method: Spearman of the estimates with the simulated truth (ability,
difficulty, discrimination), the share of negative-discrimination items detected, the Beta
negative log-likelihood at the estimates (responses clipped to [1e-3, 1 - 1e-3] for every method)
and the fit's wall time (birt-gd: the fit call alone, timed inside its process), with ratios.
On the KEEL matrix (``--keel``, a long-form CSV model,dataset,auroc,... such as the one the
benchmark build writes) there is no truth: Spearman with isometrics' estimates and with the
mean AUROC instead; birt-gd cannot take missing cells, so the data sets some model lacks are
dropped for every method there. Finally the time per objective evaluation and the peak memory
of a fit at ``--large`` respondents x items (a few iterations), to extrapolate to 10^3 x 10^5.

Usage: bash benchmarks/peers/setup_birt.sh   # once
       python benchmarks/bench_irt.py [--birt-venv DIR] [--keel PATH] [--large 1000x10000] [--skip-birt]
                                      [--skip-simulated]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr

import isometrics as im
from isometrics.irt import model as irt_model
from isometrics.irt.information import beta_log_density, beta_shapes

EPS = 1e-3
KEEL_DEFAULT = Path(__file__).resolve().parent / "data" / "keel_responses.csv"

_RUNNER = textwrap.dedent("""
    import json, sys, time, warnings, os
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    warnings.filterwarnings("ignore")
    import numpy as np
    from birt import Beta3, Beta4
    x = np.load(sys.argv[1])            # respondents x items
    out = {}
    for name, cls in (("Beta3", Beta3), ("Beta4", Beta4)):
        est = cls(n_respondents=x.shape[0], n_items=x.shape[1], random_seed=1)
        t0 = time.perf_counter()
        est.fit(x.T)                   # birt-gd takes items x respondents
        out[name] = dict(seconds=time.perf_counter() - t0, ability=np.asarray(est.abilities).tolist(),
                         difficulty=np.asarray(est.difficulties).tolist(),
                         discrimination=np.asarray(est.discriminations).tolist())
    print("JSON" + json.dumps(out))
""")


BIRT_VENV = Path(__file__).resolve().parent / ".venv-birt"


def birt_python(venv: Path) -> Path:
    py = venv / "bin" / "python"
    probe = subprocess.run([str(py), "-c", "import importlib.metadata as m; print(m.version('birt-gd'))"],
                           capture_output=True, text=True) if py.exists() else None
    if probe is None or probe.returncode:
        sys.exit(f"birt-gd is not installed in {venv}: run `bash benchmarks/peers/setup_birt.sh` first "
                 "(or pass --skip-birt)")
    print(f"birt-gd {probe.stdout.strip()} from {venv}")
    return py


def run_birt(py: Path, x: np.ndarray) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        np.save(Path(tmp) / "x.npy", x)
        (Path(tmp) / "run.py").write_text(_RUNNER)
        res = subprocess.run([str(py), str(Path(tmp) / "run.py"), str(Path(tmp) / "x.npy")], capture_output=True,
                             text=True, env={**os.environ, "PYTHONPATH": ""})
    line = [s for s in res.stdout.splitlines() if s.startswith("JSON")]
    if not line:
        raise RuntimeError(res.stderr[-2000:])
    return {k: {f: np.asarray(v) if isinstance(v, list) else v for f, v in d.items()}
            for k, d in json.loads(line[0][4:]).items()}


def nll(x: np.ndarray, ability, difficulty, discrimination) -> float:
    obs = ~np.isnan(x)
    alpha, beta = beta_shapes(np.clip(ability, 1e-9, 1 - 1e-9)[:, None], np.clip(difficulty, 1e-9, 1 - 1e-9)[None, :],
                              np.asarray(discrimination)[None, :])
    q = np.clip(x, EPS, 1 - EPS)
    value = -float(np.sum(beta_log_density(q[obs], alpha[obs], beta[obs])))
    return value if np.isfinite(value) else float("nan")


def simulate(n: int, m: int, seed: int) -> tuple[np.ndarray, dict]:
    rng = np.random.default_rng(seed)
    theta, delta = rng.uniform(0.05, 0.95, n), rng.uniform(0.05, 0.95, m)
    a = rng.normal(1.0, 0.5, m)
    neg = rng.choice(m, m // 10, replace=False)
    a[neg] = -np.abs(a[neg])
    alpha, beta = beta_shapes(theta[:, None], delta[None, :], a[None, :])
    return rng.beta(alpha, beta), dict(ability=theta, difficulty=delta, discrimination=a, negative=neg)


def rho(a, b) -> float:
    a, b = np.asarray(a, float), np.asarray(b, float)
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))) or np.ptp(a) == 0 or np.ptp(b) == 0:
        return float("nan")
    return float(spearmanr(a, b)[0])


def report(title: str, x: np.ndarray, fits: dict, truth: dict) -> None:
    print(f"\n## {title}: {x.shape[0]} respondents x {x.shape[1]} items")
    print("| method | seconds | time ratio | rho ability | rho difficulty | rho discrimination | negatives found "
          "| Beta NLL |")
    print("|---|---|---|---|---|---|---|---|")
    base = fits["isometrics"]["seconds"]
    for name, f in fits.items():
        found = (f"{np.mean(np.asarray(f['discrimination'])[truth['negative']] < 0):.0%}"
                 if "negative" in truth else "")
        print(f"| {name} | {f['seconds']:.2f} | {f['seconds'] / base:.1f}x | {rho(f['ability'], truth['ability']):.3f} "
              f"| {rho(f['difficulty'], truth['difficulty']):.3f} "
              f"| {rho(f['discrimination'], truth['discrimination']):.3f} "
              f"| {found} | {nll(x, f['ability'], f['difficulty'], f['discrimination']):.1f} |")


def ours(x: np.ndarray) -> dict:
    t0 = time.perf_counter()
    fit = im.fit_beta3(x, eps=EPS)
    return dict(seconds=time.perf_counter() - t0, ability=fit.ability, difficulty=fit.difficulty,
                discrimination=fit.discrimination)


def keel(path: Path) -> tuple[np.ndarray, dict]:
    import pandas as pd

    wide = pd.read_csv(path).pivot(index="model", columns="dataset", values="auroc")
    wide = wide.loc[:, wide.notna().all(axis=0)]
    x = wide.to_numpy(dtype=float)
    return x, dict(ability=np.nanmean(x, axis=1), difficulty=1 - np.nanmean(x, axis=0),
                   discrimination=np.zeros(x.shape[1]))


def large(spec: str) -> None:
    n, m = (int(v) for v in spec.lower().split("x"))
    rng = np.random.default_rng(0)
    x = rng.beta(2.0, 2.0, (n, m))
    calls = []
    original = irt_model.negative_log_posterior

    def timed(params, cells):
        t0 = time.perf_counter()
        out = original(params, cells)
        calls.append(time.perf_counter() - t0)
        return out

    irt_model.negative_log_posterior = timed
    try:
        t0 = time.perf_counter()
        im.fit_beta3(x, max_iter=3)
        total = time.perf_counter() - t0
    finally:
        irt_model.negative_log_posterior = original
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    per_cell = np.median(calls) / x.size
    print(f"\n## large: {n} x {m} = {x.size:.1e} cells, 3 L-BFGS-B iterations: {total:.1f} s, "
          f"{np.median(calls):.2f} s per objective+gradient ({per_cell * 1e9:.0f} ns per cell), peak RSS {peak:.2f} GiB")
    print(f"extrapolated to 10^3 x 10^5 (1e8 cells): {per_cell * 1e8:.0f} s per evaluation; stored cells "
          f"{1e8 * 24 / 2**30:.1f} GiB (int32 row, int32 column, float64 log p, float64 log(1-p)) plus the input")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--birt-venv", type=Path, default=BIRT_VENV)
    parser.add_argument("--keel", type=Path, default=KEEL_DEFAULT)
    parser.add_argument("--large", default="1000x10000")
    parser.add_argument("--skip-birt", action="store_true")
    parser.add_argument("--skip-simulated", action="store_true")
    args = parser.parse_args()
    py = None if args.skip_birt else birt_python(args.birt_venv)
    for n, m, seed in () if args.skip_simulated else ((30, 400, 0), (100, 1000, 1)):
        x, truth = simulate(n, m, seed)
        fits = {"isometrics": ours(x)}
        if py is not None:
            fits.update({f"birt-gd {k}": v for k, v in run_birt(py, x).items()})
        report(f"simulated (seed {seed})", x, fits, truth)
    if args.keel.exists():
        x, truth = keel(args.keel)
        fits = {"isometrics": ours(x)}
        if py is not None:
            fits.update({f"birt-gd {k}": v for k, v in run_birt(py, x).items()})
        print("\n(KEEL: no truth; 'rho ability' is with the models' mean AUROC, 'rho difficulty' with 1 - the "
              "data sets' mean AUROC)")
        report(f"KEEL auroc ({args.keel.name})", x, fits, truth)
    else:
        print(f"\nKEEL matrix not found at {args.keel}; skipped.")
    if args.large:
        large(args.large)


if __name__ == "__main__":
    main()
