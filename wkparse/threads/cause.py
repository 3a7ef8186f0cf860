"""The answer's first sentence and its last section: the likely cause (a prediction that
matches the symptom, an option SimAI misreads, a lint error, a topology that disagrees) and
what is missing to be sure."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from wkparse.threads import evidence, models, sources, versions
from wkparse.threads.artefacts import Artefact
from wkparse.threads.phrases import outcome_word, say
from wkparse.threads.questions import Question
from wkparse.threads.result import Triage

#: what SimAI prints when a run ends normally (`pass: N finished`, `all passes finished`)
_FINISHED = re.compile(r"all passes finished|SimAI-\w+ finished|Simulation finished")
#: a picture in the thread (a screenshot of the output, which no tool reads)
_PICTURE = re.compile(r"<img\s|!\[[^\]]*\]\(")


def agrees(reported: str, predicted: str) -> bool:
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


def likely_cause(
    t: Triage,
    runs: list[tuple[models.Prediction, sources.Source]],
    said: list[tuple[str, str]],
    updates: dict[int, models.Prediction] | None = None,
    asks: Sequence[Question] = (),
) -> None:
    """`updates`: what the current SimAI does instead, for the runs where it differs (the
    fix "update SimAI"); `asks`: the thread's questions."""
    lang = t.language
    reported = [o for o, _ in said]
    # a failure the model predicts, or a lint error, is the cause of nothing the user did not
    # see: with nothing reported, only where the thread asks a cause or whether it is right
    unseen = not reported and _only_meaning(asks)
    for p, src in runs:
        if unseen:
            break
        if p.outcome != "finish" and (not reported or any(agrees(r, p.outcome) for r in reported)):
            t.cause = say(
                "cause-prediction",
                lang,
                message=p.message,
                simai=p.simai,
                backend=p.program or p.backend,
                basis=evidence.basis(src, lang),
            )
            now = (updates or {}).get(id(p))
            if now is not None:
                t.cause += say(
                    "cause-update",
                    lang,
                    current=now.simai,
                    outcome=outcome_word(now.outcome, lang),
                )
            return
    for p, src in runs:
        if p.option_warnings and reported:
            t.cause = say(
                "cause-options",
                lang,
                warning=p.option_warnings[0],
                simai=p.simai,
                basis=evidence.basis(src, lang),
            )
            return
    errors = [f for f in t.findings if f.severity == "error"] if not unseen else []
    simai = t.versions.get("simai")
    if isinstance(simai, dict) and t.simai is not None and versions.reader_differs(simai, t.simai):
        errors = []  # lint spoke for a SimAI that reads files otherwise than the user's
    # a file the model runs to the end cannot be the cause of a crash or a stop it reports
    unexplained = bool(reported) and any(
        not any(agrees(r, p.outcome) for r in reported) for p, _ in runs
    )
    if errors and not unexplained:
        f = errors[0]
        t.cause = say(
            "cause-finding", lang, code=f.code, message=f.message, page=f"rules/{f.code}.toml"
        )
        return
    if t.cause and not unexplained:
        return  # a disagreement found earlier (the topology's GPU count)
    # a thread that reports no failure and asks what things mean; one that reports a failure
    # no model ran on, only when its title asks
    answer = _asked(t, title_only=False) if not reported else None
    if reported and not runs:
        answer = _asked(t, title_only=True)
    t.cause = say("cause-answer", lang, answer=answer) if answer else say("cause-none", lang)


def _only_meaning(asks: Sequence[Question]) -> bool:
    """Whether the thread asks only what something means, how to do something or which
    version does what (no cause, no "is this right")."""
    return bool(asks) and all(q.kind in ("meaning", "howto", "version") for q in asks)


def _asked(t: Triage, title_only: bool) -> str | None:
    """The opening of a thread that asks what things mean: the first sentence of the models'
    answer to what its title asks, else (unless `title_only`) to what the file describes, else
    to the first term it asks about (the evidence below gives the rest)."""
    lang = t.language
    concepts, meaning = say("q-concepts", lang), say("q-meaning", lang)
    title = say("evidence-title", lang)
    ranked = [
        *(a for a in t.answers if a.question == concepts and title in a.evidence),
        *(a for a in t.answers if a.question in (meaning, concepts) and not title_only),
    ]
    for a in ranked:
        first = _SENTENCE_END.split(a.answer, maxsplit=1)[0].strip()
        if 20 <= len(first) <= 400:
            ended = first[-1] in ".?!\u3002\uff1f\uff01"
            return first if ended else first + ("\u3002" if lang == "zh" else ".")
    return None


