"""``isometrics elicit``: find the stakeholder's metric G(beta, rho) in the terminal, or replay saved answers.

``--interactive`` asks the questions of :class:`isometrics.elicitation.Elicitation` one at a time (each
option as precision and recall and as counts per 1,000 cases); ``--answers FILE`` replays
a saved transcript (from this command, the API or the interactive page). With a data
file, the questions use the model's own operating points and the result names the
threshold the elicited metric picks. ``-o PAGE.html`` writes the offline interactive page
(:func:`isometrics.report.elicitation_page`), which asks the same questions in a browser and
downloads the answers for ``--answers``; the destination is checked before the data is read.
"""

from __future__ import annotations

import inspect
import shlex
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from .._core.outputs import staged_outputs
from ..elicitation.local import LocalQuestion
from ..elicitation.session import Elicitation, replay
from ..elicitation.transcript import Transcript
from ..elicitation.wording import BETA_WORDS, RHO_WORDS, describe, regret_words, trivial_warning
from ..exceptions import DegenerateDataWarning, IsometricsError
from ..report.elicitation_page import elicitation_page
from ..spaces.areas import auroc as area_under_roc
from ..spaces.thresholds import best_threshold
from ._console import command_line, make_console, markup
from ._io import binary_target, read_columns
from ._options import guard

#: The engine's own defaults (declared once, in Elicitation's signature), shown and used by the CLI.
_DEFAULTS = {
    name: p.default
    for name, p in inspect.signature(Elicitation).parameters.items()
    if name in ("local_budget", "pairwise_budget", "tolerance")
}

try:
    import typer
    from rich.table import Table

    from ._options import PosLabel, Weight
except ImportError:  # pragma: no cover - depends on the environment
    typer = None  # type: ignore[assignment]

_LOCAL = {"r": "recall", "recall": "recall", "p": "precision", "precision": "precision"}
_PAIR = {"a": "a", "b": "b"}


def _model(
    file: Path | None, label: str | None, score: str | None, pos_label: str | None, weight: str | None
) -> tuple[Any, Any, Any, Any] | None:
    if file is None:
        if label or score:
            raise IsometricsError("--label and --score describe a data FILE; give the file, or drop them.")
        return None
    if not label or not score:
        raise IsometricsError("with a data FILE, give --label COLUMN and --score COLUMN (the model to decide on).")
    columns = read_columns(file, [label, score] + ([weight] if weight else []))
    # with --pos-label, a label column of more than two classes is that class against the rest
    y, pos, _ = (columns[label], None, None) if pos_label is None else binary_target(columns[label], pos_label, label)
    return y, columns[score], columns[weight] if weight else None, pos


def _ask(console: Any, session: Elicitation, err: bool = False) -> bool:
    """Ask the current question on the terminal; False when the user quits."""
    q = session.next_question()
    assert q is not None
    n = len(session.transcript.steps) + 1
    if isinstance(q, LocalQuestion):
        console.print(
            f"\n[bold]Question {n}[/bold] (which gain matters more?)\n"
            f"  A model with {markup(describe(q.precision, q.recall))}.\n"
            "  Would a small gain in [bold]r[/bold]ecall or in [bold]p[/bold]recision matter more to you?"
        )
        choices = _LOCAL
    else:
        console.print(
            f"\n[bold]Question {n}[/bold] (which model would you deploy?)\n"
            f"  [bold]a[/bold]: {markup(describe(*q.a))}\n"
            f"  [bold]b[/bold]: {markup(describe(*q.b))}"
        )
        choices = _PAIR
    while True:
        try:
            raw = (
                typer.prompt(f"  answer ({'/'.join(k for k in choices if len(k) == 1)}, q to stop)", err=err)
                .strip()
                .lower()
            )
        except typer.Abort:  # end of input (or Ctrl-C): stop here, keep what was answered
            console.print(f"\n  end of input: stopping after {n - 1} answer{'s' if n != 2 else ''}.")
            return False
        if raw in ("q", "quit"):
            return False
        if raw in choices:
            session.answer(choices[raw])
            return True
        console.print(f"  please answer {' or '.join(repr(k) for k in choices if len(k) == 1)} (or q to stop).")


