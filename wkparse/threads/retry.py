"""A command SimAI refuses for an option it does not know, run again without that option:
what the user gets once the refusal is fixed the obvious way (the option dropped)."""

from __future__ import annotations

from wkparse.models.simai.versions import SimaiVersion
from wkparse.threads import evidence, models, sources
from wkparse.threads.phrases import outcome_word, say
from wkparse.threads.result import Answer, Triage


def without_unknown(
    t: Triage, runs: list[tuple[models.Prediction, sources.Source]], version: SimaiVersion
) -> None:
    """For each refused analytical run, the prediction at `version` (the SimAI the thread
    ran) with the options that SimAI does not know dropped."""
    from wkparse.i18n import language
    from wkparse.models.simai.options import knows

    lang = t.language
    commands = {a.line: a.command for a in t.found.of("simai-command") if a.command}
    for p, src in runs:
        cmd = commands.get(p.line) if p.line is not None else None
        if p.outcome != "refuse" or cmd is None or cmd.backend != "analytical":
            continue
        kept, dropped = _drop(cmd.words[1:], lambda w: knows(version, w))
        if not dropped:
            continue
        try:
            with language(lang):
                q = models.run(src.data, "analytical", [cmd.words[0], *kept], None, version)
        except (ValueError, OSError):
            continue
        if q.outcome == "refuse":
            continue
        notes = [*q.option_warnings, *q.warnings][:2]
        text = say(
            "a-without",
            lang,
            dropped=" ".join(dropped),
            outcome=outcome_word(q.outcome, lang),
            exit="" if q.exit is None else f" (exit {q.exit})",
            message=q.message,
        )
        text += "".join(" " + say("a-run-warning", lang, warning=w) for w in notes)
        ev = [evidence.simai_model(version, "analytical", lang), evidence.basis(src, lang)]
        ev.append(evidence.line_of(p.line, lang))
        t.answers.append(Answer(say("q-run", lang), text, ev))


def drop_unknown(words: list[str], version: SimaiVersion) -> tuple[list[str], list[str]]:
    """The words without each option SimAI at `version` does not know, and those dropped."""
    from wkparse.models.simai.options import knows

    return _drop(words, lambda w: knows(version, w))


def _drop(words: list[str], known: object) -> tuple[list[str], list[str]]:
    """The words without each unknown option and the value after it."""
    assert callable(known)
    kept: list[str] = []
    dropped: list[str] = []
    skip = False
    for i, w in enumerate(words):
        if skip:
            dropped.append(w)
            skip = False
        elif w.startswith("-") and not known(w):
            dropped.append(w)
            skip = i + 1 < len(words) and not words[i + 1].startswith("-")
        else:
            kept.append(w)
    return kept, dropped
