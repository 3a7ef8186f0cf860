"""The Lark parser built from `grammar/workload.lark`, and the fast matchers derived from it.

The fast path is not a second grammar: its regular expressions are assembled from the `row`,
`header` and `count` rules' own expansions and terminal patterns, so changing a terminal
changes both paths. The derivation needs Lark, whose import costs more than parsing a small
file, so it is also stored beside the grammar (`workload.fast.json`, written by
`python -c "from wkparse.grammar import write_fast_path; write_fast_path()"`) together with
the grammar text it was derived from; it is used only while that text is the grammar's, and
derived again from Lark otherwise (so a stale copy costs time, never correctness).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wkparse.record import record
from wkparse.resources import grammar_file

if TYPE_CHECKING:
    from lark import Lark

START_RULES = ("header", "count", "row")
#: bump when the stored derivation changes shape
_FORMAT = 1


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


@record
class Slot:
    """One field position of a row: the grammar terminal that must fill it."""

    terminal: str
    pattern: re.Pattern[str]


@record
class RowMatcher:
    """Each field position of a row, for naming what is wrong with a line that does not
    match its whole-line matcher (`row_line`)."""

    #: the slots of the longest `row` expansion (13, with the HYBRID_CUSTOMIZED policy)
    slots: tuple[Slot, ...]


@record
class HeaderMatcher:
    """Line 1 and line 2 without Lark: which terminal each token is, in Lark's own order.

    Lark's contextual lexer tries the terminals a state accepts by priority and takes the
    first that matches; every header terminal matches whole tokens only, so a token is the
    first of `kinds` whose pattern matches it entirely.
    """

    #: one token: a run of characters that are not separators
    token: re.Pattern[str]
    policy: re.Pattern[str]
    #: (pattern, what a token of that terminal is: "value" or the header item's tree alias)
    kinds: tuple[tuple[re.Pattern[str], str], ...]
    #: the count line's one token
    count: re.Pattern[str]


def _flatten(symbol: str, rules: dict[str, list[list[tuple[str, bool]]]]) -> list[str]:
    """Inline a rule with a single expansion into its terminals."""
    expansions = rules[symbol]
    if len(expansions) != 1:
        raise ValueError(f"rule {symbol!r} has several expansions; the fast path needs one")
    out: list[str] = []
    for name, is_terminal in expansions[0]:
        out.extend([name] if is_terminal else _flatten(name, rules))
    return out


def derive(lark: Lark) -> dict[str, Any]:
    """The fast path's recipe, as plain data: terminal patterns and the rules' layout."""
    rules: dict[str, list[list[tuple[str, bool]]]] = {}
    aliases: dict[str, list[tuple[str, str | None]]] = {}
    for rule in lark.rules:
        expansion = [(sym.name, sym.is_term) for sym in rule.expansion]
        rules.setdefault(rule.origin.name, []).append(expansion)
        if expansion and expansion[0][1]:
            alias = str(rule.alias) if rule.alias is not None else None
            aliases.setdefault(rule.origin.name, []).append((expansion[0][0], alias))
    # `row_policy?` gives `row` two expansions; order them shortest first.
    rows = []
    for expansion in sorted(rules["row"], key=len):
        terminals: list[str] = []
        for name, is_terminal in expansion:
            terminals.extend([name] if is_terminal else _flatten(name, rules))
        rows.append(terminals)
    terminals_used = {t for r in rows for t in r}
    header = _derive_header(rules, aliases, lark)
    count = _flatten("count", rules)
    if header is not None:
        terminals_used |= {header["policy"], *(t for t, _ in header["kinds"])}
    terminals_used |= set(count)
    return {
        "format": _FORMAT,
        "separator": lark.get_terminal("SEPARATOR").pattern.to_regexp(),
        "patterns": {t: lark.get_terminal(t).pattern.to_regexp() for t in sorted(terminals_used)},
        "rows": rows,
        "header": header,
        "count": count[0] if len(count) == 1 else None,
    }


def _derive_header(
    rules: dict[str, list[list[tuple[str, bool]]]],
    aliases: dict[str, list[tuple[str, str | None]]],
    lark: Lark,
) -> dict[str, Any] | None:
    """`header: POLICY leading_value* header_item*` as token kinds; None if it is not so built.

    A token is a value when its terminal makes up `value`/`leading_value`, else it starts the
    header item whose expansion begins with its terminal (the tree alias says which).
    """
    firsts = {(e[0] if e else ("", False)) for e in rules["header"]}
    if len(firsts) != 1 or not next(iter(firsts))[1]:
        return None  # every expansion must open with the same terminal, the policy
    policy = next(iter(firsts))[0]
    kinds: dict[str, str] = {}
    for rule in ("value", "leading_value"):
        for expansion in rules.get(rule, []):
            if len(expansion) != 1 or not expansion[0][1]:
                return None
            kinds[expansion[0][0]] = "value"
    for terminal, alias in aliases.get("header_item", []):
        if alias is None or kinds.setdefault(terminal, alias) != alias:
            return None
    priority = {t: lark.get_terminal(t).priority for t in kinds}
    if len(set(priority.values())) != len(priority):
        return None  # equal priorities: Lark's order between them is not ours to guess
    ordered = sorted(kinds, key=lambda t: -priority[t])
    return {"policy": policy, "kinds": [[t, kinds[t]] for t in ordered]}


def stored_path() -> Path:
    return grammar_file().with_name("workload.fast.json")


def write_fast_path() -> Path:
    """Store the derivation beside the grammar; run after editing the grammar."""
    path = stored_path()
    recipe = {"grammar": grammar_file().read_text(encoding="utf-8"), **derive(parser())}
    path.write_text(json.dumps(recipe, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


@functools.cache
def recipe() -> dict[str, Any]:
    """The stored derivation when it belongs to this grammar, else a fresh one from Lark."""
    try:
        stored = json.loads(stored_path().read_text(encoding="utf-8"))
        grammar = grammar_file().read_text(encoding="utf-8")
        if stored.get("grammar") == grammar and stored.get("format") == _FORMAT:
            return dict(stored)
    except (OSError, ValueError):
        pass
    return derive(parser())


@functools.cache
def row_matcher() -> RowMatcher:
    spec = recipe()
    patterns: dict[str, str] = spec["patterns"]
    rows: list[list[str]] = spec["rows"]
    return RowMatcher(tuple(Slot(t, re.compile(patterns[t])) for t in rows[-1]))


@functools.cache
def row_line(customized: bool) -> re.Pattern[str]:
    """The whole-line matcher of a row without the 13th field (with it under the
    HYBRID_CUSTOMIZED policy); group i is field i. Each is compiled when a file first needs
    it: a regular expression of 12 fields takes longer to compile than a small file to lint."""
    spec = recipe()
    patterns: dict[str, str] = spec["patterns"]
    separator = spec["separator"]
    rows: list[list[str]] = spec["rows"]
    terminals = rows[-1] if customized else rows[0]
    body = f"(?:{separator})".join(f"({patterns[t]})" for t in terminals)
    return re.compile(f"(?:{separator})?{body}(?:{separator})?")


@functools.cache
def header_matcher() -> HeaderMatcher | None:
    """None when the grammar's header or count rule is not built the way the fast path reads."""
    spec = recipe()
    header: dict[str, Any] | None = spec["header"]
    if header is None or spec["count"] is None:
        return None
    patterns: dict[str, str] = spec["patterns"]
    return HeaderMatcher(
        re.compile(f"(?:(?!{spec['separator']}).)+"),
        re.compile(patterns[header["policy"]]),
        tuple((re.compile(patterns[t]), kind) for t, kind in header["kinds"]),
        re.compile(patterns[spec["count"]]),
    )
