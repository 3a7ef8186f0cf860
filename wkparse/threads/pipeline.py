"""The whole triage: read the thread, find its artefacts, put the pieces together as a
maintainer would (rebuild the file, check names and counts, lint, explain, run SimAI on the
user's backend with the user's options), then answer in the thread's language."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from wkparse.models.simai.outcome import CALLABLE_REMOVED, FORMAT_MISMATCH
from wkparse.models.simai.versions import SimaiVersion
from wkparse.threads import (
    aicb_named,
    asked,
    cause,
    checks,
    edits,
    evidence,
    known,
    logs,
    meaning,
    models,
    nic_count,
    particulars,
    questions,
    retry,
    sources,
    symptoms,
    training_run,
    unknown_option,
    versions,
)
from wkparse.threads.artefacts import extract
from wkparse.threads.language import detect
from wkparse.threads.phrases import areas_said, gap, outcome_word, say
from wkparse.threads.reading import read_thread
from wkparse.threads.result import Answer, Finding, Triage
from wkparse.threads.scope import judge

if TYPE_CHECKING:
    from wkparse.diagnostics import Diagnostic

#: the warnings SimAI itself prints, which an answer quotes
_PRINTED = frozenset({FORMAT_MISMATCH, CALLABLE_REMOVED})


def triage(
    text: str | bytes,
    attachments: str | os.PathLike[str] | None = None,
    date: str | None = None,
    lang: str = "auto",
) -> Triage:
    """Triage one issue, before its answers are worded (the arguments: `wkparse.triage()`).
    Raises ValueError for a `date` that is no calendar date."""
    if date is not None and not versions.is_date(date):
        raise ValueError(f"date {date!r}: give a date as YYYY-MM-DD")
    thread = read_thread(text)
    found = extract(thread)
    language = (
        lang if lang in ("en", "zh") else detect([(0, thread.title), *found.prose], thread.language)
    )
    scope = judge(found, thread.title)
    result = Triage(language, scope.value, thread, found, scope_topics=scope.topics)
    when = date or thread.created or None
    result.versions, result.simai = versions.versions_of(when, versions.stated_commits(thread))
    folder = Path(attachments) if attachments is not None else None
    if scope.value != "out":
        _work(result, folder, when)
    return result


def _work(t: Triage, folder: Path | None, date: str | None) -> None:
    lang, found = t.language, t.found
    rule_lang = " --lang zh" if lang == "zh" else ""
    simai_v = t.versions.get("simai", {})
    assert isinstance(simai_v, dict) and t.simai is not None
    ran = t.simai
    current = models.MODEL
    same = (
        say("same-version", lang)
        if ran == current
        else say("other-version", lang, current=current.label)
    )
    aicb_v = t.versions.get("aicb", {})
    assert isinstance(aicb_v, dict)
    from wkparse.i18n import language

    with language(lang):  # the AICB model's notes and refusals in the answer's language
        rebuilds = sources.rebuilt(
            found, aicb_v.get("at") if isinstance(aicb_v.get("at"), str) else None
        )
        # a file name the thread shows picks the AICB that writes it
        rebuilds = aicb_named.choose(found, rebuilds, aicb_v, simai_v, date)
    t.answers.append(
        Answer(
            say("q-versions", lang),
            say(
                "a-versions",
                lang,
                simai=simai_v.get("label") or say("unknown", lang),
                simai_why=versions.why(simai_v, lang),
                aicb_why=versions.why(aicb_v, lang),
                aicb=_aicb_said(aicb_v, lang),
                aicb_more=_aicb_more(aicb_v, simai_v, lang),
                models=_models_run(simai_v, ran, lang),
                same=same,
            ),
            [say("evidence-versions", lang)],
        )
    )

    # the files: attached, rebuilt from the AICB command, pasted
    files = sources.attached(folder, found)
    for rb in rebuilds:
        ev = [evidence.line_of(rb.artefact.line, lang)]
        if rb.source is None:
            t.answers.append(
                Answer(say("q-rebuild", lang), say("a-rebuild-fail", lang, error=rb.error), ev)
            )
            continue
        if rb.not_users:
            # no AICB up to the date writes the name the thread shows: not the user's file
            text = say("a-rebuild-not-yours", lang, name=rb.source.name)
            t.answers.append(Answer(say("q-rebuild", lang), text, ev))
            checks.command_and_name(t, rb.source, ev)
            continue
        contradicted = aicb_named.run_contradicts(t, rb.source, ran)
        if contradicted is not None:
            # the thread reports a result; the models give this file none: not what ran
            text = say(
                "a-rebuild-contradicted-layout" if rb.error else "a-rebuild-contradicted",
                lang,
                name=rb.source.name,
                outcome=outcome_word(contradicted, lang),
                simai=ran.short,
            )
            if rb.error:  # the command's times are measured on a GPU: say so first
                refused = say("a-rebuild-fail", lang, error=rb.error).rstrip(".")
                text = refused + ("\u3002" if lang == "zh" else ". ") + text
            said_ev = [*ev, evidence.simai_model(ran, "analytical", lang)]
            t.answers.append(Answer(say("q-rebuild", lang), text, said_ev))
            checks.command_and_name(t, rb.source, ev)
            continue
        files.append(rb.source)
        ev.append(say("evidence-aicb", lang, revision=rb.source.revision))
        notes = "" if not rb.notes else " (" + "; ".join(rb.notes) + ")"
        key = "a-rebuild-layout" if rb.error else "a-rebuild"
        answer = say(key, lang, revision=rb.source.revision, name=rb.source.name, notes=notes)
        if rb.error:
            refused = say("a-rebuild-fail", lang, error=rb.error).rstrip(".")
            answer = refused + ("\u3002" if lang == "zh" else ". ") + answer
        t.answers.append(Answer(say("q-rebuild", lang), answer, ev))
        checks.command_and_name(t, rb.source, ev)
        _apply_deletion(t, rb.source, ev)
    pasted = sources.pasted(found)
    checks.file_names(t)
    checks.against_command(t, files + ([pasted] if pasted is not None else []))
    if pasted is not None and not any(checks.same_header(f.data, pasted.data) for f in files):
        files.append(pasted)  # an excerpt of a file already read is not linted twice

    # lint and explain each file; where the SimAI the models run reads files otherwise than
    # the user's, lint speaks for that SimAI, and each finding says so
    reads = ran if versions.reader_differs(simai_v, ran) else None
    bearing = _findings_bear(t)
    target = _lint_target(t)
    tp: int | None = None
    pp: int | None = None
    for src in files:
        pasted_file = src.origin == "pasted"
        name = None if pasted_file else src.name
        # an excerpt is not the whole file: rules that count or compare the body stay silent
        cut = pasted_file and src.excerpt
        checked = models.check(src.data, lang, cut, name, ran, target=target)
        # a rebuild the thread names otherwise never gets here (`aicb_named.choose`)
        _add_findings(t, src, checked.diagnostics + checked.quiet, ran)
        _findings_answer(
            t,
            src,
            checked.diagnostics,
            rule_lang,
            quiet=len(checked.quiet),
            stand_in=reads,
            bearing=bearing,
        )
        if ran != current:
            # what lint says for the current SimAI besides: after the fix "update SimAI"
            seen = {(d.code, d.span.line) for d in checked.diagnostics}
            later = models.check(src.data, lang, cut, name, current, False, target)
            later_found = later.diagnostics
            extra = [d for d in later_found if (d.code, d.span.line) not in seen]
            _add_findings(t, src, extra, current)
            _findings_answer(t, src, extra, rule_lang, current, bearing=bearing)
        if checked.explanation is not None and src is files[0]:
            _meaning(t, src, checked.explanation)
            tp = getattr(checked.explanation, "tp", None)
            pp = getattr(checked.explanation, "pp", None)
            t.pipeline_sizes = {
                k: v
                for k in ("pp", "ga", "vpp")
                if isinstance(v := getattr(checked.explanation, k, None), int)
            }

    # SimAI, on the user's backend with the user's options
    runs: list[tuple[models.Prediction, sources.Source]] = []
    simai_cmds = [a for a in found.of("simai-command") if a.command is not None]
    for art in simai_cmds:
        cmd = art.command
        assert cmd is not None
        w = cmd.option("-w", "--workload")
        chosen = sources.matching(files, w) if w else None
        if chosen is None and len(files) == 1 and files[0].origin != "attachment":
            chosen = files[0] if w is None or "-world_size" in w else None
        if chosen is None or chosen.header_only:
            continue
        gpus = checks.topology_gpus(found, cmd) if cmd.backend == "ns3" else None
        # a command cut inside `-w` hides its options: wkparse's stated ones stand in
        cut = w is not None and sources.cut_off(chosen, w)
        words = cmd.words if cmd.backend == "analytical" and not cut else []
        p = _safe_run(chosen.data, cmd.backend, words, gpus, lang, ran)
        if p is None:
            continue
        p.line, p.program = (
            None if cut else art.line,
            "SimAI_simulator" if cmd.backend == "ns3" else "SimAI_analytical",
        )
        runs.append((p, chosen))
        checks.gpu_counts(t, chosen, cmd, gpus, art.line)
    if not simai_cmds and files and not files[0].header_only:
        src = files[0]
        backends = ["analytical"]
        if any(
            k in " ".join(x for _, x in found.prose)
            for k in ("SimAI_simulator", "ns3", "ns-3", "NS3")
        ):
            backends.append("ns3")
        for backend in backends:
            p = _safe_run(src.data, backend, [], None, lang, ran)
            if p is not None:
                p.program = "SimAI_simulator" if backend == "ns3" else "SimAI_analytical"
                runs.append((p, src))
    updates: dict[int, models.Prediction] = {}
    for p, src in runs:
        t.predictions.append(p)
        basis = evidence.basis(src, lang)
        exit_text = "" if p.exit is None else f" (exit {p.exit})"
        ev = [evidence.simai_model(ran, p.backend, lang), basis]
        ev += _stand_in_caveat(t, ("workload", "system", p.backend))
        if p.line is not None:
            ev.append(evidence.line_of(p.line, lang))
        else:
            ev.append(say("options-stated", lang))
        if _excerpt_finish(p, src):
            # the rows left out may end otherwise: no outcome, total or update for the file
            p.total_us = None
            text = say("a-run-excerpt", lang, program=p.program)
            t.answers.append(Answer(say("q-run", lang), text, ev))
            continue
        t.answers.append(
            Answer(
                say("q-run", lang),
                say(
                    "a-run",
                    lang,
                    program=p.program,
                    outcome=outcome_word(p.outcome, lang),
                    exit=exit_text,
                    message=p.message
                    + (f" [{p.where}]" if p.where and p.where not in p.message else ""),
                ),
                ev,
            )
        )
        # an excerpt's total is not the file's, nor is one of stand-in compute times
        if p.total_us is not None and not src.excerpt and not src.stand_in_times:
            t.answers.append(
                Answer(say("q-run", lang), say("a-total", lang, total=f"{p.total_us:,.0f}"), ev)
            )
        if p.unread_environment:
            names = ", ".join(f"`{n}`" for n in p.unread_environment)
            t.answers.append(
                Answer(say("q-run", lang), say("a-run-environment", lang, names=names), ev)
            )
        also = [("a-run-warning", w) for w in p.option_warnings]
        # SimAI's own words are quoted as its (they stay in English); wkparse's are translated
        also += [("a-run-prints" if w in _PRINTED else "a-run-warning", w) for w in p.warnings]
        for key, w in also[:3]:
            t.answers.append(Answer(say("q-run", lang), say(key, lang, warning=w), ev))
        if ran != current:
            now = _current_run(t, p, src, ran)
            if now is not None:
                updates[id(p)] = now

    retry.without_unknown(t, runs, ran)
    nic_fix = nic_count.with_nic_count(t, runs, ran)

    # the log: where the run was; the symptom against the prediction
    pasted_logs = [a.text for a in found.of("log")]
    _read_logs(t)
    said = symptoms.reported(found.prose, pasted_logs, t.thread.title)
    for outcome, words_said in said[:1]:
        for p, src in runs[:1]:
            if outcome == "finish" == p.outcome or _excerpt_finish(p, src):
                continue  # a run that finished with numbers the user doubts: no explanation
            if cause.agrees(outcome, p.outcome):
                key = "a-symptom-match"
            elif p.option_warnings:
                key = "a-symptom-options"
            else:
                key = "a-symptom-differ"
            t.answers.append(
                Answer(
                    say("q-symptom", lang),
                    say(
                        key,
                        lang,
                        said=words_said,
                        outcome=outcome_word(p.outcome, lang),
                        warning=p.option_warnings[0] if p.option_warnings else "",
                    ),
                    [evidence.simai_model(ran, p.backend, lang), evidence.basis(src, lang)],
                )
            )
    meaning.answer(t, files, tp, pp)
    asks = questions.read(t.thread.title, found.prose)
    cause.likely_cause(t, runs, said, updates, asks)
    # a failure no model run explains, that a change of SimAI after the user's fixed
    known_cause = known.explain(t, said, [f.data for f in files])
    if known_cause is not None:
        t.answers.append(known_cause)
        if not asked.is_cause(t):
            t.cause = known_cause.answer
    # a real run timed against a workload of another run (the settings the two differ in)
    differs = training_run.compare(t, list(rebuilds))
    if differs is not None:
        t.answers.append(differs)
        if not asked.is_cause(t) and any(o == "finish" for o, _ in said):
            t.cause = differs.answer
    # an option the thread names that AICB's script stops reading at
    unknown = unknown_option.unknown_to_script(t)
    if unknown is not None:
        t.answers.append(unknown)
        t.answers.extend(unknown_option.passed_beside(t, unknown))
        if not asked.is_cause(t):
            t.cause = unknown.answer
    scale = known.unchanged_on_larger(t, said)
    if scale is not None:
        t.answers.append(scale)
        if not asked.is_cause(t):
            t.cause = scale.answer
    # a cause asked of a run the thread shows (its command, log, topology, file, rows)
    shown = any(n for k, n in found.counts().items() if k not in ("aicb-command", "attachment"))
    about_the_run = shown and any(q.kind in ("cause", "topic") for q in asks)
    if nic_fix is not None and t.cause:
        t.cause += gap(lang) + nic_fix
    if any(q.kind in ("cause", "howto") for q in asks):
        _inference_note(t)
    cause.missing(t, files, said, simai_cmds, about_the_run, asks)
    particulars.add(t, files, asks)
    t.asked = asked.answer_all(t, asks)
    _no_models_unless_used(t, _models_run(simai_v, ran, lang))


def _no_models_unless_used(t: Triage, models_said: str) -> None:
    """The version line says which SimAI the models below run only where a statement below
    rests on a model of SimAI (names its commit, or a `wkparse.models.simai` module):
    otherwise no model's answer follows."""
    ran = t.simai
    if not models_said or ran is None:
        return
    later = [t.cause, *(x for a in t.answers[1:] for x in (a.answer, *a.evidence))]
    later += [x for a in t.asked for x in (a.answer, *a.evidence)]
    if any(ran.short in x or "wkparse.models.simai" in x for x in later):
        return
    for first in t.answers[:1]:
        first.answer = first.answer.replace(models_said, "", 1)
    for a in t.asked:
        a.answer = a.answer.replace(models_said, "", 1)


