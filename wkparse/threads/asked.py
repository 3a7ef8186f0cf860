"""An answer to each question the thread asks, in turn: from the concept catalog for what a
name means, from the models' conclusion for the cause of what the user saw, from the answers
the models gave on the question's own line; else a plain "wkparse has no answer to this",
with what would settle it. Nothing here is written for one thread: each answer is taken
from a page, a model or a line."""

from __future__ import annotations

import re

from wkparse.threads.evidence import page as _cite
from wkparse.threads.phrases import PHRASES, gap, say
from wkparse.threads.questions import Question
from wkparse.threads.result import Answer, Asked, Triage

#: how an answer on what AICB's script hands its generator for an option is asked
_PASSED = tuple(p.split("`")[0] for p in PHRASES["q-option-passed"])
#: a sentence closed twice: a question mark, then the period the phrase adds
_QUESTION_END = re.compile(r"([?\uff1f])[.\u3002]$")


def answer_all(t: Triage, questions: list[Question]) -> list[Asked]:
    out: list[Asked] = []
    cause_used = False
    pages_used: set[str] = set()
    paged: tuple[Question, str] | None = None  # the last question a page answered, and it
    for q in questions:
        a = _answer(t, q, cause_used, pages_used)
        if not _pages_asked(q):  # a page that answers the question is not given way
            a = _naming_what_is_asked(t, q, a)
        if a is not None and not a.answered and paged and _follows(q, paged[0]):
            # "... measured on which GPU? How was it obtained?": the page just given
            a = Asked(q, say("asked-above", t.language, id=paged[1]), [_cite(paged[1], t.language)])
        asked = _pages_asked(q)
        paged = (q, asked[0]) if asked else paged
        if a is not None and a.answered and q.kind in ("cause", "topic") and is_cause(t):
            cause_used = True
        if a is not None:
            # every question stays listed: one whose answer an earlier question got says that
            # the models have nothing more (not that the earlier answer answers it)
            same = [b for b in out if a.answered and b.answered and b.answer == a.answer]
            if same:
                a = Asked(q, say("asked-same", t.language), list(same[0].evidence), False)
            out.append(a)
    # a title read as a question is kept only where it adds an answer to the body's
    if any(a.answered for a in out):
        out = [a for a in out if a.answered or not _title_read_as_question(a.question)]
    return _collapsed(_body_before_title(out, t.language), t.language)


def _collapsed(out: list[Asked], lang: str) -> list[Asked]:
    """Each question an earlier answer answers ("the answer above answers this too") quoted
    with the question of that answer, under it: one list of questions sharing one answer,
    not one pointer per question; a pointer whose page no earlier answer cites stays."""
    kept: list[Asked] = []
    for a in out:
        page = a.evidence[0] if len(a.evidence) == 1 else ""
        given = [b for b in kept if page in b.evidence and not _points(b, lang)]
        if page and _points(a, lang) and given:
            given[0].also.extend([a.question, *a.also])
        else:
            kept.append(a)
    return kept


def _points(a: Asked, lang: str) -> bool:
    """Whether the answer only points at an earlier one."""
    from wkparse.threads.phrases import PHRASES

    head, _, tail = PHRASES["asked-above"][lang == "zh"].partition("{id}")
    return a.answer.startswith(head) and a.answer.endswith(tail)


def _body_before_title(out: list[Asked], lang: str) -> list[Asked]:
    """A body question that the title's answer answers ("the answer above answers this
    too"), where the title is read as a question only for want of a "?", takes that answer
    in its place: the user asked it in the body."""
    if len(out) < 2 or not _title_read_as_question(out[0].question):
        return out
    title = out[0]
    above = {say("asked-above", lang, id=i) for i in title.question.concepts}
    for i, a in enumerate(out[1:], start=1):
        if a.answer in above:
            out[i] = Asked(a.question, title.answer, title.evidence, title.answered)
            return out[1:]
    return out


#: a question's own words, without what only asks ("how", "是怎么", marks)
_ASKING_WORDS = re.compile(
    r"(?i)\b(?:how|what|why|was|were|is|are|it|this|that|they|them|do|does|did|get|got|"
    r"obtained|made|come|from|then|and|so)\b|是|怎么|怎样|如何|得到|来的|的|吗|呢|那|它|这|又|[\W_]"
)


def _follows(q: Question, before: Question) -> bool:
    """Whether `q` only follows up the question before it on the same line ("How was it
    obtained?", "是怎么得到的"): nothing of its own is left once its asking words go."""
    return q.line == before.line and not q.concepts and not _ASKING_WORDS.sub("", q.text)


