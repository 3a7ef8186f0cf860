"""The whole triage: read the thread, find its artefacts, put the pieces together as a
maintainer would (rebuild the file, check names and counts, lint, explain, run SimAI on the
user's backend with the user's options), then answer in the thread's language."""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

from wkparse.triage import logs, models, sources, symptoms
from wkparse.triage.artefacts import Artefact, Found, extract
from wkparse.triage.language import detect
from wkparse.triage.phrases import outcome_word, say
from wkparse.triage.reading import Thread, read_thread
from wkparse.triage.render import markdown
from wkparse.triage.result import Answer, Finding, Triage
from wkparse.triage.scope import judge


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
    result.versions = _versions(when, stated_commits(thread))
    folder = Path(attachments) if attachments is not None else None
    if scope.value != "out":
        _work(result, folder, when)
    result.markdown = markdown(result)
    return result


#: a commit the thread names: a link into the repository, or "SimAI commit abc1234"
_COMMIT_LINK = re.compile(
    r"github\.com/aliyun/(aicb|SimAI)/(?:tree|commit|blob)/([0-9a-fA-F]{7,40})"
    r"|\b(SimAI|AICB|aicb)\b[^\n]{0,30}?\bcommit:?\s+([0-9a-fA-F]{7,40})\b"
)


def stated_commits(thread: Thread) -> dict[str, tuple[str, int]]:
    """`simai` / `aicb` -> (commit, line) for the commits the thread itself names."""
    found: dict[str, tuple[str, int]] = {}
    for number, text in [(0, thread.title), *thread.numbered()]:
        for m in _COMMIT_LINK.finditer(text):
            repo = (m.group(1) or m.group(3)).lower()
            found.setdefault(repo, (m.group(2) or m.group(4), number))
    return found


def _versions(date: str | None, stated: dict[str, tuple[str, int]]) -> dict[str, object]:
    from wkparse.aicb import AicbError
    from wkparse.aicb.revisions import LATEST, resolve
    from wkparse.simai.versions import UnknownVersion, in_force
    from wkparse.simai.versions import resolve as simai_resolve

    simai: dict[str, object] = {"model": models.MODEL.short}
    aicb: dict[str, object] = {}
    if "simai" in stated:
        commit, line = stated["simai"]
        try:
            v = simai_resolve(commit)
            simai.update(
                commit=v.short,
                label=v.label,
                why=f"named in the thread (line {line})",
                basis="stated",
                line=line,
            )
        except UnknownVersion:
            simai.update(
                commit=commit[:8],
                label=commit[:8],
                why=f"named in the thread (line {line}); not a commit wkparse tells apart",
                basis="stated",
                line=line,
            )
    elif date:
        try:
            v = in_force(date)
            simai.update(
                commit=v.short,
                label=v.label,
                why=f"master in force on {date}, the issue's date",
                basis="date",
                date=date,
            )
        except UnknownVersion as exc:
            simai.update(commit=None, why=str(exc), basis="before", date=date)
    else:
        simai.update(commit=None, why="no date in the issue", basis="none")
    at = stated["aicb"][0] if "aicb" in stated else sources._day(date)
    why = (
        f"named in the thread (line {stated['aicb'][1]})"
        if "aicb" in stated
        else (f"master in force on {date}" if date else "no date in the issue: the latest modelled")
    )
    basis = "stated" if "aicb" in stated else ("date" if date else "none")
    aicb.update(basis=basis, line=stated["aicb"][1] if "aicb" in stated else None, date=date)
    try:
        r = resolve(at) if at else LATEST
        aicb.update(revision=r.label, at=at, why=why)
    except AicbError as exc:
        aicb.update(revision=None, at=None, why=str(exc))
    return {"simai": simai, "aicb": aicb}


def _why(version: dict[str, object], lang: str) -> str:
    """Why this version, in the answer's language."""
    basis = str(version.get("basis") or "none")
    return say(f"why-{basis}", lang, date=version.get("date"), line=version.get("line"))


