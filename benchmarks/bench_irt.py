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

Issue 22 (``--issue22``, no birt-gd needed): (1) the coverage of the nominal 95 % ability
intervals on four designs (30 x 400; 30 x 400 with 10 % negative items; 40 x 300 with 20 %
missing; 60 x 100 with a ~ |N(2, 0.5^2)|), several seeds each, with the scale bias of the joint
MAP measured (slope of logit ability-hat on logit ability) and the coverage up to that scale; and
the calibration with parameters drawn from the model's own priors (``--calibration`` matrices);
(2) the discriminations' Spearman and the mean logit shift of the abilities for eps 1e-2, 1e-3,
1e-6 and the default (censoring at the resolution), on the designs and on KEEL; (3) the fit times
and convergence of 100 matrices (30-100 respondents, 100-1000 items, 0-20 % missing, 0-10 %
negative items) with eps 1e-3, 1e-6 and the default. Responses are drawn from the Beta law of
beta^3-IRT itself, unclipped (exact 0 and 1 arise from float underflow).

Usage: bash benchmarks/peers/setup_birt.sh   # once
       python benchmarks/bench_irt.py [--birt-venv DIR] [--keel PATH] [--large 1000x10000] [--skip-birt]
                                      [--skip-simulated]
       python benchmarks/bench_irt.py --issue22 [--seeds 5] [--calibration 40] [--matrices 100] [--intervals-only]
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
    probe = (
        subprocess.run(
            [str(py), "-c", "import importlib.metadata as m; print(m.version('birt-gd'))"],
            capture_output=True,
            text=True,
        )
        if py.exists()
        else None
    )
    if probe is None or probe.returncode:
        sys.exit(
            f"birt-gd is not installed in {venv}: run `bash benchmarks/peers/setup_birt.sh` first (or pass --skip-birt)"
        )
    print(f"birt-gd {probe.stdout.strip()} from {venv}")
    return py


def run_birt(py: Path, x: np.ndarray) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        np.save(Path(tmp) / "x.npy", x)
        (Path(tmp) / "run.py").write_text(_RUNNER)
        res = subprocess.run(
            [str(py), str(Path(tmp) / "run.py"), str(Path(tmp) / "x.npy")],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": ""},
        )
    line = [s for s in res.stdout.splitlines() if s.startswith("JSON")]
    if not line:
        raise RuntimeError(res.stderr[-2000:])
    return {
        k: {f: np.asarray(v) if isinstance(v, list) else v for f, v in d.items()}
        for k, d in json.loads(line[0][4:]).items()
    }


def nll(x: np.ndarray, ability, difficulty, discrimination) -> float:
    obs = ~np.isnan(x)
    alpha, beta = beta_shapes(
        np.clip(ability, 1e-9, 1 - 1e-9)[:, None],
        np.clip(difficulty, 1e-9, 1 - 1e-9)[None, :],
        np.asarray(discrimination)[None, :],
    )
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
    print(
        "| method | seconds | time ratio | rho ability | rho difficulty | rho discrimination | negatives found "
        "| Beta NLL |"
    )
    print("|---|---|---|---|---|---|---|---|")
    base = fits["isometrics"]["seconds"]
    for name, f in fits.items():
        found = f"{np.mean(np.asarray(f['discrimination'])[truth['negative']] < 0):.0%}" if "negative" in truth else ""
        print(
            f"| {name} | {f['seconds']:.2f} | {f['seconds'] / base:.1f}x | {rho(f['ability'], truth['ability']):.3f} "
            f"| {rho(f['difficulty'], truth['difficulty']):.3f} "
            f"| {rho(f['discrimination'], truth['discrimination']):.3f} "
            f"| {found} | {nll(x, f['ability'], f['difficulty'], f['discrimination']):.1f} |"
        )


def ours(x: np.ndarray) -> dict:
    t0 = time.perf_counter()
    fit = im.irt.fit_beta3(x)
    return dict(
        seconds=time.perf_counter() - t0,
        ability=fit.ability,
        difficulty=fit.difficulty,
        discrimination=fit.discrimination,
    )


