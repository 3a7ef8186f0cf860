"""An option the thread names (in backticks) that AICB's training script does not know: the
script's option loop, as wkparse's AICB model runs it at the user's AICB, stops at the first
word it does not know, without an error, and drops it and every word after it; the file is
still written. Said where the thread is about AICB (its tracker, its name, the script).
An option the same line names that the script does know ("it should be `--ep 16`, not
`--ep_num 16`") is followed to the generator: what the script hands it for that option."""

from __future__ import annotations

import re

from wkparse.threads import evidence
from wkparse.threads.phrases import say
from wkparse.threads.result import Answer, Triage

#: an option in backticks, with its value where one follows
_NAMED = re.compile(r"`(--[a-z][a-z0-9_-]*)(?:[ =]([^`\s]+))?`")
_ABOUT_AICB = re.compile(r"(?i)\baicb\b|megatron_workload_with_aiob")


def unknown_to_script(t: Triage) -> Answer | None:
    """The first option the thread names that the script stops reading at; None if none."""
    from wkparse.i18n import language
    from wkparse.models.aicb import AicbError, generate
    from wkparse.models.aicb.training.scripts import TRAINING_SCRIPT

    text = "\n".join([t.thread.url, t.thread.title, *(x for _, x in t.found.prose)])
    if not _ABOUT_AICB.search(text):
        return None
    aicb = t.versions.get("aicb", {})
    at = aicb.get("at") if isinstance(aicb, dict) else None
    lang = t.language
    for line, prose in t.found.prose:
        for m in _NAMED.finditer(prose):
            option = m.group(1)
            try:
                with language("en"):  # the model's note is matched in its own words
                    made = generate(
                        ["sh", TRAINING_SCRIPT, option, m.group(2) or "1"],
                        at=at if isinstance(at, str) else None,
                    )
            except AicbError:
                continue
            if not any(f"stops reading options at {option!r}" in n for n in made.notes):
                continue
            revision = getattr(made.revision, "label", str(made.revision))
            text = say(
                "a-unknown-option", lang, option=option, script=TRAINING_SCRIPT, revision=revision
            )
            ev = [evidence.line_of(line, lang), say("evidence-aicb", lang, revision=revision)]
            return Answer(say("q-unknown-option", lang, option=option), text, ev)
    return None


def passed_beside(t: Triage, unknown: Answer) -> list[Answer]:
    """For each option on the unknown option's line that the script knows, what the script
    hands the generator for it at the user's AICB (the words its run adds to a run without
    it), where it hands anything: the spelling the thread offers instead, checked."""
    from wkparse.models.aicb import AicbError
    from wkparse.models.aicb.generation import handed
    from wkparse.models.aicb.training.scripts import TRAINING_SCRIPT

    lang = t.language
    aicb = t.versions.get("aicb", {})
    at = aicb.get("at") if isinstance(aicb, dict) else None
    at = at if isinstance(at, str) else None
    lines = [n for n, _ in t.found.prose if evidence.line_of(n, lang) in unknown.evidence]
    out: list[Answer] = []
    for line, prose in t.found.prose:
        if line not in lines:
            continue
        for m in _NAMED.finditer(prose):
            option, value = m.group(1), m.group(2) or "1"
            try:
                base, rev = handed(["sh", TRAINING_SCRIPT], at)
                run, _ = handed(["sh", TRAINING_SCRIPT, option, value], at)
            except AicbError:
                continue
            added = [w for w in run.argv if w not in base.argv]
            if any(f"{option!r}" in n for n in run.notes) or not added:
                continue  # the script stops at it, or hands nothing for it
            passed = say("list-sep", lang).join(f"`{w}`" for w in added)
            given = f"{option} {m.group(2)}" if m.group(2) else option
            text = say(
                "a-option-passed",
                lang,
                given=given,
                script=TRAINING_SCRIPT,
                revision=rev.label,
                passed=passed,
            )
            ev = [evidence.line_of(line, lang), say("evidence-aicb", lang, revision=rev.label)]
            out.append(Answer(say("q-option-passed", lang, option=given), text, ev))
    return out
