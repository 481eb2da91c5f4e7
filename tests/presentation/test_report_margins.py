"""The report's margins hold its axes' labels (issue 24, item 6; ``report/_margins.py``): the tick labels
Plotly writes on an auto-ranged axis, derived by hand. That each figure is then drawn once, with its labels
inside, in a wide window and a narrow one, and that the metric figures' labels are the ones predicted, is
checked in a real browser by test_report_lazy.py (on a page it draws anyway)."""

import pytest

from isometrics.report._margins import LEFT, left_for, tick_labels

pytest.importorskip("plotly")


def test_tick_labels_as_derived_by_hand():
    """0 to 0.6 on 307 px: each end padded by 5 % of the length, so the range is 0.6 / 0.9 wide, from
    -0.0333 to 0.6333; 307 / 40 + 1 = 8.675 intervals of about 0.0769 each, rounded up to 0.1; ticks at 0,
    0.1, ..., 0.6. A size-9 marker at the top pads it by 9 / 1.6 px more: the range reaches
    0.6 + (15.35 + 5.625) / 307 * 0.6 / (1 - 36.325 / 307) = 0.6465, still below 0.7."""
    assert tick_labels(0.0, 0.6, 307) == ["0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6"]
    assert tick_labels(0.0, 0.6, 307, marker_high=9) == ["0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6"]
    # 0 to 0.33 with the marker at the top: the range reaches 0.33 + 20.975 / 307 * 0.33 / 0.8817 = 0.3556, so
    # the step 0.05 (0.0431 per interval) gives a tick at 0.35 that the 5 % padding alone (0.3483) would not
    assert tick_labels(0.0, 0.33, 307)[-1] == "0.3"
    assert tick_labels(0.0, 0.33, 307, marker_high=9)[-1] == "0.35"
    # -0.2 to 0.3: range -0.2278 to 0.3278 (0.5556 wide), 0.0640 per interval, rounded up to 0.1; ticks -0.2
    # to 0.3, "-0.2" the widest: 10.1 + 7.7 + 3.9 + 7.7 = 29.4 px against 19.3 for "0.8", 11 px more than LEFT
    labels = tick_labels(-0.2, 0.3, 307)
    assert labels == ["-0.2", "-0.1", "0", "0.1", "0.2", "0.3"]
    assert left_for(labels) == LEFT + 11
    assert left_for(["0", "0.5", "1"]) == LEFT
