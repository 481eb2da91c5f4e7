"""The transcript of an elicitation: settings, the decision curve, the questions and answers.

Saved as JSON (``docs/elicitation.md`` gives the schema, version 1) by the API, the
terminal session and the interactive page, and replayed by :func:`replay`. Loading checks
the shape, the version and every answer against the options of its question, and names
the field that is wrong.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._core.caller import current_caller
from .._core.constraints import InBody, validate_params
from .._core.html import summarised
from ..exceptions import InvalidParameterError, IsometricsError
from .local import RHO_SIGNS, LocalQuestion
from .pairwise import PairwiseQuestion

FORMAT = "isometrics-elicitation"
VERSION = 1

Question = LocalQuestion | PairwiseQuestion

_SETTINGS = (
    "rho_sign",
    "local_budget",
    "pairwise_budget",
    "tolerance",
    "local_lambda",
    "pairwise_lambda",
    "beta_range",
)


@dataclass(frozen=True)
class Step:
    """One question and the answer given to it."""

    question: Question
    answer: str

    def to_dict(self) -> dict[str, Any]:
        """The step as JSON-ready data."""
        return {**self.question.to_dict(), "answer": self.answer}


@summarised()
@dataclass(frozen=True)
class Transcript:
    """What was asked and answered in an elicitation, with the settings to replay it.

    Attributes
    ----------
    settings : dict
        The session's settings: ``rho_sign``, ``local_budget``, ``pairwise_budget``,
        ``tolerance``, ``local_lambda``, ``pairwise_lambda`` (``inf`` is written as the
        string ``"inf"`` in JSON).
    curve : tuple of tuple of float
        The decision curve ``(precision, recall, thresholds)``: the Pareto points of the
        user's model by decreasing recall (thresholds empty when unknown).
    steps : tuple of Step
        The questions in the order asked, each with its answer.
    """

    settings: dict[str, Any]
    curve: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        """The transcript as JSON-ready data (format, version, settings, curve, steps)."""
        settings = {k: ("inf" if isinstance(v, float) and math.isinf(v) else v) for k, v in self.settings.items()}
        p, r, t = self.curve
        return {
            "format": FORMAT,
            "version": VERSION,
            "settings": settings,
            "curve": {"precision": list(p), "recall": list(r), "thresholds": list(t) or None},
            "steps": [s.to_dict() for s in self.steps],
        }

    def to_json(self) -> str:
        """The transcript as a JSON document."""
        return json.dumps(self.to_dict(), indent=1)

    @validate_params({"path": InBody("a path")}, name="Transcript.save")
    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the transcript as JSON to ``path``.

        Raises
        ------
        InvalidParameterError
            If ``path`` is not a str or path-like.
        IsometricsError
            If the file cannot be written (a folder, a missing folder, no permission).
        """
        write_transcript(self, path)

    @classmethod
    def from_dict(cls, data: Any) -> Transcript:
        """Check and read transcript data (as :meth:`to_dict` writes it).

        Raises
        ------
        IsometricsError
            If the data has the wrong shape or version, or an answer is not one of its
            question's options; the message names the field.
        """
        return _parse(data)

    @classmethod
    @validate_params({"path": InBody("a path")}, name="load_transcript")  # the same reader, so the same name
    def load(cls, path: str | os.PathLike[str]) -> Transcript:
        """Read a transcript from a JSON file (see :meth:`from_dict` for the checks); the messages
        name :func:`load_transcript`, or :func:`replay` when it reads the file."""
        if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
            raise InvalidParameterError(
                f"{current_caller()}: `path` must be the path (str or path-like) of an answers file; "
                f"got {type(path).__name__}; pass e.g. 'answers.json'."
            )
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise IsometricsError(
                f"{current_caller()}: {str(path)!r} is not UTF-8 text (byte {exc.start}); pass the answers "
                "file the elicitation saved (JSON, UTF-8)."
            ) from exc
        except OSError as exc:
            raise IsometricsError(
                f"{current_caller()}: cannot read {str(path)!r}: {exc.strerror}; check the path of the "
                "answers file the elicitation saved."
            ) from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise IsometricsError(
                f"{current_caller()}: {str(path)!r} is not JSON ({exc.msg} at line {exc.lineno}); "
                "pass the answers file the elicitation saved."
            ) from exc
        except RecursionError as exc:
            raise IsometricsError(
                f"{current_caller()}: {str(path)!r} nests its JSON too deeply to be an answers file; "
                "pass the answers file the elicitation saved."
            ) from exc
        return _parse(data)


