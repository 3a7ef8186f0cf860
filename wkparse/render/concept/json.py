"""A concept page, or the list of pages, as JSON: both languages at once, for scripts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wkparse.concepts import ConceptPage, Text
from wkparse.explanation.concept_numbers import Number


def _both(text: Text) -> dict[str, str]:
    return {"en": text.en, "zh": text.zh}


def page_json(
    page: ConceptPage, numbers: Sequence[Number] | None = None, file: str = ""
) -> dict[str, Any]:
    found: dict[str, Any] = {
        "id": page.id,
        "kind": page.kind,
        "title": _both(page.title),
        "names": list(page.names),
        "names_zh": list(page.names_zh),
        "programs": list(page.programs),
        "definition": _both(page.definition),
        "unit": _both(page.unit),
        "default": _both(page.default),
        "formula": page.formula or None,
        "model": page.model or None,
        "switches": list(page.switches),
        "changes": _both(page.changes),
        "docs_say": _both(page.docs_say),
        "related": list(page.related),
        "sources": [
            {"repo": s.repo, "file": s.file, "function": s.function, "commit": s.commit}
            | ({"note": s.note} if s.note else {})
            for s in page.sources
        ],
        "example": None
        if page.example is None
        else {"file": page.example.file, "options": list(page.example.options)},
    }
    if numbers is not None:
        found["file"] = file
        found["numbers"] = [{"label": _both(n.label), "value": _both(n.value)} for n in numbers]
    return found


def list_json(pages: Sequence[ConceptPage]) -> list[dict[str, Any]]:
    return [
        {"id": p.id, "kind": p.kind, "names": list(p.names), "title": _both(p.title)} for p in pages
    ]