def _inference_note(t: Triage) -> None:
    """An inference file whose run's cause or fix is asked: the opening says that SimAI
    simulates it as a training iteration, and where inference is simulated end to end (the
    catalog's page, which the evidence cites)."""
    from wkparse.concepts import find

    page = find("behaviour-inference-vidur")
    if page is None or not t.cause:
        return
    text = page.inline(t.language)
    if any(a.answer == text for a in t.answers):
        cite = page.sources[0].cite() if page.sources else ""
        t.cause += say("cause-inference", t.language, page=text, id=page.id, source=cite)


def _apply_deletion(t: Triage, src: sources.Source, ev: list[str]) -> None:
    """The first rows the user says they deleted from the rebuilt file: which they were
    (their collectives and groups), and the rebuild with them deleted, the file they ran."""
    said = edits.deleted_first(t.found.prose)
    cut = edits.cut_first(src.data, said.rows) if said is not None else None
    if said is None or cut is None:
        return
    lang = t.language
    rows = say("list-sep", lang).join(
        say(
            "deleted-row",
            lang,
            name=name,
            colls=", ".join(f"{ph} {c} {size:,} B ({g})" for ph, c, size, g in colls)
            or say("deleted-none", lang),
        )
        for name, colls in cut.gone
    )
    dp_gone = any(g in ("DP", "DP_EP") and size for _, colls in cut.gone for *_, size, g in colls)
    left = (
        say("deleted-all-dp", lang)
        if dp_gone and not cut.dp_left
        else say("deleted-dp-left", lang, n=cut.dp_left)
    )
    if dp_gone:  # where SimAI would have run them: last, in the weight-gradient pass
        left += say("deleted-dp-last", lang) + _unedited_cost(t, src.data)
    text = say("a-deleted", lang, n=said.rows, rows=rows, left=left)
    ev = [*ev, evidence.line_of(said.line, lang)]
    if dp_gone:
        ev.append(say("evidence-model", lang, module="wkparse.models.simai.ns3"))
    t.answers.append(Answer(say("q-rebuild", lang), text, ev))
    src.data, src.deleted = cut.data, said.rows


