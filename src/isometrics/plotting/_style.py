"""The look every Display shares: matplotlib keyword arguments for the curve's line, the
legend label with the area, and the elements drawn once per axes.

A Display's ``plot`` draws its curve with ``ax.plot(x, y, **_line_kwargs(stored, given,
label=_area_label(name, "AUROC", auroc)))``: the user's keywords (from ``from_predictions``,
then ``plot``, the later winning) go to that line unchanged, and ``label`` replaces the
default "name (AUROC = 0.912)". What belongs to no model (chance lines, baselines, level
curves) is drawn through :func:`_reference` behind ``if _once(ax, key)``, and what every
model has in its own colour (hulls, best points) is unlabelled and explained by one
:func:`_legend_entry` per axes, so that three models on one axes give a legend of three
curves and a few shared entries. :func:`_legend` lists the models first.
"""

from __future__ import annotations

from typing import Any

from .._core.optional import needs

#: gid of what the Displays draw once per axes (references, shared legend entries, sentinels).
_GID = "isometrics:"

#: Style of the elements that belong to no model.
_REFERENCE_STYLE: dict[str, Any] = {"color": "0.5", "linewidth": 0.8}

#: Colour of the shared legend entries that stand for every model's own-coloured element.
_ENTRY_COLOR = "0.3"


def _pyplot() -> Any:
    with needs("plotting"):
        import matplotlib.pyplot as plt
    return plt


def _axes(ax: Any) -> Any:
    if ax is None:
        _, ax = _pyplot().subplots()
    return ax


def _once(ax: Any, key: str) -> bool:
    """True the first time ``key`` is asked for on these axes (then marked by an empty,
    unlabelled line with that gid, so clearing the axes forgets it; its explicit colour
    leaves the models' colour cycle where it was)."""
    gid = _GID + key
    if any(line.get_gid() == gid for line in ax.get_lines()):
        return False
    ax.plot([], [], gid=gid, color="none")
    return True


def _reference(ax: Any, x: Any, y: Any, **style: Any) -> Any:
    """Draw an element that belongs to no model (grey, thin unless ``style`` says otherwise)."""
    (line,) = ax.plot(x, y, **{**_REFERENCE_STYLE, "gid": _GID + "reference", **style})
    return line


def _legend_entry(ax: Any, key: str, label: str, **style: Any) -> None:
    """One legend entry per axes for an element each model draws in its own colour."""
    if _once(ax, "entry:" + key):
        ax.plot([], [], label=label, gid=_GID + "entry", **{"color": _ENTRY_COLOR, **style})


def _line_kwargs(stored: dict[str, Any], given: dict[str, Any], *, label: str) -> dict[str, Any]:
    """The curve's matplotlib keywords: those given to ``from_predictions``, then to ``plot``,
    with ``label`` defaulting to the Display's own."""
    return {"label": label, **stored, **given}


def _area_label(name: str | None, area_name: str, area: float | None) -> str:
    """``"name (AUROC = 0.912)"``, ``"AUROC = 0.912"`` without a name, the name alone (or no
    label) without an area."""
    if area is None or area != area:
        return name or ""
    text = f"{area_name} = {area:.3f}"
    return f"{name} ({text})" if name else text


def _legend(ax: Any) -> None:
    """The axes' legend, the models' curves first, then the shared entries; none if nothing
    is labelled."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return
    order = sorted(range(len(handles)), key=lambda i: str(handles[i].get_gid() or "").startswith(_GID))
    ax.legend([handles[i] for i in order], [labels[i] for i in order], loc="best", fontsize="small")
