"""The elicitation workflow: local questions for beta, then pairwise questions, then a decision.

:class:`Elicitation` asks one question at a time (``next_question``, ``answer``) and keeps
the transcript; :func:`replay` turns a transcript back into the same result. The
specification a second implementation must follow is ``docs/elicitation.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import InBody, in_body, validate_params
from .._core.count_table import CountTable, table_from_scores
from .._core.html import summarised
from .._core.validation import check_integer, check_option, check_real
from .._typing import ArrayLike
from ..exceptions import InvalidParameterError, IsometricsError
from . import _kernel as K
from ._curve import DEFAULT_CURVE_POINTS as DEFAULT_CURVE_POINTS  # re-exported: the curve's names lived here
from ._curve import DEFAULT_CURVE_PREVALENCE as DEFAULT_CURVE_PREVALENCE
from ._curve import DEFAULT_CURVE_SHIFT as DEFAULT_CURVE_SHIFT
from ._curve import _beta_range, _curve
from ._curve import default_curve as default_curve
from .local import RHO_SIGNS, Contradiction, LocalBisection, LocalQuestion, named
from .pairwise import JointPosterior, PairwiseQuestion
from .result import Decision, ElicitationResult, elicited_metric
from .transcript import Question, Step, Transcript, as_transcript

#: Pairwise answers needed before the stopping rule may end the session.
MIN_PAIRWISE = 1


@summarised("settings", "n_local", "n_pairwise", "done")
class Elicitation:
    """An elicitation session: the questions that find G(beta, rho) for a stakeholder.

    First local questions for beta (probabilistic bisection on log beta, read with the
    assumed sign of rho), then pairwise comparisons of operating points that weigh every
    (beta, rho) of a fixed grid, until the decision on the user's curve no longer depends
    on the remaining uncertainty or a budget is spent. Ask with :meth:`next_question`,
    answer with :meth:`answer`; :meth:`result` gives the estimate at any time.

    Parameters
    ----------
    precision, recall : array-like of shape (n_points,), default=None
        The user's operating points, each in [0, 1] (points with zero precision or recall
        are ignored); only the Pareto points are kept, at most 256 of them spread along
        the curve (its ends included). ``None``: a default curve (``default_curve``).
    thresholds : array-like of shape (n_points,), default=None
        The thresholds of those points, to report the decision as a threshold.
    rho_sign : {"negative", "positive", "zero"}, default="negative"
        The sign of rho used to choose the local questions and read their answers
        ("negative": the F-like family, where *recall* means beta > R/P). At "zero" one
        local question tells whether beta is above or below 1, and nothing more.
    local_budget : int, default=12
        Most local questions (>= 0; 0 skips them).
    pairwise_budget : int, default=48
        Most pairwise questions (>= 1); with the 12 local ones, at most 60 questions.
    tolerance : float, default=0.005
        The stopping rule's tolerance in units of G, in (0, 1).
    local_lambda : float, default=50.0
        Sharpness of the local answers' likelihood, in units of G like the pairwise one: a
        local answer at (P, R) is the pairwise answer between (P, R + 0.05) and (P + 0.05, R),
        to first order (> 0; ``inf``: answers taken as noiseless, exact bounds on beta).
    pairwise_lambda : float, default=50.0
        Sharpness of the pairwise answers' likelihood ``sigma(lambda (G(A) - G(B)))``
        (> 0; ``inf``: noiseless, the exact feasible region).
    beta_range : tuple of float, default=(0.05, 20)
        The hypothesis box's beta range ``(low, high)``, ``0 < low < high``; rho spans [-8, 4].
        When the posterior sits at an edge of the box the session says so and never
        reports a stable decision: widen the range and ask again.

    Raises
    ------
    InvalidParameterError
        If a setting is out of range (a budget below its minimum, a lambda <= 0, a
        tolerance outside (0, 1)) or the curve is malformed.

    See Also
    --------
    replay : the result of a saved transcript.
    SimulatedStakeholder : answers from a known (beta, rho), for tests.

    Notes
    -----
    The grids, likelihoods, candidate pairs, selection rule and stopping rule are given
    in ``docs/elicitation.md``; every step is deterministic.

    References
    ----------
    .. [1] ``docs/elicitation.md`` (local and pairwise questions, the stopping rule).
    .. [2] M. Horstein, "Sequential transmission using noiseless feedback", IEEE Trans.
       Inf. Theory 9(3), 1963; R. Waeber, P. Frazier and S. Henderson, "Bisection search
       with noisy responses", SIAM J. Control Optim. 51(3), 2013.

    Examples
    --------
    The stakeholder of reference 001 sees precision 0.90 and recall 0.36 and worries
    more about the recall: with rho < 0 that says beta > 0.36 / 0.90 = 0.4.

    >>> from isometrics.elicitation import Elicitation
    >>> from isometrics.elicitation import LocalQuestion
    >>> q = LocalQuestion(precision=0.90, recall=0.36)
    >>> q.meaning("recall")
    'beta > R/P = 0.4'
    >>> session = Elicitation()
    >>> session.next_question().kind
    'local'
    """

    def __init__(
        self,
        precision: ArrayLike | None = None,
        recall: ArrayLike | None = None,
        *,
        thresholds: ArrayLike | None = None,
        rho_sign: str = "negative",
        local_budget: int = 12,
        pairwise_budget: int = 48,
        tolerance: float = 0.005,
        local_lambda: float = 50.0,
        pairwise_lambda: float = 50.0,
        beta_range: tuple[float, float] = K.BETA_RANGE,
    ) -> None:
        with named("Elicitation"):  # wherever it is built (replay, from_scores): its messages are pinned so
            self.settings: dict[str, Any] = {
                "rho_sign": check_option(rho_sign, "rho_sign", RHO_SIGNS),
                "local_budget": check_integer(local_budget, "local_budget", low=0),
                "pairwise_budget": check_integer(pairwise_budget, "pairwise_budget", low=1),
                "tolerance": check_real(
                    tolerance, "tolerance", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False
                ),
                "local_lambda": check_real(local_lambda, "local_lambda", low=0.0, low_inclusive=False, allow_inf=True),
                "pairwise_lambda": check_real(
                    pairwise_lambda, "pairwise_lambda", low=0.0, low_inclusive=False, allow_inf=True
                ),
            }
            box = _beta_range(beta_range)
            if box != K.BETA_RANGE:
                self.settings["beta_range"] = box
            self.beta_range = box
            self.curve = _curve(precision, recall, thresholds)
        p, r, _ = self.curve
        s = self.settings
        self._local = LocalBisection(s["rho_sign"], s["local_lambda"], box)
        self._joint = JointPosterior(np.asarray(p), np.asarray(r), s["pairwise_lambda"], s["local_lambda"], box)
        self._steps: list[Step] = []
        self._contradictions: list[Contradiction] = []
        self._pending: Question | None = None
        self._stop: str | None = None

    @classmethod
    @validate_params(
        in_body("y_true", "y_score", "sample_weight", "pos_label", "settings"), name="Elicitation.from_scores"
    )
    def from_scores(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        pos_label: Any = None,
        **settings: Any,
    ) -> Elicitation:
        """A session on the operating points of scores ``y_score`` against labels ``y_true``.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True binary labels.
        y_score : array-like of shape (n_samples,)
            Scores; higher means more likely positive.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative sample weights.
        pos_label : int, float, bool or str, default=None
            The positive class; inferred for {0, 1}, {-1, 1} and {False, True}.
        **settings
            The keyword arguments of :class:`Elicitation`.

        Returns
        -------
        Elicitation
            A session whose decision curve is the model's precision-recall points, with thresholds.
        """
        table = table_from_scores(
            y_true,
            y_score,
            sample_weight=sample_weight,
            pos_label=pos_label,
            table=CountTable,
        )
        tp, fp = np.asarray(table.tp), np.asarray(table.fp)
        for total, missing in ((tp[-1], "positive"), (fp[-1], "negative")):
            if not total > 0:
                raise IsometricsError(
                    f"Elicitation.from_scores: y_true has one class (no {missing} samples with "
                    f"positive weight, pos_label={pos_label!r}); precision and recall need both "
                    "classes: pass the labels of both."
                )
        with np.errstate(divide="ignore", invalid="ignore"):
            precision = np.where(tp + fp > 0, tp / (tp + fp), 0.0)
        recall = tp / tp[-1]
        return cls(precision, recall, thresholds=np.asarray(table.thresholds), **settings)

    # ------------------------------------------------------------------ asking
    @property
    def n_local(self) -> int:
        """Local questions answered."""
        return sum(1 for s in self._steps if s.question.kind == "local")

    @property
    def n_pairwise(self) -> int:
        """Pairwise questions answered."""
        return sum(1 for s in self._steps if s.question.kind == "pairwise")

    @property
    def done(self) -> bool:
        """Whether the session has no question left to ask."""
        return self.next_question() is None

    @property
    def stop_reason(self) -> str:
        """Why the session stopped (empty while it goes on)."""
        self.next_question()
        return self._stop or ""

    def next_question(self) -> LocalQuestion | PairwiseQuestion | None:
        """The next question, or ``None`` when the session is over (see :attr:`stop_reason`).

        Returns
        -------
        LocalQuestion or PairwiseQuestion or None
            Asked again until answered: the same question until :meth:`answer` is called.
        """
        if self._pending is None and self._stop is None:
            self._pending = self._choose()
        return self._pending

    def _choose(self) -> Question | None:
        s = self.settings
        if self.n_pairwise == 0 and self.n_local < s["local_budget"] and not self._local.converged():
            return self._local.next_question()
        if self.n_pairwise >= s["pairwise_budget"]:
            self._stop = f"question budget ({s['pairwise_budget']} pairwise questions) spent"
            return None
        if self.n_pairwise >= MIN_PAIRWISE and self._joint.stable(s["tolerance"]):
            edges = self._joint.edges(s["tolerance"])
            if edges:
                self._stop = (
                    f"the estimate sits at the edge of the hypothesis box ({'; '.join(edges)}), so the "
                    "decision is not settled: widen the box, e.g. Elicitation(beta_range=(0.005, 200)), "
                    "and ask again"
                )
            else:
                self._stop = f"decision stable within tolerance {s['tolerance']:g}"
            return None
        question = self._joint.next_question()
        if question is None:
            self._stop = "no candidate pair can change the estimate"
        return question

    @validate_params(in_body("beta", "rho"), name="Elicitation.contains")
    def contains(self, beta: float, rho: float) -> bool:
        """Whether (beta, rho) agrees with every accepted noiseless answer (the exact feasible region).

        Parameters
        ----------
        beta : float
            A beta > 0.
        rho : float
            A rho.

        Returns
        -------
        bool
            True when every answer taken as noiseless (lambda = inf) holds for G(beta, rho); the
            region kept on the grid never loses such a point.

        Raises
        ------
        InvalidParameterError
            If ``beta`` is not a finite real number > 0 or ``rho`` not a finite real number.
        """
        beta = check_real(beta, "beta", low=0.0, low_inclusive=False)
        rho = check_real(rho, "rho")
        return self._joint.contains(beta, rho)

    @validate_params(in_body("answer"), name="Elicitation.answer")
    def answer(self, answer: str) -> None:
        """Answer the current question with one of its ``options``.

        Parameters
        ----------
        answer : str
            ``"recall"`` or ``"precision"`` for a local question, ``"a"`` or ``"b"`` for a
            pairwise one.

        Raises
        ------
        InvalidParameterError
            If the session is over or ``answer`` is not one of the question's options.
        """
        question = self.next_question()
        if question is None:
            raise InvalidParameterError(
                f"Elicitation.answer: the session is over ({self._stop}); read the estimate with result()."
            )
        self._record(question, answer)

    @validate_params(in_body("question", "answer"), name="Elicitation.record")
    def record(self, question: LocalQuestion | PairwiseQuestion, answer: str) -> None:
        """Record the answer to a question of the user's choosing (e.g. about the model on the table).

        Parameters
        ----------
        question : LocalQuestion or PairwiseQuestion
            The question asked.
        answer : str
            One of ``question.options``.

        Raises
        ------
        InvalidParameterError
            If ``question`` is not a question or ``answer`` is not one of its options.
        """
        if not isinstance(question, (LocalQuestion, PairwiseQuestion)):
            raise InvalidParameterError(
                f"Elicitation.record: `question` must be a LocalQuestion or a "
                f"PairwiseQuestion; got {type(question).__name__}."
            )
        self._record(question, answer)

    def _record(self, question: Question, answer: str) -> None:
        if answer not in question.options:
            raise InvalidParameterError(
                f"{current_caller()}: `answer` must be one of {', '.join(map(repr, question.options))}; got {answer!r}."
            )
        step = len(self._steps)
        if isinstance(question, LocalQuestion):
            clash = self._local.update(question, answer, step)
            if clash is not None:
                self._contradictions.append(clash)
            accepted = self._joint.apply_local(question, answer, step)
        else:
            accepted = self._joint.apply_pairwise(question, answer, step)
        if not accepted and not any(c.step == step for c in self._contradictions):
            earlier = self._joint.last_clash
            which = (
                f"answer(s) {', '.join(str(k + 1) for k in earlier)}"
                if earlier
                else "the earlier answers taken together"
            )
            noiseless = math.isinf(self.settings["local_lambda" if question.kind == "local" else "pairwise_lambda"])
            self._contradictions.append(
                Contradiction(
                    step,
                    earlier,
                    f"answer {step + 1} ({answer}) contradicts {which}: no G(beta, rho) in the box agrees "
                    "with all of them; "
                    + (
                        "it is left out of the region and the estimate; answer again, or take the answers as noisy "
                        "(e.g. pairwise_lambda=50, local_lambda=50)."
                        if noiseless
                        else "it is weighed as a noisy answer and left out of the feasible region."
                    ),
                )
            )
        self._steps.append(Step(question, answer))
        self._pending, self._stop = None, None

    def run(self, stakeholder: Callable[[Question], str]) -> ElicitationResult:
        """Ask every question of the session to ``stakeholder`` (a callable returning an answer).

        Parameters
        ----------
        stakeholder : callable
            Maps a question to one of its options, e.g. a :class:`SimulatedStakeholder`.

        Returns
        -------
        ElicitationResult
            The result once the session stops.

        Raises
        ------
        InvalidParameterError
            If ``stakeholder`` is not callable, or returns what is not one of a question's options.
        """
        if not callable(stakeholder):
            raise InvalidParameterError(
                f"Elicitation.run: `stakeholder` must be a callable that answers a question; "
                f"got {type(stakeholder).__name__}; pass e.g. SimulatedStakeholder(2.0, -3.0) "
                "or a function of the question returning one of its options."
            )
        # not declared: an answer outside the options is Elicitation.answer's message (pinned)
        while (question := self.next_question()) is not None:
            self.answer(stakeholder(question))
        return self.result()

    # ------------------------------------------------------------------ results
    @property
    def transcript(self) -> Transcript:
        """The settings, the decision curve and the answered questions so far."""
        p, r, t = self.curve
        return Transcript(dict(self.settings), (p, r, t), tuple(self._steps))

    def result(self) -> ElicitationResult:
        """The estimate, its region, the decision and the transcript, from the answers so far.

        Returns
        -------
        ElicitationResult
            See its attributes.
        """
        joint = self._joint
        lb, rho = joint.estimate()
        sd_lb, sd_rho = joint.spread()
        mode_lb, mode_rho = joint.mode()
        region = joint.plausible()
        metric = elicited_metric(math.exp(lb), rho)
        p, r, t = self.curve
        values = metric.from_precision_recall(np.asarray(p), np.asarray(r))
        j = int(np.flatnonzero(values >= np.max(values) - 1e-12)[0])
        decision = Decision(p[j], r[j], t[j] if t else None, j, joint.loss_of(j, region))
        notes = list(self._local.notes()) if self.n_local else []
        edges = joint.edges(self.settings["tolerance"])
        if edges:
            notes.append(
                f"The plausible region reaches the edge of the hypothesis box ({'; '.join(edges)}): the "
                "truth may lie outside it; widen it with Elicitation(beta_range=...)."
            )
        if self.n_pairwise == 0:
            notes.append(
                "No pairwise question answered yet: rho is not known and the decision is not settled; "
                "answer pairwise questions before choosing a threshold (F-beta is never assumed)."
            )
        lbs, rhos = joint.lb[region], joint.rho[region]
        self.next_question()
        return ElicitationResult(
            beta=math.exp(lb),
            rho=rho,
            beta_sd_log=sd_lb,
            rho_sd=sd_rho,
            mode_beta=math.exp(mode_lb),
            mode_rho=mode_rho,
            beta_range=(math.exp(float(lbs.min())), math.exp(float(lbs.max()))),
            rho_range=(float(rhos.min()), float(rhos.max())),
            region_log_beta=lbs,
            region_rho=rhos,
            feasible_fraction=joint.feasible_fraction(),
            local_beta=math.exp(self._local.quantile(0.5)) if self.n_local else None,
            local_interval=(math.exp(self._local.quantile(0.025)), math.exp(self._local.quantile(0.975)))
            if self.n_local
            else None,
            metric=metric,
            beta_bounds=self._local.exact_bounds() if self.n_local else (0.0, math.inf),
            beta_interval=(math.exp(joint.log_beta_quantile(0.025)), math.exp(joint.log_beta_quantile(0.975))),
            decision=decision,
            stop_reason=self._stop or "in progress",
            contradictions=tuple(self._contradictions),
            notes=tuple(notes),
            transcript=self.transcript,
        )


@validate_params({"transcript": InBody("a Transcript, or a path to one")})
def replay(transcript: Transcript | str | Any) -> ElicitationResult:
    """The result a transcript's answers imply: the same session, answered again.

    Parameters
    ----------
    transcript : Transcript, path or dict
        A :class:`Transcript`, the path of a saved answers file, or its JSON data.

    Returns
    -------
    ElicitationResult
        The same estimate, region and decision as the session that wrote the transcript.
        Where the engine would have asked another question than the one recorded (a
        transcript written by another version), the recorded question is the one
        weighed, so the answers keep their meaning.

    Raises
    ------
    InvalidParameterError
        If ``transcript`` is none of a Transcript, a mapping and a path (e.g. a list,
        ``None`` or bytes).
    IsometricsError
        If the transcript is malformed (the message names the field), its settings are
        out of range, or an answer is not one of its question's options.

    See Also
    --------
    load_transcript, Elicitation

    Examples
    --------
    >>> from isometrics.elicitation import Elicitation, SimulatedStakeholder, replay
    >>> session = Elicitation(local_budget=3, pairwise_budget=3)
    >>> result = session.run(SimulatedStakeholder(beta=2.0, rho=-2.0))
    >>> replay(result.transcript).metric == result.metric
    True
    """
    t = as_transcript(transcript)
    p, r, th = t.curve
    try:
        session = Elicitation(
            np.asarray(p) if p else None,
            np.asarray(r) if r else None,
            thresholds=np.asarray(th) if th else None,
            **t.settings,
        )
    except IsometricsError as exc:
        raise IsometricsError(f"replay: transcript field `settings`: {exc}") from exc
    for step in t.steps:
        session._record(step.question, step.answer)
    return session.result()


@validate_params({"transcript": InBody("a Transcript")})
def engine_trace(transcript: Transcript) -> list[dict[str, Any]]:
    """Step by step, what the engine asks and estimates along a transcript (to test another implementation).

    For the interactive page's script, which must ask the same next question and reach
    the same estimates to 1e-9 on the same answers (``docs/elicitation.md``).

    Parameters
    ----------
    transcript : Transcript, dict or path-like
        Settings, curve and answered questions: a :class:`Transcript`, its JSON data or
        the path of an answers file, as :func:`replay` takes.

    Returns
    -------
    list of dict
        One entry per step and a last one after every answer: ``asked`` (the engine's next
        question as JSON data, or ``None`` when it stops), ``stop_reason``, and the state
        before that question: ``log_beta``, ``rho`` (posterior means), ``feasible_fraction``,
        ``n_answers``.

    Raises
    ------
    InvalidParameterError
        If ``transcript`` is none of a Transcript, a dict or a path.
    IsometricsError
        If the data or the file is not a valid transcript (the message names the field).

    Examples
    --------
    >>> from isometrics.elicitation import Elicitation, engine_trace
    >>> s = Elicitation(local_budget=1, pairwise_budget=1)
    >>> s.answer("recall")
    >>> [step["asked"]["kind"] for step in engine_trace(s.transcript)]
    ['local', 'pairwise']
    """
    transcript = as_transcript(transcript)
    p, r, th = transcript.curve
    session = Elicitation(
        np.asarray(p) if p else None,
        np.asarray(r) if r else None,
        thresholds=np.asarray(th) if th else None,
        **transcript.settings,
    )
    out: list[dict[str, Any]] = []
    for k in range(len(transcript.steps) + 1):
        q = session.next_question()
        lb, rho = session._joint.estimate()
        out.append(
            {
                "n_answers": k,
                "asked": None if q is None else q.to_dict(),
                "stop_reason": session._stop or "",
                "log_beta": lb,
                "rho": rho,
                "feasible_fraction": session._joint.feasible_fraction(),
            }
        )
        if k < len(transcript.steps):
            step = transcript.steps[k]
            session._record(step.question, step.answer)
    return out
