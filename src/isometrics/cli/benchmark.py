"""``isometrics benchmark``: build the KEEL benchmark, fit beta^3-IRT to it, test a new model.

``build`` trains and scores a pool of classifiers on the KEEL data sets with a progress bar
and a resumable cache, and writes the responses as a long-form CSV beside it; ``fit`` reads
the cache, fits the item bank to every cached model (``--drop-model`` leaves one out;
``--hold-out`` also tests one adaptively on a bank without it) and writes it as JSON and/or
the benchmark's HTML page; ``test`` evaluates a classifier by adaptive testing on the bank,
training it only on the data sets the test chooses (a data set it fails on is reported and
skipped); ``datasets`` lists the data set names.
"""

from __future__ import annotations

import csv
import difflib
import math
import os
import time
from pathlib import Path
from typing import Annotated, Any

import numpy as np

from .._core.outputs import json_text, staged_outputs
from .._core.validation import check_option
from ..exceptions import IsometricsError
from ..irt.classifiers import parse_classifier_spec
from ..irt.keel import KeelBenchmark, build_keel_benchmark, keel_datasets, keel_response, read_keel_benchmark
from ..irt.study import BenchmarkStudy, decimals_to_rank, fit_benchmark, run_adaptive_test
from ..report.benchmark_page import build_benchmark_page
from ._console import command_guard, make_console, markup

try:
    import typer
    from rich.table import Table

    from ._options import BenchmarkSeed, Cache, DropModel, Folds, MaxItems, Response
except ImportError:  # pragma: no cover - depends on the environment
    typer = None  # type: ignore[assignment]

__all__ = ["benchmark_app", "register"]

_OUT = "PATH"


def _guard() -> Any:
    """:func:`command_guard`; on Ctrl-C the cache keeps what was finished."""
    return command_guard(interrupted="interrupted; the cache keeps what was finished; run the command again to resume.")


def _split(values: list[str] | None) -> list[str] | None:
    """Repeated options, each possibly comma-separated (data set names hold no commas)."""
    if not values:
        return None
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


def _canonical(name: str | None) -> str | None:
    """A model named as the cache names it (``qda:solver=svd`` -> ``qda:solver='svd'``); a spec that no
    longer parses (cached before its values were checked) is kept as typed."""
    if name is None:
        return None
    try:
        return parse_classifier_spec(name).spec
    except IsometricsError:
        return name


def _fmt(x: float, digits: int = 3) -> str:
    return "-" if not math.isfinite(x) else f"{x:.{digits}f}"


def _check_datasets(names: list[str] | None) -> list[str] | None:
    """The ``--datasets`` names, each a KEEL data set (the message says the command that lists them)."""
    known = set(keel_datasets())
    for name in names or []:
        if name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=3)
            hint = f" (close: {', '.join(close)})" if close else ""
            raise IsometricsError(
                f"benchmark: unknown KEEL data set {name!r}{hint}; run `isometrics benchmark "
                "datasets` for the 100 names."
            )
    return names


def _summary(console: Any, bench: KeelBenchmark) -> None:
    """Each model's mean responses over its observed cells, the count missing beside them."""
    table = Table(
        title=f"{len(bench.models)} models x {len(bench.datasets)} KEEL data sets "
        f"({bench.n_splits}-fold stratified cross-validation, seed {bench.seed}): mean responses "
        "over the observed data sets"
    )
    table.add_column("model", style="bold", min_width=min(max(map(len, bench.models)), 36))
    for m in bench.metrics:
        table.add_column(m, justify="right")
    table.add_column("observed", justify="right")
    table.add_column("missing", justify="right")
    table.add_column("seconds", justify="right")
    observed = ~np.isnan(bench.responses[bench.metrics[0]])
    done = np.count_nonzero(observed, axis=1)
    means = {
        m: np.array(
            [float(np.mean(row[~np.isnan(row)])) if np.any(~np.isnan(row)) else np.nan for row in bench.responses[m]]
        )
        for m in bench.metrics
    }
    digits = {m: decimals_to_rank(means[m]) for m in bench.metrics}
    first = means[bench.metrics[0]]
    order = np.lexsort((-np.nan_to_num(first, nan=-np.inf), np.isnan(first)))  # by mean; never-run models last
    for i in order:
        table.add_row(
            markup(bench.models[i]),
            *(_fmt(means[m][i], digits[m]) for m in bench.metrics),
            str(done[i]),
            str(len(bench.datasets) - done[i]),
            f"{np.nansum(bench.seconds[i]):.1f}",
        )
    console.print(table)
    if bench.failures:
        console.print(
            f"[yellow]{len(bench.failures)} (model, data set) pairs failed and are missing cells (means "
            f"are over the observed cells); first: {markup(bench.failures[0][0])} on "
            f"{markup(bench.failures[0][1])}: {markup(bench.failures[0][2][:200])}[/yellow]"
        )