def _unedited_cost(t: Triage, data: bytes) -> str:
    """On a SimAI_simulator thread, what the file as written (its DP rows run last) costs to
    simulate: the ns-3 model's traffic and time estimate; else nothing."""
    from wkparse.models.simai.ns3 import simulate_ns3

    ns3 = any(a.command and a.command.backend == "ns3" for a in t.found.of("simai-command"))
    if not ns3:
        return ""
    try:
        run = simulate_ns3(data, None, models.MODEL)
    except (ValueError, OSError):
        return ""
    if not run.too_long or run.halt is not None:
        return ""
    gb, s = f"{run.wire_bytes / 1e9:,.1f}", f"{run.estimated_s:,.0f}"
    return say("deleted-dp-wire", t.language, gb=gb, s=s)


def _findings_bear(t: Triage) -> bool:
    """Whether lint's warnings bear on the thread: it reports what SimAI did, runs SimAI, or
    asks something other than what things mean, how to do something, or which version."""
    found = t.found
    if found.of("simai-command") or found.of("log"):
        return True
    if symptoms.reported(found.prose, [], t.thread.title):
        return True
    asks = questions.read(t.thread.title, found.prose)
    return not asks or any(q.kind not in ("meaning", "howto", "version") for q in asks)


def _excerpt_finish(p: models.Prediction, src: sources.Source) -> bool:
    """A pasted excerpt the model runs to the end: that holds of the rows shown only."""
    return src.origin == "pasted" and src.excerpt and p.outcome == "finish"


