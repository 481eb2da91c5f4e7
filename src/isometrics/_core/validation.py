"""Input validation shared by every public function (one checker per kind of input).

Each public function validates once, at its boundary, with these checkers and then
trusts its inputs. Messages follow the template *what, where, value, fix*. This module is
the one place to import them from; they live by kind of input in ``arrays`` (array-likes,
scores, sample weights), ``labels`` (class labels and the binary target) and
``parameters`` (scalar parameters); data frames of score columns are read in ``frames``
(narwhals). A new checker goes in the module of its kind and is
named here.
"""

from __future__ import annotations

from .arrays import (
    as_1d,
    as_array,
    as_sample_weight,
    check_broadcast,
    check_consistent_length,
    check_real_array,
    check_sample_weight,
    check_scores,
    check_unit_interval,
)
from .frames import column_name, frame_columns
from .labels import (
    as_target,
    check_binary_target,
    check_both_classes,
    check_labels,
    check_labels_present,
    check_pos_label,
    infer_pos_label,
    label_set,
)
from .parameters import (
    check_integer,
    check_option,
    check_real,
    check_rng,
    check_zero_division,
)

__all__ = [
    "as_array",
    "as_1d",
    "as_target",
    "frame_columns",
    "column_name",
    "check_labels",
    "check_pos_label",
    "check_consistent_length",
    "check_scores",
    "check_sample_weight",
    "as_sample_weight",
    "check_binary_target",
    "check_labels_present",
    "check_both_classes",
    "infer_pos_label",
    "label_set",
    "check_real",
    "check_real_array",
    "check_unit_interval",
    "check_broadcast",
    "check_integer",
    "check_option",
    "check_rng",
    "check_zero_division",
]