def keel(path: Path) -> tuple[np.ndarray, dict]:
    import pandas as pd

    wide = pd.read_csv(path).pivot(index="model", columns="dataset", values="auroc")
    wide = wide.loc[:, wide.notna().all(axis=0)]
    x = wide.to_numpy(dtype=float)
    return x, dict(
        ability=np.nanmean(x, axis=1), difficulty=1 - np.nanmean(x, axis=0), discrimination=np.zeros(x.shape[1])
    )


def large(spec: str) -> None:
    from isometrics.irt import _newton

    n, m = (int(v) for v in spec.lower().split("x"))
    rng = np.random.default_rng(0)
    x = rng.beta(2.0, 2.0, (n, m))
    calls, steps = [], []
    original, original_system = irt_model.negative_log_posterior, _newton.system

    def timed(params, cells):
        t0 = time.perf_counter()
        out = original(params, cells)
        calls.append(time.perf_counter() - t0)
        return out

    def timed_system(*args, **kwargs):
        t0 = time.perf_counter()
        out = original_system(*args, **kwargs)
        steps.append(time.perf_counter() - t0)
        return out

    irt_model.negative_log_posterior, _newton.system = timed, timed_system
    try:
        t0 = time.perf_counter()
        im.irt.fit_beta3(x, max_iter=3)
        total = time.perf_counter() - t0
    finally:
        irt_model.negative_log_posterior, _newton.system = original, original_system
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    per_cell = np.median(calls) / x.size
    newton = np.median(steps) / x.size if steps else float("nan")
    print(
        f"\n## large: {n} x {m} = {x.size:.1e} cells, 3 L-BFGS-B then 3 Newton iterations: {total:.1f} s, "
        f"{np.median(calls):.2f} s per objective+gradient ({per_cell * 1e9:.0f} ns per cell), "
        f"{np.median(steps) if steps else float('nan'):.2f} s per gradient+Hessian ({newton * 1e9:.0f} ns per cell), "
        f"peak RSS {peak:.2f} GiB"
    )
    print(
        f"extrapolated to 10^3 x 10^5 (1e8 cells): {per_cell * 1e8:.0f} s per evaluation, {newton * 1e8:.0f} s per "
        f"Newton system; stored cells {1e8 * 24 / 2**30:.1f} GiB (int32 row, int32 column, float64 log p, "
        f"float64 log(1-p)) plus the input, plus {1e8 * 16 / 2**30:.1f} GiB of Newton coupling terms"
    )


# ---------------------------------------------------------------------------- issue 22
DESIGNS = {
    "30 x 400": dict(n=30, m=400),
    "30 x 400, 10 % negative": dict(n=30, m=400, negative=0.1),
    "40 x 300, 20 % missing": dict(n=40, m=300, missing=0.2),
    "60 x 100, a ~ |N(2, 0.5^2)|": dict(n=60, m=100, strong=True),
}


def draw(rng, theta, delta, a, missing=0.0) -> np.ndarray:
    """Responses from Beta(alpha, beta) of beta^3-IRT, nothing clipped; NaN for a missing cell."""
    alpha, beta = beta_shapes(theta[:, None], delta[None, :], a[None, :])
    x = rng.beta(alpha, beta)
    if missing:
        x[rng.random(x.shape) < missing] = np.nan
    return x


def design(n, m, seed, negative=0.0, missing=0.0, strong=False):
    rng = np.random.default_rng(seed)
    theta, delta = rng.uniform(0.05, 0.95, n), rng.uniform(0.05, 0.95, m)
    a = np.abs(rng.normal(2.0, 0.5, m)) if strong else rng.normal(1.0, 0.5, m)
    neg = rng.choice(m, int(round(negative * m)), replace=False)
    a[neg] = -np.abs(a[neg])
    return draw(rng, theta, delta, a, missing), theta, a


def _logit(p):
    return np.log(p) - np.log1p(-p)