def _title_read_as_question(q: Question) -> bool:
    return q.line == 0 and not q.text.rstrip().endswith(("?", "\uff1f"))


def is_cause(t: Triage) -> bool:
    """Whether the models name a cause (not "cannot name it", not a meaning's lead)."""
    from wkparse.threads.phrases import PHRASES

    lead = PHRASES["cause-answer"][t.language == "zh"].split("{answer}")[0]
    return (
        bool(t.cause)
        and t.cause != say("cause-none", t.language)
        and not (t.cause.startswith(lead))
    )


def _answer(t: Triage, q: Question, cause_used: bool, pages_used: set[str]) -> Asked | None:
    lang = t.language
    if not q.concepts and q.refers_to and set(q.refers_to) <= pages_used:
        # "this confuses me": what it points back at, an earlier answer gave
        ident = q.refers_to[0]
        return Asked(q, say("asked-above", lang, id=ident), [_cite(ident, lang)])
    if not q.concepts and q.refers_to and q.kind == "check":
        # "Is that correct?" of what a page answers, no earlier answer gave: that page
        fresh = tuple(i for i in q.refers_to if i not in pages_used)[:1]
        pages_used.update(fresh)
        return _from_catalog(q, lang, t, fresh)
    # a failure the title reports is the models' to explain first: its pages come last
    failure_title = _failure_title(q)
    asked = _pages_asked(q) if q.kind != "version" and not failure_title else ()
    if asked:
        # a page that says it answers this question ("how is a collective cut into
        # packets?") speaks before a model's answer the question's words merely raise;
        # a page an earlier question's answer gave is pointed at, not said twice
        fresh = tuple(i for i in asked if i not in pages_used)[:2]
        if not fresh:  # the parts it names are no answer to what the page above answers
            return Asked(q, say("asked-above", lang, id=asked[0]), [_cite(asked[0], lang)])
        fresh += tuple(i for i in _parts_named(q, asked) if i not in pages_used)
        pages_used.update(fresh)
        return _from_catalog(q, lang, t, fresh)
    # the models' answers first (the cause, the answer on the question's line, for a cause
    # or a version one that speaks of the concept asked about), then the catalog's page
    models_first = q.kind in ("cause", "version") or (q.kind == "topic" and is_cause(t))
    if q.kind in ("cause", "topic") and is_cause(t) and not cause_used:
        # a cause one answer states whole is cited to that answer's evidence
        whole = [a.evidence for a in t.answers if a.answer == t.cause and a.evidence]
        return Asked(q, t.cause, whole[0] if whole else [say("evidence-models-below", lang)])
    answering = {say(k, lang) for k in ("q-concepts", "q-groups", "q-log", "q-symptom")}
    answering |= {a.question for a in t.answers if a.question.startswith(_PASSED[lang == "zh"])}
    fitting = [a for a in t.answers if a.question in answering and _fits(a, q)]
    on_line = [a for a in fitting if _cites_line(a.evidence, q.line, lang)]
    if not on_line and not q.concepts and q.kind in ("cause", "howto", "meaning"):
        # the title names what the question asks about ("these two factors")
        on_line = [a for a in fitting if _cites_line(a.evidence, 0, lang)]
        rows = _on_rows(t, q) if on_line and q.kind in ("cause", "howto") else []
        if rows:
            # a fix asked of the rows the thread shows: what the models say of those rows too
            both = [on_line[0], rows[0]]
            return Asked(
                q,
                gap(lang).join(a.answer for a in both),
                list(dict.fromkeys(e for a in both for e in a.evidence)),
            )
    if on_line:
        first = on_line[0]
        return Asked(q, first.answer, list(first.evidence))
    related = [
        a
        for a in t.answers
        if a.question != say("q-versions", lang) and _about(a, q) and _fits(a, q)
    ]
    meanings = [a for a in related if a.question == say("q-concepts", lang)]
    if (related and models_first) or meanings:
        best = related[0] if models_first else meanings[0]
        return Asked(q, best.answer, list(best.evidence))
    if q.concepts and q.kind != "cause":
        # a page merely named defines a word, which is no cause
        return _from_catalog(q, lang, t)
    if q.kind == "version":
        versions = [a for a in t.answers if a.question == say("q-versions", lang)]
        if versions:
            return Asked(q, versions[0].answer, list(versions[0].evidence))
    # a question nothing above answers, in a thread whose failure a known change of SimAI
    # explains ("anything else to change?"): that change
    known = [a for a in t.answers if a.question == say("q-known", lang)]
    if known and q.kind in ("check", "howto", "cause", "topic"):
        return Asked(q, known[0].answer, list(known[0].evidence))
    late = _pages_asked(q) if failure_title else ()
    if late:  # an answer below that names what the title names, else the pages it asks
        named = _naming_what_is_asked(t, q, None)
        return named if named is not None else _from_catalog(q, lang, t, late[:2])
    # what the thread lacks settles a cause; a question about SimAI itself needs its source
    cause = q.kind in ("cause", "topic")
    missing = "; ".join(m.rstrip(".。") for m in t.missing) if cause else ""
    settle = missing or say("settle-maintainer", lang)
    key = "no-cause" if cause else "no-answer"
    # an ask that is a question keeps its own mark, not a period after it
    text = _QUESTION_END.sub(r"\1", say(key, lang, settle=settle))
    return Asked(q, text, [], answered=False)