def _models_run(simai: dict[str, object], ran: SimaiVersion, lang: str) -> str:
    """Which SimAI the models run, where it is not the one just named, and where the two
    differ in what they do with a workload file."""
    if simai.get("commit") == ran.short:
        return ""
    basis = simai.get("basis")
    if simai.get("older"):
        return say("models-run-older", lang, model=ran.label)
    if basis == "none":
        return say("models-run-current", lang, model=ran.label)
    differs = versions.differs_for(simai, versions.READS)
    if basis == "period":
        return _models_period(simai, ran, differs, lang)
    if not simai.get("commit"):
        return say("models-run", lang, model=ran.label)
    if differs:
        return say(
            "models-stand-in-differs", lang, model=ran.label, areas=areas_said(differs, lang)
        )
    return say("models-stand-in-same", lang, model=ran.label)


def _models_period(
    simai: dict[str, object], ran: SimaiVersion, differs: list[str], lang: str
) -> str:
    """Which SimAI the models run for a period of masters (a month), and what SimAI changed
    within it (the statements on those depend on the commit) or before it since the model."""
    text = say("models-period", lang, model=ran.label)
    listed = simai.get("within")
    within = [w for w in listed if isinstance(w, dict)] if isinstance(listed, list) else []
    inside = {a for w in within for a in w.get("areas", ())}
    if within:
        comma = "\u3001" if lang == "zh" else ", "
        by_area = {
            a: comma.join(str(w["commit"]).split()[0] for w in within if a in w["areas"])
            for a in versions.READS
            if a in inside
        }
        changes = say("list-sep", lang).join(
            say("period-change", lang, areas=areas_said([a], lang), commit=c)
            for a, c in by_area.items()
        )
        text += say("models-period-differs", lang, changes=changes)
    before = [a for a in differs if a not in inside]
    if before:
        text += say("models-period-before", lang, model=ran.short, areas=areas_said(before, lang))
    elif not within:
        text += say("models-period-same", lang, model=ran.short)
    return text


