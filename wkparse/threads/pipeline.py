"""The whole triage: read the thread, find its artefacts, put the pieces together as a
maintainer would (rebuild the file, check names and counts, lint, explain, run SimAI on the
user's backend with the user's options), then answer in the thread's language."""

from __future__ import annotations

import os
from pathlib import Path

from wkparse.threads import cause, checks, evidence, logs, models, sources, symptoms, versions
from wkparse.threads.artefacts import extract
from wkparse.threads.language import detect
from wkparse.threads.phrases import outcome_word, say
from wkparse.threads.reading import read_thread
from wkparse.threads.result import Answer, Finding, Triage
from wkparse.threads.scope import judge


def triage(
    text: str | bytes,
    attachments: str | os.PathLike[str] | None = None,
    date: str | None = None,
    lang: str = "auto",
) -> Triage:
    """Triage one issue (`text`: Markdown, plain text, front matter or `gh issue view --json`).

    `attachments` is a folder of the files the issue links to (matched by name); `date`
    (YYYY-MM-DD) overrides the issue's own; `lang` is `auto` (the issue's), `en` or `zh`."""
    thread = read_thread(text)
    found = extract(thread)
    language = (
        lang if lang in ("en", "zh") else detect([(0, thread.title), *found.prose], thread.language)
    )
    scope = judge(found, thread.title)
    result = Triage(language, scope.value, thread, found, scope_topics=scope.topics)
    when = date or thread.created or None
    result.versions = versions.versions_of(when, versions.stated_commits(thread))
    folder = Path(attachments) if attachments is not None else None
    if scope.value != "out":
        _work(result, folder, when)
    return result


def _work(t: Triage, folder: Path | None, date: str | None) -> None:
    lang, found = t.language, t.found
    rule_lang = " --lang zh" if lang == "zh" else ""
    simai_v = t.versions.get("simai", {})
    assert isinstance(simai_v, dict)
    user_simai = simai_v.get("commit")
    model = models.MODEL.short
    same = (
        say("same-version", lang)
        if user_simai == model
        else say("other-version", lang, simai=user_simai or say("unknown", lang))
    )
    aicb_v = t.versions.get("aicb", {})
    assert isinstance(aicb_v, dict)
    t.answers.append(
        Answer(
            say("q-versions", lang),
            say(
                "a-versions",
                lang,
                simai=simai_v.get("label") or say("unknown", lang),
                simai_why=versions.why(simai_v, lang),
                aicb_why=versions.why(aicb_v, lang),
                aicb=aicb_v.get("revision") or say("unknown", lang),
                model=model,
                same=same,
            ),
            [say("evidence-versions", lang)],
        )
    )

    # the files: attached, rebuilt from the AICB command, pasted
    files = sources.attached(folder, found)
    rebuilds = sources.rebuilt(
        found, aicb_v.get("at") if isinstance(aicb_v.get("at"), str) else None
    )
    for rb in rebuilds:
        ev = [evidence.line_of(rb.artefact.line, lang)]
        if rb.source is None:
            t.answers.append(
                Answer(say("q-rebuild", lang), say("a-rebuild-fail", lang, error=rb.error), ev)
            )
            continue
        files.append(rb.source)
        ev.append(say("evidence-aicb", lang, revision=rb.source.revision))
        notes = "" if not rb.notes else " (" + "; ".join(rb.notes) + ")"
        t.answers.append(
            Answer(
                say("q-rebuild", lang),
                say(
                    "a-rebuild", lang, revision=rb.source.revision, name=rb.source.name, notes=notes
                ),
                ev,
            )
        )
        checks.command_and_name(t, rb.source, ev)
    pasted = sources.pasted(found)
    checks.file_names(t)
    checks.against_command(t, files + ([pasted] if pasted is not None else []))
    if pasted is not None and not any(checks.same_header(f.data, pasted.data) for f in files):
        files.append(pasted)  # an excerpt of a file already read is not linted twice

    # lint and explain each file
    for src in files:
        pasted_file = src.origin == "pasted"
        checked = models.check(src.data, lang, pasted_file, None if pasted_file else src.name)
        for d in checked.diagnostics:
            line = src.thread_line(d.span.line)
            kind = src.artefact.kind if src.artefact else "attachment"
            if src.origin == "pasted":
                kind = "workload-header" if d.span.line == 1 else "workload-rows"
            t.findings.append(
                Finding(d.code, _severity(d.severity), d.message, kind, line, src.name)
            )
        _findings_answer(t, src, checked, rule_lang)
        if checked.explanation is not None and src is files[0]:
            _meaning(t, src, checked.explanation)

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
        if chosen is None:
            continue
        gpus = checks.topology_gpus(found, cmd) if cmd.backend == "ns3" else None
        words = cmd.words if cmd.backend == "analytical" else []
        p = _safe_run(chosen.data, cmd.backend, words, gpus, lang)
        if p is None:
            continue
        p.line, p.program = (
            art.line,
            "SimAI_simulator" if cmd.backend == "ns3" else "SimAI_analytical",
        )
        runs.append((p, chosen))
        checks.gpu_counts(t, chosen, cmd, gpus, art.line)
    if not simai_cmds and files:
        src = files[0]
        backends = ["analytical"]
        if any(
            k in " ".join(x for _, x in found.prose)
            for k in ("SimAI_simulator", "ns3", "ns-3", "NS3")
        ):
            backends.append("ns3")
        for backend in backends:
            p = _safe_run(src.data, backend, [], None, lang)
            if p is not None:
                p.program = "SimAI_simulator" if backend == "ns3" else "SimAI_analytical"
                runs.append((p, src))
    for p, src in runs:
        t.predictions.append(p)
        basis = evidence.basis(src, lang)
        exit_text = "" if p.exit is None else f" (exit {p.exit})"
        ev = [say("evidence-simai", lang, model=model), basis]
        if p.line is not None:
            ev.append(evidence.line_of(p.line, lang))
        else:
            ev.append(say("options-stated", lang))
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
        if p.total_us is not None:
            t.answers.append(
                Answer(say("q-run", lang), say("a-total", lang, total=f"{p.total_us:,.0f}"), ev)
            )
        for w in (*p.option_warnings, *p.warnings)[:3]:
            t.answers.append(Answer(say("q-run", lang), say("a-run-warning", lang, warning=w), ev))

    # the log: where the run was; the symptom against the prediction
    pasted_logs = [a.text for a in found.of("log")]
    _read_logs(t)
    said = symptoms.reported(found.prose, pasted_logs, t.thread.title)
    for outcome, words_said in said[:1]:
        for p, src in runs[:1]:
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
                    [say("evidence-simai", lang, model=model), evidence.basis(src, lang)],
                )
            )
    cause.likely_cause(t, runs, said)
    cause.missing(t, files, said, simai_cmds)


