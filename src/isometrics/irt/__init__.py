"""Item response theory for benchmarks: beta^3-IRT, adaptive testing, and the KEEL benchmark.

Holds the fitted model ``Beta3IRT`` (``beta3``) and its fit by MAP (``model``: L-BFGS-B, then
projected Newton in ``_newton``), the Fisher
information, adaptive testing, and the building of response matrices from many models on many data sets: the classifier pool and
its safe spec parser (``classifiers``), the KEEL data sets and the cached cross-validated
build (``keel``), and the study that joins a fitted bank to the benchmark (``study``; what it returns in ``study_results``). May
import ``isometrics.evaluation`` and below, never the presentation layers. Papers: Chen et al.,
"beta^3-IRT: A New Item Response Model and its Applications", AISTATS 2019 (the model);
Song and Flach, "Efficient and Robust Model Benchmarks with Item Response Theory and Adaptive
Testing", IJIMAI 6(5), 2021 (adaptive testing).
"""

from .adaptive import AdaptiveTest, adaptive_test
from .classifiers import CLASSIFIER_FAMILIES, DEFAULT_POOL, ClassifierSpec, parse_classifier_spec
from .keel import (
    KeelBenchmark,
    build_keel_benchmark,
    keel_datasets,
    keel_response,
    load_keel_dataset,
    read_keel_benchmark,
)
from .model import Beta3IRT, fit_beta3

__all__ = [
    "AdaptiveTest",
    "Beta3IRT",
    "adaptive_test",
    "fit_beta3",
    "CLASSIFIER_FAMILIES",
    "DEFAULT_POOL",
    "ClassifierSpec",
    "KeelBenchmark",
    "build_keel_benchmark",
    "keel_datasets",
    "keel_response",
    "load_keel_dataset",
    "parse_classifier_spec",
    "read_keel_benchmark",
]
