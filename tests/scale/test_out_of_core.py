"""Out-of-core evaluation (issue 14, sections 2 and 5): the same numbers as the in-memory engine,
bit for bit with integer weights, whatever the batches; bad values found in the middle of a file
named by file and row; curves thinned within the stated bound."""

import os

import numpy as np
import pytest

import isometrics as im
from isometrics._core import summation
from isometrics.exceptions import InvalidParameterError, IsometricsError
from isometrics.scale import evaluate_out_of_core, parse_memory

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("duckdb")

METRICS = ["f1", "f0.5", "mcc", "youden", "g(beta=2, rho=-3)"]


def _data(rng, n, *, ties=False, weights=False):
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + 0.8 * y
    if ties:
        s = np.round(s, 2)
    w = rng.integers(0, 4, n).astype(np.float64) if weights else None
    return y, s, w


def _write(path, columns):
    pq.write_table(pa.table(columns), path)
    return path


def _assert_same(result, memory):
    """Every reported number equal, with ``==``: the areas and each best threshold."""
    assert result.n_positives == memory.n_positives and result.n_negatives == memory.n_negatives
    if memory.weight_kind is None:  # unweighted: the totals are counts, ints in both (print 590, not 590.0)
        assert type(result.n_positives) is type(memory.n_positives) is int
        assert type(result.n_negatives) is type(memory.n_negatives) is int
    assert result.auroc == memory.auroc
    assert result.average_precision == memory.average_precision
    assert result.auprg == memory.auprg
    assert result.auc_pr_interpolated == memory.operating_points.auc_pr_interpolated()
    assert result.n_points == memory.operating_points.n_points
    for a, b in zip(result.best, memory.best, strict=True):
        assert (a.threshold, a.value, a.tp, a.fp, a.n_ties) == (b.threshold, b.value, b.tp, b.fp, b.n_ties)


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("ties", [False, True])
def test_equals_in_memory_across_many_batches_and_blocks(tmp_path, rng, ties, weights):
    # > 65,536 distinct scores (one summation block) cut into batches of 7,001: batches and blocks
    # are crossed at many places, and the results must not move by one ulp
    y, s, w = _data(rng, 150_000, ties=ties, weights=weights)
    columns = {"y": y, "s": s, "neg": -s}
    if weights:
        columns["w"] = w
    path = _write(tmp_path / "d.parquet", columns)
    result = evaluate_out_of_core(
        path,
        label="y",
        scores=["s", "neg"],
        sample_weight="w" if weights else None,
        metrics=METRICS,
        batch_size=7_001,
        memory_limit="64MB",
    )
    memory = im.evaluate_scores(y, {"s": s, "neg": -s}, sample_weight=w, metrics=METRICS)
    assert result.names == ("s", "neg")
    for r, m in zip(result, memory, strict=True):
        _assert_same(r, m)
        assert r.weight_kind == m.weight_kind == ("sampling" if weights else None)
    assert result[0].n_samples == 150_000


@pytest.mark.parametrize("weights", [False, True])
def test_equals_in_memory_with_small_summation_blocks(tmp_path, rng, monkeypatch, weights):
    # blocks of 1,000 points and batches of 777: dozens of blocks, most cut by a batch boundary
    monkeypatch.setattr(summation, "BLOCK", 1_000)
    y, s, w = _data(rng, 40_000, weights=weights)
    columns = {"y": y, "s": s, **({"w": w} if weights else {})}
    path = _write(tmp_path / "d.parquet", columns)
    result = evaluate_out_of_core(
        path, label="y", scores="s", sample_weight="w" if weights else None, metrics=METRICS, batch_size=777
    )
    _assert_same(result[0], im.evaluate_scores(y, {"s": s}, sample_weight=w, metrics=METRICS)[0])


def test_fractional_weights_agree_to_rounding(tmp_path, rng):
    y, s, _ = _data(rng, 20_000, ties=True)
    w = rng.random(len(y)) + 0.1
    path = _write(tmp_path / "d.parquet", {"y": y, "s": s, "w": w})
    r = evaluate_out_of_core(path, label="y", scores="s", sample_weight="w", metrics=["f1"], batch_size=500)[0]
    m = im.evaluate_scores(y, {"s": s}, sample_weight=w, metrics=["f1"])[0]
    for key in ("auroc", "average_precision", "auprg", "n_positives", "n_negatives"):
        assert getattr(r, key) == pytest.approx(getattr(m, key), rel=1e-12)
    assert r.best[0].threshold == m.best[0].threshold


