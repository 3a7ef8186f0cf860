"""A rule page's `oracle = [...]` names real runs: each entry is `FOLDER: CASE (what it shows)`,
and CASE is a case of that recording folder under ../shared. A default rule that fires on
unedited generator output is allowed only when its page is oracle-backed
(tests/test_generator_quiet.py), so a misspelled or invented case would let one through."""

from __future__ import annotations

import re
from functools import cache

import pytest

from wkparse.catalog import catalog

from .conftest import SHARED, oracle_results, require

#: the recording folders a page may cite
FOLDERS = (
    "simai-oracle",
    "simai-oracle-2",
    "simai-ns3-oracle",
    "simai-ns3-versions",
    "simai-versions",
)
ENTRY = re.compile(r"(?P<folder>[a-z0-9-]+): (?P<case>[A-Za-z0-9_.+-]+)(?: \(.+\))?")

CITED = [(code, entry) for code, page in sorted(catalog().items()) for entry in page.oracle]


@cache
def cases(folder: str) -> frozenset[str]:
    """The case names a recording folder holds, without a `.txt` ending."""
    require(SHARED / folder / "results.json")
    return frozenset(
        str(run["case"]).removesuffix(".txt") for run in oracle_results(SHARED / folder)
    )


def test_some_pages_are_oracle_backed() -> None:
    assert len(CITED) >= 4


@pytest.mark.parametrize(("code", "entry"), CITED)
def test_oracle_entry_names_a_recorded_case(code: str, entry: str) -> None:
    m = ENTRY.fullmatch(entry)
    assert m, f"{code}: oracle entry is not `FOLDER: CASE (what it shows)`: {entry!r}"
    assert m["folder"] in FOLDERS, f"{code}: unknown recording folder {m['folder']!r}"
    assert m["case"] in cases(m["folder"]), f"{code}: {m['folder']} has no case {m['case']!r}"