def _print(console: Any, result: Any, model: tuple[Any, Any, Any, Any] | None) -> None:
    table = Table(title="Elicited metric", show_header=False)
    table.add_column("", style="bold")
    table.add_column("")
    n = len(result.transcript.steps)
    provisional = result.stop_reason == "in progress"
    table.add_row("metric", markup(result.metric.spec) + (" (provisional)" if provisional else ""))
    table.add_row("your answers", markup(" ".join(result.summary)))
    table.add_row(
        "beta", f"{result.beta:.4g}: {BETA_WORDS} (plausible {result.beta_range[0]:.3g} to {result.beta_range[1]:.3g})"
    )
    table.add_row(
        "rho", f"{result.rho:.3g}: {RHO_WORDS} (plausible {result.rho_range[0]:.3g} to {result.rho_range[1]:.3g})"
    )
    table.add_row("questions", f"{n} ({markup(result.stop_reason)})")
    d = result.decision
    table.add_row(
        "on the questions' curve", f"precision {d.precision:.1%}, recall {d.recall:.1%}; {regret_words(d.max_loss)}"
    )
    alerts = [trivial_warning(d.precision, d.recall, "everyone")] if result.trivial_decision else []
    if model is not None:
        y, s, w, pos = model
        best = best_threshold(y, s, metric=result.metric, sample_weight=w, pos_label=pos)
        table.add_row(
            "threshold on your model",
            f"{best.threshold:.6g} (precision {best.precision:.1%}, recall {best.recall:.1%})",
        )
        alerts = _model_alerts(best, alerts)
    console.print(table)
    for c in result.contradictions:
        console.print(f"[yellow]contradiction:[/yellow] {markup(c.message)}")
    for note in result.notes:
        console.print(f"[dim]{markup(note)}[/dim]")
    for words in alerts:
        console.print(f"[yellow]warning:[/yellow] {markup(words)}")
    if provisional:
        console.print(
            f"[yellow]Provisional:[/yellow] only {n} answer{'s' if n != 1 else ''} "
            f"({_counts(result)}); the questions were not finished, "
            f"so this metric is a first guess: --metric {markup(shlex.quote(result.metric.spec))}. "
            "Answer the remaining questions before relying on it.",
            soft_wrap=True,
        )
    else:
        console.print(f"Use it anywhere: --metric {markup(shlex.quote(result.metric.spec))}", soft_wrap=True)


def _model_alerts(best: Any, alerts: list[str]) -> list[str]:
    """The trivial-decision warning for the threshold on the user's model, with its counts."""
    flagged, total = best.tp + best.fp, best.tp + best.fp + best.fn + best.tn
    if flagged <= 0:
        return [trivial_warning(best.precision, best.recall, "no one")]
    if (best.fn <= 0 and best.tn <= 0) or alerts:
        words = trivial_warning(best.precision, best.recall, "everyone")
        words = words.replace("the top-recall end of the curve", "the threshold on your model", 1)
        prevalence = (best.tp + best.fn) / total
        return [
            f"{words} On your model it flags {flagged:,.6g} of {total:,.6g} cases (precision "
            f"{best.precision:.1%}; flagging every case gives {prevalence:.1%})."
        ]
    return []


def _counts(result: Any) -> str:
    kinds = [s.question.kind for s in result.transcript.steps]
    return f"{kinds.count('local')} local, {kinds.count('pairwise')} pairwise"


def _data_words(
    file: Path | None, label: str | None, score: str | None, pos_label: str | None, weight: str | None
) -> list[object]:
    """The data part of a replay command: the same file, columns, positive class and weights."""
    if file is None:
        return []
    words: list[object] = [file, "--label", label, "--score", score]
    if pos_label is not None:
        words += ["--pos-label", pos_label]
    if weight is not None:
        words += ["--weight", weight]
    return words


def _write_page(
    file: Path | None,
    label: str | None,
    score: str | None,
    pos_label: str | None,
    weight: str | None,
    output: str,
    settings: dict[str, Any],
) -> None:
    """``-o PAGE.html``: the offline interactive page, for the model in ``file`` or the default curve."""
    with staged_outputs({"-o": output}, inputs=[file] if file is not None else []) as outputs:
        console = make_console(stderr=outputs.to_stdout)
        model = _model(file, label, score, pos_label, weight)
        if model is not None:
            y, s, w, pos = model
            session = Elicitation.from_scores(y, s, sample_weight=w, pos_label=pos, **settings)
            what = f"{file.name if file else ''}, scores {score}, labels {label}"
            tail = command_line(*_data_words(file, label, score, pos_label, weight)).removeprefix("isometrics ")
            auroc = area_under_roc(y, s, sample_weight=w, pos_label=pos)
            console.print(
                f"Model: {markup(what)} (AUROC {auroc:.4f}; {len(session.curve[0])} points on its "
                "precision-recall front)."
            )
        else:
            session = Elicitation(**settings)
            what, tail = "", ""
            console.print(
                "No data file: the page decides on a default precision-recall curve (no AUROC: no "
                "model; give FILE --label --score for yours)."
            )
        outputs.stage("-o", elicitation_page(session, model=what, command_tail=tail))
        outputs.commit()
    if not outputs.to_stdout:
        replay_with = command_line(
            "elicit", "--answers", "answers.json", *_data_words(file, label, score, pos_label, weight)
        )
        console.print(
            f"Page: {markup(output)} (open it in a browser; its answers replay with: {markup(replay_with)})",
            soft_wrap=True,
        )


@dataclass(frozen=True)
class ElicitRequest:
    """What ``isometrics elicit`` was asked: the optional model to decide on, how to run, the session's budgets."""

    file: Path | None
    label: str | None
    score: str | None
    pos_label: str | None
    weight: str | None
    interactive: bool
    answers: str | None
    save: str | None
    local_budget: int
    pairwise_budget: int
    tolerance: float
    output: str | None = None


