"""The pieces of a thread against each other, as a maintainer checks them: the file the AICB
command writes against the name the thread gives and the file attached or pasted; what AICB's
file names record; the topology's GPU count against `all_gpus`, `-g` and the world size."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from wkparse.digits import whole_number
from wkparse.threads import evidence, sources
from wkparse.threads.artefacts import Found
from wkparse.threads.phrases import say
from wkparse.threads.result import Answer, Triage


def against_command(t: Triage, files: list[sources.Source]) -> None:
    """Each attached or pasted file against the file AICB writes for the thread's command:
    the same, or what differs (line 1 as SimAI reads it, explain's facts, the rows)."""
    from wkparse.difference import diff
    from wkparse.parse import parse_bytes

    lang = t.language
    made = [f for f in files if f.origin == "aicb"]
    given = [f for f in files if f.origin != "aicb"]
    for g in given:
        for m in made:
            ev = [evidence.basis(g, lang), evidence.basis(m, lang)]
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


def same_header(a: bytes, b: bytes) -> bool:
    """Whether two files start with the same line 1 (a pasted excerpt of an attachment)."""
    return a.split(b"\n", 1)[0].split() == b.split(b"\n", 1)[0].split()


def file_names(t: Triage) -> None:
    """What AICB's file names in the thread say: TP, PP, EP, and the DP and ga they imply."""
    from wkparse.models.aicb import parse_filename
    from wkparse.models.aicb.formulas import data_parallel
    from wkparse.models.aicb.formulas import ga as ga_of

    lang = t.language
    for a in t.found.of("file-name"):
        name = parse_filename(PurePosixPath(a.text).name)
        if name is None or name.tp < 1 or name.pp < 1:
            continue
        dp = data_parallel(name.world, name.tp, name.pp)
        ga = ""
        if dp and name.gbs is not None and name.mbs and name.gbs % (name.mbs * dp) == 0:
            ga = f", ga {ga_of(name.gbs, name.mbs, dp)}"
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
                    dp=dp if dp is not None else "?",
                    ga=ga,
                    seq=name.seq,
                ),
                [evidence.line_of(a.line, lang), say("evidence-names", lang)],
            )
        )
        base = PurePosixPath(a.text).name
        for c in t.found.of("simai-command"):
            cmd = c.command
            w = cmd.option("-w", "--workload") if cmd is not None else None
            if cmd is None or cmd.backend != "ns3" or not w or PurePosixPath(w).name != base:
                continue
            gpus = topology_gpus(t.found, cmd)
            if gpus is None:
                continue
            key = "a-gpus-name-same" if gpus == name.world else "a-gpus-name-differ"
            what = say("topology-of", lang, name=cmd.option("-n", "--network-topo"))
            t.answers.append(
                Answer(
                    say("q-gpus", lang),
                    say(key, lang, what=what, n=gpus, world=name.world),
                    [evidence.line_of(c.line, lang), say("evidence-names", lang)],
                )
            )


def same_name(base: str, made: sources.Source) -> bool:
    """Whether a file name the thread gives (maybe cut off) is the rebuilt file's."""
    return base == made.name or made.name.startswith(base)


def command_and_name(t: Triage, made: sources.Source, ev: list[str]) -> None:
    lang = t.language
    for a in t.found.of("file-name"):
        base = PurePosixPath(a.text).name
        if "-world_size" not in base:
            continue
        key = "a-names-same" if same_name(base, made) else "a-names-differ"
        t.answers.append(
            Answer(
                say("q-names", lang),
                say(key, lang, line=a.line, made=made.name, named=base),
                [*ev, evidence.line_of(a.line, lang)],
            )
        )


def topology_gpus(found: Found, cmd: object) -> int | None:
    from wkparse.threads.commands import Command

    assert isinstance(cmd, Command)
    name = cmd.option("-n", "--network-topo")
    if not name:
        return None
    base = PurePosixPath(name).name
    for t in found.topologies:
        if t.name == base and t.gpus:
            return t.gpus
    return None


def gpu_counts(t: Triage, src: sources.Source, cmd: object, gpus: int | None, line: int) -> None:
    from wkparse.models.simai import first_line, read_header
    from wkparse.threads.commands import Command

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
        number = whole_number(g)
        if number is None:
            return
        what, n = say("gpus-of", lang, n=g), number
    key = "a-gpus-same" if n == all_gpus else "a-gpus-differ"
    t.answers.append(
        Answer(
            say("q-gpus", lang),
            say(key, lang, what=what, n=n, all_gpus=all_gpus),
            [evidence.line_of(line, lang), evidence.basis(src, lang)],
        )
    )
    if n != all_gpus and cmd.backend == "ns3":
        t.cause = t.cause or say("cause-topology", lang, topo=n, all_gpus=all_gpus)
