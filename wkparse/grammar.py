"""The Lark parser built from `grammar/workload.lark`, and the fast row matcher derived from it.

The fast path is not a second grammar: it is one regular expression assembled from the `row`
rule's own expansion and terminal patterns, so changing a terminal changes both paths.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wkparse.resources import grammar_file

if TYPE_CHECKING:
    from lark import Lark

START_RULES = ("header", "count", "row")


@functools.cache
def parser() -> Lark:
    from lark import Lark

    return Lark.open(
        str(grammar_file()),
        parser="lalr",
        start=list(START_RULES),
        propagate_positions=True,
        cache=True,
    )


@dataclass(frozen=True, slots=True)
class Slot:
    """One field position of a row: the grammar terminal that must fill it."""

    terminal: str
    pattern: re.Pattern[str]


@dataclass(frozen=True, slots=True)
class RowMatcher:
    #: the slots of the longest `row` expansion (13, with the HYBRID_CUSTOMIZED policy)
    slots: tuple[Slot, ...]
    #: whole-line matchers for rows without and with the 13th field; group i is field i
    plain: re.Pattern[str]
    customized: re.Pattern[str]


def _flatten(symbol: str, rules: dict[str, list[list[tuple[str, bool]]]]) -> list[str]:
    """Inline a rule with a single expansion into its terminals."""
    expansions = rules[symbol]
    if len(expansions) != 1:
        raise ValueError(f"rule {symbol!r} has several expansions; the fast path needs one")
    out: list[str] = []
    for name, is_terminal in expansions[0]:
        out.extend([name] if is_terminal else _flatten(name, rules))
    return out


@functools.cache
def row_matcher() -> RowMatcher:
    lark = parser()
    rules: dict[str, list[list[tuple[str, bool]]]] = {}
    for rule in lark.rules:
        rules.setdefault(rule.origin.name, []).append(
            [(sym.name, sym.is_term) for sym in rule.expansion]
        )
    # `row_policy?` gives `row` two expansions; order them shortest first.
    row_expansions = sorted(rules.pop("row"), key=len)
    flat = []
    for expansion in row_expansions:
        terminals: list[str] = []
        for name, is_terminal in expansion:
            terminals.extend([name] if is_terminal else _flatten(name, rules))
        flat.append(terminals)
    patterns = {t: lark.get_terminal(t).pattern.to_regexp() for t in flat[-1]}
    separator = lark.get_terminal("SEPARATOR").pattern.to_regexp()

    def whole_line(terminals: list[str]) -> re.Pattern[str]:
        body = f"(?:{separator})".join(f"({patterns[t]})" for t in terminals)
        return re.compile(f"(?:{separator})?{body}(?:{separator})?")

    slots = tuple(Slot(t, re.compile(patterns[t])) for t in flat[-1])
    return RowMatcher(slots, whole_line(flat[0]), whole_line(flat[-1]))