def write_transcript(transcript: Transcript, path: Any) -> None:
    """Write ``transcript`` as JSON to ``path`` for the public function being called; a bad path is the library's error."""
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidParameterError(
            f"{current_caller()}: `path` must be the path (str or path-like) of the answers file to "
            f"write; got {type(path).__name__}; pass e.g. 'answers.json'."
        )
    try:
        Path(path).write_text(transcript.to_json() + "\n", encoding="utf-8")
    except OSError as exc:
        raise IsometricsError(
            f"{current_caller()}: cannot write the answers file {os.fspath(path)!r} "
            f"({exc.strerror or exc}); pass the path of a file in an existing, writable "
            "folder."
        ) from exc


def as_transcript(value: Any) -> Transcript:
    """A :class:`Transcript`, the JSON data of one (a mapping) or the path of an answers file, as a Transcript.

    Raises
    ------
    InvalidParameterError
        If ``value`` is none of these (e.g. a list, a number, ``None`` or bytes).
    IsometricsError
        If the data or the file is not a valid transcript (the message names the field).
    """
    if isinstance(value, Transcript):
        return value
    if isinstance(value, Mapping):
        return _parse(value)
    if isinstance(value, (str, os.PathLike)):
        return Transcript.load(value)
    raise InvalidParameterError(
        f"{current_caller()}: `transcript` must be a Transcript, its JSON data (a dict) or the path of "
        f"an answers file; got {type(value).__name__}; pass e.g. 'answers.json' "
        "(decode bytes and json.loads them first)."
    )


def _fail(field: str, problem: str) -> IsometricsError:
    return IsometricsError(f"load_transcript: field `{field}` {problem}.")


def _number(value: Any, field: str, *, inf: bool = False) -> float:
    if inf and value == "inf":
        return math.inf
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        suffix = ' or "inf"' if inf else ""
        raise _fail(field, f"must be a finite number{suffix}; got {value!r}")
    return float(value)


def _point(value: Any, field: str) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) != 2:
        raise _fail(field, f"must be a list [precision, recall]; got {value!r}")
    p, r = (_number(v, f"{field}[{k}]") for k, v in enumerate(value))
    if not (0 < p <= 1 and 0 < r <= 1):
        raise _fail(field, f"must hold a precision and a recall in (0, 1]; got {value!r}")
    return p, r


def _floats(value: Any, field: str, *, unit: bool = False) -> tuple[float, ...]:
    if not isinstance(value, list):
        raise _fail(field, f"must be a list of numbers; got {type(value).__name__}")
    out = tuple(_number(v, f"{field}[{k}]", inf=not unit) for k, v in enumerate(value))
    bad = [k for k, v in enumerate(out) if unit and not 0.0 <= v <= 1.0]
    if bad:
        raise _fail(f"{field}[{bad[0]}]", f"must be a number in [0, 1]; got {out[bad[0]]!r}")
    return out


def _step(raw: Any, k: int) -> Step:
    field = f"steps[{k}]"
    if not isinstance(raw, Mapping):
        raise _fail(field, f"must be an object with kind, the question and answer; got {raw!r}")
    kind = raw.get("kind")
    question: Question
    if kind == "local":
        for key in ("precision", "recall"):
            if key not in raw:
                raise _fail(f"{field}.{key}", "is missing")
        question = LocalQuestion(*_point([raw["precision"], raw["recall"]], f"{field}.precision/recall"))
    elif kind == "pairwise":
        for key in ("a", "b"):
            if key not in raw:
                raise _fail(f"{field}.{key}", "is missing")
        question = PairwiseQuestion(_point(raw["a"], f"{field}.a"), _point(raw["b"], f"{field}.b"))
    else:
        raise _fail(f"{field}.kind", f"must be 'local' or 'pairwise'; got {kind!r}")
    answer = raw.get("answer")
    if answer not in question.options:
        raise _fail(f"{field}.answer", f"must be one of {', '.join(map(repr, question.options))}; got {answer!r}")
    return Step(question, answer)


