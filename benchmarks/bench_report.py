"""The HTML report's size, load time and build time (issue 25, item 5).

Two cases, three models of a rare outcome (4.5 % positives; two continuous scores and one
rounded to three decimals), metrics F2, F1 and F0.5:

1. ``--rows`` (13,000) rows: the report's size (bytes, MB, MiB; target <= 1.5 MB) and its
   load time in headless Chromium (from navigation start: the first paint; the load, until
   everything in the first window is drawn, target <= 1 s; and until every figure and explorer
   is drawn after scrolling through; medians of ``--loads``, with the load average), driven the
   way tests/_browser.py does (:func:`load_times`);
2. ``--big-rows`` (10^6) rows with ``--resamples`` (200) bootstrap replicates, as
   ``isometrics report --ci --n-resamples 200`` builds it: ``compare_scores`` (the paired
   comparisons, whose replicates also give each model's intervals),
   ``evaluate_scores`` (the point estimates), the summary (``recommend``: the chosen
   model's counts at its fixed threshold, with intervals read on the comparison's paired
   replicates, and the cross-fitted estimate)
   and ``build_report``, each timed; then the whole command, ``isometrics report FILE
   --score ... --ci --n-resamples 200``, run in this process on a Parquet file (target:
   <= 20 s). ``--profile`` prints where the time goes (cProfile, top functions by
   cumulative time).

Every time is printed twice: wall-clock seconds and the process's CPU seconds
(``time.process_time``). On a shared, loaded machine the wall time stretches with the load;
the CPU time much less.

Prints the machine's CPU (model, cores, load average) first: the timings depend on it.

    python benchmarks/bench_report.py [--rows 13000] [--big-rows 1e6] [--resamples 200]
                                      [--skip-small] [--skip-big] [--skip-cli] [--two-bootstraps] [--profile]
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
from dataclasses import replace
from pathlib import Path

import numpy as np

import isometrics as im
from isometrics.cli.decision import summary_of
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
    scores = {
        "logistic": rng.normal(size=n) + 1.6 * y,
        "boosting": rng.normal(size=n) + 2.0 * y,
        "balance": np.round(rng.normal(size=n) + 1.0 * y, 3),
    }
    return y, scores


class Clock:
    """Wall-clock and CPU seconds of each stage, in order."""

    def __init__(self) -> None:
        self.stages: dict[str, tuple[float, float]] = {}

    def time(self, name: str, work):  # noqa: ANN001, ANN201 - any callable, its value
        wall, cpu_time = time.perf_counter(), time.process_time()
        value = work()
        self.stages[name] = (time.perf_counter() - wall, time.process_time() - cpu_time)
        return value

    def line(self) -> str:
        total = tuple(sum(v[i] for v in self.stages.values()) for i in (0, 1))
        return ", ".join(f"{k} {w:.2f} s (CPU {c:.2f} s)" for k, (w, c) in [*self.stages.items(), ("total", total)])


def build(n: int, resamples: int | None, seed: int = 0, two: bool = False) -> tuple[str, Clock]:
    """The report as ``isometrics report --ci`` builds it, each stage timed: one set of paired
    replicates (the comparison) gives the comparisons and every model's intervals. ``two`` (or a
    version without ``ModelComparison.intervals``): as before, a second bootstrap for the intervals."""
    y, scores = data(n, seed)
    clock = Clock()
    two = two or not hasattr(im.uncertainty.ModelComparison, "intervals")
    if two:
        results = clock.time(
            "evaluate_scores", lambda: im.evaluate_scores(y, scores, metrics=METRICS, n_resamples=resamples, rng=seed)
        )
    comparison = clock.time(
        "compare_scores",
        lambda: im.uncertainty.compare_scores(y, scores, metrics=METRICS, n_resamples=resamples or 200, rng=seed),
    )
    if not two:
        results = clock.time(
            "evaluate_scores",
            lambda: im.Evaluations(
                tuple(
                    replace(r, intervals=comparison.intervals(r.name) if resamples else {})
                    for r in im.evaluate_scores(y, scores, metrics=METRICS, rng=seed)
                )
            ),
        )
    summary = clock.time(
        "summary", lambda: summary_of(y, scores, None, None, results[0].best[0].metric, comparison, resamples, seed, {})
    )
    page = clock.time("build_report", lambda: build_report(results, comparisons=comparison, summary=summary))
    return page, clock


def command(n: int, resamples: int, seed: int = 0) -> tuple[float, float, int]:
    """``isometrics report FILE --score ... --metric ... --ci --n-resamples R`` in this process, on a
    Parquet file of ``n`` rows: wall and CPU seconds (reading the file included) and the report's bytes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from isometrics.cli.app import app

    y, scores = data(n, seed)
    with tempfile.TemporaryDirectory() as tmp:
        file, out = Path(tmp) / "scores.parquet", Path(tmp) / "report.html"
        pq.write_table(pa.table({"y": y, **scores}), file)
        argv = [
            "report",
            str(file),
            "--label",
            "y",
            *(a for s in scores for a in ("--score", s)),
            *(a for m in METRICS for a in ("--metric", m)),
            "--ci",
            "--n-resamples",
            str(resamples),
            "--seed",
            str(seed),
            "-o",
            str(out),
        ]
        wall, cpu_time = time.perf_counter(), time.process_time()
        try:
            app(argv, standalone_mode=False)
        finally:
            wall, cpu_time = time.perf_counter() - wall, time.process_time() - cpu_time
        return wall, cpu_time, out.stat().st_size


