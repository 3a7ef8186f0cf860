"""A failure the thread reports that a known change of SimAI explains: the user's SimAI is
older than the commit where a behaviour changed (`wkparse.models.simai.versions.SWITCHES`),
the thread reports what that behaviour did before it, and shows what sets it off (a plain
ALLTOALL, a collective under 4096 B). Said as a probable cause with what would confirm it,
in the words of the switch's behaviour page, even where no file is shown and no model ran."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from wkparse.threads import evidence, logs
from wkparse.threads.phrases import gap, say
from wkparse.threads.result import Answer, Triage

#: what a thread shows when its run is SimAI's ns-3 backend (its program, its result files,
#: its log's ns-3 paths)
_NS3 = re.compile(r"(?i)SimAI_simulator|ncclFlowModel|ns-?3|network_backend/ns3|SimAI-Simulation")
#: a full workload row: name, reserved, then three (compute time, collective, size) phases
_ROW = re.compile(
    r"(?<![\w.-])([A-Za-z_][\w.-]*)\s+-?\d+\s+"
    r"\d+\s+([A-Z][A-Z_]*)\s+(\d+)\s+\d+\s+([A-Z][A-Z_]*)\s+(\d+)\s+\d+\s+([A-Z][A-Z_]*)\s+(\d+)"
)
#: the thread says its workload is one AICB wrote (it shows no row of it)
_AICB_MADE = re.compile(
    r"(?i)\baicb\b|workload_generator|generat\w*\s+(?:the\s+|a\s+)?workload"
    r"|workload[^\n.]{0,20}generat|生成的\s*workload|生成\s*workload"
)

#: the failures (symptom outcomes) each switch's earlier behaviour shows
_SYMPTOMS: dict[str, tuple[str, ...]] = {
    "ns3_alltoall": ("abort", "crash"),
    "ns3_small_message": ("silent-stop", "empty", "hang", "no-result"),
}


@dataclass(frozen=True)
class Shown:
    """What in the thread sets the behaviour off, said in the answer's language."""

    text: str
    evidence: str


def _collectives(t: Triage, data: list[bytes]) -> list[tuple[str, int, str, int, int | None]]:
    """(row name, phase index 0 fwd / 1 ig / 2 wg, collective, size, thread line) of every
    whole row in the files read and the rows pasted in the thread."""
    out: list[tuple[str, int, str, int, int | None]] = []
    texts: list[tuple[str, int | None]] = [(d.decode("utf-8", "replace"), None) for d in data]
    texts += [(a.text, a.line) for a in t.found.of("workload-rows")]
    texts += [(text, line) for line, text in t.found.prose]
    for text, line in texts:
        for m in _ROW.finditer(text):
            for phase in range(3):
                coll, size = m.group(2 + 2 * phase), int(m.group(3 + 2 * phase))
                out.append((m.group(1), phase, coll, size, line))
    return out


def _alltoall(t: Triage, data: list[bytes]) -> Shown | None:
    """A plain ALLTOALL: issued in the log, or in a row."""
    lang = t.language
    for a in t.found.of("log"):
        r = logs.read(a.line, a.text)
        if r is not None and r.collective.startswith("all-to-all"):
            return Shown(
                say("known-alltoall-log", lang, layer=r.layer), evidence.line_of(a.line, lang)
            )
    for name, _, coll, _, line in _collectives(t, data):
        if coll == "ALLTOALL":
            where = evidence.line_of(line, lang) if line else say("evidence-file", lang)
            return Shown(say("known-alltoall-row", lang, name=name), where)
    return None


def _small_forward(t: Triage, data: list[bytes]) -> Shown | None:
    """A forward collective of 1-4095 B (the sizes the change raises): in a row, else in the
    training file AICB writes, where the thread says AICB wrote its file and shows none."""
    lang = t.language
    for name, phase, coll, size, line in _collectives(t, data):
        if phase == 0 and coll != "NONE" and 0 < size < 4096:
            where = evidence.line_of(line, lang) if line else say("evidence-file", lang)
            return Shown(say("known-small-row", lang, name=name, coll=coll, size=size), where)
    text = "\n".join([t.thread.title, *(x for _, x in t.found.prose)])
    if data or t.found.of("workload-rows") or not _AICB_MADE.search(text):
        return None
    return _small_in_aicb(t)


def _small_in_aicb(t: Triage) -> Shown | None:
    """The rows of 1-4095 B forward collectives in the training file AICB's generator writes
    with its default options, at the user's AICB (wkparse's AICB model)."""
    from wkparse.models.aicb import AicbError, generate

    aicb = t.versions.get("aicb", {})
    at = aicb.get("at") if isinstance(aicb, dict) else None
    try:
        made = generate(
            ["python", "-m", "workload_generator.AIOB_simAI_workload_generator"],
            at=at if isinstance(at, str) else None,
        )
    except AicbError:
        return None
    rows = [
        (m.group(1), m.group(2), int(m.group(3)))
        for m in _ROW.finditer(made.text())
        if m.group(2) != "NONE" and 0 < int(m.group(3)) < 4096
    ]
    if not rows:
        return None
    names = [r[0] for r in rows]
    span = names[0] if len(names) == 1 else f"{names[0]} … {names[-1]}"
    revision = getattr(made.revision, "label", str(made.revision))
    lang = t.language
    return Shown(
        say("known-small-aicb", lang, rows=span, coll=rows[0][1], size=rows[0][2], n=len(rows)),
        say("evidence-aicb-default", lang, revision=revision),
    )