def _parse(data: Any) -> Transcript:
    if not isinstance(data, Mapping):
        raise _fail(
            "(top level)",
            f"must be an object with format, version, settings, curve and steps; got {type(data).__name__}",
        )
    if data.get("format") != FORMAT:
        raise _fail("format", f"must be {FORMAT!r}; got {data.get('format')!r}")
    if isinstance(data.get("version"), bool) or data.get("version") != VERSION:
        raise _fail(
            "version",
            f"must be {VERSION} (this version of isometrics reads version {VERSION}); got {data.get('version')!r}",
        )
    settings = data.get("settings")
    if not isinstance(settings, Mapping):
        raise _fail("settings", f"must be an object; got {settings!r}")
    unknown = sorted(set(settings) - set(_SETTINGS))
    if unknown:
        raise _fail(f"settings.{unknown[0]}", f"is not a setting; the settings are {', '.join(_SETTINGS)}")
    parsed: dict[str, Any] = {}
    for key, value in settings.items():
        if key == "rho_sign":
            if value not in RHO_SIGNS:
                raise _fail("settings.rho_sign", f"must be one of {', '.join(map(repr, RHO_SIGNS))}; got {value!r}")
            parsed[key] = value
        elif key in ("local_budget", "pairwise_budget"):
            low = 1 if key == "pairwise_budget" else 0
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise _fail(f"settings.{key}", f"must be an integer >= {low}; got {value!r}")
            parsed[key] = value
        elif key == "beta_range":  # written only when not the default (0.05, 20)
            if not isinstance(value, list) or len(value) != 2:
                raise _fail("settings.beta_range", f"must be a list [low, high]; got {value!r}")
            parsed[key] = tuple(_number(v, f"settings.beta_range[{k}]") for k, v in enumerate(value))
        else:
            parsed[key] = _number(value, f"settings.{key}", inf=True)
    curve = data.get("curve")
    if not isinstance(curve, Mapping):
        raise _fail("curve", f"must be an object with precision, recall and thresholds; got {curve!r}")
    p = _floats(curve.get("precision"), "curve.precision", unit=True)
    r = _floats(curve.get("recall"), "curve.recall", unit=True)
    t = () if curve.get("thresholds") is None else _floats(curve.get("thresholds"), "curve.thresholds")
    if len(p) != len(r) or (t and len(t) != len(p)):
        raise _fail("curve", f"must have as many precisions, recalls and thresholds; got {len(p)}, {len(r)}, {len(t)}")
    if not any(pk > 0 and rk > 0 for pk, rk in zip(p, r)):
        raise _fail(
            "curve",
            "must hold at least one point with precision and recall > 0 (the curve the decision "
            f"is made on; an empty curve is never replaced by the default); got {len(p)} point(s)",
        )
    steps = data.get("steps")
    if not isinstance(steps, list):
        raise _fail("steps", f"must be a list of questions with answers; got {type(steps).__name__}")
    return Transcript(parsed, (p, r, t), tuple(_step(s, k) for k, s in enumerate(steps)))


@validate_params({"path": InBody("a path")})
def load_transcript(path: str | os.PathLike[str]) -> Transcript:
    """Read the answers file of an elicitation (JSON, ``docs/elicitation.md``).

    Parameters
    ----------
    path : str or path-like
        The JSON file written by :meth:`Transcript.save`, the terminal session or the
        interactive page.

    Returns
    -------
    Transcript
        The settings, the decision curve and the questions with their answers.

    Raises
    ------
    InvalidParameterError
        If ``path`` is not a str or path-like (e.g. ``None``).
    IsometricsError
        If the file cannot be read, is not UTF-8 JSON (or nests too deeply), has the wrong
        shape or version, or an answer is not one of its question's options; the message
        names the field.

    See Also
    --------
    replay : the result the transcript's answers imply.

    Examples
    --------
    >>> import tempfile, os
    >>> from isometrics.elicitation import Elicitation, load_transcript
    >>> session = Elicitation(local_budget=1, pairwise_budget=1)
    >>> session.answer("recall")
    >>> path = os.path.join(tempfile.mkdtemp(), "answers.json")
    >>> session.transcript.save(path)
    >>> load_transcript(path).steps[0].answer
    'recall'
    """
    return Transcript.load(path)
