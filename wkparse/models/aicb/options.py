"""The generators' command-line parsing, by the rules of Python's argparse that AICB uses.

AICB's generators parse with argparse, so a command means what argparse makes of it: `--opt v`
and `--opt=v`, any unambiguous prefix of a long option (`--n_dense_layer=3` sets
`--n_dense_layers`), the last repeat wins, values converted with Python's `int()`, a value that
looks like an option is refused unless it is a negative number, and everything not understood
is reported together at the end ("unrecognized arguments"). The error messages are argparse's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from wkparse.i18n import _
from wkparse.models.aicb.errors import AicbError

Kind = Literal["int", "str", "flag"]

_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a generator's parser.

    `effect` says what it does to the written file: empty when the model applies it; otherwise
    the sentence `wkparse aicb` shows when the option is given (it has no effect on the file).
    """

    flag: str
    kind: Kind
    default: object = None
    choices: tuple[object, ...] | None = None
    effect: str = ""
    #: a flag whose default is already True (argparse's store_true with default=True)
    flag_default: bool = False
    #: for a modelled option, what to know about how (shown by `wkparse aicb --options`)
    note: str = ""

    def status(self) -> str:
        """One line for the option list: modelled (and how), or why it changes nothing."""
        if self.effect:
            return f"no effect on the file ({self.effect})"
        if self.note.startswith("refused"):
            return self.note
        return f"modelled: {self.note}" if self.note else "modelled"

    @property
    def dest(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")


@dataclass(slots=True)
class Parsed:
    """The values after parsing: every option's value (defaults included) and what was given."""

    values: dict[str, object]
    given: list[str] = field(default_factory=list)
    positionals: list[str] = field(default_factory=list)

    def integer(self, dest: str) -> int:
        """An int option's value (argparse converted it; its default is an int too)."""
        value = self.values[dest]
        assert isinstance(value, int)
        return value

    def idle(self, options: Sequence[Option]) -> list[tuple[str, str]]:
        """(dest, note) for every given option that does not change the file."""
        by_flag = {o.flag: o for o in options}
        given = {by_flag[f] for f in self.given if f in by_flag and by_flag[f].effect}
        return sorted((o.dest, o.flag + ": " + _(o.effect)) for o in given)


def _looks_like_option(token: str) -> bool:
    return token.startswith("-") and token != "-" and not _NEGATIVE_NUMBER.match(token)


def _match(name: str, table: Mapping[str, Option]) -> Option | None:
    """The option `name` denotes: exact, or the one long option it is a prefix of."""
    if name in table:
        return table[name]
    if not name.startswith("--"):
        return None
    found = [flag for flag in table if flag.startswith(name)]
    if len(found) > 1:
        choices = ", ".join(found)
        raise AicbError(f"ambiguous option: {name} could match {choices}")
    return table[found[0]] if found else None


def _convert(option: Option, raw: str) -> object:
    value: object = raw
    if option.kind == "int":
        try:
            value = int(raw)
        except ValueError:
            raise AicbError(f"argument {option.flag}: invalid int value: {raw!r}") from None
    if option.choices is not None and value not in option.choices:
        allowed = ", ".join(repr(c) for c in option.choices)
        raise AicbError(
            f"argument {option.flag}: invalid choice: {value!r} (choose from {allowed})"
        )
    return value


def parse(argv: Sequence[str], options: Sequence[Option], positionals: int = 0) -> Parsed:
    """Parse `argv` as argparse would with these options and up to `positionals` positionals.

    Positionals are taken from the first run of non-option words only (argparse fills an
    optional positional with nothing once options have started), later ones are unrecognized.
    `-h`/`--help` and every error raise AicbError.
    """
    table = {o.flag: o for o in options}
    table.setdefault("--help", Option("--help", "flag"))
    table.setdefault("-h", Option("-h", "flag"))
    parsed = Parsed({o.dest: (o.flag_default or o.default) for o in options})
    unknown: list[str] = []
    positional_run_over = False
    i = 0
    while i < len(argv):
        token = argv[i]
        i += 1
        if token == "--":
            rest = list(argv[i:])
            room = 0 if positional_run_over else positionals - len(parsed.positionals)
            parsed.positionals += rest[:room]
            unknown += rest[room:]
            break
        if not _looks_like_option(token):
            if positional_run_over or len(parsed.positionals) >= positionals:
                unknown.append(token)
            else:
                parsed.positionals.append(token)
            continue
        if parsed.positionals:
            positional_run_over = True
        name, eq, inline = token.partition("=") if token.startswith("--") else (token, "", "")
        option = _match(name, table)
        if option is None:
            unknown.append(token)
            continue
        if option.flag in ("-h", "--help"):
            raise AicbError(f"{token} prints the generator's help and writes no file")
        if option.kind == "flag":
            if eq:
                raise AicbError(f"argument {option.flag}: ignored explicit argument {inline!r}")
            parsed.values[option.dest] = True
        else:
            if eq:
                raw = inline
            elif i < len(argv) and not _looks_like_option(argv[i]):
                raw = argv[i]
                i += 1
            else:
                raise AicbError(f"argument {option.flag}: expected one argument")
            parsed.values[option.dest] = _convert(option, raw)
        parsed.given.append(option.flag)
    if unknown:
        raise AicbError(f"unrecognized arguments: {' '.join(unknown)}")
    return parsed
