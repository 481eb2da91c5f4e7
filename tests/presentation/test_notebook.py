"""isometrics in a notebook (issue 13, items 1 and 2): pandas and Polars inputs, compact outputs.

A notebook is built with nbformat and executed with nbclient in a kernel of the running
interpreter (a kernel spec written for the test, so a fresh virtual environment needs no
installed ``python3`` spec): data frames of two score columns go into ``evaluate_scores`` and
``bootstrap_compare``, a Display is drawn, a bootstrap result and a best threshold are shown.
Every output but the images must be small (no whole arrays, no bootstrap distribution), the
column names must be kept, and the numbers must be scikit-learn's.
"""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import isometrics as im

nbformat = pytest.importorskip("nbformat", reason="nbformat is needed to build the notebook (test extra)")
nbclient = pytest.importorskip("nbclient", reason="nbclient is needed to execute the notebook (test extra)")
pytest.importorskip("ipykernel", reason="ipykernel is needed to run the notebook's kernel (test extra)")
pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
pytest.importorskip("matplotlib")
metrics = pytest.importorskip("sklearn.metrics")

N = 20_000
SETUP = f"""
import numpy as np, pandas as pd, polars as pl
import isometrics as im
from isometrics.plotting import RocDisplay

rng = np.random.default_rng(5)
y = np.where(rng.random({N}) < 0.3, "Yes", "No")
signal = (y == "Yes").astype(float)
df = pd.DataFrame({{"y": y, "logreg": rng.normal(size={N}) + 1.2 * signal,
                   "forest": np.round(rng.normal(size={N}) + 0.8 * signal, 2)}})
pl_df = pl.from_pandas(df)
"""
CELLS = {
    "setup": SETUP,
    "evaluate pandas": 'evaluations = im.evaluate_scores(df["y"], df[["logreg", "forest"]], pos_label="Yes", '
    'metrics=["f1", "f2"])\nevaluations',
    "evaluate polars": 'im.evaluate_scores(pl_df["y"], pl_df.select(["logreg", "forest"]), pos_label="Yes")',
    "table pandas": "evaluations.to_pandas()",
    "table polars": "evaluations.to_polars()",
    "compare": 'im.uncertainty.bootstrap_compare(pl_df["y"], pl_df.select(["logreg", "forest"]), pos_label="Yes", '
    "n_resamples=300, rng=0)",
    "display": 'RocDisplay.from_predictions(df["y"], df["logreg"], pos_label="Yes", metric="f1").plot()',
    "bootstrap": 'im.uncertainty.bootstrap(df["y"], df["logreg"], pos_label="Yes", n_resamples=2000, rng=0)',
    "best threshold": 'im.best_threshold(pl_df["y"], pl_df["forest"], metric="f1", pos_label="Yes")',
}
IMAGES = ("image/png", "image/svg+xml", "image/jpeg")