def convergence(matrices: int) -> None:
    print("\n## Issue 22 (3): convergence of simulated matrices")
    rng = np.random.default_rng(0)
    times: dict = {1e-3: [], 1e-6: [], None: []}
    cpu: dict = {eps: [] for eps in times}
    failed = []
    for k in range(matrices):
        n, m = int(rng.integers(30, 101)), int(rng.integers(100, 1001))
        missing, negative = rng.uniform(0, 0.2), rng.uniform(0, 0.1)
        theta, delta, a = rng.uniform(0.05, 0.95, n), rng.uniform(0.05, 0.95, m), rng.normal(1, 0.5, m)
        neg = rng.choice(m, int(negative * m), replace=False)
        a[neg] = -np.abs(a[neg])
        x = draw(rng, theta, delta, a, missing)
        for eps in times:
            t0, c0 = time.perf_counter(), time.process_time()
            fit = im.irt.fit_beta3(x, eps=eps)
            times[eps].append(time.perf_counter() - t0)
            cpu[eps].append(time.process_time() - c0)
            if not fit.converged:
                failed.append((k, x.shape, eps))
    for eps, t in times.items():
        c = cpu[eps]
        print(
            f"eps={eps if eps else 'default'}: {len(t)} matrices, wall median {np.median(t):.2f} s, max "
            f"{np.max(t):.2f} s; CPU time (all threads) median {np.median(c):.2f} s, max {np.max(c):.2f} s; "
            f"over 5 s wall: {sum(v > 5 for v in t)}"
        )
    print(
        f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (wall times stretch "
        "with the load; CPU time does not)"
    )
    print(f"not converged: {failed or 'none'}")


def issue22(seeds: int, calibration: int, matrices: int, keel_path: Path, intervals_only: bool = False) -> None:
    print("\n## Issue 22 (1): nominal 95 % ability intervals (joint Laplace on the logit scale, mapped back)")
    print(
        "Per design, over the seeds, on the logit scale of the abilities: the coverage, the bias (mean of "
        "logit ability-hat - logit ability), the RMS error, the median interval half-width, the slope of logit "
        "ability-hat on logit ability (below 1: the MAP shrinks the spread), and the coverage once that linear "
        "scale bias is taken out."
    )
    print(
        "| design | coverage | min over seeds | bias | RMS error | median half-width | slope | coverage up to "
        "that scale | discrimination rho |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, kw in DESIGNS.items():
        cov, cov_scaled, slope, rho_a, err, half = [], [], [], [], [], []
        for seed in range(seeds):
            x, theta, a = design(seed=seed, **kw)
            fit = im.irt.fit_beta3(x)
            lo, hi = fit.ability_interval(0.95).T
            cov.append(np.mean((lo <= theta) & (theta <= hi)))
            err.append(_logit(fit.ability) - _logit(theta))
            half.append((_logit(hi) - _logit(lo)) / 2)
            b = np.polyfit(_logit(theta), _logit(fit.ability), 1)
            target = np.polyval(b, _logit(theta))
            cov_scaled.append(np.mean((_logit(lo) <= target) & (target <= _logit(hi))))
            slope.append(b[0])
            rho_a.append(rho(fit.discrimination, a))
        e = np.concatenate(err)
        print(
            f"| {name} | {np.mean(cov):.0%} | {np.min(cov):.0%} | {np.mean(e):+.3f} | {np.sqrt(np.mean(e**2)):.3f} "
            f"| {np.median(np.concatenate(half)):.3f} | {np.mean(slope):.3f} | {np.mean(cov_scaled):.0%} "
            f"| {np.mean(rho_a):.3f} |"
        )
    rng = np.random.default_rng(22)
    for n, m in ((30, 100), (30, 400)):
        hit_t, hit_a, tot_t, tot_a, per_matrix = 0, 0, 0, 0, []
        t0 = time.perf_counter()
        for _ in range(calibration):
            theta, delta, a = rng.uniform(size=n), rng.uniform(size=m), rng.normal(1.0, 1.0, m)
            fit = im.irt.fit_beta3(draw(rng, theta, delta, a))
            lo, hi = fit.ability_interval(0.95).T
            inside = (lo <= theta) & (theta <= hi)
            hit_t += np.sum(inside)
            per_matrix.append(np.mean(inside))
            lo, hi = fit.discrimination_interval(0.95).T
            hit_a += np.sum((lo <= a) & (a <= hi))
            tot_t, tot_a = tot_t + n, tot_a + m
        share = hit_t / tot_t
        # the respondents of one matrix share its errors: the standard error of the coverage is over matrices
        se = np.std(per_matrix, ddof=1) / np.sqrt(len(per_matrix)) if len(per_matrix) > 1 else float("nan")
        print(
            f"calibration, parameters from the priors (theta, delta ~ U(0, 1), a ~ N(1, 1)), {calibration} matrices "
            f"{n} x {m} ({tot_t} respondents): abilities covered {share:.1%} (+- {se:.1%} over matrices; lowest "
            f"matrix {np.min(per_matrix):.0%}), discriminations {hit_a / tot_a:.1%}; "
            f"{(time.perf_counter() - t0) / calibration:.2f} s a fit"
        )
    if intervals_only:
        return

    print("\n## Issue 22 (2): sensitivity to eps (default: responses at 0 or 1 censored at the resolution)")
    print("| data | eps | clipped or censored cells | discrimination rho | mean logit shift of abilities |")
    print("|---|---|---|---|---|")
    for name, kw in DESIGNS.items():
        x, theta, a = design(seed=0, **kw)
        obs = x[~np.isnan(x)]
        for eps in (1e-2, 1e-3, 1e-6, None):
            fit = im.irt.fit_beta3(x, eps=eps)
            moved = fit.n_clipped + fit.n_censored
            print(
                f"| {name} | {eps if eps else 'default'} | {moved / obs.size:.1%} | "
                f"{rho(fit.discrimination, a):.3f} | {np.mean(_logit(fit.ability) - _logit(theta)):+.3f} |"
            )
    if keel_path.exists():
        xk, truth = keel(keel_path)
        for kw in (dict(eps=1e-2), dict(eps=1e-3), dict(eps=1e-6), {}, dict(resolution=1e-3), dict(resolution=1e-2)):
            fit = im.irt.fit_beta3(xk, **kw)
            print(
                f"KEEL auroc {kw or 'default'}: resolution {fit.resolution}, rho(ability, mean AUROC) "
                f"{rho(fit.ability, truth['ability']):.3f}"
            )

    convergence(matrices)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--birt-venv", type=Path, default=BIRT_VENV)
    parser.add_argument("--keel", type=Path, default=KEEL_DEFAULT)
    parser.add_argument("--large", default="1000x10000")
    parser.add_argument("--skip-birt", action="store_true")
    parser.add_argument("--skip-simulated", action="store_true")
    parser.add_argument("--issue22", action="store_true", help="the figures of issue 22 items 1-3, then stop")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--calibration", type=int, default=40)
    parser.add_argument("--matrices", type=int, default=100)
    parser.add_argument("--convergence-only", action="store_true", help="with --issue22: item 3 only")
    parser.add_argument("--intervals-only", action="store_true", help="with --issue22: item 1 only")
    args = parser.parse_args()
    if args.issue22 and args.convergence_only:
        convergence(args.matrices)
        return
    if args.issue22:
        issue22(args.seeds, args.calibration, args.matrices, args.keel, args.intervals_only)
        return
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
        print(
            "\n(KEEL: no truth; 'rho ability' is with the models' mean AUROC, 'rho difficulty' with 1 - the "
            "data sets' mean AUROC)"
        )
        report(f"KEEL auroc ({args.keel.name})", x, fits, truth)
    else:
        print(f"\nKEEL matrix not found at {args.keel}; skipped.")
    if args.large:
        large(args.large)


if __name__ == "__main__":
    main()
