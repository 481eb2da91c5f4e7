"""Issue 24, item 5 in scale, dask and report: the public functions and methods are declared
(``validate_params``) and the messages take the declared function's name from the context, not
from ``caller`` strings. Where the work runs outside the call (a lazily read source, the
out-of-core producer thread, a Dask worker) the name must still reach the messages, and a
warning must still point at the user's line through the declaration's wrapper."""

import inspect
import warnings

import numpy as np
import pytest

import isometrics as im
from isometrics._core.caller import current_caller
from isometrics._core.constraints import declared_params, validate_params
from isometrics.exceptions import InvalidParameterError, IsometricsError
from isometrics.scale import BinnedCountTable, BinnedEvaluation
from isometrics.scale.batches import ArrowSource
from isometrics.scale.out_of_core import _ahead


def test_the_public_methods_are_declared():
    for method, name in [
        (BinnedCountTable.__init__, "BinnedCountTable"),
        (BinnedCountTable.update, "BinnedCountTable.update"),
        (BinnedCountTable.update_from, "BinnedCountTable.update_from"),
        (BinnedCountTable.merge, "BinnedCountTable.merge"),
        (BinnedCountTable.compute, "BinnedCountTable.compute"),
        (BinnedEvaluation.best_threshold, "BinnedEvaluation.best_threshold"),
        (BinnedEvaluation.to_evaluation, "BinnedEvaluation.to_evaluation"),
        (ArrowSource.from_files, "ArrowSource.from_files"),
    ]:
        declared = declared_params(method)
        assert declared is not None, name
        params = [p for p in inspect.signature(method).parameters if p not in ("self", "cls")]
        assert sorted(declared) == sorted(params), name


def test_the_methods_name_themselves_without_a_caller_string():
    with pytest.raises(InvalidParameterError, match=r"^BinnedCountTable: `pos_label` must be one label"):
        BinnedCountTable(8, pos_label=[0, 1])
    with pytest.raises(IsometricsError, match=r"^BinnedCountTable.update: y_true has 3 classes"):
        BinnedCountTable(8).update([0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(IsometricsError, match=r"^BinnedCountTable.compute: no samples yet"):
        BinnedCountTable(8).compute()
    result = BinnedCountTable(8).update([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.6]).compute()
    with pytest.raises(InvalidParameterError, match=r"^BinnedEvaluation.best_threshold: `metric` = 'nope'"):
        result.best_threshold("nope")


def test_a_file_source_read_later_names_the_call_that_opened_it(tmp_path):
    """ArrowSource.from_files reads when the batches are consumed (here by update_from): its read
    errors still name ArrowSource.from_files, the call that named the files."""
    path = tmp_path / "ragged.csv"
    path.write_text("y,s\n0,0.1\n1,0.9,7\n")
    source = ArrowSource.from_files(path, ["y", "s"])
    with pytest.raises(IsometricsError, match=r"^ArrowSource.from_files: row 1 \(line 3 of .*ragged.csv"):
        BinnedCountTable(8).update_from(source, label="y", score="s")


def test_the_out_of_core_producer_thread_sees_the_callers_name():
    """The count table is fetched in a thread of its own (``_ahead``): its messages name the public function."""

    def items():
        yield 1
        raise IsometricsError(f"{current_caller()}: reading failed")

    @validate_params({})
    def public():
        return list(_ahead(items(), stop=lambda: None))

    with pytest.raises(IsometricsError, match=r"^public: reading failed"):
        public()


def test_parse_memory_under_evaluate_out_of_core_names_it(tmp_path):
    with pytest.raises(InvalidParameterError, match=r"^evaluate_out_of_core: `memory_limit` 'lots' is not a size"):
        im.scale.evaluate_out_of_core(tmp_path / "none.parquet", label="y", scores="s", memory_limit="lots")
    with pytest.raises(InvalidParameterError, match=r"^--memory-limit: `size` 'lots' is not a size"):
        im.scale.parse_memory("lots", caller="--memory-limit", name="size")  # as the command line calls it


def test_evaluate_dask_constant_scores_warning_points_at_the_callers_line():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    from isometrics.dask import evaluate_dask

    frame = dd.from_pandas(pd.DataFrame({"y": [0, 1, 0, 1, 1, 0], "s": [0.5] * 6}), npartitions=2)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        evaluate_dask(frame, label="y", scores="s", client=None)
    [warning] = [w for w in record if issubclass(w.category, im.DegenerateDataWarning)]
    assert (warning.filename, warning.lineno) == (__file__, line)


def test_evaluate_dask_names_itself_on_the_workers():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    from isometrics.dask import evaluate_dask

    frame = dd.from_pandas(pd.DataFrame({"y": [0, 1, 0, 1], "s": [0.1, np.nan, 0.3, 0.4]}), npartitions=2)
    with pytest.raises(IsometricsError, match=r"^evaluate_dask: score column 's' has 1 NaN"):
        evaluate_dask(frame, label="y", scores="s")
    with pytest.raises(InvalidParameterError, match=r"^evaluate_dask: `pos_label` must be one label"):
        evaluate_dask(frame, label="y", scores="s", pos_label=[0, 1])


def test_elicitation_page_refuses_a_session_with_the_librarys_error():
    pytest.importorskip("jinja2")
    from isometrics.report import elicitation_page

    with pytest.raises(InvalidParameterError, match=r"^elicitation_page: `session` must be an Elicitation or None"):
        elicitation_page(5)