_SENTENCE_END = re.compile(r"(?<=。)|(?<=[.?!])\s+(?=[A-Z`(])")


@functools.cache
def _result_values() -> frozenset[str]:
    """The catalog's pages of values SimAI's results hold: their columns, and the values the
    result files' pages name (busbw, algbw, the total time ...)."""
    from wkparse.concepts import concepts

    formulas = {p.id for p in concepts("formula")}
    named = {r for page in concepts("output-file") for r in page.related} & formulas
    return frozenset(named | {p.id for p in concepts("output-column")})


def _examples(simai_cmds: list[Artefact]) -> bool:
    """Whether every SimAI command runs one of SimAI's own example files."""
    from wkparse.models.simai.examples import is_example

    ws = [a.command.option("-w", "--workload") if a.command else None for a in simai_cmds]
    return bool(ws) and all(w and is_example(w) for w in ws)


def missing(
    t: Triage,
    files: list[sources.Source],
    said: list[tuple[str, str]],
    simai_cmds: list[Artefact],
    about_the_run: bool = True,
    asks: Sequence[Question] = (),
) -> None:
    """What the answer lacks, to ask for (`asks`: the thread's questions)."""
    lang = t.language
    kinds = [q.kind for q in asks]
    # the file is asked for where the answer rests on it: a run the user reports or asks the
    # cause of, or a file the thread shows only in part; a thread that asks only what
    # something means, how to do something or which version does what needs none, nor does
    # a run of SimAI's own example file
    about_a_run = bool(said) or bool(simai_cmds) or about_the_run
    cut = bool(files) and all(f.origin == "pasted" for f in files) and any(f.excerpt for f in files)
    no_run_asked = _only_meaning(asks)
    if ((not files and about_a_run) or cut) and not no_run_asked and not _examples(simai_cmds):
        # the AICB command is in the thread, but its rebuild is not the file that ran
        given = bool(t.found.of("aicb-command"))
        t.missing.append(say("missing-file-ran" if given else "missing-file", lang))
    ran_simai = bool(simai_cmds) or bool(said)
    simai_v = t.versions.get("simai")
    stated = isinstance(simai_v, dict) and simai_v.get("basis") == "stated"
    if ran_simai and not stated:
        t.missing.append(say("missing-commit", lang))
    # a run's output and command settle the cause of what the user saw, not a meaning
    run_said = bool(said) and not no_run_asked
    # its last lines settle a run that stopped, not one that finished with numbers the user
    # doubts (the result lines are asked for below)
    stopped = run_said and any(o != "finish" for o, _ in said)
    # a run whose output the thread shows only as a picture: its text and exit status
    pictured = not t.found.of("log") and any(_PICTURE.search(x) for _, x in t.thread.numbered())
    if stopped and pictured:
        t.missing.append(say("missing-end-picture", lang))
    elif stopped and not t.found.of("log"):
        t.missing.append(say("missing-log", lang))
    elif stopped and not any(_FINISHED.search(a.text) for a in t.found.of("log")):
        t.missing.append(say("missing-end", lang))
    if run_said and not simai_cmds:
        t.missing.append(say("missing-command", lang))
    if pictured and simai_cmds and not run_said and any(k in ("cause", "topic") for k in kinds):
        t.missing.append(say("missing-end-picture", lang))
    # the cause of a value SimAI reported, when the thread shows no line of its results
    doubted = any(q.kind in ("cause", "topic") and set(q.concepts) & _result_values() for q in asks)
    if doubted and not t.found.of("log"):
        t.missing.append(say("missing-result", lang))
    if any(
        a.command and a.command.backend == "ns3" and not a.command.option("-n") for a in simai_cmds
    ):
        t.missing.append(say("missing-topology", lang))
