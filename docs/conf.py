"""Sphinx configuration: the isometrics documentation site, built offline.

`./run docs` builds it into docs/_build/html; the test suite builds it with warnings as
errors (tests/test_docs.py). The API reference is generated from `isometrics.__all__` (the core,
one section per subpackage) and each namespace's `__all__` (one page per namespace), so a new
public name appears in it without editing this file.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from pathlib import Path

import jinja2
import numpydoc.docscrape_sphinx
import sphinx.application
import sphinx.search.en

import isometrics

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
os.environ.setdefault("MPLBACKEND", "Agg")

project = "isometrics"
author = "isometrics developers"
copyright = "2026, isometrics developers"
release = isometrics.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "examples/*", "generated_examples/*.ipynb", "**.ipynb_checkpoints", "api/generated/*.md"]
myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header", "config.cache"]

autosummary_generate = True
autodoc_typehints = "none"
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()  # validated by tests/test_docstrings.py instead


class _NumpydocEnvironment(numpydoc.docscrape_sphinx.SandboxedEnvironment):
    """numpydoc makes a new jinja2 environment for each docstring (about 1,400 here, the class members in the
    autosummary tables included) and loads its one template into it: read from disk, parsed and compiled 1,400
    times, a fifth of the build. Keep the first loaded template for the build, one per kind of loader (numpydoc's
    folder, or the builder's template path): every environment numpydoc makes is configured alike."""

    _loaded: dict[tuple[type, str], jinja2.Template] = {}

    def get_template(self, name, parent=None, globals=None):
        if parent is not None or globals is not None:
            return super().get_template(name, parent, globals)
        key = (type(self.loader), name)
        if key not in self._loaded:
            self._loaded[key] = super().get_template(name)
        return self._loaded[key]


numpydoc.docscrape_sphinx.SandboxedEnvironment = _NumpydocEnvironment

html_theme = "pydata_sphinx_theme"
html_title = f"isometrics {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
    "footer_end": [],
}
html_static_path: list[str] = []
# Everything offline: no intersphinx, no external images, no analytics.

sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "generated_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "matplotlib_animations": False,
    "image_scrapers": ("matplotlib",),
    "reference_url": {},
    "show_memory": False,
    "show_signature": False,
}


# ---------------------------------------------------------------------------------------------
# The API reference, generated from isometrics.__all__ (the core, api.rst) and each namespace's
# __all__ (one page per namespace, api/<namespace>.rst)
# ---------------------------------------------------------------------------------------------

SECTIONS = [
    ("isometrics.spaces.operating_points", "The engine", "One sort, ties grouped: every curve, area and threshold comes from it."),
    ("isometrics.metrics", "The metric family and label metrics", "Weighted means of precision and recall, G(beta, rho), metric specifications, and scikit-learn's label metrics."),
    ("isometrics.spaces", "Curves, areas, hulls and thresholds", "ROC, PR and PRG space: curves, areas, convex hulls, level curves, thresholds, multiclass."),
    ("isometrics.evaluation", "One call", "Evaluate or compare score columns in one call."),
    ("isometrics.model_selection", "Model selection", "Thresholds chosen out of sample, decisions, and scorers for scikit-learn."),
    ("isometrics._core", "Counts and confusion matrices", "The confusion-matrix helpers of the core."),
    ("isometrics.exceptions", "Errors and warnings", "What isometrics raises and warns."),
]

#: One page per namespace: (namespace, title, what it holds, optional dependency or "").
NAMESPACE_PAGES = [
    ("uncertainty", "isometrics.uncertainty", "Bootstrap by reweighting the sorted counts, DeLong's variance and test, Boyd et al.'s interval for average precision, paired comparisons of several models (Holm-adjusted), pointwise curve bands.", ""),
    ("elicitation", "isometrics.elicitation", "Eliciting beta and rho from a stakeholder's answers: local and pairwise questions, transcripts and replay, the tangency method and linear-metric elicitation.", ""),
    ("irt", "isometrics.irt", "Benchmarks: beta^3-IRT abilities of classifiers and difficulties of data sets, adaptive testing, and the KEEL benchmark.", ""),
    ("scale", "isometrics.scale", "Evaluation beyond memory: streaming into score bins with guaranteed intervals, and out-of-core evaluation of files with DuckDB.", ""),
    ("dask", "isometrics.dask", "Exact evaluation of a Dask DataFrame or a Parquet data set on a distributed cluster (Dask is imported only when a function runs).", ""),
    ("spaces", "isometrics.spaces", "Everything derived from the count table in ROC, PR and PRG space. The curves, areas, hulls and thresholds of the core are also at the top level (:doc:`../api`); this page lists the rest: baselines, calibration, costs, cutoffs, gains and lift, decision curves, Davis-Goadrich interpolation.", ""),
    ("model_selection", "isometrics.model_selection", "Thresholds and metrics chosen out of sample; most of it is at the top level (:doc:`../api`); this page lists the rest.", ""),
    ("plotting", "isometrics.plotting", "matplotlib Displays in scikit-learn's manner.", "matplotlib"),
    ("report", "isometrics.report", "The self-contained offline HTML report, the multiclass page and the elicitation page.", "plotly"),
]