#: switch -> what in a thread sets off the behaviour it changed
_TRIGGERS: dict[str, Callable[[Triage, list[bytes]], Shown | None]] = {
    "ns3_alltoall": _alltoall,
    "ns3_small_message": _small_forward,
}


def explain(t: Triage, said: list[tuple[str, str]], data: list[bytes]) -> Answer | None:
    """The known change that explains the failure the thread reports, for a SimAI older than
    it; None when none does. `data`: the workload files read (attached, rebuilt, pasted)."""
    from wkparse.concepts import concepts
    from wkparse.models.simai.versions import SWITCHES

    simai = t.versions.get("simai")
    if not said or not isinstance(simai, dict) or t.simai is None:
        return None
    # the run is SimAI's ns-3 backend: every SimAI command the thread shows runs it, or it
    # shows none and speaks of it (its program, its CSVs, its log's paths)
    commands = [a.command for a in t.found.of("simai-command") if a.command is not None]
    text = "\n".join([t.thread.title, *(x for _, x in t.found.prose)])
    text += "\n".join(a.text for a in t.found.of("log"))
    ns3 = all(c.backend == "ns3" for c in commands) if commands else bool(_NS3.search(text))
    reported = {o for o, _ in said}
    older = bool(simai.get("older"))
    lang = t.language
    for switch in SWITCHES:
        symptoms = _SYMPTOMS.get(switch.name, ())
        if not reported & set(symptoms) or (switch.backend == "ns3" and not ns3):
            continue
        if not older and t.simai.has(switch.name):
            continue
        shown = _TRIGGERS[switch.name](t, data)
        page = next((p for p in concepts("behaviour") if switch.name in p.switches), None)
        if shown is None or page is None:
            continue
        text = say(
            "known-cause",
            lang,
            user=str(simai.get("label") or simai.get("commit")),
            since=switch.since,
            behaviour=page.inline(lang),
            shown=shown.text,
        )
        ev = [evidence.page(page.id, lang), shown.evidence]
        ev.append(say("evidence-versions", lang))
        for more, cited in _after_deletion(t):  # the user deleted rows to get past it
            text, ev = text + more, [*ev, cited]
        return Answer(say("q-known", lang), text, ev)
    return None


#: the user says they deleted rows of the file
_ROWS_DELETED = re.compile(
    r"(?:删掉|删除|删去|去掉|删了)[^。\n]{0,30}行|行[^。\n]{0,20}(?:删掉|删除|删去|去掉)"
    r"|(?i:\b(?:delet|remov)\w*\b[^.\n]{0,40}\b(?:rows|lines|layers)\b)"
)


#: where the deleted rows were: the head of the file
_HEAD = re.compile(r"开头|前面|最前|(?i:\b(?:first|leading|beginning|top|head)\b)")


def _after_deletion(t: Triage) -> list[tuple[str, str]]:
    """Where the thread says rows were deleted: line 2's count must follow (page row-count);
    where they were at the head of a file AICB wrote, what its DP rows there cost in the ns-3
    backend (page behaviour-ns3-dp-rows). Each with its evidence."""
    from wkparse.concepts import find

    lang = t.language
    said = [t.thread.title, *(x for _, x in t.found.prose)]
    text = "\n".join(said)
    # a deletion sentence may wrap: where the rows were is read just before its verb too
    deleted = [text[max(0, m.start() - 40) : m.end()] for m in _ROWS_DELETED.finditer(text)]
    out: list[tuple[str, str]] = []
    count, dp = find("row-count"), find("behaviour-ns3-dp-rows")
    if not deleted or count is None:
        return out
    out.append((say("known-count-line", lang), evidence.page(count.id, lang)))
    if dp is not None and any(_HEAD.search(x) for x in deleted) and _AICB_MADE.search(text):
        space = gap(lang)
        out.append((space + dp.inline(lang), evidence.page(dp.id, lang)))
    return out


#: the user says the result did not change (a run that finished, its number the same)
_UNCHANGED = re.compile(
    r"(?i)变化都没有|没有(?:任何)?变化|一点变化|不变|identical|unchanged|did ?n[o']t change"
    r"|no change|(?:the )?same (?:results?|time|numbers?)|结果(?:完全)?(?:一样|相同)"
)


def unchanged_on_larger(t: Triage, said: list[tuple[str, str]]) -> Answer | None:
    """A result that stays the same on a larger topology (SimAI_simulator; a run that failed is
    not one): what a larger topology changes, from the catalog, cited to the topologies the
    thread names."""
    from wkparse.concepts import find

    sizes = {x.gpus for x in t.found.topologies if x.gpus}
    text = "\n".join([t.thread.title, *(x for _, x in t.found.prose)])
    failed = any(o != "finish" for o, _ in said)
    if len(sizes) < 2 or failed or not _UNCHANGED.search(text):
        return None
    page = find("behaviour-ns3-scale")
    if page is None:
        return None
    lang = t.language
    ev = [evidence.page(page.id, lang)]
    ev += [evidence.line_of(x.line, lang) for x in t.found.topologies if x.gpus][:2]
    text = page.inline(lang)
    span = find("behaviour-span-all-gpus")  # what a larger topology would change: the group
    if span is not None:
        text += gap(lang) + span.inline(lang)
        ev.insert(1, evidence.page(span.id, lang))
    return Answer(say("q-scale", lang), text, ev)
