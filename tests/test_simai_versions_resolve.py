"""Which SimAI a commit, a date or a release names (wkparse.models.simai.versions)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import SIMAI_VERSIONS
from wkparse.models.simai.versions import DEFAULT, VERSIONS, UnknownVersion, in_force, resolve


def test_a_date_means_the_last_commit_at_or_before_it() -> None:
    assert resolve("2025-01-16").short == "b83ea3d4"
    assert resolve("2025-02-28").short == "7f06c19c"
    assert in_force("2025-03").short == "4e66932a"


def test_commits_and_releases() -> None:
    assert resolve("cef83f9").commit == DEFAULT.commit
    assert resolve("1.6").short == "f5efb5a9"
    assert resolve("v1.7").short == "632e1469"
    assert resolve("B1C1EB66").release == "1.0"


@pytest.mark.parametrize("rev", ["2024-01-01", "deadbeef", "yesterday", "1.9"])
def test_unknown_revisions_are_refused_with_what_is_accepted(rev: str) -> None:
    with pytest.raises(UnknownVersion, match=rev):
        resolve(rev)


def test_the_table_is_the_built_versions() -> None:
    path = SIMAI_VERSIONS / "versions.json"
    if not path.is_file():
        pytest.skip("no ../shared/simai-versions")
    built = json.loads(path.read_text())
    assert [(b["hash"], b["date"]) for b in built] == [(v.commit, v.date) for v in VERSIONS]