def _evidence_line(line: int | None, lang: str) -> str:
    if line is None:
        return ""
    return say("evidence-title", lang) if line == 0 else say("evidence-line", lang, line=line)


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
        else say("other-version", lang, simai=user_simai or "?")
    )
    aicb_v = t.versions.get("aicb", {})
    assert isinstance(aicb_v, dict)
    t.answers.append(
        Answer(
            say("q-versions", lang),
            say(
                "a-versions",
                lang,
                simai=simai_v.get("label") or "?",
                simai_why=_why(simai_v, lang),
                aicb_why=_why(aicb_v, lang),
                aicb=aicb_v.get("revision") or "?",
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
        ev = [_evidence_line(rb.artefact.line, lang)]
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
        _compare_names(t, rb.source, ev)
    pasted = sources.pasted(found)
    _names(t)
    _against(t, files + ([pasted] if pasted is not None else []))
    if pasted is not None and not any(_same_header(f.data, pasted.data) for f in files):
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
        gpus = _topology_gpus(found, cmd) if cmd.backend == "ns3" else None
        words = cmd.words if cmd.backend == "analytical" else []
        p = _safe_run(chosen.data, cmd.backend, words, gpus, lang)
        if p is None:
            continue
        p.line, p.program = (
            art.line,
            "SimAI_simulator" if cmd.backend == "ns3" else "SimAI_analytical",
        )
        runs.append((p, chosen))
        _gpus_answer(t, chosen, cmd, gpus, art.line)
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
        basis = _basis(src, lang)
        exit_text = "" if p.exit is None else f" (exit {p.exit})"
        ev = [say("evidence-simai", lang, model=model), basis]
        if p.line is not None:
            ev.append(_evidence_line(p.line, lang))
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
            if _agrees(outcome, p.outcome):
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
                    [say("evidence-simai", lang, model=model), _basis(src, lang)],
                )
            )
    _cause(t, runs, said)
    _missing(t, files, said, simai_cmds)


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
        ev = [_evidence_line(a.line, lang)]
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


def _against(t: Triage, files: list[sources.Source]) -> None:
    """Each attached or pasted file against the file AICB writes for the thread's command:
    the same, or what differs (line 1 as SimAI reads it, explain's facts, the rows)."""
    from wkparse.diff import diff
    from wkparse.parse import parse_bytes

    lang = t.language
    made = [f for f in files if f.origin == "aicb"]
    given = [f for f in files if f.origin != "aicb"]
    for g in given:
        for m in made:
            ev = [_basis(g, lang), _basis(m, lang)]
            if g.origin == "pasted":  # rows cut: only line 1 can be compared
                mine, theirs = _keys(g.data), _keys(m.data)
                keys = sorted(
                    k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k)
                )
                if not keys:
                    text = say("a-against-header", lang, made=m.name)
                    t.answers.append(Answer(say("q-against", lang), text, ev))
                    continue
            else:
                a, b = parse_bytes(g.data), parse_bytes(m.data)
                if a.diagnostics or b.diagnostics:
                    continue
                d = diff(a, b, g.name, m.name)
                ev.append(say("evidence-diff", lang))
                if d.equal:
                    text = say("a-against-same", lang, given=f"`{g.name}`", made=m.name)
                    t.answers.append(Answer(say("q-against", lang), text, ev))
                    continue
                keys = [h.key for h in d.header] + [f.label for f in d.facts]
            text = say(
                "a-against-differ",
                lang,
                given=say("pasted-line-1", lang) if g.origin == "pasted" else g.name,
                made=m.name,
                what=", ".join(keys[:6]) or say("rows-differ", lang),
            )
            t.answers.append(Answer(say("q-against", lang), text, ev))


def _keys(data: bytes) -> dict[str, str]:
    """Line 1's `key: value` pairs as written."""
    first = data.split(b"\n", 1)[0].decode("utf-8", "replace")
    return dict(re.findall(r"(\w+):\s*(\S+)", first))


