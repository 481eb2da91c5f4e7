"""The HTML report's size, load time and build time (issue 25, item 5).

Two cases, three models of a rare outcome (4.5 % positives; two continuous scores and one
rounded to three decimals), metrics F2, F1 and F0.5:

1. ``--rows`` (13,000) rows: the report's size (bytes, MB, MiB; target <= 1.5 MB) and its
   load time in headless Chromium (from navigation start to the first paint, target <= 1 s,
   and until every figure and explorer is drawn; medians of ``--loads``), driven the way
   tests/_browser.py does;
2. ``--big-rows`` (10^6) rows with ``--resamples`` (200) bootstrap replicates, as
   ``isometrics report --ci --n-resamples 200`` builds it: ``evaluate_scores`` with
   intervals, ``compare_scores`` (the paired comparisons) and ``build_report``, each timed
   (target: <= 20 s in all). ``--profile`` prints where the time goes (cProfile, top
   functions by cumulative time).

Prints the machine's CPU (model, cores, load average) first: the timings depend on it.

    python benchmarks/bench_report.py [--rows 13000] [--big-rows 1e6] [--resamples 200] [--skip-big] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import isometrics as im
from isometrics.report import build_report

METRICS = ["f2", "f1", "f0.5"]


def cpu() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    return f"{model}, {os.cpu_count()} logical cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"


def data(n: int, seed: int = 0) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.045).astype(int)
    scores = {"logistic": rng.normal(size=n) + 1.6 * y, "boosting": rng.normal(size=n) + 2.0 * y,
              "balance": np.round(rng.normal(size=n) + 1.0 * y, 3)}
    return y, scores


def build(n: int, resamples: int | None, seed: int = 0) -> tuple[str, dict[str, float]]:
    """The report as the CLI builds it, with each stage's seconds."""
    y, scores = data(n, seed)
    times = {}
    t = time.perf_counter()
    results = im.evaluate_scores(y, scores, metrics=METRICS, n_resamples=resamples, rng=seed)
    times["evaluate_scores"] = time.perf_counter() - t
    t = time.perf_counter()
    comparison = im.uncertainty.compare_scores(y, scores, metrics=METRICS, n_resamples=resamples or 200, rng=seed)
    times["compare_scores"] = time.perf_counter() - t
    t = time.perf_counter()
    page = build_report(results, comparisons=comparison)
    times["build_report"] = time.perf_counter() - t
    return page, times


def load_times(path: Path, loads: int) -> list[tuple[float, float]]:
    """Seconds from navigation start until the first paint (text and tables shown, the figures then
    drawn one per task) and until every figure and explorer is drawn, in headless Chromium."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from _browser import CHROMIUM, LAUNCH_ARGS
    from playwright.sync_api import sync_playwright

    if CHROMIUM is None:
        return []
    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        expected = None
        for _ in range(loads):
            page = browser.new_page(viewport={"width": 1500, "height": 1100})
            page.goto(path.as_uri(), wait_until="load")
            if expected is None:
                expected = page.evaluate("document.querySelectorAll('script[data-figure]').length + "
                                         "document.querySelectorAll('[data-explorer]').length")
            while page.evaluate("document.querySelectorAll('.js-plotly-plot').length") < expected:
                page.wait_for_timeout(5)
            drawn = page.evaluate("performance.now()") / 1000
            paint = page.evaluate("(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime")
            out.append((float("nan") if paint is None else paint / 1000, drawn))
            page.close()
        browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=lambda s: int(float(s)), default=13_000)
    parser.add_argument("--big-rows", type=lambda s: int(float(s)), default=1_000_000)
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--skip-big", action="store_true")
    parser.add_argument("--profile", action="store_true", help="profile the big build")
    args = parser.parse_args()
    print(f"CPU: {cpu()}")
    print(f"isometrics {im.__version__}, Python {platform.python_version()}, numpy {np.__version__}")

    page, times = build(args.rows, args.resamples)
    size = len(page.encode("utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "report.html"
        path.write_text(page, encoding="utf-8")
        loads = load_times(path, args.loads)
    print(f"\n{args.rows:,} rows x 3 models (4.5 % positives), {args.resamples} resamples:")
    print(f"  size: {size:,} bytes = {size / 1e6:.3f} MB = {size / 2**20:.3f} MiB (target <= 1.5 MB)")
    if loads:
        paints, drawn = [t[0] for t in loads], [t[1] for t in loads]
        print(f"  load in headless Chromium ({len(loads)} loads): first paint median {statistics.median(paints):.3f} s "
              f"(target <= 1 s); every figure and explorer drawn median {statistics.median(drawn):.3f} s "
              f"(min {min(drawn):.3f}, max {max(drawn):.3f})")
    else:
        print("  load: Chromium not installed")
    print("  build: " + ", ".join(f"{k} {v:.2f} s" for k, v in times.items()))

    if args.skip_big:
        return
    profiler = cProfile.Profile() if args.profile else None
    if profiler is not None:
        profiler.enable()
    page, times = build(args.big_rows, args.resamples)
    if profiler is not None:
        profiler.disable()
    print(f"\n{args.big_rows:,} rows x 3 models, {args.resamples} resamples (target <= 20 s in all):")
    print("  build: " + ", ".join(f"{k} {v:.2f} s" for k, v in times.items())
          + f"; total {sum(times.values()):.2f} s; report {len(page.encode('utf-8')) / 1e6:.3f} MB")
    if profiler is not None:
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(30)
        print(text.getvalue())


if __name__ == "__main__":
    main()