COLLISIONS = """Names that collide in meaning
-----------------------------

- :func:`fbeta_score` and :func:`roc_auc_score` are scikit-learn's functions under their own names: the
  same arguments, the same results (multiclass averaging included), a drop-in replacement.
  :func:`fbeta` is the metric family's verb: the F-beta of a precision and a recall (a weighted
  harmonic mean of two rates, arrays broadcast); :func:`auroc` is the engine's verb: the binary area
  under the ROC curve of scores (``OperatingPoints.auroc()``).
- :func:`average_precision` is the point estimate (scikit-learn's ``average_precision_score``);
  :func:`isometrics.uncertainty.average_precision_ci` is Boyd et al.'s interval around it. Every
  interval and test is in :mod:`isometrics.uncertainty`.
- A name that moved to a namespace (``isometrics.bootstrap`` is now
  :func:`isometrics.uncertainty.bootstrap`) still resolves at the top level for one release, with a
  ``DeprecationWarning`` naming its new place.
"""


def _section_of(name: str) -> str:
    obj = getattr(isometrics, name)
    module = getattr(obj, "__module__", None) or ""
    if not module.startswith("isometrics"):
        module = "isometrics.metrics"  # constants such as METRIC_NAMES
    best = ""
    for prefix, _, _ in SECTIONS:
        if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > len(best):
            best = prefix
    return best or "isometrics.spaces"


def _write(target: Path, text: str) -> None:
    target.parent.mkdir(exist_ok=True)
    if not target.exists() or target.read_text() != text:
        target.write_text(text)


def _write_api_page() -> None:
    groups: dict[str, list[str]] = {prefix: [] for prefix, _, _ in SECTIONS}
    for name in sorted(isometrics.__all__, key=str.lower):
        if name.startswith("__"):
            continue
        groups[_section_of(name)].append(name)
    lines = [
        "API reference",
        "=============",
        "",
        "The core is the top-level package, ``import isometrics as im``: scikit-learn's metric functions",
        "under their own names, the engine and its verbs, the metric family and the result types they",
        "return. Each other product is a namespace, imported on first use, with a page of its own:",
        "",
        ".. toctree::",
        "   :maxdepth: 1",
        "",
    ]
    lines += [f"   api/{name}" for name, _, _, _ in NAMESPACE_PAGES]
    lines += ["", ".. currentmodule:: isometrics", "", COLLISIONS]
    for prefix, title, blurb in SECTIONS:
        names = groups[prefix]
        if not names:
            continue
        lines += [title, "-" * len(title), "", blurb, "", ".. autosummary::", "   :toctree: generated", ""]
        lines += [f"   {name}" for name in names]
        lines.append("")
    _write(HERE / "api.rst", "\n".join(lines))
    for name, title, blurb, needs in NAMESPACE_PAGES:
        _write(HERE / "api" / f"{name}.rst", "\n".join(_namespace_page(name, title, blurb, needs)))


def _namespace_page(name: str, title: str, blurb: str, needs: str) -> list[str]:
    lines = [title, "=" * len(title), "", blurb, ""]
    try:
        module = importlib.import_module(f"isometrics.{name}")
    except ImportError:  # an optional dependency missing: the page says so
        return lines + [f"Needs ``{needs}``: ``pip install 'isometrics[...]'``.", ""]
    core = {n: getattr(isometrics, n) for n in isometrics.__all__}
    names = sorted((n for n in module.__all__ if core.get(n, None) is not getattr(module, n)), key=str.lower)
    lines += [f".. currentmodule:: isometrics.{name}", "", ".. autosummary::", "   :toctree: ../generated", ""]
    lines += [f"   {n}" for n in names if callable(getattr(module, n))]
    data = [n for n in names if not callable(getattr(module, n))]
    if data:
        lines += ["", "Constants: " + ", ".join(f"``{n}``" for n in data) + "."]
    lines.append("")
    return lines


_write_api_page()


class _EnglishStemmedOnce(sphinx.search.en.SearchEnglish):
    """The search index stems every word of every page with snowballstemmer's pure-Python English stemmer, and
    Sphinx memoises it per page only: 30,000 stems of about 4,000 distinct words, a twentieth of the build.
    Memoise it over the build; the stem of a word does not change, so the index is the same."""

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        self._stems: dict[str, str] = {}

    def stem(self, word: str) -> str:
        stem = self._stems.get(word)
        if stem is None:
            stem = self._stems[word] = super().stem(word)
        return stem


def _collect_less(app: sphinx.application.Sphinx) -> None:
    """The build keeps millions of objects alive (the modules it imported, then the environment and each page's
    doctree) and CPython's collector scans its oldest generation again and again as the pages are read: a sixth of
    the build's CPU (4 of 26 s), before sphinx-gallery's own full collection before each example. Once the
    extensions are set up, freeze what exists (imported modules: never garbage) out of the collector's reach, and
    collect the youngest generation every 10,000 allocations instead of 700: 2 s less, the same peak memory
    (250 MB). Garbage is still collected; no output depends on when."""
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def setup(app: sphinx.application.Sphinx) -> None:
    app.add_search_language(_EnglishStemmedOnce)
    app.connect("builder-inited", _collect_less, priority=0)  # before the gallery and autosummary run