def run_elicit(request: ElicitRequest) -> None:
    """The body of ``isometrics elicit`` (raises IsometricsError on bad input)."""
    file, label, score, pos_label, weight = (
        request.file,
        request.label,
        request.score,
        request.pos_label,
        request.weight,
    )
    interactive, answers, save, output = request.interactive, request.answers, request.save, request.output
    local_budget, pairwise_budget, tolerance = request.local_budget, request.pairwise_budget, request.tolerance
    if int(interactive) + (answers is not None) + (output is not None) != 1:
        raise IsometricsError(
            "give exactly one of --interactive (ask the questions here), --answers FILE "
            "(replay saved answers) and -o PAGE.html (write the interactive page)."
        )
    if output is not None:
        if save is not None:
            raise IsometricsError(
                "--save-answers belongs to --interactive; the page -o writes downloads its answers itself."
            )
        _write_page(
            file,
            label,
            score,
            pos_label,
            weight,
            output,
            {"local_budget": local_budget, "pairwise_budget": pairwise_budget, "tolerance": tolerance},
        )
        return
    if save is not None and not interactive:
        raise IsometricsError(
            "--save-answers writes the answers of an --interactive session; the --answers file already holds them."
        )
    console = make_console()
    model = _model(file, label, score, pos_label, weight)
    if answers is not None:
        with warnings.catch_warnings():  # the table says it, in the user's words
            warnings.simplefilter("ignore", DegenerateDataWarning)
            result = replay(Transcript.load(answers))
        _print(console, result, model)
        return
    settings: dict[str, Any] = {
        "local_budget": local_budget,
        "pairwise_budget": pairwise_budget,
        "tolerance": tolerance,
    }
    if model is not None:
        y, s, w, pos = model
        session = Elicitation.from_scores(y, s, sample_weight=w, pos_label=pos, **settings)
    else:
        session = Elicitation(**settings)
    with staged_outputs({"--save-answers": save}, inputs=[file] if file is not None else []) as outputs:
        if outputs.to_stdout:  # standard output carries the answers: the conversation goes to stderr
            console = make_console(stderr=True)
        console.print(
            "[bold]Choosing the metric[/bold]: a few questions about the trade-off between precision "
            "(how many flagged cases are real) and recall (how many real cases are flagged)."
        )
        while session.next_question() is not None:
            if not _ask(console, session, err=outputs.to_stdout):
                break
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            result = session.result()
        _print(console, result, model)
        if save is not None:
            outputs.stage("--save-answers", result.transcript.to_json() + "\n")
        outputs.commit()
    if save is not None and not outputs.to_stdout:
        replay_with = command_line("elicit", "--answers", save, *_data_words(file, label, score, pos_label, weight))
        console.print(f"Answers saved to {markup(save)}; replay with: {markup(replay_with)}", soft_wrap=True)


def register(app: Any) -> None:
    """Add the ``elicit`` command to the Typer ``app``."""

    @app.command(name="elicit")
    def elicit(
        file: Annotated[
            Path | None, typer.Argument(help="Optional CSV or Parquet file: the model to decide on.")
        ] = None,
        label: Annotated[str | None, typer.Option("--label", help="Column with the true labels.")] = None,
        score: Annotated[str | None, typer.Option("--score", help="Score column of the model.")] = None,
        pos_label: PosLabel = None,
        weight: Weight = None,
        interactive: Annotated[bool, typer.Option("--interactive", help="Ask the questions in the terminal.")] = False,
        answers: Annotated[
            str | None, typer.Option("--answers", metavar="JSON", help="Replay a saved answers file.")
        ] = None,
        save: Annotated[
            str | None,
            typer.Option(
                "--save-answers",
                metavar="JSON",
                help="With --interactive: also write the answers here ('-': standard output).",
            ),
        ] = None,
        local_budget: Annotated[
            int, typer.Option("--local-budget", help="Most local questions (0 skips them).")
        ] = _DEFAULTS["local_budget"],
        pairwise_budget: Annotated[int, typer.Option("--pairwise-budget", help="Most pairwise questions.")] = _DEFAULTS[
            "pairwise_budget"
        ],
        tolerance: Annotated[
            float,
            typer.Option("--tolerance", help="Stop when the decision is settled to this (in units of the metric)."),
        ] = _DEFAULTS["tolerance"],
        output: Annotated[
            str | None,
            typer.Option(
                "-o",
                "--output",
                metavar="PATH",
                help="Write the offline interactive page (HTML) here instead ('-': standard output).",
            ),
        ] = None,
    ) -> None:
        """Find the stakeholder's metric G(beta, rho) by questions, or replay saved answers."""
        with guard(file):
            run_elicit(
                ElicitRequest(
                    file,
                    label,
                    score,
                    pos_label,
                    weight,
                    interactive,
                    answers,
                    save,
                    local_budget,
                    pairwise_budget,
                    tolerance,
                    output,
                )
            )
