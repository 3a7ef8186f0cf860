"""The user's own numbers for a concept page that answers one of the thread's questions (its
`asks`): the page says how something works in general, and this says what it comes to for
the file or AICB preset the thread shows, read from the models (the header as SimAI reads it,
the file's rows, the file AICB writes for a preset). Nothing here is written for one thread:
each function belongs to a page and runs on whatever artefacts the thread holds."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from wkparse.threads import edits, evidence, sources
from wkparse.threads.phrases import gap, say
from wkparse.threads.questions import Question
from wkparse.threads.result import Answer, Triage

#: the rows AICB writes for the data-parallel gradient collectives (weight-gradient column)
_DP_ROWS = ("grad_norm", "grad_gather", "grad_param_comm")


def add(t: Triage, files: list[sources.Source], questions: list[Question]) -> None:
    """For each page a question asks, names or points back at that has numbers of its own,
    those numbers for the thread's artefacts, kept in `t.particular` under the page's id
    (and as evidence: the answer that gives the page says them instead)."""
    for q in questions:
        for ident in (*q.concepts, *q.refers_to):
            work = _BY_PAGE.get(ident)
            if work is None or ident in t.particular:
                continue
            found = work(t, files)
            if found is not None:
                t.particular[ident] = found
                if all(a.answer != found.answer for a in t.answers):
                    t.answers.append(found)


def _header(src: sources.Source) -> dict[str, int] | None:
    """The header values SimAI holds after line 1 (`tp`, `pp`, `ga`, ...), or None where it
    stops on the line or the policy is not a transformer's."""
    from wkparse.models.simai.header import first_line, read_header

    h = read_header(first_line(src.data))
    if h.stop is not None or not h.transformer:
        return None
    return dict(h.values)


def _dp_rows(data: bytes) -> list[tuple[str, str, int]]:
    """The file's data-parallel gradient rows shown: (name, collective, bytes), in order."""
    from wkparse.parse import parse_bytes

    out: list[tuple[str, str, int]] = []
    for row in parse_bytes(data).workload.rows:
        wg = row.fields.wg
        if row.name in _DP_ROWS and wg.size and wg.comm:
            out.append((row.name, wg.comm, wg.size))
        elif out:
            break
    return out