def _failure_title(q: Question) -> bool:
    return q.line == 0 and q.kind == "cause"


def _fits(a: Answer, q: Question) -> bool:
    """Whether `a` may open the answer to `q`: a topic's paragraph, raised by a word of the
    thread, only where the question asks what it answers (`meaning.ANSWERS`)."""
    from wkparse.threads.meaning import answers

    return not a.topic or answers(a.topic, q.context or q.text)


def _on_rows(t: Triage, q: Question) -> list[Answer]:
    """The answer on the workload rows the thread pastes that a rule backs (what the rows do
    to the run), else none: what the terms in them mean is no fix."""
    lang = t.language
    rows = [r.line for r in t.found.of("workload-rows")]
    for a in t.answers:
        on_rows = any(_cites_line(a.evidence, line, lang) for line in rows)
        ruled = any(e.startswith("rules/") for e in a.evidence)
        if a.question == say("q-concepts", lang) and on_rows and ruled:
            return [a]
    return []


def _about(a: Answer, q: Question) -> bool:
    """Whether a model's answer speaks of a concept the question names (by one of its
    distinctive names: four characters or more)."""
    import re

    from wkparse.concepts import find

    for ident in q.concepts:
        page = find(ident)
        names = [n for n in (page.names if page else ()) if len(n) >= 4 and n.isascii()]
        if any(re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", a.answer) for n in names):
            return True
    return False


def _cites_line(evidence: list[str], line: int, lang: str) -> bool:
    from wkparse.threads.evidence import line_of

    return line_of(line, lang) in evidence


def _pages_asked(q: Question) -> tuple[str, ...]:
    """The pages whose `asks` the question matches, most specific first, where `questions.read`
    gave it one of them."""
    from wkparse.concepts import answering

    asked = tuple(p.id for p in answering(q.text))
    return asked if set(asked) & set(q.concepts) else ()


def _parts_named(q: Question, asked: tuple[str, ...]) -> tuple[str, ...]:
    """The pages the question names that the one page it asks lists as its parts (`related`):
    "explain cal_busbw() and cal_ratio() in compute_time" asks each of them too."""
    from wkparse.concepts import find

    page = find(asked[0]) if len(asked) == 1 else None
    parts = set(page.related) if page else set()
    return tuple(i for i in q.concepts if i in parts and i not in asked)


def _from_catalog(q: Question, lang: str, t: Triage, pages: tuple[str, ...] | None = None) -> Asked:
    """What the concepts the question names (or `pages` of them) mean, from their catalog
    pages, each followed by the user's own numbers where the models give them
    (`threads.particulars`); a page speaks for the current SimAI, so where the user's lacks
    one of its switches it says so."""
    from wkparse.concepts import find

    texts: list[str] = []
    evidence: list[str] = []
    for ident in q.concepts if pages is None else pages:
        page = find(ident)
        if page is None:
            continue
        text = f"**{page.title(lang)}**: " + page.inline(lang)
        unit = page.unit(lang)
        if unit and unit not in text:
            text += say("concept-unit", lang, unit=unit)
        # a switch whose commit the definition names is one it already speaks to both sides of
        told = tuple(n for n in page.switches if _since(n) not in page.definition("en"))
        text += _older(t, page.id, told, lang)
        yours = _bubble_factor(t, page.id, page.kind, page.related, lang)
        evidence.append(_cite(page.id, lang))
        if yours:
            evidence.append(say("evidence-file", lang))
        own = t.particular.get(page.id)  # the user's numbers (`threads.particulars`)
        if own is not None:
            yours += gap(lang) + own.answer
            evidence.extend(e for e in own.evidence if e not in evidence)
        texts.append(text + yours)
    return Asked(q, " ".join(texts), evidence)


def _bubble_factor(t: Triage, ident: str, kind: str, related: tuple[str, ...], lang: str) -> str:
    """The bubble's factor, (PP - 1) / (ga x vpp), for the user's own file, where the page
    gives the bubble's formula (the `bubble` page, or a behaviour page about it), the file's
    header has PP above 1, and the user's SimAI divides as the page says (from the switch
    `pp_term` on); empty otherwise."""
    from wkparse.explanation.units import percent

    if kind not in ("formula", "behaviour") or (ident != "bubble" and "bubble" not in related):
        return ""
    pp, ga, vpp = (t.pipeline_sizes.get(k, 0) for k in ("pp", "ga", "vpp"))
    simai = t.versions.get("simai")
    older = not isinstance(simai, dict) or bool(simai.get("older"))
    if pp < 2 or ga < 1 or vpp < 1 or older or t.simai is None or not t.simai.has("pp_term"):
        return ""
    from wkparse.threads.versions import depends

    if depends(simai, "pp_term"):  # some masters of the user's period divide otherwise
        return ""
    share = percent((pp - 1) / (ga * vpp))
    return say("concept-bubble-yours", lang, pp=pp, ga=ga, vpp=vpp, share=share)


def _older(t: Triage, ident: str, switches: tuple[str, ...], lang: str) -> str:
    """The caveat for a page whose `switches` the user's SimAI lacks (the stand-in the models
    run is the newest modelled at or before it, and each switch starts at a modelled SimAI, so
    the stand-in has a switch exactly when the user's does; one older than any lacks them all);
    empty when it has them all."""
    from wkparse.models.simai.versions import SWITCHES
    from wkparse.threads.models import MODEL

    simai = t.versions.get("simai")
    if not isinstance(simai, dict) or t.simai is None or not switches:
        return ""
    from wkparse.threads.versions import depends

    older = bool(simai.get("older"))
    lacked = [s for s in SWITCHES if s.name in switches and (older or not t.simai.has(s.name))]
    # a month only: masters on both sides of a switch may be the user's
    maybe = [
        s for s in SWITCHES if s.name in switches and s not in lacked and depends(simai, s.name)
    ]
    if not lacked and not maybe:
        return ""
    key = "concept-older" if lacked else "concept-maybe-older"
    names = ", ".join(s.name for s in lacked or maybe)
    user = str(simai.get("label") or simai.get("commit"))
    since = (lacked or maybe)[0].since
    return say(key, lang, model=MODEL.short, user=user, since=since, names=names, id=ident)


def _since(switch: str) -> str:
    from wkparse.models.simai.versions import SWITCHES

    return next(s.since for s in SWITCHES if s.name == switch)


#: the names a question's answer must say to speak of it: an acronym (DP, TP, NIC) or an
#: identifier with an underscore (`grad_gather`, `forward_compute_time`)
_NAMES = re.compile(r"(?<![A-Za-z0-9_-])(?:[A-Z]{2,6}|[A-Za-z]+_[A-Za-z0-9_]+)(?![A-Za-z0-9_-])")


def _naming_what_is_asked(t: Triage, q: Question, a: Asked | None) -> Asked | None:
    """An answer that names none of the acronyms and identifiers the question asks about gives
    way to the answer below that names them all, most often (a cause asked of "no DP traffic"
    is answered by the rows that carry DP, not by what an empty result file means)."""
    names = set(_NAMES.findall(q.text))
    if not names or q.kind not in ("cause", "check", "topic"):
        return a
    if a is not None and a.answered and _count(names | _words(q.text), a.answer):
        return a  # it speaks of something the question names
    best, most = None, 0
    for other in t.answers:
        if other.question == say("q-versions", t.language) or not other.evidence:
            continue
        if not _fits(other, q):
            continue
        if all(_count({n}, other.answer) for n in names) and _count(names, other.answer) > most:
            best, most = other, _count(names, other.answer)
    return a if best is None else Asked(q, best.answer, list(best.evidence))


#: words too common to show that an answer speaks of the question
_COMMON_WORDS = """
that this with from have what which when where there their they them then than into only
does been were will would should could about your also each same like just more some such
other these those here want know using used make made very much many after before being
because while whether simai aicb workload file files result results
"""
_COMMON = frozenset(_COMMON_WORDS.split())


def _words(text: str) -> set[str]:
    """The question's longer words (four letters or more, not common prose)."""
    return {w for w in re.findall(r"[A-Za-z][A-Za-z0-9_.-]{3,}", text) if w.lower() not in _COMMON}


def _count(names: set[str], text: str) -> int:
    return sum(
        len(re.findall(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", text)) for n in names
    )
