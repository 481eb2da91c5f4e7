"""Reading a report's figures back in Python: the shared data block decoded and every reference
(``{"$col": ...}``, ``{"$rows": ...}``, ``{"$template": ...}``) replaced, as the page's figures.js does, so the tests see
the arrays Plotly draws."""

from __future__ import annotations

import base64
import json
import re

import numpy as np


def decode(block):
    return np.frombuffer(base64.b64decode(block["bdata"]), dtype=np.dtype(block["dtype"]).newbyteorder("<"))


def model_columns(model):
    """Every column a reference can name, derived from the counts by the page's own rules."""
    thr, tp, fp, P, N = decode(model["thr"]), decode(model["tp"]), decode(model["fp"]), model["P"], model["N"]
    pi = P / (P + N)
    flagged = tp + fp
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(flagged > 0, tp / flagged, np.nan)
        gain = lambda x: (1 - pi / x) / (1 - pi)  # noqa: E731
        columns = dict(
            thr=thr,
            tp=tp,
            fp=fp,
            flagged=flagged,
            share=flagged / (P + N),
            fpr=fp / N,
            tpr=tp / P,
            precision=precision,
            rg=gain(tp / P),
            pg=gain(precision),
            lift=precision / pi,
        )
    columns.update({f"metric:{spec}": decode(v) for spec, v in model["metrics"].items()})
    return columns


def _block(text):
    block = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', text, re.S)
    return {"models": []} if block is None else json.loads(block.group(1))


def shared_data(text):
    return [model_columns(m) for m in _block(text)["models"]]


def resolve(value, shared, templates=()):
    if isinstance(value, list):
        return [resolve(v, shared, templates) for v in value]
    if not isinstance(value, dict):
        return value
    if "$template" in value:
        return templates[value["$template"]]
    if "$col" in value:
        k, name = value["$col"]
        return [None if v != v else float(v) for v in shared[k][name][value.get("from", 0) :]]
    if "$rows" in value:
        cols = [shared[k][name] for k, name in value["$rows"]]
        return [[float(c[i]) for c in cols] for i in range(value.get("from", 0), len(cols[0]))]
    return {key: resolve(v, shared, templates) for key, v in value.items()}


def figures(text):
    """Each figure's JSON (``{"figure": ..., ...}``) by its div id, references resolved."""
    shared, templates = shared_data(text), _block(text).get("templates", [])
    return {
        name: resolve(json.loads(body), shared, templates)
        for name, body in re.findall(
            r'<script type="application/json" data-figure="([^"]+)">(.*?)</script>', text, re.S
        )
    }