def test_batch_size_does_not_change_anything(tmp_path, rng):
    # 3,000 rows: batches of one row are 3,000 reads (20,000 rows took 14 CPU seconds for no more cases; one
    # summation block either way, the blocks are crossed in the tests above)
    y, s, w = _data(rng, 3_000, weights=True)
    path = _write(tmp_path / "d.parquet", {"y": y, "s": s, "w": w})
    runs = [
        evaluate_out_of_core(path, label="y", scores="s", sample_weight="w", metrics=METRICS, batch_size=b)[0]
        for b in (1, 97, 1_000_000)
    ]
    for r in runs[1:]:
        assert r.to_dict() == runs[0].to_dict()


def test_csv_glob_of_files_equals_the_concatenation(tmp_path, rng):
    y, s, _ = _data(rng, 30_000)
    s = np.round(s, 6)  # CSV text round-trips these exactly
    parts = np.array_split(np.arange(len(y)), 3)
    for k, idx in enumerate(parts):
        lines = ["y,s"] + [f"{a},{b!r}" for a, b in zip(y[idx].tolist(), s[idx].tolist())]
        (tmp_path / f"part-{k}.csv").write_text("\n".join(lines) + "\n")
    result = evaluate_out_of_core(str(tmp_path / "part-*.csv"), label="y", scores="s", metrics=["f1"], batch_size=999)
    _assert_same(result[0], im.evaluate_scores(y, {"s": s}, metrics=["f1"])[0])
    assert [os.path.basename(f) for f in result.files] == ["part-0.csv", "part-1.csv", "part-2.csv"]


def test_zero_weight_rows_are_dropped_as_in_memory(tmp_path, rng):
    y, s, w = _data(rng, 5_000, ties=True, weights=True)
    w[:2000] = 0.0
    path = _write(tmp_path / "d.parquet", {"y": y, "s": s, "w": w})
    result = evaluate_out_of_core(path, label="y", scores="s", sample_weight="w", metrics=["f1"])
    _assert_same(result[0], im.evaluate_scores(y, {"s": s}, sample_weight=w, metrics=["f1"])[0])


def test_hand_example_and_string_labels(tmp_path):
    # AUROC 0.75 by counting pairs: (0.35 > 0.1), (0.8 > 0.1), (0.8 > 0.4) of 4 pairs
    path = _write(tmp_path / "d.parquet", {"y": ["no", "no", "yes", "yes"], "s": [0.1, 0.4, 0.35, 0.8]})
    r = evaluate_out_of_core(path, label="y", scores="s", pos_label="yes")[0]
    assert r.auroc == 0.75
    assert r.average_precision == pytest.approx((1 + 2 / 3) / 2)
    assert r.operating_points.pos_label == "yes"


# ---------------------------------------------------------------- bad values in the middle of a file
def _two_parquet_files(tmp_path, rng, n=2_000):
    y, s, w = _data(rng, 2 * n, weights=True)
    first = _write(tmp_path / "a.parquet", {"y": y[:n], "s": s[:n], "w": w[:n]})
    return first, (y[n:].copy(), s[n:].copy(), w[n:].copy())


@pytest.mark.parametrize(
    "column, value, words",
    [
        ("s", np.nan, "score column 's' has a missing, NaN or infinite value"),
        ("s", np.inf, "score column 's' has a missing, NaN or infinite value"),
        ("w", -1.0, "weight column 'w' has a missing, negative or non-finite value"),
        ("y", 2, "label column 'y' has 3 classes"),
    ],
)
def test_bad_value_in_the_middle_of_the_second_file_is_named_by_file_and_row(tmp_path, rng, column, value, words):
    _, (y, s, w) = _two_parquet_files(tmp_path, rng)
    data = {"y": y, "s": s, "w": w}
    data[column][1234] = value
    data[column][1500] = value  # a later one is not the one reported
    _write(tmp_path / "b.parquet", data)
    with pytest.raises(IsometricsError) as info:
        evaluate_out_of_core(str(tmp_path / "*.parquet"), label="y", scores="s", sample_weight="w")
    message = str(info.value)
    assert words in message
    assert "b.parquet" in message and "at row 1234" in message
    assert "Nothing was computed" in message


