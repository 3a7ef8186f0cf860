"""A triage as Markdown (the comment to post), plain text, or JSON (for bots)."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from wkparse.threads.phrases import counted, pointer, say, topic_word

if TYPE_CHECKING:
    from wkparse.threads.result import Answer, Triage


def markdown(t: Triage) -> str:
    lang = t.language
    if t.scope == "out":
        words = [topic_word(x, lang) for x in t.scope_topics] or ["-"]
        topics = "、".join(words) if lang == "zh" else _listed(words)
        checked = _checked(t) or say("nothing", lang)
        where = pointer(t.scope_topics, lang)
        glue = "" if lang == "zh" or not where else " "
        return say("out", lang, topics=topics, checked=checked) + glue + where + "\n"
    out = _questions(t)
    lead = t.cause or say("cause-none", lang)
    opened = [a.answer for a in t.asked]
    if not _lead_said(t, lead):
        out += [lead, ""]
        opened.append(lead)
    # what the opening already says is not said again as evidence (each fact once)
    answers = [a for a in t.answers if not any(a.answer in said for said in opened)]
    if answers:
        out += [f"**{say('heading-evidence', lang)}**", ""]
    for question, said in _by_question(answers).items():
        out.append(f"- **{question}**")
        for answer, evidence in said.items():
            sources = "; ".join(evidence)
            out.append(f"  - {answer}" + (f" _({sources})_" if sources else ""))
    if t.missing:
        out += ["", f"**{say('heading-missing', lang)}**", ""]
        out += [f"- {m}" for m in t.missing]
    if t.thread.cut:
        out += ["", say("cut", lang)]
    out += ["", say("footer", lang)]
    return "\n".join(out) + "\n"


def _by_question(answers: list[Answer]) -> dict[str, dict[str, list[str]]]:
    """The answers under their questions, each question once (in the order first asked) and
    each answer once, with the evidence of every place it was given: the same check made of
    two lines ("Do the GPU counts agree?") is one section, not two."""
    out: dict[str, dict[str, list[str]]] = {}
    for a in answers:
        evidence = out.setdefault(a.question, {}).setdefault(a.answer, [])
        evidence += [e for e in a.evidence if e and e not in evidence]
    return out


def _questions(t: Triage) -> list[str]:
    """The opening: each question the thread asks, and its answer; a thread whose only
    question is a title that states its topic or its failure gets the answer alone."""
    if not t.asked:
        return []
    only = t.asked[0].question
    if len(t.asked) == 1 and only.line == 0 and not only.text.rstrip().endswith(("?", "\uff1f")):
        a = t.asked[0]
        return [a.answer + _cited(a.evidence), ""]
    out = [f"**{say('heading-questions', t.language)}**", ""]
    for a in t.asked:
        for q in (a.question, *a.also):  # the questions one answer answers, each quoted
            out += [f"> {q.text}", ""]
        out += [a.answer + _cited(a.evidence), ""]
    return out


def _cited(evidence: list[str]) -> str:
    sources = "; ".join(e for e in evidence if e)
    return f" _({sources})_" if sources else ""


def _lead_said(t: Triage, lead: str) -> bool:
    """Whether the opening already gives the lead: the same words, or answers where the lead
    only says that wkparse cannot name the cause or restates what a file means."""
    if any(a.answer == lead for a in t.asked):
        return True
    if not t.asked:
        return False
    from wkparse.threads.phrases import PHRASES

    meaning_lead = PHRASES["cause-answer"][t.language == "zh"].split("{answer}")[0]
    return lead == say("cause-none", t.language) or lead.startswith(meaning_lead)


def text(t: Triage) -> str:
    """The Markdown without its markup, for a terminal."""
    plain = re.sub(r"\*\*|(?<!\w)_|_(?!\w)", "", markdown(t))
    return plain.replace("`", "")


def as_json(t: Triage) -> str:
    return json.dumps(t.public(), ensure_ascii=False, indent=2) + "\n"


def _listed(words: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _checked(t: Triage) -> str:
    counts = t.found.counts()
    sep = "、" if t.language == "zh" else ", "
    return sep.join(counted(k, n, t.language) for k, n in counts.items() if n)


def answered(t: Triage) -> Triage:
    """`t` with the comment to post filled in (its JSON carries it too)."""
    t.markdown = markdown(t)
    return t