def _aicb_said(aicb: dict[str, object], lang: str) -> str:
    """The AICB commit the user ran, with its date where known."""
    commit, when = aicb.get("commit"), aicb.get("commit_date")
    if aicb.get("label"):  # a period of masters (a month)
        return str(aicb["label"])
    if not commit:
        return str(aicb.get("revision") or say("unknown", lang))
    return f"{commit} ({when})" if when else str(commit)


def _aicb_more(aicb: dict[str, object], simai: dict[str, object], lang: str) -> str:
    """The submodule SimAI pinned then, and the revision wkparse's AICB model writes as."""
    commit, revision = aicb.get("commit") or aicb.get("label"), aicb.get("revision")
    parts = []
    pin = simai.get("aicb_pin")
    if commit and pin and pin != commit and aicb.get("basis") in ("date", "period"):
        parts.append(say("aicb-pin", lang, pin=pin))
    within = aicb.get("within")
    if commit and revision and isinstance(within, list) and within:
        revisions = ("\u3001" if lang == "zh" else ", ").join(map(str, within))
        parts.append(
            say("aicb-period-changed", lang, revisions=revisions, revision=aicb.get("short"))
        )
    elif commit and revision and aicb.get("short") != commit:
        parts.append(say("aicb-writes-as", lang, revision=aicb.get("short")))
    if not parts:
        return ""
    zh = "（" + "；".join(parts) + "）"  # noqa: RUF001
    return zh if lang == "zh" else " (" + "; ".join(parts) + ")"


