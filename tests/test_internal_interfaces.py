"""The interfaces between the package's rooms are named (issue 24, acceptance; STYLE B.1a).

A name that one subpackage imports from another is an interface of the package: it has a
public name (no leading underscore) and a numpydoc docstring, and docs/architecture.md lists
it. These tests count, by the AST, the imports ``from isometrics.<x> import _<name>`` (or the
relative equivalent) whose module lies in another subpackage than the importing module, and
check the docstrings of the interfaces named so far.
"""

import ast
import importlib
from collections import Counter
from pathlib import Path

import pytest
from numpydoc.validate import validate

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "isometrics"
#: The acceptance of issue 24: fewer than this many imports of an underscore name across subpackages.
LIMIT = 15


def _module_parts(path: Path, package: Path) -> tuple[list[str], list[str]]:
    """The dotted parts (under ``isometrics``) of a module, and those of the package it sits in."""
    parts = list(path.relative_to(package).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
        return parts, parts
    return parts, parts[:-1]


def cross_package_private_imports(package: Path = PACKAGE) -> list[tuple[str, str, str]]:
    """Every ``(importing file, imported module, name)`` with ``name`` underscored and the module in
    another subpackage (the first component under ``isometrics``: ``metrics``, ``_core``, ``evaluation``)."""
    found = []
    for path in sorted(package.rglob("*.py")):
        parts, package_parts = _module_parts(path, package)
        own = parts[0] if parts else ""
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package_parts[: len(package_parts) - (node.level - 1)]
                target = base + (node.module.split(".") if node.module else [])
            elif (node.module or "").split(".")[0] == "isometrics":
                target = node.module.split(".")[1:]
            else:
                continue
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and (target[0] if target else "") != own:
                    found.append((str(path.relative_to(package)), ".".join(target), alias.name))
    return found


def test_the_counter_sees_absolute_and_relative_imports(tmp_path):
    """The count is able to fail: a planted private import across subpackages is counted, one
    within a subpackage, a public name or a dunder is not."""
    (tmp_path / "spaces").mkdir()
    (tmp_path / "metrics").mkdir()
    (tmp_path / "spaces" / "a.py").write_text(
        "from ..metrics.gain import _gain\nfrom isometrics.metrics import registry\n"
        "from .b import _local\nfrom ..metrics.registry import parse_metric, __all__\n"
    )
    (tmp_path / "metrics" / "__init__.py").write_text("from .._core.arrays import _py\n")
    (tmp_path / "evaluation.py").write_text("from isometrics.uncertainty._inputs import _check_level\n")
    found = sorted((module, name) for _, module, name in cross_package_private_imports(tmp_path))
    assert found == [("_core.arrays", "_py"), ("metrics.gain", "_gain"), ("uncertainty._inputs", "_check_level")]


def test_few_private_names_cross_a_subpackage():
    offenders = cross_package_private_imports()
    tally = Counter((module, name) for _, module, name in offenders)
    listing = "\n".join(
        f"src/isometrics/{file}: from isometrics.{module} import {name}" for file, module, name in offenders
    )
    assert len(offenders) < LIMIT, (
        f"{len(offenders)} imports of an underscore name from another subpackage "
        f"(limit {LIMIT - 1}); most imported: {tally.most_common(5)}\n{listing}"
    )


#: The internal interfaces named in issue 24 (docs/architecture.md, "Internal interfaces").
INTERFACES = [
    "isometrics.metrics._arguments.parse_metric_argument",
    "isometrics.metrics._arguments.parse_metric_arguments",
    "isometrics.metrics.gain.gain_transform",
    "isometrics._core.confusion.check_label_pair",
    "isometrics._core.confusion.class_counts_of_pair",
    "isometrics._core.confusion.confusion_matrix_of_pair",
    "isometrics._core.confusion.multilabel_sample_counts",
    "isometrics.uncertainty._inputs.check_confidence_level",
    "isometrics.uncertainty._inputs.check_score_column",
    "isometrics.uncertainty._inputs.check_binary_inputs",
    "isometrics.uncertainty._inputs.check_n_resamples",
    "isometrics.uncertainty._inputs.resolve_weight_kind",
    "isometrics.spaces._argmax.argmax_summary",
    "isometrics.spaces._column_summary.summarise_column",
    "isometrics._core.arrays.python_scalar",
    "isometrics._core.labels.format_labels",
    "isometrics._core.labels.is_standard_encoding",
    "isometrics.spaces.cutoffs.cut_at_threshold",
    "isometrics.spaces.cutoffs.cut_at_top_k",
    "isometrics.spaces.cutoffs.cut_at_rate",
    "isometrics.spaces.hull.upper_hull_indices",
    "isometrics.spaces.curves.polyline_at",
    "isometrics.uncertainty.model_comparison.check_adjustment",
    "isometrics.uncertainty.intervals.resolve_statistic",
    "isometrics.uncertainty.intervals.bootstrap_statistics",
    "isometrics.uncertainty.resampling.replicates_at_point",
    "isometrics.uncertainty.resampling.Resampler",
]


@pytest.mark.parametrize("path", INTERFACES)
def test_internal_interfaces_are_documented(path):
    """Each named interface exists and has a summary, its parameters, what it returns and raises."""
    module, _, name = path.rpartition(".")
    assert hasattr(importlib.import_module(module), name), path
    errors = [
        (code, msg)
        for code, msg in validate(path)["errors"]
        if code in {"GL08", "SS01", "SS02", "SS03", "PR01", "PR02", "RT01", "RT03"}
    ]
    assert not errors, errors


def test_internal_interfaces_are_in_the_architecture_doc():
    text = (ROOT / "docs" / "architecture.md").read_text()
    missing = [path for path in INTERFACES if path.rpartition(".")[2] not in text]
    assert missing == []
