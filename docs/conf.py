"""Sphinx configuration: the isometrics documentation site, built offline.

`./run docs` builds it into docs/_build/html; the test suite builds it with warnings as
errors (tests/test_docs.py). The API reference is generated from `isometrics.__all__`, one
section per subpackage, so a new public name appears in it without editing this file.
"""

from __future__ import annotations

import inspect
import os
import sys
from pathlib import Path

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
# The API reference, generated from isometrics.__all__
# ---------------------------------------------------------------------------------------------

SECTIONS = [
    ("isometrics.spaces.operating_points", "The engine", "One sort, ties grouped: every curve, area and threshold comes from it."),
    ("isometrics.metrics", "The metric family and label metrics", "Weighted means of precision and recall, G(beta, rho), metric specifications, and scikit-learn's label metrics."),
    ("isometrics.spaces", "Curves, areas, hulls, baselines and thresholds", "ROC, PR and PRG space: curves, areas, convex hulls, level curves, baselines, thresholds, calibration, costs, multiclass."),
    ("isometrics.uncertainty", "Uncertainty", "Bootstrap by reweighting, DeLong, intervals for average precision, paired comparisons, curve bands."),
    ("isometrics.elicitation", "Eliciting beta and rho", "Questions for a stakeholder, and the metric their answers imply."),
    ("isometrics.evaluation", "One call", "Evaluate or compare score columns in one call."),
    ("isometrics.model_selection", "Model selection", "Thresholds chosen out of sample, and scorers for scikit-learn."),
    ("isometrics.irt", "Benchmarks: beta^3-IRT", "Abilities of classifiers, difficulties of data sets, adaptive testing."),
    ("isometrics.scale", "Scale", "Out of core, streaming and distributed evaluation."),
    ("isometrics._core", "Counts and confusion matrices", "The confusion-matrix helpers of the core."),
    ("isometrics.exceptions", "Errors and warnings", "What isometrics raises and warns."),
]


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
        "Everything public is importable from the top-level package: ``import isometrics as im``.",
        "The plotting Displays live in :mod:`isometrics.plotting` (matplotlib is imported only there).",
        "",
        ".. currentmodule:: isometrics",
        "",
    ]
    for prefix, title, blurb in SECTIONS:
        names = groups[prefix]
        if not names:
            continue
        lines += [title, "-" * len(title), "", blurb, "", ".. autosummary::", "   :toctree: generated", ""]
        lines += [f"   {name}" for name in names]
        lines.append("")
    plotting = _plotting_names()
    if plotting:
        title = "Plots (isometrics.plotting)"
        lines += [title, "-" * len(title), "", "matplotlib Displays in scikit-learn's manner.", "",
                  ".. currentmodule:: isometrics.plotting", "", ".. autosummary::", "   :toctree: generated", ""]
        lines += [f"   {name}" for name in plotting]
        lines.append("")
    cluster = _dask_names()
    if cluster:
        title = "On a Dask cluster (isometrics.dask)"
        lines += [title, "-" * len(title), "", "Exact evaluation of a Dask DataFrame or a Parquet data set on a "
                  "distributed cluster.", "", ".. currentmodule:: isometrics.dask", "", ".. autosummary::",
                  "   :toctree: generated", ""]
        lines += [f"   {name}" for name in cluster]
        lines.append("")
    target = HERE / "api.rst"
    text = "\n".join(lines)
    if not target.exists() or target.read_text() != text:
        target.write_text(text)


def _plotting_names() -> list[str]:
    try:
        import isometrics.plotting as plotting
    except ImportError:  # matplotlib missing: the reference leaves the Displays out
        return []
    return sorted(n for n in getattr(plotting, "__all__", []) if inspect.isclass(getattr(plotting, n)))


def _dask_names() -> list[str]:
    import isometrics.dask  # Dask itself is imported only when a function runs

    return list(isometrics.dask.__all__)


_write_api_page()