def _ga_schedule(t: Triage, files: list[sources.Source]) -> Answer | None:
    """What `ga` does in the user's file: nothing with PP 1; and when its DP collectives run."""
    lang = t.language
    for src in files:
        values = _header(src)
        if not values or not values.get("ga") or not values.get("pp"):
            continue
        ga, pp, tp = values["ga"], values["pp"], values.get("tp", 0)
        # with PP above 1 the bubble's factor for the file is the catalog answer's own
        # (`asked._bubble_factor`); with PP 1 what matters is that ga changes nothing
        said: list[str] = []
        if pp == 1 and not values.get("pp_comm"):
            said.append(say("p-ga-no-effect", lang, ga=ga, pp=pp, pp_comm=values.get("pp_comm", 0)))
        rows = _dp_rows(src.data)
        gpus = values.get("all_gpus", 0)
        if rows and tp and gpus and gpus % (tp * pp) == 0 and gpus // (tp * pp) > 1:
            listed = say("list-sep", lang).join(
                say("p-dp-row", lang, name=n, comm=c, size=s) for n, c, s in rows
            )
            said.append(say("p-ga-dp", lang, rows=listed, dp=gpus // (tp * pp), ga=ga))
        if not said:
            continue
        text = gap(lang).join(said)
        where = evidence.basis(src, lang)
        return Answer(
            say("q-concepts", lang), text, [_model("wkparse.models.simai.header", lang), where]
        )
    return None


#: a model preset named in the thread: `-m 7`, or the preset's model name (`gpt-7B`)
def _preset_sizes(text: str, presets: dict[str, str]) -> list[str]:
    found: list[str] = []
    for size, name in presets.items():
        parts = re.split(r"[_\s-]+", name)
        spelled = r"[-_ ]?".join(re.escape(p) for p in parts)
        if re.search(rf"(?i)(?<![\w-]){spelled}(?![\w])", text) or re.search(
            rf"(?<![\w-])-m\s+{re.escape(size)}(?![\w])", text
        ):
            found.append(size)
    return found


def _dp_size(t: Triage, files: list[sources.Source]) -> Answer | None:
    """The DP collective of the user's file, or of the file AICB's training script writes for
    the model preset the thread names (where the thread shows neither a file nor a command)."""
    lang = t.language
    for src in files:
        values = _header(src)
        rows = [r for r in _dp_rows(src.data) if r[1] == "REDUCESCATTER"]
        if values and rows:
            name, _comm, size = rows[0]
            text = say(
                "p-dp-file",
                lang,
                name=name,
                size=size,
                params=size // 4,
                tp=values.get("tp", 0),
                pp=values.get("pp", 0),
            )
            return Answer(
                say("q-concepts", lang),
                text,
                [_model("wkparse.models.aicb.training.rows", lang), evidence.basis(src, lang)],
            )
    if files or t.found.of("aicb-command"):
        return None
    return _preset_size(t)


def _preset_size(t: Triage) -> Answer | None:
    from wkparse.models.aicb.training.presets import SCRIPT_PRESETS

    lang = t.language
    said = [(0, t.thread.title), *t.found.prose]
    presets = {p.size: p.model_name for p in SCRIPT_PRESETS.values()}
    line, sizes = next(
        ((n, s) for n, x in said if (s := _preset_sizes(x, presets))), (None, list[str]())
    )
    if line is None or len(set(sizes)) != 1:
        return None  # no preset, or several: which one the user ran is not known
    size = sizes[0]
    made: list[_PresetRun] = []
    for at in _aicb_candidates(t):
        one = _preset_run(size, at)
        if one is not None and all(m.size != one.size for m in made):
            made.append(one)
    if not made or len({(m.tp, m.pp) for m in made}) != 1:
        return None
    sizes_said = say("list-sep", lang).join(
        say(
            "p-dp-preset-at" if m.whole else "p-dp-preset-at-shard",
            lang,
            revision=m.revision,
            params=m.size // 4,
            name=m.row,
            rs=m.size,
            ag=m.size // 2,
            whole=m.whole,
            whole_rs=4 * m.whole,
        )
        for m in made
    )
    first = made[0]
    text = say(
        "p-dp-preset", lang, size=size, model=presets[size], tp=first.tp, pp=first.pp, at=sizes_said
    )
    ev = [say("evidence-aicb", lang, revision=", ".join(m.revision for m in made))]
    ev.append(evidence.line_of(line, lang))
    return Answer(say("q-concepts", lang), text, ev)


def _aicb_candidates(t: Triage) -> list[str | None]:
    """The AICB the thread ran: the one it names; else master on its date and the aicb
    submodule SimAI pinned then (a user of either is as likely)."""
    aicb, simai = t.versions.get("aicb"), t.versions.get("simai")
    at = aicb.get("at") if isinstance(aicb, dict) else None
    out: list[str | None] = [at if isinstance(at, str) else None]
    pin = simai.get("aicb_pin") if isinstance(simai, dict) else None
    basis = aicb.get("basis") if isinstance(aicb, dict) else None
    period = aicb.get("period") if isinstance(aicb, dict) else None
    if basis == "period" and isinstance(period, list):  # a month: any master of it
        out += [str(c) for c in period]
    if basis in ("date", "period") and isinstance(pin, str):
        out += pin.split(" / ")
    return list(dict.fromkeys(out))


@dataclass(frozen=True)
class _PresetRun:
    """What AICB's training script writes for a `-m` preset at one revision."""

    revision: str
    tp: int
    pp: int
    #: the first DP REDUCESCATTER row: its name and bytes
    row: str
    size: int
    #: the parameters of the whole model (the same command at TP 1 and PP 1, through the
    #: generator itself, as the script cannot), 0 when the model cannot say
    whole: int = 0


def _preset_run(size: str, at: str | None) -> _PresetRun | None:
    from wkparse.models.aicb import AicbError, generate
    from wkparse.models.simai.header import first_line, read_header

    try:
        made = generate(f"sh scripts/megatron_workload_with_aiob.sh -m {size}", at=at)
    except AicbError:
        return None
    data = made.text().encode()
    rows = [r for r in _dp_rows(data) if r[1] == "REDUCESCATTER"]
    values = read_header(first_line(data)).values
    tp, pp = values.get("tp", 0), values.get("pp", 0)
    if not rows or not tp or not pp:
        return None
    whole = 0
    unsplit = {"tensor_model_parallel_size": "1", "pipeline_model_parallel": "1"}
    unsplit |= {"world_size": "1", "global_batch": "1", "micro_batch": "1"}
    argv = [a for a in made.invocation.argv if a.lstrip("-").split("=")[0] not in unsplit]
    argv += [f"--{k}={v}" for k, v in unsplit.items()]
    module = f"workload_generator.{made.revision.era.module}"
    try:
        alone = generate(["python", "-m", module, *argv], at=made.revision)
        found = [r for r in _dp_rows(alone.text().encode()) if r[1] == "REDUCESCATTER"]
        whole = found[0][2] // 4 if found else 0
    except AicbError:
        pass
    return _PresetRun(made.revision.label, tp, pp, rows[0][0], rows[0][2], whole)


def _model_size(t: Triage, files: list[sources.Source]) -> Answer | None:
    """The `-m` presets of the training script at the AICB the thread ran, and what any other
    value falls back to (the page says how to get a model no preset gives)."""
    from wkparse.threads.meaning import aicb_at, presets_at

    if edits.script_edited([(0, t.thread.title), *t.found.prose]) is not None:
        return None  # the stock script's presets are not those of the user's changed one
    lang = t.language
    text = presets_at(lang, aicb_at(t))
    return Answer(
        say("q-concepts", lang), text, [_model("wkparse.models.aicb.training.presets", lang)]
    )


def _model(module: str, lang: str) -> str:
    return say("evidence-model", lang, module=module)


_BY_PAGE: dict[str, Callable[[Triage, list[sources.Source]], Answer | None]] = {
    "behaviour-ga-schedule": _ga_schedule,
    "behaviour-dp-size": _dp_size,
    "behaviour-aicb-model-size": _model_size,
}