def _same_header(a: bytes, b: bytes) -> bool:
    """Whether two files start with the same line 1 (a pasted excerpt of an attachment)."""
    return a.split(b"\n", 1)[0].split() == b.split(b"\n", 1)[0].split()


def _names(t: Triage) -> None:
    """What AICB's file names in the thread say: TP, PP, EP, and the DP and ga they imply."""
    from wkparse.aicb import parse_filename

    lang = t.language
    for a in t.found.of("file-name"):
        name = parse_filename(PurePosixPath(a.text).name)
        if name is None or name.tp < 1 or name.pp < 1:
            continue
        dp, rest = divmod(name.world, name.tp * name.pp)
        ga = ""
        if not rest and dp and name.gbs is not None and name.mbs:
            ga = f", ga {name.gbs // (name.mbs * dp)}" if name.gbs % (name.mbs * dp) == 0 else ""
        t.answers.append(
            Answer(
                say("q-name", lang),
                say(
                    "a-name",
                    lang,
                    model=name.model,
                    world=name.world,
                    tp=name.tp,
                    pp=name.pp,
                    ep=name.ep,
                    dp=dp if not rest else "?",
                    ga=ga,
                    seq=name.seq,
                ),
                [_evidence_line(a.line, lang), say("evidence-names", lang)],
            )
        )
        base = PurePosixPath(a.text).name
        for c in t.found.of("simai-command"):
            cmd = c.command
            w = cmd.option("-w", "--workload") if cmd is not None else None
            if cmd is None or cmd.backend != "ns3" or not w or PurePosixPath(w).name != base:
                continue
            gpus = _topology_gpus(t.found, cmd)
            if gpus is None:
                continue
            key = "a-gpus-name-same" if gpus == name.world else "a-gpus-name-differ"
            what = say("topology-of", lang, name=cmd.option("-n", "--network-topo"))
            t.answers.append(
                Answer(
                    say("q-gpus", lang),
                    say(key, lang, what=what, n=gpus, world=name.world),
                    [_evidence_line(c.line, lang), say("evidence-names", lang)],
                )
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


def _agrees(reported: str, predicted: str) -> bool:
    same = {
        "crash": {"crash", "abort"},
        "abort": {"abort", "crash"},
        "hang": {"hang", "silent-stop"},
        "silent-stop": {"silent-stop", "hang", "empty", "no-result"},
        "empty": {"empty", "silent-stop", "no-result", "hang"},
        "nan": {"nan", "infinite"},
        "no-result": {"no-result", "nan", "infinite", "empty"},
        "refuse": {"refuse"},
    }
    return predicted in same.get(reported, {reported})


def _basis(src: sources.Source, lang: str) -> str:
    if src.origin == "attachment":
        return say("basis-attachment", lang, name=src.name)
    if src.origin == "aicb":
        line = src.artefact.line if src.artefact else "?"
        return say("basis-aicb", lang, revision=src.revision, line=line)
    notes = []
    if src.cut_rows:
        notes.append(say("excerpt-cut", lang, n=src.cut_rows))
    if src.declared is not None:
        notes.append(say("excerpt-count", lang, declared=src.declared, shown=len(src.lines) - 2))
    excerpt = say("excerpt", lang, notes=say("list-sep", lang).join(notes)) if notes else ""
    line = src.artefact.line if src.artefact else "?"
    return say("basis-pasted", lang, line=line, excerpt=excerpt)


def _compare_names(t: Triage, made: sources.Source, ev: list[str]) -> None:
    lang = t.language
    for a in t.found.of("file-name"):
        base = PurePosixPath(a.text).name
        if "-world_size" not in base:
            continue
        key = (
            "a-names-same" if base == made.name or made.name.startswith(base) else "a-names-differ"
        )
        t.answers.append(
            Answer(
                say("q-names", lang),
                say(key, lang, line=a.line, made=made.name, named=base),
                [*ev, _evidence_line(a.line, lang)],
            )
        )


def _findings_answer(
    t: Triage, src: sources.Source, checked: models.Checked, rule_lang: str
) -> None:
    lang = t.language
    for d in checked.diagnostics[:6]:
        line = src.thread_line(d.span.line)
        ev = [say("evidence-rule", lang, code=d.code, flag=rule_lang), _basis(src, lang)]
        if line is not None and src.origin == "pasted":
            ev.append(_evidence_line(line, lang))
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
            [say("evidence-explain", lang), _basis(src, lang)],
        )
    )


