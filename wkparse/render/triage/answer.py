"""A triage as Markdown (the comment to post), plain text, or JSON (for bots)."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from wkparse.threads.phrases import counted, pointer, say, topic_word

if TYPE_CHECKING:
    from wkparse.threads.result import Triage


def markdown(t: Triage) -> str:
    lang = t.language
    if t.scope == "out":
        words = [topic_word(x, lang) for x in t.scope_topics] or ["-"]
        topics = "、".join(words) if lang == "zh" else _listed(words)
        checked = _checked(t) or say("nothing", lang)
        where = pointer(t.scope_topics, lang)
        glue = "" if lang == "zh" or not where else " "
        return say("out", lang, topics=topics, checked=checked) + glue + where + "\n"
    out = [t.cause or say("cause-none", lang), "", f"**{say('heading-evidence', lang)}**", ""]
    last_q = None
    for a in t.answers:
        if a.question != last_q:
            out.append(f"- **{a.question}**")
            last_q = a.question
        sources = "; ".join(e for e in a.evidence if e)
        out.append(f"  - {a.answer}" + (f" _({sources})_" if sources else ""))
    if t.missing:
        out += ["", f"**{say('heading-missing', lang)}**", ""]
        out += [f"- {m}" for m in t.missing]
    if t.thread.cut:
        out += ["", say("cut", lang)]
    out += ["", say("footer", lang)]
    return "\n".join(out) + "\n"


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