def _ability_table(console: Any, study: BenchmarkStudy, title: str) -> None:
    """The abilities with their 95 % intervals, to as many decimals as tell them apart."""
    rows = study.ability_rows()
    digits = decimals_to_rank([r["ability"] for r in rows])
    mean_digits = decimals_to_rank([r["mean"] for r in rows])
    table = Table(title=title)
    for header in ("model", "ability", "95 % interval", "SE", f"mean {study.metric}"):
        table.add_column(header, justify="left" if header == "model" else "right")
    for r in rows:
        table.add_row(
            markup(r["model"]),
            _fmt(r["ability"], digits),
            f"{_fmt(r['low'], digits)} - {_fmt(r['high'], digits)}",
            _fmt(r["se"], digits),
            _fmt(r["mean"], mean_digits),
        )
    console.print(table)
    if study.dropped:
        console.print(f"Dropped on request: {', '.join(markup(m) for m in study.dropped)}.")


def _test_notes(console: Any, study: BenchmarkStudy) -> None:
    """Which model was held out of the bank for the test, and the data sets it failed on."""
    t = study.test
    if t is None:
        return
    if t.held_out:
        console.print(
            f"Held out: {markup(t.model)} was left out of the bank for its adaptive test (bank refitted to "
            f"the other {t.bank_size} models; the bank's abilities reported are those of the bank of all "
            f"{len(study.models)})."
        )
    if len(t.ability) and math.isfinite(t.full_ability):
        digits = decimals_to_rank([t.ability[-1], t.full_ability])
        low, high = t.full_interval(0.95)
        console.print(
            f"After {len(t.datasets)} data sets: {t.ability[-1]:.{digits}f}; from all its responses on the "
            f"same bank: {t.full_ability:.{digits}f} (95 % interval {low:.{digits}f} - {high:.{digits}f})."
        )
    if t.failed:
        shown = "; ".join(f"{markup(d)}: {markup(e[:120])}" for d, e in t.failed[:3])
        console.print(
            f"[yellow]{markup(t.model)} failed on {len(t.failed)} data set(s), left out of the test: "
            f"{shown}{'; ...' if len(t.failed) > 3 else ''}[/yellow]"
        )


def _write_responses_csv(cache: Path, bench: KeelBenchmark) -> Path:
    """The responses as a long-form CSV beside the cached scores (model, dataset, one column per
    metric, seconds; a missing cell has no row), rewritten whole after each build."""
    path = cache / f"cv{bench.n_splits}-seed{bench.seed}" / "responses.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(".responses.csv.tmp")
    index = {(m, d): (i, j) for i, m in enumerate(bench.models) for j, d in enumerate(bench.datasets)}
    with open(tmp, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["model", "dataset", *bench.metrics, "seconds"])
        for row in bench.to_long():
            i, j = index[row["model"], row["dataset"]]
            writer.writerow(
                [row["model"], row["dataset"], *(f"{row[m]:.6f}" for m in bench.metrics), f"{bench.seconds[i, j]:.3f}"]
            )
    os.replace(tmp, path)
    return path


