"""One rule, one module, one name: every registered rule, those added later included, lives in
`wkparse/checks/<area>/<name>.py` with a function `<name>`, both its catalog page's `name`
(dashes as underscores) in the page's `area`; each code leads to exactly one module, and
modules beside the rules (an area's shared helpers) register no rule.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import wkparse.checks.all  # noqa: F401  (registers every check)
from wkparse import checks, syntax
from wkparse.catalog import RulePage, catalog

PAGES = catalog()
CHECKS = Path(checks.__file__).parent


def _snake(page: RulePage) -> str:
    return page.name.replace("-", "_")


def _where(page: RulePage) -> str:
    """Where lint imports the rule from (`wkparse.checks.load`) when it runs it."""
    return checks.rule_module(page.area, page.name)


def _registered(code: str) -> list[checks.Registered]:
    return [r for r in checks.REGISTRY if code in r.codes]


def test_every_registration_reports_one_code_with_a_page() -> None:
    many = [sorted(r.codes) for r in checks.REGISTRY if len(r.codes) != 1]
    assert not many, f"one rule per function: {many}"
    pageless = sorted({c for r in checks.REGISTRY for c in r.codes} - set(PAGES))
    assert not pageless, f"registered codes without a page: {pageless}"


@pytest.mark.parametrize("code", sorted(PAGES))
def test_code_leads_to_one_module_named_like_its_page(code: str) -> None:
    page = PAGES[code]
    found = _registered(code)
    assert len(found) == 1, f"{code} is registered {len(found)} times: {found}"
    fn = found[0].function
    assert fn.__name__ == _snake(page), f"{code}: function {fn.__name__}, page {page.name}"
    assert fn.__module__ == _where(page), f"{code}: module {fn.__module__}, not {_where(page)}"
    module = importlib.import_module(fn.__module__)
    assert module.__file__ is not None
    path = Path(module.__file__)
    assert path == CHECKS / page.area / f"{_snake(page)}.py"
    assert (module.__doc__ or "").startswith(f"{code} {page.name}:"), (
        f"{path.name}'s docstring should start with `{code} {page.name}:`"
    )


def test_every_parser_code_is_registered_like_any_rule() -> None:
    parser_codes = {
        v for k, v in vars(syntax).items() if k.isupper() and isinstance(v, str) and v[:2] == "WK"
    }
    assert parser_codes
    assert not parser_codes - {c for r in checks.REGISTRY for c in r.codes}
    assert parser_codes == syntax.PARSER_CODES


@pytest.mark.parametrize("code", sorted(syntax.PARSER_CODES))
def test_a_parser_code_rule_hands_on_what_the_parser_found_and_nothing_else(code: str) -> None:
    """What lets lint skip loading it for a file where the parser found none of its code."""
    from wkparse.ast import Span
    from wkparse.diagnostics import Diagnostic
    from wkparse.parse import parse_text

    workload = parse_text("MICRO\n0\n").workload
    (registered,) = _registered(code)
    found = [
        Diagnostic(code, "found", Span.on_line(2, 1, 2)),
        Diagnostic(code, "again", Span.on_line(3, 1, 2)),
    ]
    for parsed in ([], found, [Diagnostic("WK105", "other", Span.on_line(1, 1, 2))]):
        ctx = checks.Context(workload, "w.txt", parsed=parsed)
        assert list(registered.function(ctx)) == [d for d in parsed if d.code == code]  # type: ignore[arg-type, call-arg]


def test_modules_beside_the_rules_register_none_and_are_not_named_like_a_rule() -> None:
    rule_modules = {_where(p) for p in PAGES.values()}
    names = {_snake(p) for p in PAGES.values()}
    registering = {r.function.__module__ for r in checks.REGISTRY}
    for info in pkgutil.walk_packages([str(CHECKS)], "wkparse.checks."):
        if info.ispkg or info.name in rule_modules:
            continue
        assert info.name not in registering, f"{info.name} registers a rule but no page names it"
        leaf = info.name.rsplit(".", 1)[1]
        assert leaf not in names, f"{info.name} is named like a rule of another area"