def test_bad_score_in_a_csv_file_is_named_by_row(tmp_path):
    lines = ["y,s"] + [f"{k % 2},{k / 10}" for k in range(500)]
    lines[1 + 321] = "1,inf"
    (tmp_path / "d.csv").write_text("\n".join(lines) + "\n")
    with pytest.raises(
        IsometricsError, match=r"'s' has a missing, NaN or infinite value: first in .*d\.csv' at row 321"
    ):
        evaluate_out_of_core(tmp_path / "d.csv", label="y", scores="s")


def test_text_in_a_numeric_csv_column_past_the_sniffed_rows_is_named_by_row(tmp_path):
    lines = ["y,s"] + [f"{k % 2},{k / 7}" for k in range(60_000)]  # beyond DuckDB's type-sniffing sample
    lines[1 + 50_000] = "1,abc"
    (tmp_path / "d.csv").write_text("\n".join(lines) + "\n")
    with pytest.raises(IsometricsError, match=r"column 's' holds 'abc' at row 50000 \(line 50002"):
        evaluate_out_of_core(tmp_path / "d.csv", label="y", scores="s")


def test_missing_label_is_named_by_row(tmp_path):
    path = _write(tmp_path / "d.parquet", {"y": pa.array([0, 1, None, 1, 0]), "s": [0.1, 0.2, 0.3, 0.4, 0.5]})
    with pytest.raises(IsometricsError, match="label column 'y' has a missing value: first in .* at row 2"):
        evaluate_out_of_core(path, label="y", scores="s")


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"scores": "nope"}, "column 'nope' is not in"),
        ({"scores": ["s", "s"]}, "names a column twice"),
        ({"scores": []}, "non-empty list"),
        ({"label": 3}, "`label` must be the name"),
        ({"sample_weight": ["w"]}, "`sample_weight` must be the name"),
        ({"memory_limit": "1MB"}, "at least 32 MiB"),
        ({"memory_limit": "lots"}, "is not a size"),
        ({"resolution": 1}, "resolution"),
        ({"batch_size": 0}, "batch_size"),
        ({"metrics": "f1"}, "metrics"),
        ({"pos_label": 7}, "7"),
    ],
)
def test_bad_parameters(tmp_path, kwargs, match):
    path = _write(tmp_path / "d.parquet", {"y": [0, 1, 0, 1], "s": [0.1, 0.2, 0.3, 0.4]})
    call = {"label": "y", "scores": "s", **kwargs}
    with pytest.raises((IsometricsError, InvalidParameterError), match=match):
        evaluate_out_of_core(path, **call)


def test_bad_files(tmp_path):
    with pytest.raises(IsometricsError, match="no file matches"):
        evaluate_out_of_core(str(tmp_path / "*.parquet"), label="y", scores="s")
    with pytest.raises(IsometricsError, match="file not found"):
        evaluate_out_of_core(tmp_path / "missing.parquet", label="y", scores="s")
    _write(tmp_path / "a.parquet", {"y": [0, 1], "s": [0.1, 0.2]})
    (tmp_path / "b.csv").write_text("y,s\n0,0.1\n1,0.2\n")
    with pytest.raises(IsometricsError, match="mix Parquet and CSV"):
        evaluate_out_of_core([tmp_path / "a.parquet", tmp_path / "b.csv"], label="y", scores="s")
    (tmp_path / "c.parquet").write_bytes(b"PAR1 and then nothing")
    with pytest.raises(IsometricsError, match="truncated or damaged"):
        evaluate_out_of_core(tmp_path / "c.parquet", label="y", scores="s")
    _write(tmp_path / "one.parquet", {"y": [1, 1], "s": [0.1, 0.2]})
    with pytest.raises(IsometricsError, match="negative class has no weight"):
        evaluate_out_of_core(tmp_path / "one.parquet", label="y", scores="s")