def _read_logs(t: Triage) -> None:
    """Where the pasted logs say the run was, and (ns-3) what that costs in wall time."""
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
            t.answers.append(
                Answer(say("q-log", lang), say("a-log-error", lang, error=r.error), ev)
            )


def _severity(severity: object) -> str:
    name = getattr(severity, "name", None)
    return name.lower() if isinstance(name, str) else "info"


def _safe_run(
    data: bytes, backend: str, words: list[str], gpus: int | None, lang: str
) -> models.Prediction | None:
    """SimAI's run in the answer's language (the models' messages are translated where
    wkparse's catalog has them); None for options no command line could hold."""
    from wkparse.i18n import language

    try:
        with language(lang):
            return models.run(data, backend, words, gpus)
    except (ValueError, OSError):
        return None


def _findings_answer(
    t: Triage, src: sources.Source, checked: models.Checked, rule_lang: str
) -> None:
    lang = t.language
    for d in checked.diagnostics[:6]:
        line = src.thread_line(d.span.line)
        ev = [say("evidence-rule", lang, code=d.code, flag=rule_lang), evidence.basis(src, lang)]
        if line is not None and src.origin == "pasted":
            ev.append(evidence.line_of(line, lang))
        t.answers.append(
            Answer(
                say("q-findings", lang),
                say("a-finding", lang, code=d.code, line=d.span.line, message=d.message),
                ev,
            )
        )


def _meaning(t: Triage, src: sources.Source, e: object) -> None:
    lang = t.language

    def get(name: str) -> object:
        return getattr(e, name, None)

    t.answers.append(
        Answer(
            say("q-meaning", lang),
            say(
                "a-meaning",
                lang,
                represents=get("represents") or "",
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
