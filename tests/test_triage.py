"""`wkparse triage` on the real threads of ../shared/triage: what each case's expected.json
says a correct triage finds (artefacts kind by kind, language, scope, findings, and the
outcome and exit SimAI cef83f9 gives), checked case by case."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import TRIAGE
from wkparse import triage
from wkparse.threads import Triage


def _cases() -> list[object]:
    if not TRIAGE.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason="no ../shared/triage"))]
    return [
        pytest.param(p, id=p.name) for p in sorted(TRIAGE.iterdir()) if (p / "issue.md").is_file()
    ]


CASES = _cases()


@cache
def _run(case: Path) -> tuple[Triage, dict[str, object]]:
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    folder = case / "attachments"
    result = triage(
        (case / "issue.md").read_bytes(), attachments=folder if folder.is_dir() else None
    )
    return result, expected


@pytest.mark.parametrize("case", CASES)
def test_artefacts_kind_by_kind(case: Path) -> None:
    result, expected = _run(case)
    counts = result.found.counts()
    wanted = expected["artefacts"]
    assert isinstance(wanted, dict)
    assert {k: counts[k] for k in wanted} == wanted


@pytest.mark.parametrize("case", CASES)
def test_language(case: Path) -> None:
    result, expected = _run(case)
    assert result.language == expected["language"]


@pytest.mark.parametrize("case", CASES)
def test_language_without_front_matter(case: Path) -> None:
    """The language comes from the prose too, not only from the front matter's `language`."""
    _result, expected = _run(case)
    text = (case / "issue.md").read_text(encoding="utf-8")
    stripped = "\n".join(line for line in text.splitlines() if not line.startswith("language:"))
    assert triage(stripped).language == expected["language"]


@pytest.mark.parametrize("case", CASES)
def test_scope(case: Path) -> None:
    result, expected = _run(case)
    assert result.scope == expected["scope"]
    if result.scope == "out":
        # one short line, saying what was checked
        assert result.markdown.count("\n") == 1
        assert not result.predictions and not result.findings


@pytest.mark.parametrize("case", CASES)
def test_findings(case: Path) -> None:
    result, expected = _run(case)
    codes = {f.code for f in result.findings}
    wanted = expected["findings"]
    assert isinstance(wanted, list)
    assert set(wanted) <= codes
    kinds = {a.kind for a in result.artefacts} | {"attachment"}
    for f in result.findings:
        assert f.kind in kinds and f.code.startswith("WK")


@pytest.mark.parametrize("case", CASES)
def test_predictions_where_simai_is_cef83f9(case: Path) -> None:
    result, expected = _run(case)
    predictions = expected["predictions"]
    assert isinstance(predictions, list)
    for want in predictions:
        if not str(want["simai"]).startswith("cef83f9"):
            continue  # another SimAI: the SimAI-versions issue models it
        ours = [p for p in result.predictions if p.backend == want["backend"]]
        assert ours, f"no {want['backend']} prediction"
        assert (ours[0].outcome, ours[0].exit) == (want["outcome"], want["exit"])
        assert ours[0].simai.startswith("cef83f9")


@pytest.mark.parametrize("case", CASES)
def test_json_has_the_fields_bots_read(case: Path) -> None:
    result, _expected = _run(case)
    public = result.public()
    assert list(public) == [
        "language",
        "artefacts",
        "versions",
        "findings",
        "predictions",
        "answers",
        "missing",
        "scope",
        "markdown",
    ]
    json.dumps(public, ensure_ascii=False)
    for a in public["artefacts"]:  # type: ignore[union-attr]
        assert set(a) == {"kind", "line", "text"}
    for p in public["predictions"]:  # type: ignore[union-attr]
        assert set(p) == {"backend", "outcome", "exit", "where", "simai"}
    for a in public["answers"]:  # type: ignore[union-attr]
        assert set(a) == {"question", "answer", "evidence"} and a["evidence"]


@pytest.mark.parametrize("case", CASES)
def test_answer_speaks_the_issue_language(case: Path) -> None:
    result, expected = _run(case)
    cjk = sum("\u4e00" <= ch <= "\u9fff" for ch in result.markdown)
    if expected["language"] == "zh":
        assert cjk > 10
    else:
        # English answers quote no Chinese of their own (the user's text may be quoted)
        assert cjk == 0 or any(
            "\u4e00" <= ch <= "\u9fff" for a in result.artefacts for ch in a.text
        )


@pytest.mark.parametrize("case", CASES)
def test_artefact_lines_point_at_the_text(case: Path) -> None:
    result, _expected = _run(case)
    lines = (case / "issue.md").read_text(encoding="utf-8").split("\n")
    for a in result.artefacts:
        if a.line == 0:
            continue  # the title
        first = a.text.split()[0] if a.text.split() else ""
        assert first[:12] in lines[a.line - 1] or a.kind in ("topology", "log", "file-name")
