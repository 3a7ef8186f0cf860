"""The rule catalog is the rules' test data: every page's examples run here.

A `[[fail]]` example must trigger its page's code and no other code except parser codes the
page's text is about; a `[[pass]]` example must trigger nothing at all. Registered codes and
catalog pages must match one to one.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import wkparse.checks.all  # noqa: F401  (registers every check)
from wkparse import checks
from wkparse.catalog import Example, catalog
from wkparse.config import Config
from wkparse.engine import lint
from wkparse.parse import Limits, ParseResult, parse_bytes

PAGES = catalog()
#: every rule, the opt-in ones included: each page's examples show its own rule at work
ALL = Config(opt_in=True)
#: Pages whose examples cannot be small files as they stand (each page's notes say so): the
#: size-limit pages run under tiny limits. (Examples in another encoding say so themselves.)
LIMITS = {"WK116": Limits(max_line_bytes=64), "WK118": Limits(max_bytes=64)}


def _parse(code: str, example: Example) -> ParseResult:
    return parse_bytes(example.data, limits=LIMITS.get(code))


def _cases(kind: str) -> list[object]:
    return [
        pytest.param(page.code, example, id=f"{page.code}-{kind}{i}")
        for page in PAGES.values()
        for i, example in enumerate(page.fail if kind == "fail" else page.passing)
    ]


#: WK9xx read AICB's own, correct output against the training it describes, and most other
#: pages' examples are AICB's output: those run without WK9xx (their own pages show them).
#: Many pages' examples are the smallest file there is, a `MICRO` one, which SimAI-Analytical
#: never runs (WK704, shown on its own page): those run without WK704 too.
_WITHOUT_GENERATOR_DEFECTS = replace(ALL, forced_ignore=("WK9", "WK704"))


def config_for(code: str, example: Example) -> Config:
    """Every rule, for the page's target (SimAI unless the rule speaks only for others), and
    without WK9xx except on their own pages."""
    base = ALL if code.startswith("WK9") or code == "WK704" else _WITHOUT_GENERATOR_DEFECTS
    targets = PAGES[code].targets
    target = "simai" if "simai" in targets else targets[0]
    config = base.with_aicb_command(example.aicb_command).with_target(target)
    return config.with_simai(example.simai)


@pytest.mark.parametrize(("code", "example"), _cases("fail"))
def test_fail_example_triggers_exactly_its_rule(code: str, example: Example) -> None:
    result = _parse(code, example)
    codes = {d.code for d in lint(result, example.filename, config_for(code, example))}
    assert codes == {code}, f"{code} fail example gave {sorted(codes)}"


@pytest.mark.parametrize(("code", "example"), _cases("pass"))
def test_pass_example_triggers_nothing(code: str, example: Example) -> None:
    found = lint(_parse(code, example), example.filename, config_for(code, example))
    assert not found, f"{code} pass example gave {[(d.code, d.message) for d in found]}"


def test_every_page_has_a_failing_and_a_passing_example() -> None:
    lacking = [p.code for p in PAGES.values() if not p.fail or not p.passing]
    assert not lacking


def test_registered_codes_and_pages_match_one_to_one() -> None:
    registered = set().union(*(r.codes for r in checks.REGISTRY))  # the parser's too
    assert registered == set(PAGES), (
        f"without page: {sorted(registered - set(PAGES))}; "
        f"without check: {sorted(set(PAGES) - registered)}"
    )