def _named_outputs(outputs: list[str] | None) -> dict[str, str]:
    """The ``-o`` destinations by option text, each ending in .json or .html (checked before any work)."""
    named = {}
    for path in outputs or []:
        if Path(path).suffix.lower() not in (".json", ".html", ".htm"):
            raise IsometricsError(
                f"benchmark: `-o {path}`: the output must end in .json (the item bank and "
                "abilities) or .html (the report page)."
            )
        named[f"-o {path}"] = path
    return named


def _stage(staged: Any, named: dict[str, str], study: BenchmarkStudy, title: str) -> None:
    """Stage the bank as JSON and/or the page as HTML, then write them all (or none)."""
    for option, path in named.items():
        staged.stage(
            option,
            json_text(study.to_dict())
            if Path(path).suffix.lower() == ".json"
            else build_benchmark_page(study, title=title),
        )
    staged.commit()


if typer is not None:
    benchmark_app = typer.Typer(
        add_completion=False,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        help="Benchmark classifiers on the 100 imbalanced KEEL data sets with beta^3-IRT and adaptive testing.",
    )

    @benchmark_app.command()
    def build(
        cache: Cache = Path("isometrics-benchmark"),
        metric: Annotated[
            list[str] | None,
            typer.Option(
                "--metric",
                help="Response shown in the summary: auroc, "
                "auprg, average_precision or a threshold metric such as "
                "f1 (repeatable).",
            ),
        ] = None,
        datasets: Annotated[
            list[str] | None,
            typer.Option(
                "--datasets", "--dataset", help="KEEL data sets (repeatable or comma-separated; default: all 100)."
            ),
        ] = None,
        models: Annotated[
            list[str] | None,
            typer.Option(
                "--models", "--model", help="Model specs such as 'logreg:C=0.1' (repeatable; default: the pool of 26)."
            ),
        ] = None,
        folds: Folds = 3,
        seed: BenchmarkSeed = 0,
        jobs: Annotated[int, typer.Option("--jobs", min=1, help="Pairs trained in parallel.")] = 1,
    ) -> None:
        """Train and score every model on every data set (cached; a rerun resumes)."""
        console = make_console()
        with _guard():
            start, cpu = time.perf_counter(), time.process_time()
            bench = build_keel_benchmark(
                cache,
                datasets=_check_datasets(_split(datasets)),
                models=models,
                metrics=metric or ["auroc", "auprg", "f1"],
                n_splits=folds,
                seed=seed,
                n_jobs=jobs,
                progress=True,
            )
            _summary(console, bench)
            table = _write_responses_csv(cache, bench)
            console.print(
                f"[dim]Cache: {markup(cache)}; responses (long form): {markup(table)}; "
                f"{time.perf_counter() - start:.1f} s wall, {time.process_time() - cpu:.1f} s CPU in "
                "this process.[/dim]"
            )

    @benchmark_app.command()
    def fit(
        output: Annotated[
            list[str],
            typer.Option(
                "-o",
                "--output",
                metavar=_OUT,
                help="Write the item bank and abilities (.json) and/or the report page (.html); repeatable.",
            ),
        ],
        cache: Cache = Path("isometrics-benchmark"),
        metric: Response = "auroc",
        folds: Folds = 3,
        seed: BenchmarkSeed = 0,
        hold_out: Annotated[
            str | None,
            typer.Option(
                "--hold-out",
                "--held-out",
                help="Also test this cached model "
                "adaptively on a bank refitted without it, for the report's "
                "trajectory (the table still shows every model).",
            ),
        ] = None,
        drop_model: DropModel = None,
        max_items: MaxItems = 20,
    ) -> None:
        """Fit beta^3-IRT to the cached responses: abilities of every model, difficulty of the data sets."""
        console = make_console()
        with _guard(), staged_outputs(_named_outputs(output)) as staged:
            bench = read_keel_benchmark(
                cache, metrics=list(dict.fromkeys([metric, "auroc", "auprg"])), n_splits=folds, seed=seed
            )
            study = fit_benchmark(
                bench,
                metric=metric,
                held_out=_canonical(hold_out),
                max_items=max_items,
                drop=[_canonical(m) for m in drop_model or []],
            )
            _ability_table(
                console,
                study,
                f"beta^3-IRT abilities ({markup(metric)}, {len(study.models)} models x "
                f"{len(study.datasets)} data sets)",
            )
            _test_notes(console, study)
            _stage(staged, _named_outputs(output), study, title=f"KEEL benchmark: beta^3-IRT on {metric}")
            console.print(f"Wrote {', '.join(markup(w) for w in output)}.")

    @benchmark_app.command(name="test")
    def test_command(
        model: Annotated[
            str,
            typer.Option(
                "--model",
                help="The new classifier: 'logreg:C=0.1' or "
                "'sklearn.ensemble.RandomForestClassifier(n_estimators=50)'.",
            ),
        ],
        cache: Cache = Path("isometrics-benchmark"),
        metric: Response = "auroc",
        selection: Annotated[str, typer.Option("--selection", help="fisher, kl or random.")] = "fisher",
        max_items: MaxItems = 20,
        se_target: Annotated[
            float | None, typer.Option("--se-target", help="Stop when the ability's standard error falls below this.")
        ] = None,
        folds: Folds = 3,
        seed: BenchmarkSeed = 0,
        output: Annotated[
            list[str] | None,
            typer.Option("-o", "--output", metavar=_OUT, help="Also write the result (.json) and/or a report (.html)."),
        ] = None,
        drop_model: DropModel = None,
    ) -> None:
        """Adaptive test of a new classifier: train it only on the data sets that tell most about its ability."""
        console = make_console()
        with _guard(), staged_outputs(_named_outputs(output)) as staged:
            model = parse_classifier_spec(model).spec  # an unknown spec fails before anything is fitted
            check_option(selection, "--selection", ("fisher", "kl", "random"), caller="benchmark test")
            bench = read_keel_benchmark(
                cache, metrics=list(dict.fromkeys([metric, "auroc", "auprg"])), n_splits=folds, seed=seed
            )
            scratch = Path(cache) / "adaptive"

            def respond(dataset: str) -> float:
                return keel_response(model, dataset, metric=metric, n_splits=folds, seed=seed, cache=scratch)

            study = run_adaptive_test(
                bench,
                model,
                respond,
                metric=metric,
                selection=selection,
                max_items=max_items,
                se_target=se_target,
                seed=seed,
                drop=[_canonical(m) for m in drop_model or []],
            )
            table = Table(
                title=f"Adaptive test of {markup(study.test_model)} ({selection} selection, bank of "
                f"{study.test.bank_size if study.test else 0} models)"
            )
            rows = study.trajectory_rows()
            digits = decimals_to_rank([r["ability"] for r in rows])
            for header in ("step", "data set", metric, "ability", "SE"):
                table.add_column(header, justify="left" if header == "data set" else "right")
            for row in rows:
                table.add_row(
                    str(row["step"]),
                    markup(row["dataset"]),
                    _fmt(row["response"], 4),
                    _fmt(row["ability"], digits),
                    _fmt(row["se"], digits),
                )
            console.print(table)
            _test_notes(console, study)
            _stage(staged, _named_outputs(output), study, title=f"KEEL benchmark: adaptive test of {model}")
            if output:
                console.print(f"Wrote {', '.join(markup(w) for w in output)}.")

    @benchmark_app.command(name="datasets")
    def datasets_command() -> None:
        """List the names of the 100 KEEL data sets (for --datasets)."""
        with _guard():
            typer.echo("\n".join(keel_datasets()))
else:  # pragma: no cover
    benchmark_app = None


def register(app: Any) -> None:
    """Add the ``benchmark`` command group (build, fit, test, datasets) to the Typer ``app``."""
    app.add_typer(benchmark_app, name="benchmark")
