"""Words a stakeholder understands (issue 21 item 8): what the answers established, beta as the break-even
ratio whatever the sign of rho, and a warning when the decision flags everyone."""

import warnings

import pytest

import isometrics as im
from isometrics.elicitation import LocalQuestion, PairwiseQuestion, Step
from isometrics.elicitation.wording import BETA_WORDS, answers_summary, regret_words
from isometrics.exceptions import DegenerateDataWarning


def _always_recall(question):
    if question.kind == "local":
        return "recall"
    return "a" if question.a[1] > question.b[1] else "b"


def _local(p, r, answer):
    return Step(LocalQuestion(p, r), answer)


def test_always_recall_is_said_with_the_largest_ratio_asked():
    # R/P = 0.5, 1.6 and 4: recall was preferred even where recall was 4 times precision
    steps = [_local(0.8, 0.4, "recall"), _local(0.5, 0.8, "recall"), _local(0.2, 0.8, "recall")]
    (line,) = answers_summary(steps)
    assert line == (
        "In all 3 local questions you preferred a gain in recall, even at R/P = 4 (precision 20.0%, "
        "recall 80.0%): recall matters more to you than precision by at least R/P = 4."
    )


def test_always_precision_is_said_as_a_precision_recall_ratio():
    steps = [_local(0.8, 0.4, "precision"), _local(0.5, 0.8, "precision")]
    (line,) = answers_summary(steps)
    assert line.startswith("In both local questions you preferred a gain in precision, even at R/P = 0.5 ")
    assert line.endswith("precision matters more to you than recall by at least P/R = 2.")


def test_a_switch_between_ratios_brackets_the_break_even():
    # rho < 0 pattern: recall at low R/P, precision at high R/P
    f_like = answers_summary([_local(0.8, 0.4, "recall"), _local(0.4, 0.8, "precision")])
    assert f_like == (
        "You preferred a gain in recall up to R/P = 0.5 and in precision from R/P = 2: a point of "
        "either is worth the same to you between those ratios.",
    )
    # rho > 0 pattern: the other way round
    (line,) = answers_summary([_local(0.8, 0.4, "precision"), _local(0.4, 0.8, "recall")])
    assert "precision up to R/P = 0.5 and in recall from R/P = 2" in line and "whichever is already ahead" in line
    (line,) = answers_summary(
        [
            _local(0.8, 0.4, "precision"),
            _local(0.4, 0.8, "precision"),
            _local(0.5, 0.5, "recall"),
            _local(0.2, 0.8, "recall"),
            _local(0.8, 0.1, "recall"),
        ]
    )
    assert line.startswith("Your local answers cross")


def test_pairwise_answers_count_the_higher_recall_choices():
    q = PairwiseQuestion((0.9, 0.3), (0.5, 0.7))
    lines = answers_summary([Step(q, "b"), Step(q, "b"), Step(q, "a")])
    assert lines == (
        "In 3 comparisons you chose the model with the higher recall 2 times and the one with the "
        "higher precision once.",
    )
    assert answers_summary([]) == ("No answers yet.",)


def test_rho_positive_stakeholder_is_never_told_beta_weights_recall():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        result = im.elicitation.Elicitation().run(_always_recall)
    assert result.rho > 0 and result.beta < 1  # the sign of rho flips what a small beta means
    page = result._repr_html_()
    assert "weight of recall" not in page and "loses at most" not in page
    assert BETA_WORDS in page and "you preferred a gain in recall" in page
    n_local = sum(s.question.kind == "local" for s in result.transcript.steps)
    assert n_local >= 2  # the local phase ends when its answers stop informing (at most 12)
    assert result.summary[0].startswith(f"In all {n_local} local questions you preferred a gain in recall")


def test_a_decision_that_flags_everyone_warns_and_says_so():
    with pytest.warns(
        DegenerateDataWarning,
        match=r"ElicitationResult: the metric picks the top-recall end of the "
        r"curve \(recall 100.0%, its lowest precision 20.0%\)",
    ):
        result = im.elicitation.Elicitation().run(_always_recall)
    # the default curve ends at flagging everyone: recall 1 at the prevalence 0.2
    assert (result.decision.recall, result.decision.precision, result.trivial_decision) == (1.0, 0.2, "everyone")
    assert result.to_dict()["trivial_decision"] == "everyone"
    assert "flags (nearly) every case" in result._repr_html_()
    with pytest.warns(DegenerateDataWarning):
        assert im.elicitation.replay(result.transcript).trivial_decision == "everyone"


def test_a_balanced_decision_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateDataWarning)
        result = im.elicitation.Elicitation(local_budget=3, pairwise_budget=3).run(
            im.elicitation.SimulatedStakeholder(1.0, -2.0)
        )
    assert result.trivial_decision == "" and result.decision.recall < 1


def test_the_worst_loss_in_words():
    assert regret_words(0.0227) == (
        "whichever plausible metric is yours, this point scores at most 0.0227 below that "
        "metric's best point (on its 0-1 scale)"
    )