def _topology_gpus(found: Found, cmd: object) -> int | None:
    from wkparse.triage.commands import Command

    assert isinstance(cmd, Command)
    name = cmd.option("-n", "--network-topo")
    if not name:
        return None
    base = PurePosixPath(name).name
    for t in found.topologies:
        if t.name == base and t.gpus:
            return t.gpus
    return None


def _gpus_answer(t: Triage, src: sources.Source, cmd: object, gpus: int | None, line: int) -> None:
    from wkparse.simai import first_line, read_header
    from wkparse.triage.commands import Command

    assert isinstance(cmd, Command)
    lang = t.language
    try:
        header = read_header(first_line(src.data))
        all_gpus = header.value("all_gpus")
    except Exception:
        return
    if not all_gpus:
        return
    if cmd.backend == "ns3":
        if gpus is None:
            return
        what = say("topology-of", lang, name=cmd.option("-n", "--network-topo"))
        n = gpus
    else:
        g = cmd.option("-g", "--gpus")
        if g is None or not g.isdigit():
            return
        what, n = say("gpus-of", lang, n=g), int(g)
    key = "a-gpus-same" if n == all_gpus else "a-gpus-differ"
    t.answers.append(
        Answer(
            say("q-gpus", lang),
            say(key, lang, what=what, n=n, all_gpus=all_gpus),
            [_evidence_line(line, lang), _basis(src, lang)],
        )
    )
    if n != all_gpus and cmd.backend == "ns3":
        t.cause = t.cause or say("cause-topology", lang, topo=n, all_gpus=all_gpus)


def _cause(
    t: Triage,
    runs: list[tuple[models.Prediction, sources.Source]],
    said: list[tuple[str, str]],
) -> None:
    lang = t.language
    reported = [o for o, _ in said]
    for p, src in runs:
        if p.outcome != "finish" and (not reported or any(_agrees(r, p.outcome) for r in reported)):
            t.cause = say(
                "cause-prediction",
                lang,
                message=p.message,
                simai=p.simai,
                backend=p.program or p.backend,
                basis=_basis(src, lang),
            )
            return
    for p, src in runs:
        if p.option_warnings and reported:
            t.cause = say(
                "cause-options",
                lang,
                warning=p.option_warnings[0],
                simai=p.simai,
                basis=_basis(src, lang),
            )
            return
    errors = [f for f in t.findings if f.severity == "error"]
    if errors:
        f = errors[0]
        t.cause = say(
            "cause-finding", lang, code=f.code, message=f.message, page=f"rules/{f.code}.toml"
        )
        return
    if t.cause:
        return
    t.cause = say("cause-none", lang)


def _missing(
    t: Triage, files: list[sources.Source], said: list[tuple[str, str]], simai_cmds: list[Artefact]
) -> None:
    lang = t.language
    if not files or (all(f.origin == "pasted" for f in files) and any(f.excerpt for f in files)):
        t.missing.append(say("missing-file", lang))
    ran_simai = bool(simai_cmds) or bool(said)
    if ran_simai:
        t.missing.append(say("missing-commit", lang))
    if said and not t.found.of("log"):
        t.missing.append(say("missing-log", lang))
    if said and not simai_cmds:
        t.missing.append(say("missing-command", lang))
    if any(
        a.command and a.command.backend == "ns3" and not a.command.option("-n") for a in simai_cmds
    ):
        t.missing.append(say("missing-topology", lang))