def _stand_in_caveat(t: Triage, areas: tuple[str, ...]) -> list[str]:
    """Evidence that the modelled SimAI differs from the user's where it matters."""
    simai = t.versions.get("simai", {})
    assert isinstance(simai, dict) and t.simai is not None
    differs = versions.differs_for(simai, areas)
    if not differs or simai.get("commit") == t.simai.short:
        return []
    return [
        say(
            "evidence-stand-in",
            t.language,
            areas=areas_said(differs, t.language),
            model=t.simai.short,
            simai=simai.get("commit") or simai.get("label"),
        )
    ]


def _current_run(
    t: Triage, p: models.Prediction, src: sources.Source, ran: SimaiVersion
) -> models.Prediction | None:
    """What the current SimAI does with the same file and options, where the user's version
    does otherwise: the fix "update SimAI", labelled as such (and listed among the
    predictions with its own `simai`). None where both do the same."""
    lang = t.language
    words = p.words if p.backend == "analytical" else []
    now = _safe_run(src.data, p.backend, words, p.gpus_asked, lang, models.MODEL)
    if now is None:
        return None
    now.line, now.program = p.line, p.program
    if src.excerpt:  # the total of an excerpt is not the file's: neither says one
        p.total_us = now.total_us = None
    ev = [evidence.simai_model(models.MODEL, p.backend, lang), evidence.basis(src, lang)]
    if models.same_result(p, now):
        t.answers.append(
            Answer(
                say("q-update", lang, current=models.MODEL.label),
                say("a-update-same", lang, current=models.MODEL.short, simai=ran.short),
                ev,
            )
        )
        return None
    t.predictions.append(now)
    exit_text = "" if now.exit is None else f" (exit {now.exit})"
    # a fix where the user's run fails and the current one does otherwise; else a difference
    fix = p.outcome != "finish" and now.outcome != p.outcome
    total = "" if now.total_us is None else say("update-total", lang, total=f"{now.total_us:,.0f}")
    t.answers.append(
        Answer(
            say("q-update", lang, current=models.MODEL.label),
            say(
                "a-update" if fix else "a-update-other",
                lang,
                current=models.MODEL.short,
                program=now.program,
                outcome=outcome_word(now.outcome, lang),
                exit=exit_text,
                message=now.message.rstrip(".") if total else now.message,
                total=total,
            ),
            ev,
        )
    )
    return now