def test_parse_memory():
    assert parse_memory("4GB") == 4 * 10**9
    assert parse_memory("1.5 GiB") == int(1.5 * 2**30)
    assert parse_memory(2**30) == 2**30
    with pytest.raises(InvalidParameterError, match="at least 32 MiB"):
        parse_memory(1000)
    with pytest.raises(InvalidParameterError):
        parse_memory(True)


def test_spills_within_a_small_limit_and_cleans_up(tmp_path, rng):
    y, s, _ = _data(rng, 400_000)
    path = _write(tmp_path / "d.parquet", {"y": y, "s": s})
    spill = tmp_path / "spill"
    r = evaluate_out_of_core(path, label="y", scores="s", memory_limit="32MiB", temp_directory=spill)[0]
    assert r.auroc == im.auroc(y, s)
    assert spill.is_dir() and list(spill.iterdir()) == []  # what was spilled is gone


# ---------------------------------------------------------------- the display points and their guarantee
@pytest.mark.parametrize("resolution", [10, 200])
def test_display_points_keep_hull_and_bests_within_the_stated_bound(tmp_path, rng, resolution):
    y, s, _ = _data(rng, 60_000, ties=True)
    path = _write(tmp_path / "d.parquet", {"y": y, "s": s})
    r = evaluate_out_of_core(
        path, label="y", scores="s", metrics=["f1", "mcc"], resolution=resolution, batch_size=5_000
    )[0]
    full = im.OperatingPoints.from_scores(y, s)
    kept = r.operating_points
    # kept points are exact points of the full curve
    idx = np.searchsorted(-full.thresholds, -kept.thresholds)
    assert np.array_equal(full.thresholds[idx], kept.thresholds)
    assert np.array_equal(full.tp[idx], kept.tp) and np.array_equal(full.fp[idx], kept.fp)
    assert idx[0] == 0 and idx[-1] == full.n_points - 1
    assert set(full.roc_convex_hull().indices) <= set(idx.tolist())
    assert set(full.prg_convex_hull().indices) <= set(idx.tolist())
    assert {b.index for b in r.best} <= set(idx.tolist())
    assert len(kept.thresholds) < full.n_points
    # the bound: between two kept points, every skipped point lies within 1/resolution of the first,
    # per coordinate, in ROC, PR and PRG space (so the drawn and the exact polylines are that close)
    P, N = full.n_positives, full.n_negatives
    pi = P / (P + N)
    with np.errstate(divide="ignore", invalid="ignore"):
        fpr, tpr = full.fp / N, full.tp / P
        precision = full.tp / (full.tp + full.fp)
        rg = np.clip((tpr - pi) / ((1 - pi) * tpr), -1 / resolution, 1)
        pg = np.clip((precision - pi) / ((1 - pi) * precision), -1 / resolution, 1)
    coordinates = np.stack([fpr, tpr, precision, rg, pg])
    for a, b in zip(idx[:-1], idx[1:]):
        if b - a > 1:
            gap = np.abs(coordinates[:, a + 1 : b] - coordinates[:, a : a + 1])
            assert np.nanmax(gap) <= 1 / resolution + 1e-12


def test_integers_beyond_float64_are_refused_as_in_memory(tmp_path):
    # 2**60 + 1 and 2**60 + 2 are distinct int64 scores but the same float64: a silent merge.
    y = np.array([0, 1, 0, 1, 1, 0])
    s = np.array([2**60 + 1, 2**60 + 2, 2**60 + 3, 5, 7, 2**60], dtype=np.int64)
    path = _write(tmp_path / "d.parquet", {"y": y, "s": s})
    with pytest.raises(IsometricsError, match=r"cannot represent exactly.*at row 0 \(value 1152921504606846977\)"):
        evaluate_out_of_core(path, label="y", scores=["s"])
    with pytest.raises(IsometricsError, match="cannot represent exactly"):
        im.auroc(y, s)
    # Large integers that float64 holds exactly are evaluated, and agree with the pair count.
    exact = np.array([2**60, 2**61, 3, 5, 7, 2**62], dtype=np.int64)
    path = _write(tmp_path / "e.parquet", {"y": y, "s": exact})
    pairs = [(a > b) + 0.5 * (a == b) for a, ya in zip(exact, y) if ya for b, yb in zip(exact, y) if not yb]
    assert evaluate_out_of_core(path, label="y", scores=["s"])[0].auroc == sum(pairs) / 9
