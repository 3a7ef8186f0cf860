"""What a triage concludes: the answers, findings and predictions, and the whole result
(`--format json` renders `Triage.public()`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from wkparse.threads.artefacts import Artefact, Found
from wkparse.threads.models import Prediction
from wkparse.threads.questions import Question
from wkparse.threads.reading import Thread

if TYPE_CHECKING:
    from wkparse.models.simai.versions import SimaiVersion


@dataclass
class Answer:
    question: str
    answer: str
    evidence: list[str]
    #: the topic of `threads.meaning` it answers (a paragraph raised by the thread's words),
    #: which opens the answer to a question only where the question asks what it answers
    topic: str = ""

    def public(self) -> dict[str, object]:
        return {"question": self.question, "answer": self.answer, "evidence": self.evidence}


@dataclass
class Asked:
    """One question and the answer the comment opens with."""

    question: Question
    answer: str
    evidence: list[str] = field(default_factory=list)
    #: whether wkparse answers it (False: the answer says it has none)
    answered: bool = True
    #: the thread's later questions this same answer answers (quoted with this one, so that
    #: no question is lost and no answer is pointed at twice)
    also: list[Question] = field(default_factory=list)

    def public(self) -> dict[str, object]:
        return {
            **self.question.public(),
            "answer": self.answer,
            "evidence": self.evidence,
            "answered": self.answered,
            "also": [q.public() for q in self.also],
        }


@dataclass
class Finding:
    code: str
    severity: str
    message: str
    #: the artefact it belongs to and the thread line it points at
    kind: str
    line: int | None
    source: str
    #: the SimAI lint spoke for: the user's, or the current one (what an update adds)
    simai: str = ""

    def public(self) -> dict[str, object]:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "artefact": {"kind": self.kind, "line": self.line},
            "source": self.source,
            "simai": self.simai,
            "page": f"rules/{self.code}.toml",
        }


@dataclass
class Triage:
    """What `wkparse triage` found and concluded; `markdown` is the comment to post."""

    language: str
    scope: str
    thread: Thread
    found: Found
    versions: dict[str, object] = field(default_factory=dict)
    #: the modelled SimAI the models run at (`versions["simai"]["model"]` names it)
    simai: SimaiVersion | None = None
    findings: list[Finding] = field(default_factory=list)
    predictions: list[Prediction] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    cause: str = ""
    scope_topics: list[str] = field(default_factory=list)
    #: the first file's PP, ga and vpp as its header gives them: the numbers an answer from
    #: the catalog works out for the user's own file (the bubble's factor)
    pipeline_sizes: dict[str, int] = field(default_factory=dict)
    #: the thread's questions, each with the answer the comment opens with
    asked: list[Asked] = field(default_factory=list)
    #: the user's numbers under a page that answers a question (page id -> them), from
    #: `threads.particulars`
    particular: dict[str, Answer] = field(default_factory=dict)
    #: the comment to post, filled in once the triage is done
    #: (`wkparse.render.triage.answer.answered`)
    markdown: str = ""

    @property
    def artefacts(self) -> list[Artefact]:
        return self.found.artefacts

    def public(self) -> dict[str, object]:
        return {
            "language": self.language,
            "artefacts": [a.public() for a in self.artefacts],
            "versions": self.versions,
            "findings": [f.public() for f in self.findings],
            "predictions": [p.public() for p in self.predictions],
            "questions": [q.public() for q in self.asked],
            "answers": [a.public() for a in self.answers],
            "missing": self.missing,
            "scope": self.scope,
            "markdown": self.markdown,
        }
