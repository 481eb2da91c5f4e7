"""The irt and elicitation modules name the public function from the declaration (issue 24, item 5).

No internal function threads a ``caller`` string any more: the checkers read the name the
declared public function set. These tests fail on the code that threaded it: helpers took a
``caller`` parameter, the methods that name themselves had no declaration, and the ``respond``
callback of ``adaptive_test`` ran under adaptive_test's name, so a public function it called
was misnamed in its own messages.
"""

import inspect

import numpy as np
import pytest

import isometrics as im
from isometrics._core.constraints import declared_params
from isometrics.elicitation import _curve, linear, local, pairwise, session, stakeholders, tangency, transcript
from isometrics.elicitation import result as elicitation_result
from isometrics.irt import _bank, _responses, adaptive, beta3, keel, model

MODULES = (
    _bank,
    _responses,
    adaptive,
    beta3,
    keel,
    model,
    _curve,
    linear,
    local,
    pairwise,
    session,
    stakeholders,
    tangency,
    transcript,
)


def _functions(module):
    for name, obj in vars(module).items():
        if inspect.isfunction(obj) and obj.__module__ == module.__name__:
            yield name, obj
        elif inspect.isclass(obj) and obj.__module__ == module.__name__:
            for attr, member in vars(obj).items():
                func = getattr(member, "__func__", member)
                if inspect.isfunction(func):
                    yield f"{name}.{attr}", func


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_no_caller_parameter_is_threaded(module):
    threaded = [
        label for label, func in _functions(module) if "caller" in inspect.signature(inspect.unwrap(func)).parameters
    ]
    assert threaded == []


@pytest.mark.parametrize(
    ("method", "name"),
    [
        (beta3.Beta3IRT.expected_response, "Beta3IRT.expected_response"),
        (beta3.Beta3IRT.information, "Beta3IRT.information"),
        (beta3.Beta3IRT.ability_interval, "Beta3IRT.ability_interval"),
        (beta3.Beta3IRT.difficulty_interval, "Beta3IRT.difficulty_interval"),
        (beta3.Beta3IRT.discrimination_interval, "Beta3IRT.discrimination_interval"),
        (keel.KeelBenchmark.matrix, "KeelBenchmark.matrix"),
        (session.Elicitation.answer, "Elicitation.answer"),
        (session.Elicitation.record, "Elicitation.record"),
        (session.Elicitation.contains, "Elicitation.contains"),
        (transcript.Transcript.save, "Transcript.save"),
        (elicitation_result.ElicitationResult.save, "ElicitationResult.save"),
        (stakeholders.SimulatedStakeholder.local_margin, "SimulatedStakeholder.local_margin"),
        (local.LocalQuestion.meaning, "LocalQuestion.meaning"),
        (local.LocalQuestion.bounds, "LocalQuestion.bounds"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_methods_that_name_themselves_are_declared(method, name):
    declared = declared_params(method)
    assert declared is not None, f"{name} has no declaration"
    params = [p for p in inspect.signature(method).parameters if p != "self"]
    assert sorted(declared) == sorted(params)


def _bank_of_three():
    rng = np.random.default_rng(0)
    return im.irt.fit_beta3(rng.uniform(0.1, 0.9, (6, 5)))


def test_respond_runs_outside_adaptive_test():
    """A public function the user's ``respond`` calls names itself, not adaptive_test."""
    bank = _bank_of_three()

    def respond(item):
        return im.precision_score([0, 1, 1], [0, 1, 0], zero_division="never")

    with pytest.raises(im.InvalidParameterError, match=r"^precision_score: `zero_division`"):
        im.irt.adaptive_test(bank, respond, max_items=2)


def test_a_bad_bank_field_names_adaptive_test_and_the_constructor_names_itself():
    bank = _bank_of_three()
    object.__setattr__(bank, "difficulty", np.full(len(bank.items), 2.0))
    with pytest.raises(im.IsometricsError, match=r"^adaptive_test: `bank.difficulty` must lie in \(0, 1\)"):
        im.irt.adaptive_test(bank, lambda item: 0.5, max_items=1)
    fields = {f: getattr(bank, f) for f in bank.__dataclass_fields__}
    with pytest.raises(im.IsometricsError, match=r"^Beta3IRT: `difficulty` must lie in \(0, 1\)"):
        beta3.Beta3IRT(**fields)


def test_a_session_and_its_questions_name_themselves_under_replay():
    data = im.elicitation.Elicitation(local_budget=1, pairwise_budget=1).transcript.to_dict()
    data["settings"]["tolerance"] = 2.0
    with pytest.raises(im.IsometricsError, match=r"^replay: transcript field `settings`: Elicitation: `tolerance`"):
        im.elicitation.replay(data)
    with pytest.raises(im.InvalidParameterError, match=r"^PairwiseQuestion: `a.recall` must be a real number"):
        pairwise.PairwiseQuestion((0.5, 1.5), (0.5, 0.5))
    with pytest.raises(im.InvalidParameterError, match=r"^Elicitation: `beta_range` must satisfy"):
        im.elicitation.Elicitation(beta_range=(2.0, 1.0))


def test_nested_item_index_names_the_method_called():
    bank = _bank_of_three()
    with pytest.raises(im.IsometricsError, match=r"^Beta3IRT: unknown item 'x'"):
        bank.item_index("x")
    with pytest.raises(im.IsometricsError, match=r"^adaptive_test: unknown item 'x'"):
        im.irt.adaptive_test(bank, lambda item: 0.5, available=["x"])