def _kernel_manager(tmp_path):
    """A kernel manager for a kernel spec of this interpreter, importing this isometrics."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    spec_dir = tmp_path / "kernels" / "isometrics-test"
    spec_dir.mkdir(parents=True)
    source = str(Path(im.__file__).resolve().parents[1])  # the directory that holds this isometrics
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "isometrics test",
        "language": "python",
        "env": {"PYTHONPATH": source, "MPLBACKEND": "module://matplotlib_inline.backend_inline"},
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    specs = KernelSpecManager(kernel_dirs=[str(tmp_path / "kernels")], ensure_native_kernel=False)
    return KernelManager(kernel_name="isometrics-test", kernel_spec_manager=specs)


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    """name of the cell -> its outputs (the notebook executed once for every test here)."""
    tmp_path = tmp_path_factory.mktemp("notebook")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in CELLS.values()]
    km = _kernel_manager(tmp_path)
    client = nbclient.NotebookClient(
        nb, km=km, timeout=120, kernel_name="isometrics-test", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    nbformat.write(nb, tmp_path / "isometrics.ipynb")
    return {name: cell.outputs for name, cell in zip(CELLS, nb.cells)}


def _data(outputs, name, mime="text/plain"):
    found = [o["data"][mime] for o in outputs[name] if o.get("output_type") == "execute_result" and mime in o["data"]]
    assert found, f"cell {name!r} has no {mime} result: {outputs[name]}"
    return found[0]


@pytest.fixture(scope="module")
def frame():
    """The notebook's data, rebuilt here (the same seed) for scikit-learn's numbers."""
    rng = np.random.default_rng(5)
    y = np.where(rng.random(N) < 0.3, "Yes", "No")
    signal = (y == "Yes").astype(float)
    return pd.DataFrame(
        {"y": y, "logreg": rng.normal(size=N) + 1.2 * signal, "forest": np.round(rng.normal(size=N) + 0.8 * signal, 2)}
    )


def test_no_cell_fails_and_every_output_but_images_is_small(outputs):
    for name, cell in outputs.items():
        for output in cell:
            assert output["output_type"] != "error", f"{name}: {output.get('ename')}: {output.get('evalue')}"
            for mime, value in output.get("data", {}).items():
                if mime not in IMAGES:
                    assert len(value) < 4_000, f"cell {name!r}: {mime} output of {len(value)} characters"
            if output["output_type"] == "stream":
                assert len(output["text"]) < 4_000, f"cell {name!r}: stream of {len(output['text'])} characters"


def test_evaluations_keep_the_column_names_and_give_sklearn_numbers(outputs, frame):
    positive = frame["y"].to_numpy() == "Yes"
    for cell in ("evaluate pandas", "evaluate polars"):
        text = _data(outputs, cell)
        assert text.startswith(f"Evaluations(n_samples={N}")
        for name in ("logreg", "forest"):
            auc = metrics.roc_auc_score(positive, frame[name])
            ap = metrics.average_precision_score(positive, frame[name])
            assert f"'{name}': auroc={auc:.4g}, ap={ap:.4g}" in text
    page = _data(outputs, "evaluate pandas", "text/html")
    assert "<td>logreg</td>" in page and "<td>forest</td>" in page
    assert f"<td>{metrics.roc_auc_score(positive, frame['forest']):.6g}</td>" in page


def test_evaluations_tabulate_in_pandas_and_polars(outputs, frame):
    positive = frame["y"].to_numpy() == "Yes"
    for cell in ("table pandas", "table polars"):
        page = _data(outputs, cell, "text/html")
        assert "logreg" in page and "forest" in page and "fbeta(beta=2) threshold" in page
        assert f"{metrics.roc_auc_score(positive, frame['logreg']):.6f}"[:7] in page


def test_paired_bootstrap_keeps_the_names_and_does_not_print_replicates(outputs, frame):
    positive = frame["y"].to_numpy() == "Yes"
    text = _data(outputs, "compare")
    assert "names=('logreg', 'forest')" in text and "score_0" not in text
    difference = metrics.roc_auc_score(positive, frame["logreg"]) - metrics.roc_auc_score(positive, frame["forest"])
    assert text.startswith("ModelComparison(names=('logreg', 'forest')") and "array([" not in text
    assert f"<td>{difference:.6g}</td>" in _data(outputs, "compare", "text/html")
    assert "<td>logreg</td><td>forest</td>" in _data(outputs, "compare", "text/html")


def test_a_display_prints_no_arrays_above_its_figure(outputs):
    text = _data(outputs, "display")
    assert text.startswith("RocDisplay(name='logreg'") and "fpr=array(shape=(" in text
    assert any(mime in o.get("data", {}) for o in outputs["display"] for mime in IMAGES), "no figure drawn"


def test_bootstrap_result_and_best_threshold(outputs, frame):
    positive = frame["y"].to_numpy() == "Yes"
    text = _data(outputs, "bootstrap")
    assert f"estimate={metrics.roc_auc_score(positive, frame['logreg']):.13f}"[:-1] in text  # up to rounding
    assert "bootstrap_distribution=array(shape=(2000,)" in text
    best = _data(outputs, "best threshold")
    precision, recall, thresholds = metrics.precision_recall_curve(positive, frame["forest"])
    f1 = 2 * precision * recall / np.maximum(precision + recall, 1e-300)
    k = int(np.nanargmax(f1[:-1]))
    assert f"threshold={float(thresholds[k])!r}," in best
    assert f"value={f1[k]:.12f}"[:-4] in best