def load_times(path: Path, loads: int) -> list[dict[str, float]]:
    """Each load of the page in headless Chromium (a 1500 x 1100 window), in seconds from navigation start:

    - ``paint``: the first contentful paint (text and tables shown);
    - ``load``: everything in the first window drawn, as a reader sees it: the later of the first paint
      and the page's mark ``isometrics-viewport-drawn`` (set once every figure or explorer in the window
      is drawn; the others are drawn when scrolled near). Checked here too: every figure box in the
      window is drawn by then;
    - ``busy``: the main thread busy until then (the end of the last long task, over 50 ms, before
      any scrolling; the page waits 1 s without one first): until then a reader's scroll or click waits;
    - ``all``: every figure and explorer drawn after scrolling through the page, one window every
      100 ms from the load on (the mark ``isometrics-all-drawn``);
    - ``plotly``: the seconds spent drawing, summed over the figures (the page's measures
      ``isometrics-draw:<id>``), and ``largest``: the longest one, with ``largest_id``.
    """
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from _browser import CHROMIUM, LAUNCH_ARGS
    from playwright.sync_api import sync_playwright

    if CHROMIUM is None:
        return []
    out = []
    mark = "(performance.getEntriesByName('{}')[0] || {{}}).startTime"
    in_window = (
        "Array.from(document.querySelectorAll('.figure, [data-explorer]')).filter(d => {"
        " const r = d.getBoundingClientRect(); return r.height > 0 && r.bottom > 0 && r.top < innerHeight; })"
    )
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        for _ in range(loads):
            page = browser.new_page(viewport={"width": 1500, "height": 1100})
            page.add_init_script(
                "window.__long = []; new PerformanceObserver(l => l.getEntries().forEach(e => "
                "window.__long.push(e.startTime + e.duration))).observe({type: 'longtask', buffered: true});"
            )
            page.goto(path.as_uri(), wait_until="load")
            while page.evaluate(mark.format("isometrics-viewport-drawn")) is None:
                page.wait_for_timeout(5)
            while page.evaluate("performance.now() - Math.max(0, ...window.__long)") < 1000:
                page.wait_for_timeout(50)
            busy = page.evaluate("Math.max(0, ...window.__long)") / 1000
            undrawn = page.evaluate(in_window + ".filter(d => !d.classList.contains('js-plotly-plot')).length")
            if undrawn:
                raise AssertionError(f"{undrawn} figure(s) in the first window not drawn at the page's mark")
            viewport = page.evaluate(mark.format("isometrics-viewport-drawn")) / 1000
            paint = page.evaluate(mark.format("first-contentful-paint"))
            paint = float("nan") if paint is None else paint / 1000
            height = page.evaluate("document.documentElement.scrollHeight")
            for y in range(0, height, 1100):
                page.evaluate(f"window.scrollTo(0, {y + 1100})")
                page.wait_for_timeout(100)
            while page.evaluate(mark.format("isometrics-all-drawn")) is None:
                page.wait_for_timeout(5)
            draws = page.evaluate(
                "performance.getEntriesByType('measure').filter(m => m.name.startsWith("
                "'isometrics-draw:')).map(m => [m.name.slice(16), m.duration / 1000])"
            )
            largest = max(draws, key=lambda d: d[1])
            out.append(
                dict(
                    paint=paint,
                    load=max(paint, viewport),
                    busy=busy,
                    all=page.evaluate(mark.format("isometrics-all-drawn")) / 1000,
                    plotly=sum(d[1] for d in draws),
                    largest=largest[1],
                    largest_id=largest[0],
                    n=len(draws),
                )
            )
            page.close()
        browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=lambda s: int(float(s)), default=13_000)
    parser.add_argument("--big-rows", type=lambda s: int(float(s)), default=1_000_000)
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--skip-small", action="store_true", help="skip the 13,000-row size and load case")
    parser.add_argument("--skip-big", action="store_true", help="skip the 10^6-row build")
    parser.add_argument("--skip-cli", action="store_true", help="skip the whole command at 10^6 rows")
    parser.add_argument("--profile", action="store_true", help="profile the big build")
    parser.add_argument(
        "--two-bootstraps",
        action="store_true",
        help="the per-model intervals from a bootstrap of "
        "their own (evaluate_scores(n_resamples=...)), as before the report shared one",
    )
    args = parser.parse_args()
    print(f"CPU: {cpu()}")
    print(f"isometrics {im.__version__}, Python {platform.python_version()}, numpy {np.__version__}")

    if not args.skip_small:
        page, clock = build(args.rows, args.resamples, two=args.two_bootstraps)
        size = len(page.encode("utf-8"))
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "report.html"
            path.write_text(page, encoding="utf-8")
            loads = load_times(path, args.loads)
        print(f"\n{args.rows:,} rows x 3 models (4.5 % positives), {args.resamples} resamples:")
        print(f"  size: {size:,} bytes = {size / 1e6:.3f} MB = {size / 2**20:.3f} MiB (target <= 1.5 MB)")
        if loads:

            def med(key: str) -> float:
                return statistics.median(d[key] for d in loads)

            loaded = [d["load"] for d in loads]
            print(
                f"  load in headless Chromium, 1500 x 1100 window, median of {len(loads)} loads "
                f"(load average now {os.getloadavg()[0]:.2f}):"
            )
            print(
                f"    first paint {med('paint'):.3f} s; first window drawn (the load) {med('load'):.3f} s "
                f"(min {min(loaded):.3f}, max {max(loaded):.3f}; target <= 1 s); main thread busy until "
                f"{med('busy'):.3f} s"
            )
            print(
                f"    every figure and explorer drawn, scrolling through one window per 100 ms: {med('all'):.3f} s; "
                f"Plotly drawing {med('plotly'):.3f} s over {loads[0]['n']} figures, the longest "
                f"{loads[0]['largest_id']} {med('largest'):.3f} s"
            )
        else:
            print("  load: Chromium not installed")
        print("  build: " + clock.line())

    if not args.skip_big:
        profiler = cProfile.Profile() if args.profile else None
        if profiler is not None:
            profiler.enable()
        page, clock = build(args.big_rows, args.resamples, two=args.two_bootstraps)
        if profiler is not None:
            profiler.disable()
        print(f"\n{args.big_rows:,} rows x 3 models, {args.resamples} resamples (target <= 20 s in all):")
        print("  build: " + clock.line() + f"; report {len(page.encode('utf-8')) / 1e6:.3f} MB")
        if profiler is not None:
            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(30)
            print(text.getvalue())
    if not args.skip_cli:
        wall, cpu_time, size = command(args.big_rows, args.resamples)
        print(
            f"\nisometrics report FILE --score x3 --metric x3 --ci --n-resamples {args.resamples} at "
            f"{args.big_rows:,} rows (Parquet; reading included; target <= 20 s): {wall:.2f} s wall, "
            f"CPU {cpu_time:.2f} s; report {size / 1e6:.3f} MB"
        )


if __name__ == "__main__":
    main()
