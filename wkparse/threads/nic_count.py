"""A SimAI_analytical command without `-n_p_s`, run again with it: what the unset NIC count
did to the user's result (its collectives' times wrap and land in the bubble) and what the
same command gives once the count is stated."""

from __future__ import annotations

import re
import shlex

from wkparse.models.simai.versions import SimaiVersion
from wkparse.threads import evidence, models, retry, sources
from wkparse.threads.phrases import say
from wkparse.threads.result import Answer, Triage

#: the thread speaks of the bubble (the share the user saw)
_BUBBLE = re.compile(r"bubble|气泡", re.IGNORECASE)
#: wkparse's count when the command gives no -g_p_s either (its stated set's)
_DEFAULT_NICS = 8


def with_nic_count(
    t: Triage, runs: list[tuple[models.Prediction, sources.Source]], version: SimaiVersion
) -> str | None:
    """For the first analytical run (a refused one with the options its SimAI does not know
    dropped) whose command gives no -n_p_s: the model's shares as given and with `-n_p_s`
    added (one NIC per GPU, as -g_p_s says), each an answer; returns the fix, for the
    opening."""
    from wkparse.i18n import language
    from wkparse.models.simai.fit import times_undefined
    from wkparse.models.simai.options import SimaiOptions, knows, parse

    lang = t.language
    if not knows(version, "-n_p_s"):
        return None
    commands = {a.line: a.command for a in t.found.of("simai-command") if a.command}
    for p, src in runs:
        cmd = commands.get(p.line) if p.line is not None else None
        if cmd is None or cmd.backend != "analytical" or src.excerpt or src.stand_in_times:
            continue
        words, dropped = cmd.words[1:], list[str]()
        if p.outcome == "refuse":
            words, dropped = retry.drop_unknown(words, version)
            if not dropped:
                continue
        opts = parse(words, version)
        if not isinstance(opts, SimaiOptions) or not times_undefined(opts):
            continue
        nics = opts.gpus_per_server or _DEFAULT_NICS
        fixed = [*words, "-n_p_s", str(nics)]
        try:
            with language(lang):
                given = models.run(src.data, "analytical", [cmd.words[0], *words], None, version)
                stated = models.run(src.data, "analytical", [cmd.words[0], *fixed], None, version)
        except (ValueError, OSError):
            continue
        if stated.outcome != "finish" or stated.shares is None:
            continue
        ev = [evidence.simai_model(version, "analytical", lang), evidence.basis(src, lang)]
        ev.append(evidence.line_of(p.line, lang))
        question = say("q-nics", lang)
        seen = any(_BUBBLE.search(x) for _, x in t.found.prose)
        tie = ""
        if given.shares is not None:
            text = say(
                "a-nics-given",
                lang,
                bubble=_percent(given.shares[0]),
                exposed=_percent(given.shares[1]),
            )
            if seen:
                text += say("a-nics-seen", lang)
                tie = say(
                    "a-nics-tie",
                    lang,
                    bubble=_percent(given.shares[0]),
                    exposed=_percent(given.shares[1]),
                )
            t.answers.append(Answer(question, text, ev))
        fix = say(
            "a-nics-fix",
            lang,
            drop=say("a-nics-drop", lang, words=" ".join(dropped)) if dropped else "",
            n=nics,
            command=shlex.join([cmd.words[0], *fixed]),
            bubble=_percent(stated.shares[0]),
            exposed=_percent(stated.shares[1]),
        )
        if opts.nvlink <= 0 and opts.nic <= 0:
            fix += say("a-nics-defaults", lang)
        if stated.shares[0] >= 50.0:
            fix += say("a-nics-bubble", lang)
        t.answers.append(Answer(question, fix, ev))
        return tie + fix
    return None


def _percent(value: float) -> str:
    return f"{value:.2f}%"