def _read_logs(t: Triage) -> None:
    """Where the pasted logs say the run was, and (ns-3) what that costs in wall time; an
    error the catalog has a page for, with what the page says it means."""
    from wkparse import concepts

    lang = t.language
    ns3 = any(
        a.command is not None and a.command.backend == "ns3" for a in t.found.of("simai-command")
    ) or any("SimAI_simulator" in x for _, x in t.found.prose)
    for a in t.found.of("log"):
        r = logs.read(a.line, a.text)
        if r is None:
            continue
        ev = [evidence.line_of(a.line, lang)]
        if r.collective:
            size = f"{r.size:,} B ({r.size / 1e9:.2f} GB)" if r.size else "?"
            t.answers.append(
                Answer(
                    say("q-log", lang),
                    say(
                        "a-log-next" if r.collective == "next" else "a-log",
                        lang,
                        collective=r.collective,
                        layer=r.layer,
                        size=size,
                        passes=r.passes,
                    ),
                    ev,
                )
            )
            if ns3 and r.size and r.size >= 1e9:
                t.answers.append(
                    Answer(
                        say("q-log", lang),
                        say("a-log-ns3", lang, size=f"{r.size / 1e9:.2f} GB"),
                        [*ev, say("evidence-ns3-rate", lang)],
                    )
                )
        if r.error:
            text, cited = say("a-log-error", lang, error=r.error), list(ev)
            page = next(iter(concepts.answering(r.error)), None)
            if page is not None:  # the catalog knows this error: what it means, what to try
                text += gap(lang) + page.inline(lang)
                cited.insert(0, evidence.page(page.id, lang))
            t.answers.append(Answer(say("q-log", lang), text, cited))
        if r.unnamed and r.layers > r.unnamed:
            # layers SimAI made past the rows it could read (the row-count page)
            t.answers.append(
                Answer(
                    say("q-log", lang),
                    say("a-log-unnamed", lang, layers=r.layers, unnamed=r.unnamed),
                    [*ev, say("evidence-concept", lang, id="row-count", source="rule WK105")],
                )
            )


def _severity(severity: object) -> str:
    name = getattr(severity, "name", None)
    return name.lower() if isinstance(name, str) else "info"


def _safe_run(
    data: bytes,
    backend: str,
    words: list[str],
    gpus: int | None,
    lang: str,
    version: SimaiVersion,
) -> models.Prediction | None:
    """SimAI at `version`, in the answer's language (the models' messages are translated
    where wkparse's catalog has them); None for options no command line could hold."""
    from wkparse.i18n import language

    try:
        with language(lang):
            p = models.run(data, backend, words, gpus, version)
    except (ValueError, OSError):
        return None
    p.words, p.gpus_asked = words, gpus
    return p


def _lint_target(t: Triage) -> str:
    """The backend lint speaks for: the ns-3 one when every SimAI command the thread shows
    runs it (a finding's consequence is then SimAI_simulator's, not SimAI-Analytical's)."""
    backends = {a.command.backend for a in t.found.of("simai-command") if a.command is not None}
    return "simai-ns3" if backends == {"ns3"} else "simai"


