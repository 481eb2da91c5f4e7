"""Commands loaded when invoked: the one place the command line imports a command module on first use.

Every ``isometrics`` process builds the whole application before it parses its arguments, so a
command module imported at start-up is paid for by every command. ``benchmark`` imports the IRT
package, ``scipy.optimize``, ``scipy.stats`` and the benchmark page (about 1.1 s of a 2 s start-up);
:class:`LazyCommands` lets the root group name it without importing it. The mapping holds each
command under its name, in the order ``isometrics --help`` lists them; a name registered lazily
is a module (relative to ``isometrics.cli``) whose ``register(app)`` adds the command, imported
and built through :mod:`importlib` the first time the command is read (invoking it, its
``--help``, the root's ``--help``, a walk of the command tree), then kept. Listing the names
(``list(commands)``, ``in``, ``len``, typo suggestions) imports nothing. The package's own
namespaces are lazy the same way (``_core/lazy.py``, PEP 562).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any

try:
    import typer
except ImportError:  # pragma: no cover - depends on the environment
    typer = None  # type: ignore[assignment]

__all__ = ["LazyCommands", "load_command"]


def load_command(name: str, module: str) -> Any:
    """The Click command ``name`` that ``module``'s ``register(app)`` adds, built as ``app`` would build it.

    Parameters
    ----------
    name : str
        The command's name on the command line (``"benchmark"``).
    module : str
        The module that registers it, relative to ``isometrics.cli`` (``".benchmark"``).

    Returns
    -------
    click.Command
        The command (a group, for a Typer app added with ``add_typer``), with the options, help and
        class it has when ``register`` adds it to the root application directly.

    Raises
    ------
    ImportError
        When the module or one of its dependencies is missing (the caller reports an optional one
        in one line: ``cli/__init__.py``).
    KeyError
        When ``register`` adds no command called ``name``.
    """
    holder = typer.Typer(add_completion=False)
    importlib.import_module(module, __package__).register(holder)
    return typer.main.get_command(holder).commands[name]  # type: ignore[attr-defined]


class LazyCommands(MutableMapping[str, Any]):
    """The commands of a Click group, some of them imported only when read.

    Parameters
    ----------
    commands : mapping of str to click.Command
        The commands built already, in their order.
    lazy : mapping of str to str
        Commands to add after them: each name and the module (relative to ``isometrics.cli``) whose
        ``register(app)`` adds it; imported by :func:`load_command` on first read.
    """

    def __init__(self, commands: Mapping[str, Any], lazy: Mapping[str, str]) -> None:
        self._commands: dict[str, Any] = dict(commands)
        self._lazy = {name: module for name, module in lazy.items() if name not in self._commands}
        self._commands.update(dict.fromkeys(self._lazy))  # the place of each in the order; None until read

    def __getitem__(self, name: str) -> Any:
        command = self._commands[name]
        if command is None and name in self._lazy:
            command = self._commands[name] = load_command(name, self._lazy.pop(name))
        return command

    def __setitem__(self, name: str, command: Any) -> None:
        self._lazy.pop(name, None)
        self._commands[name] = command

    def __delitem__(self, name: str) -> None:
        self._lazy.pop(name, None)
        del self._commands[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._commands)

    def __len__(self) -> int:
        return len(self._commands)

    def __contains__(self, name: object) -> bool:
        return name in self._commands
