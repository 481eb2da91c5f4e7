"""One shape for the commands: an option name means one thing in every command that takes it.

The Typer application is read as Click sees it: for every option name that two commands of one group take
(the root's commands; ``benchmark``'s commands), the help text, the type, whether it repeats, its default
and its bounds must agree, because each is declared once (``cli/_options.py``). The few names that mean
something else in one command are listed below with the reason; nothing else may differ.
"""

from __future__ import annotations

import inspect
from collections import defaultdict

import pytest

pytest.importorskip("typer")

import typer.main  # noqa: E402

from isometrics.cli import app  # noqa: E402

#: (command, option) -> why that command's option differs on purpose from the same name elsewhere.
DIFFERENT_BY_DESIGN = {
    ("evaluate", "--label"): "repeatable: --multilabel takes one 0/1 label column per class",
    ("elicit", "--label"): "optional: elicit's data FILE is optional (questions alone need no data)",
    ("elicit", "--score"): "one optional column: elicit decides on one model, and its FILE is optional",
    ("elicit", "--output"): "optional: the page is one of three ways to run elicit (report's -o is required)",
    ("demo", "--seed"): "seeds the demo's train/test split as well as its bootstrap; 0 by default",
    ("benchmark build", "--metric"): "build shows several responses (repeatable); fit and test model one",
    ("benchmark fit", "--output"): "required: fit's result is what it writes (test prints its own)",
}


def _groups(command, prefix=""):
    """``{group name: [(command name, click command)]}`` for every group of the command tree."""
    out = defaultdict(list)
    for name, sub in command.commands.items():
        if hasattr(sub, "commands"):
            for group, members in _groups(sub, f"{prefix}{name} ").items():
                out[group] += members
        else:
            out[prefix.strip()].append((f"{prefix}{name}", sub))
    return out


def _declaration(param):
    """What a user can tell about an option from ``--help`` and from using it."""
    return {
        "help": param.help,
        "type": param.type_descriptor.annotation,
        "multiple": param.multiple,
        "default": param.default,
        "required": param.required,
        "min": getattr(param, "min", None),
        "max": getattr(param, "max", None),
        "metavar": param.metavar,
        "flags": tuple(sorted(param.opts)),
    }


def _differences(root):
    found = []
    for group, commands in _groups(root).items():
        by_name = defaultdict(list)
        for name, command in commands:
            for param in command.params:
                if param.param_type_name != "option":
                    continue
                long = max(param.opts, key=len)
                if (name, long) not in DIFFERENT_BY_DESIGN:
                    by_name[long].append((name, _declaration(param)))
        for option, uses in by_name.items():
            first_name, first = uses[0]
            for name, declared in uses[1:]:
                for key in first:
                    if declared[key] != first[key]:
                        found.append(f"{option} ({group or 'isometrics'}): {key} of {first_name} and {name} differ")
    return found


def test_an_option_name_means_one_thing_in_every_command():
    root = typer.main.get_command(app.app)
    assert _differences(root) == []


def test_the_check_sees_a_drifted_declaration(monkeypatch):
    """The mutation the check must catch: one command declares --seed with its own help (as compare once did)."""
    root = typer.main.get_command(app.app)
    seed = next(p for p in root.commands["compare"].params if p.name == "seed")
    monkeypatch.setattr(seed, "help", "Seed of the paired bootstrap.")
    assert any(d.startswith("--seed (isometrics): help") for d in _differences(root))


def test_every_exemption_is_still_needed():
    """An exemption whose option now agrees with the same name elsewhere, or is taken by no other command, is stale."""
    root = typer.main.get_command(app.app)
    for commands in _groups(root).values():
        declared = {
            (name, max(p.opts, key=len)): _declaration(p)
            for name, command in commands
            for p in command.params
            if p.param_type_name == "option"
        }
        for command, option in DIFFERENT_BY_DESIGN:
            if not any(name == command for name, _ in commands):
                continue
            others = [d for (name, opt), d in declared.items() if opt == option and name != command]
            assert others, f"{command} {option}: no other command of the group takes it; drop the exemption"
            assert any(d != declared[command, option] for d in others), f"{command} {option} agrees now"


def test_every_command_module_has_the_same_shape():
    """``register(app)`` and nothing else: no error boundary or test seam passed in."""
    for module in app.COMMANDS:
        assert list(inspect.signature(module.register).parameters) == ["app"], module.__name__
    from isometrics.cli import compare, multiclass

    # no library call replaceable through a production signature (tests patch the module instead)
    for function in (compare.compare_file, multiclass.evaluate_multiclass_file):
        assert not {"compare", "read", "evaluate"} & set(inspect.signature(function).parameters), function