def _add_findings(
    t: Triage, src: sources.Source, diagnostics: list[Diagnostic], version: SimaiVersion
) -> None:
    """Lint's diagnostics as findings, each tied to its artefact and to the SimAI it is for."""
    for d in diagnostics:
        line = src.thread_line(d.span.line)
        kind = src.artefact.kind if src.artefact else "attachment"
        if src.origin == "pasted":
            kind = "workload-header" if d.span.line == 1 else "workload-rows"
        t.findings.append(
            Finding(d.code, _severity(d.severity), d.message, kind, line, src.name, version.short)
        )


def _findings_answer(
    t: Triage,
    src: sources.Source,
    diagnostics: list[Diagnostic],
    rule_lang: str,
    current: SimaiVersion | None = None,
    quiet: int = 0,
    stand_in: SimaiVersion | None = None,
    bearing: bool = True,
) -> None:
    """Lint's findings as answers; `current`: they are what the current SimAI adds (the
    answer labels them so); `stand_in`: the modelled SimAI they are for, whose reader is not
    the user's (labelled too); past six, and for the `quiet` ones, how many more there are;
    `bearing` False: the thread asks what things mean or how to do them and runs nothing,
    so only the errors SimAI meets are worded, and the warnings counted."""
    from wkparse.diagnostics import Severity

    lang = t.language
    aside = (
        []
        if bearing
        else [d for d in diagnostics if (d.severity or Severity.INFO) < Severity.ERROR]
    )
    diagnostics = [d for d in diagnostics if d not in aside]
    shown = diagnostics[:6]
    cut = len(diagnostics) - len(shown)
    more = quiet
    for d in shown:
        line = src.thread_line(d.span.line)
        ev = [say("evidence-rule", lang, code=d.code, flag=rule_lang), evidence.basis(src, lang)]
        if line is not None and src.origin == "pasted":
            ev.append(evidence.line_of(line, lang))
        said = say("a-finding", lang, code=d.code, line=d.span.line, message=d.message)
        if current is not None:
            said = say("a-finding-current", lang, current=current.short, finding=said)
        elif stand_in is not None:
            said = say("a-finding-stand-in", lang, model=stand_in.short, finding=said)
        t.answers.append(Answer(say("q-findings", lang), said, ev))
    if aside:
        key = "a-findings-aside-1" if len(aside) == 1 else "a-findings-aside"
        t.answers.append(
            Answer(
                say("q-findings", lang),
                say(key, lang, n=len(aside)),
                [evidence.basis(src, lang)],
            )
        )
    if cut:
        key = "a-findings-cut-1" if cut == 1 else "a-findings-cut"
        t.answers.append(
            Answer(say("q-findings", lang), say(key, lang, n=cut), [evidence.basis(src, lang)])
        )
    if more:
        key = "a-findings-more-1" if more == 1 else "a-findings-more"
        t.answers.append(
            Answer(say("q-findings", lang), say(key, lang, n=more), [evidence.basis(src, lang)])
        )


def _meaning(t: Triage, src: sources.Source, e: object) -> None:
    lang = t.language

    def get(name: str) -> object:
        return getattr(e, name, None)

    if get("tp") is None:  # a header SimAI reads no sizes from (MICRO): what it represents
        text = str(get("represents") or "")
        if text:
            ev = [say("evidence-explain", lang), evidence.basis(src, lang)]
            t.answers.append(Answer(say("q-meaning", lang), text, ev))
        return
    t.answers.append(
        Answer(
            say("q-meaning", lang),
            say(
                "a-meaning",
                lang,
                represents="" if src.excerpt else _sentence(str(get("represents") or ""), lang),
                tp=get("tp"),
                pp=get("pp"),
                ep=get("ep"),
                ga=get("ga"),
                all_gpus=get("all_gpus"),
                dp=get("dp"),
            ),
            [say("evidence-explain", lang), evidence.basis(src, lang)],
        )
    )
    if get("dialect") == "inference":  # simulated as training: where inference is simulated
        meaning.page_answer(t, "behaviour-inference-vidur", [evidence.basis(src, lang)])


def _sentence(text: str, lang: str) -> str:
    """`text` followed by the space (English) that separates it from the next sentence."""
    return text + (" " if text and lang != "zh" else "")
