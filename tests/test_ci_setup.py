"""What `.ci/run` relies on in the test setup itself."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import missing_shared


def test_ci_stops_when_the_shared_corpus_is_missing(tmp_path: Path) -> None:
    assert missing_shared({"CI": "true"}, tmp_path / "corpus") is not None
    assert missing_shared({"CI": "true"}, tmp_path) is None
    assert missing_shared({}, tmp_path / "corpus") is None  # a developer's machine: skips
