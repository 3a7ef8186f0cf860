# ruff: noqa: RUF001 - Chinese punctuation in the patterns of the thread's words
"""What the thread asks a result, a size, a group or a topology line to mean, answered from
wkparse's models: a topic is answered only when the thread's own words raise it, and each
answer names the model it is read from and the line that asked.

The numbers come from the models (the busbw formula from `models.simai.comm`, the groups
from `models.simai.tables.decode_comm`, the DP collectives from the AICB model's rows, the
GPU count of a topology's first line from `threads.topology`), never from a table here."""

from __future__ import annotations

import re
from collections.abc import Iterator

from wkparse.digits import whole_number
from wkparse.threads import edits, evidence, result_rows, sources
from wkparse.threads.phrases import gap, say
from wkparse.threads.result import Answer, Triage

#: the words that raise each topic (matched on the title and the prose)
ASKS: dict[str, re.Pattern[str]] = {
    "unit": re.compile(r"(?i)\bunits?\b|单位|microsecond|nanosecond|微秒|纳秒|毫秒"),
    "busbw": re.compile(
        r"(?i)(?<![-\w])(?:busbw|algbw)(?![.\w])(?!\s*(?:参数|选项|option|flag|param|arg))"
        r"|bus ?bandwidth(?! file)|总线带宽"
    ),
    "size": re.compile(
        r"(?i)(?:all-?gather|reduce-?scatter|all-?reduce|all-?to-?all|collective|集合通信|通信)"
        r"[^。.?？\n]{0,60}(?:\bsize|大小|divide|除以|per[- ]rank|每个 ?rank)"
        r"|(?:\bsize|大小)[^。.?？\n]{0,40}(?:all-?gather|reduce-?scatter)"
    ),
    "groups": re.compile(r"ALLTOALL_EP|_DP_EP|(?i:\b(?:EP|TP|DP) group)|通信组"),
    "results": re.compile(
        r"(?i)(?:read|analy[sz]e|interpret|understand)\w*[^.?\n]{0,40}\bresults?\b"
        r"|结果[^。\n]{0,10}(?:怎么看|含义|分析|什么意思)"
    ),
    "dp": re.compile(
        r"grad_param_comm|grad_gather|dp_comm_size"
        r"|(?i:all-?gather[^.\n]{0,80}\bparams?\b|\bparams?\b[^.\n]{0,40}all-?gather)"
    ),
    "norm": re.compile(r"(?<![\w.])grad_norm(?![\w.])"),
    "scale-out": re.compile(
        r"(?i)scale[-_ ]?out|inter-?(?:node|machine|server)|cross[- ](?:node|server|machine)"
        r"|\b(?:between|across) (?:the )?(?:hosts|servers|nodes|machines)\b"
        r"|跨机|跨节点|机间"
    ),
    "matrix": re.compile(
        r"(?i)(?:transport|traffic|communication) matrix|GPU[- ]to[- ]GPU|point[- ]to[- ]point"
        r"|who (?:talks|sends)|between (?:the )?(?:hosts|GPUs)|internal host traffic"
        r"|\b(?:get|gen|generate|obtain|dump|output)\b[^.?\n]{0,30}\btraffic\b"
        r"|流量矩阵|通信矩阵|点到点"
    ),
    "presets": re.compile(r"megatron_workload_with_aiob\.sh"),
    # SimAI's `Layer::compute_time()` is the analytical collective time, not AIOB's
    "aiob": re.compile(r"(?i)\baiob(?![_\w])|comp_filepath|(?<!::)compute_time(?!\s*\()|计算时间"),
    "recompute": re.compile(r"(?i)recompute|重计算"),
    "train-iter": re.compile(r"train_iter"),
    "ns3-out": re.compile(
        r"(?i)empty|\bcsv\b|results?\b|output|EndToEnd|detailed|\bhang|stuck|no progress"
        r"|空|结果|输出|卡|没有进展|停"
    ),
}
#: what each topic's paragraph answers: a question opens with it only when one of the topic's
#: sets of patterns is all found in the question's words (`Question.context`); a topic raised
#: by an incidental word ("result" in "is the result deterministic?") is evidence at most
ANSWERS: dict[str, tuple[tuple[re.Pattern[str], ...], ...]] = {
    key: ((pattern,),) for key, pattern in ASKS.items() if key not in ("dp", "aiob", "ns3-out")
}
ANSWERS["dp"] = (
    (
        re.compile(r"(?i)grad_gather|grad_param_comm|dp_comm_size|\bDP\b[^.?？。]{0,20}comm"),
        re.compile(
            r"(?i)\bsizes?\b|大小|bytes?\b|字节|倍数|多少|mean|含义|意思|\bwhat\b|什么"
            r"|\bhow\b|怎么|如何|comput|计算|\bparam|参数"
        ),
    ),
    (re.compile(r"(?i)amount of data|数据量|倍数|total_params|参数量"),),
)
ANSWERS["aiob"] = (
    (
        re.compile(r"(?i)\baiob(?![_\w])|comp_filepath|compute_time|time_gpu|计算时间"),
        re.compile(
            r"(?i)\bunits?\b|单位|\bread|pars|section|段|time_gpu|microsec|nanosec|微秒|纳秒"
            r"|\bhow\b|如何|怎么|\bwhat\b|什么|mean|含义|意思"
        ),
    ),
)
ANSWERS["recompute"] = (
    (ASKS["recompute"],),
    (re.compile(r"(?i)compute_time\s*\*=\s*2|\bdoubl|加倍|翻倍|乘以 ?2"),),
)
ANSWERS["ns3-out"] = (
    (
        re.compile(
            r"(?i)empty|\bhang|stuck|no progress|\bstops?\b|\bstopped\b|nothing (?:is )?written"
            r"|ncclFlowModel|EndToEnd|detailed|\bcsv\b|为空|空的|卡|停|没有进展|没有(?:输出|结果)"
        ),
    ),
)


def answers(topic: str, words: str) -> bool:
    """Whether `topic`'s paragraph answers a question read in `words` (a question's context);
    an answer that is no topic's (a model's conclusion on the user's data) always may."""
    sets = ANSWERS.get(topic)
    if sets is None:
        return True
    return any(all(p.search(words) for p in one) for one in sets)


#: a run that stopped or left nothing: the ns-3 output files' timing bears on it
_NOTHING = re.compile(r"(?i)empty|\bhang|stuck|no progress|空|卡|没有进展|停")
#: results the user got and compares (the same, changed, deterministic): they were written
_COMPARED = re.compile(
    r"(?i)\b(?:same|identical|differ\w*|unchanged|determinis\w*)\b"
    r"|\b(?:no|not|n't|never)\s+(?:\w+\s+)?chang|一样|相同|不同|变化|不变"
)
_NS3 = re.compile(r"SimAI_simulator|\bns-?3\b|(?i:\bns3\b)|ncclFlowModel")
_TP = re.compile(r"(?i)(?<![\w-])tp\s*[=:]?\s*(\d{1,4})(?!\d)")
#: `-busbw` given, or asked about as an option
_OPTION = re.compile(r"(?<![\w-])-busbw(?![\w-])|(?i:busbw\s*(?:参数|选项|option|flag|param|arg))")


def answer(t: Triage, files: list[sources.Source], tp: int | None, pp: int | None = None) -> None:
    """Append the answers to what the thread asks things to mean (`tp`, `pp`: the file's, if
    known)."""
    from wkparse.threads.training_run import MEGATRON

    lang = t.language
    # a Megatron-LM launch's options are Megatron's: they raise no topic of AICB or SimAI
    said = [(0, t.thread.title), *((n, x) for n, x in t.found.prose if not MEGATRON.search(x))]
    ns3 = (
        any(
            a.command is not None and a.command.backend == "ns3"
            for a in t.found.of("simai-command")
        )
        or bool(t.found.of("topology"))
        or any(_NS3.search(x) for _, x in said)
    )
    why = any(_WHY_ASKED.search(x) for _, x in said)
    # the page on a collective's ns-3 flows, unless a question already gets it whole
    from wkparse.concepts import answering

    flows = not any(p.id == _FLOWS for _, x in said for p in answering(x))
    # the DP collectives are often named only in a pasted log
    for key, line in _raised(said, [*said, *t.thread.numbered()]):
        if key == "ns3-out" and not ns3:
            continue
        if key == "presets" and edits.script_edited(said) is not None:
            continue  # the stock script's presets are not those of the user's changed one
        if key == "matrix" and not _traffic_modelled(t):
            continue  # the traffic model speaks for one SimAI only: not the user's
        old_csv = _old_ns3_csv(t) if ns3 else ""
        stall = _stall(t) if key == "ns3-out" and any(_STALL.search(x) for _, x in said) else None
        where = key == "ns3-out" and any(_RESULTS_DIR.search(x) for _, x in said)
        for text, module in _facts(key, lang, files, aicb_at(t), old_csv, why, flows):
            if where:  # the user looks in SimAI_analytical's folder
                text = _joined(text, say("m-ns3-where", lang), lang)
            if stall is not None:  # the silence, with the collectives the thread shows
                text, module = _joined(text, stall[0], lang), f"{module}; {_RESULT}"
            if all(a.answer != text for a in t.answers):
                _add(t, text, module, line, key)
                if stall is not None:
                    t.answers[-1].evidence.append(evidence.line_of(stall[1], lang))
        if key in ("scale-out", "matrix") and files and _traffic_modelled(t):
            _traffic(t, files[0], line)
        if stall is not None:
            _example_busbw(t, _result_phases(t))
    _expert_rows(t, files)
    _shipped_examples(t, files)
    _shipped_compute(t, files)
    _backward(t)
    _topology_lines(t)
    if ns3:
        _groups_on_topology(t, tp, said, pp)
    _refused_option(t)


def _raised(
    said: list[tuple[int, str]], everything: list[tuple[int, str]]
) -> Iterator[tuple[str, int]]:
    """Each topic the thread raises, with the first line that raises it."""
    for key, pattern in ASKS.items():
        where = everything if key in ("dp", "norm") else said
        if key == "ns3-out":  # results compared were written: their writing is not asked
            where = [(n, x) for n, x in where if _NOTHING.search(x) or not _COMPARED.search(x)]
        line = next((n for n, x in where if pattern.search(x)), None)
        if line is None and where is said:  # a phrase wrapped over two lines
            line = next((n for n, x in _run_on(said) if pattern.search(x)), None)
        if line is not None:
            yield key, line
            if key == "size" and not any(ASKS["groups"].search(x) for _, x in said):
                yield "groups", line


def _run_on(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Each line with the next line's words, where the next line follows it: a topic the
    user's prose wraps over two lines ("no traffic between / hosts") is raised on the first."""
    out: list[tuple[int, str]] = []
    for i, (n, x) in enumerate(lines):
        after = lines[i + 1] if i + 1 < len(lines) else None
        glue = " " if x.isascii() else ""
        out.append((n, x + glue + after[1].lstrip() if after and after[0] == n + 1 else x))
    return out


def _traffic_modelled(t: Triage) -> bool:
    """Whether the user's SimAI is the one `wkparse traffic` models (its recorded build): the
    models run that very commit for the user, and SimAI changed nothing they run in between."""
    from wkparse.models.simai.traffic.model import SIMAI_COMMIT
    from wkparse.threads.versions import differs_for

    simai = t.versions.get("simai")
    if not isinstance(simai, dict) or t.simai is None or simai.get("older"):
        return False
    return t.simai.commit == SIMAI_COMMIT and not differs_for(simai, _TRAFFIC_AREAS)


#: the areas of SimAI whose changes would make the traffic model speak for another SimAI
_TRAFFIC_AREAS = ("workload", "system", "ns3")


def aicb_at(t: Triage) -> str | None:
    """The AICB the thread ran (a commit or a date), as `versions` decided it."""
    aicb = t.versions.get("aicb")
    at = aicb.get("at") if isinstance(aicb, dict) else None
    return at if isinstance(at, str) else None


def _old_ns3_csv(t: Triage) -> str:
    """Whether the user's SimAI writes the ns-3 backend's EndToEnd.csv of before 7f06c19c
    (no summary head; its own layer columns), not SimAI-Analytical's layout: `m-older`, or
    `m-maybe-older` where the thread's month holds masters on both sides; "" if not."""
    from wkparse.threads.versions import depends

    simai = t.versions.get("simai")
    if isinstance(simai, dict) and simai.get("older"):
        return "m-older"
    if depends(simai, "ns3_csv_summary"):
        return "m-maybe-older"
    return "m-older" if t.simai is not None and not t.simai.has("ns3_csv_summary") else ""


def _facts(
    key: str,
    lang: str,
    files: list[sources.Source],
    aicb_at: str | None = None,
    old_csv: str = "",
    why: bool = False,
    flows: bool = False,
) -> Iterator[tuple[str, str]]:
    """Each fact of topic `key` and what it is read from; `why`: the thread asks why (a
    factor, a formula), and the catalog page that says why is added; `flows`: how ns-3 cuts
    a collective is said with its size (the thread gets no page on it)."""
    if key == "unit":
        yield say("m-unit", lang), "wkparse.models.simai.report"
    elif key == "busbw":
        yield say("m-busbw", lang), "wkparse.models.simai.comm"
    elif key == "size":
        if flows:  # how ns-3 moves the size, where the page on its flows is not given
            text = _joined(say("m-size", lang), say("m-size-flows", lang), lang)
            yield text, f"wkparse.models.simai.comm; {_CONCEPT}{_FLOWS}"
        else:
            yield say("m-size", lang), "wkparse.models.simai.comm"
    elif key == "groups":
        yield say("m-groups", lang, pairs=_pairs(lang)), "wkparse.models.simai.tables"
    elif key == "dp":
        # what the rows are, then why their factors are 2 and 4 (the catalog's page)
        if why:
            text = _joined(say("m-dp", lang), _page_text(_WHY["dp"], lang), lang)
            yield text, f"wkparse.models.aicb.training.rows; {_CONCEPT}{_WHY['dp']}"
        else:
            yield say("m-dp", lang), "wkparse.models.aicb.training.rows"
        sizes = next((s for s in map(_dp_sizes, files) if s), None)
        if sizes:
            gather, comm = sizes
            yield (
                say("m-dp-file", lang, gather=gather, comm=comm, params=comm // 4),
                "wkparse.parse",
            )
    elif key == "norm":
        yield say("m-norm", lang), "wkparse.models.aicb.training.rows"
    elif key == "ns3-out":
        yield say("m-ns3-out", lang), "wkparse.models.simai.ns3"
    elif key == "results":
        from wkparse.models.simai.report import LAYER_HEADER, SUMMARY_KEYS
        from wkparse.models.simai.versions import SWITCHES

        columns = LAYER_HEADER.format(run="<run name>")
        text = say("m-columns", lang, columns=columns, summary=SUMMARY_KEYS)
        if old_csv:  # the layout above is of a later SimAI: say so, and what the user's had
            since = next(x.commit for x in SWITCHES if x.name == "ns3_csv_summary")
            whose = say(old_csv, lang, since=since)
            text = say("m-columns-before", lang, whose=whose, since=since, later=text)
        yield text, "wkparse.models.simai.report"
        yield say("m-unit", lang), "wkparse.models.simai.report"
        yield say("m-busbw", lang), "wkparse.models.simai.comm"
    elif key == "scale-out":
        yield say("m-scale-out", lang), "wkparse.models.simai.ns3"
    elif key == "matrix":
        yield say("m-matrix", lang), "wkparse.models.simai.traffic"
    elif key in ("aiob", "recompute", "train-iter"):
        yield say(f"m-{key}", lang), "wkparse.models.aicb.training.aiob"
    elif key == "presets":
        yield presets_at(lang, aicb_at), "wkparse.models.aicb.training.presets, .scripts"


#: an `_EP` collective and its size, in a pasted row
_EP_SIZE = re.compile(r"(?<![\w])([A-Z]+_(?:DP_)?EP)\s+(\d+)(?![\w])")
#: the thread says its expert-parallel degree is above 1 (EP>1, ep=8, --ep 4, expert ... 2)
_EP_ABOVE_ONE = re.compile(
    r"(?i)(?<![\w-])(?:--)?(?:ep|expert[_-]model[_-]parallel[_-]size)\s*(?:>\s*1|[=:：]?\s*"
    r"(?:[2-9]|\d{2,}))(?!\d)"
)


def _expert_rows(t: Triage, files: list[sources.Source]) -> None:
    """Pasted rows whose `_EP` collective moves bytes, with no line 1 in the thread: what
    they do hinges on the header's `ep:`, which the thread does not show, so the answer says
    it as a condition (WK407, WK801). A file with its line 1 is lint's to judge; a thread that
    gives its EP degree above 1 needs neither rule; an `_EP` word in prose or a CSV is no row."""
    if files or t.found.of("workload-header"):
        return
    if any(_EP_ABOVE_ONE.search(x) for _, x in [(0, t.thread.title), *t.found.prose]):
        return
    for row in t.found.of("workload-rows"):
        for m in _EP_SIZE.finditer(row.text):
            size = whole_number(m.group(2))
            if m.group(1).endswith("_DP_EP") or not size:
                continue  # a _DP_EP group is the DP group at ep 1; 0 B moves nothing
            # a thread on SimAI_simulator: what that backend does, without the analytical's
            ns3 = _on_ns3(t)
            key = "m-expert-unknown-ns3" if ns3 else "m-expert-unknown"
            text = say(key, t.language, token=m.group(1), size=f"{size:,}")
            rules = "rules/WK801.toml" if ns3 else "rules/WK407.toml, rules/WK801.toml"
            _add(t, text, rules, row.line)
            return


#: words that put a thread on SimAI_simulator (its ns-3 backend) or its outputs
_NS3 = re.compile(r"(?i)SimAI_simulator|ns-?3|ncclFlowModel")


def _on_ns3(t: Triage) -> bool:
    """Whether the thread speaks of SimAI_simulator only (not of SimAI_analytical)."""
    text = " ".join(x for _, x in [(0, t.thread.title), *t.found.prose])
    return bool(_NS3.search(text)) and "analytical" not in text.lower()


def presets_at(lang: str, at: str | None) -> str:
    """The `-m` presets of AICB's training script at the AICB the thread ran (`at`: a commit
    or a date; None: the latest), and the settings they force."""
    from wkparse.models.aicb import AicbError
    from wkparse.models.aicb.revisions import LATEST, resolve
    from wkparse.models.aicb.training.presets import (
        FALLBACK_PRESET,
        SCRIPT_PRESETS,
        V1_SCRIPT_PRESETS,
    )

    try:
        revision = resolve(at) if at else LATEST
    except AicbError:
        revision = LATEST
    era = revision.era
    known = V1_SCRIPT_PRESETS if era.first_generator else SCRIPT_PRESETS
    presets = [p for p in known.values() if p.size not in era.missing_presets]
    sizes = ", ".join(f"`{p.size}`" for p in presets)
    tp_keys = ("tensor_model_parallel_size", "tp_num")
    forced = say("list-sep", lang).join(
        f"`-m {p.size}`: {p.model_name}, tp {p.settings[k]}"
        for p in presets
        for k in tp_keys
        if k in p.settings
    )
    return say(
        "m-presets",
        lang,
        revision=revision.label,
        sizes=sizes,
        forced=forced,
        fallback=FALLBACK_PRESET.model_name,
    )


def _pairs(lang: str) -> str:
    """Where SimAI runs each kind of collective, read from its comm-type decoder."""
    from wkparse.models.simai.tables import decode_comm

    out = []
    for token, phase in (
        ("ALLGATHER", "fwd"),
        ("ALLGATHER", "wg"),
        ("ALLTOALL", "fwd"),
        ("ALLTOALL_EP", "fwd"),
    ):
        group = decode_comm(token, phase)[1].value
        column = say(f"m-column-{phase}", lang)
        out.append(say("m-group-pair", lang, token=token, column=column, group=group))
    return say("list-sep", lang).join(out)


def _dp_sizes(src: sources.Source) -> tuple[int, int] | None:
    """The weight-gradient sizes of the file's `grad_gather` and `grad_param_comm` rows."""
    from wkparse.parse import parse_bytes

    found: dict[str, int] = {}
    for row in parse_bytes(src.data).workload.rows:
        name, size = row.name, row.fields.wg.size
        if name in ("grad_gather", "grad_param_comm") and size and name not in found:
            found[name] = size
        if len(found) == 2:
            return found["grad_gather"], found["grad_param_comm"]
    return None


#: SimAI's log line for a collective of the backward pass
_BACKWARD = re.compile(r"(?:weight|input) grad collective issued for layer: (\S+?),?\s")


def _backward(t: Triage) -> None:
    """A log that reached a backward-pass collective: the forward pass is behind the run
    (a training step issues every row's forward, then the backward from the last row)."""
    for a in t.found.of("log"):
        layers = _BACKWARD.findall(a.text)
        if layers:
            text = say("m-backward", t.language, layer=layers[-1])
            _add(t, text, "wkparse.models.simai.ns3", a.line)
            return


def _topology_lines(t: Triage) -> None:
    """A pasted topology file's first line, read field by field."""
    from wkparse.threads.topology import first_line

    for topo in t.found.topologies:
        line = first_line(topo.text) if topo.source == "file" else None
        if line is None or not topo.gpus or not topo.per_server:
            continue
        nodes, per, nvs, switches, links, gpu = line
        text = say(
            "m-topo-line",
            t.language,
            text=topo.text,
            nodes=nodes,
            per=per,
            nvs=nvs,
            switches=switches,
            links=links,
            gpu=gpu,
            gpus=topo.gpus,
            servers=topo.gpus // per,
        )
        _add(t, text, "wkparse.threads.topology", topo.line)


#: the user says they changed a file (then SimAI's copy is not what they ran)
_CHANGED = re.compile(r"(?i)\b(?:modif|edit|chang)\w*|改了|修改|改成|改为")


#: a header's own keys quoted in prose: the thread says what its file holds
_HEADER_SAID = re.compile(
    r"\b(?:model_parallel_NPU_group|all_gpus|checkpoint_initiates)\b\s*[:=]?\s*\d"
    r"|\bHYBRID_TRANSFORMER\w*|^\s*MICRO\b",
    re.MULTILINE,
)
#: a document the user follows (SimAI's Tutorial shows example paths with other contents)
_FOLLOWS_DOCS = re.compile(r"(?i)\btutorial\b|教程")


def _not_shipped(t: Triage, files: list[sources.Source], page_docs_differ: bool) -> bool:
    """Whether the thread says anything that makes SimAI's shipped example not the file the
    user ran: they changed it, show a file or quote its header, or follow a document that
    shows other contents at that path."""
    said = [t.thread.title, *(x for _, x in t.found.prose)]
    return (
        any(_CHANGED.search(x) or _HEADER_SAID.search(x) for x in said)
        or any(f.origin in ("pasted", "attachment") for f in files)
        or (page_docs_differ and any(_FOLLOWS_DOCS.search(x) for x in said))
    )


def _shipped_examples(t: Triage, files: list[sources.Source]) -> None:
    """What SimAI's own example file a command runs holds, from its catalog page, where
    nothing in the thread makes it another file (`_not_shipped`)."""
    from pathlib import PurePosixPath

    from wkparse.concepts import find
    from wkparse.models.simai.examples import is_example

    lang = t.language
    seen: set[str] = set()
    for art in t.found.of("simai-command"):
        w = art.command.option("-w", "--workload") if art.command else None
        if not w or not is_example(w) or sources.matching(files, w) is not None:
            continue
        page = find(PurePosixPath(w).name)
        if page is None or page.id in seen:
            continue
        if _not_shipped(t, files, bool(page.docs_say.en)):
            continue
        seen.add(page.id)
        page_answer(t, page.id, [evidence.line_of(art.line, lang)])


def _shipped_compute(t: Triage, files: list[sources.Source]) -> None:
    """A file the user shows whose attention and MLP rows carry the compute times AICB writes
    from its shipped Example.txt: those are that file's measurements, not the user's GPU's."""
    from wkparse.models.aicb.training.aiob import shipped_layer_times
    from wkparse.parse import parse_bytes

    attention, mlp = shipped_layer_times()
    lang = t.language
    for src in files:
        if src.origin not in ("pasted", "attachment"):
            continue
        times: dict[str, set[int]] = {"attention": set(), "mlp": set()}
        for row in parse_bytes(src.data).workload.rows:
            for kind, seen in times.items():
                if (row.name or "").startswith(kind):
                    seen.add(row.fields.fwd.compute or -1)
        if not (times["attention"] and times["mlp"]):
            continue
        if times["attention"] <= attention and times["mlp"] <= mlp:
            text = say(
                "m-shipped-times",
                lang,
                attention=", ".join(f"{v:,}" for v in sorted(times["attention"])),
                mlp=", ".join(f"{v:,}" for v in sorted(times["mlp"])),
            )
            ev = [say("evidence-model", lang, module="wkparse.models.aicb.training.aiob")]
            _beside(t, Answer(say("q-meaning", lang), text, [*ev, evidence.basis(src, lang)]))
            return


def page_answer(t: Triage, ident: str, more: list[str]) -> None:
    """A catalog page's definition as what the file describes, cited to the page (`more`: the
    evidence that makes the page bear on this thread)."""
    from wkparse.concepts import find

    lang = t.language
    page = find(ident)
    if page is None:
        return
    ev = [evidence.page(page.id, lang), *more]
    text = page.inline(lang)
    if all(a.answer != text for a in t.answers):
        _beside(t, Answer(say("q-meaning", lang), text, ev))


def _beside(t: Triage, answer: Answer) -> None:
    """`answer` after the last one to the same question, so that question is one section."""
    same = [i for i, a in enumerate(t.answers) if a.question == answer.question]
    t.answers.insert(same[-1] + 1 if same else len(t.answers), answer)


def _groups_on_topology(
    t: Triage, tp: int | None, said: list[tuple[int, str]], pp: int | None = None
) -> None:
    """Where the TP groups sit on each topology the thread names (SimAI_simulator's groups);
    with the file's PP above 1, its DP group against the file's DP (the catalog's ns3-dp:
    SimAI_simulator takes PP as 1)."""
    lang = t.language
    tps: list[tuple[int, int | None]] = [(tp, None)] if tp else []
    if not tps:
        for number, x in said:
            for m in _TP.finditer(x):
                value = whole_number(m.group(1))
                if value is not None and value > 0 and value not in [v for v, _ in tps]:
                    tps.append((value, number))
    topologies = [x for x in t.found.topologies if x.gpus and x.per_server][:2]
    for topo in topologies:
        assert topo.gpus is not None and topo.per_server is not None
        if not tps:  # the file's TP unknown: the GPU count is still the topology's
            text = say("m-ns3-gpus", lang, gpus=topo.gpus)
            ev = [say("evidence-model", lang, module="wkparse.models.simai.ns3")]
            t.answers.append(
                Answer(say("q-groups", lang), text, [*ev, evidence.line_of(topo.line, lang)])
            )
        for value, line in tps[:2]:
            if topo.gpus % value:
                continue
            per = topo.per_server
            place = (
                say("m-in-server", lang, per=per)
                if value <= per and per % value == 0
                else say("m-across", lang, servers=-(-value // per), per=per)
            )
            text = say(
                "m-ns3-groups",
                lang,
                gpus=topo.gpus,
                tp=value,
                place=place,
                dp=topo.gpus // value,
            )
            if line is None and pp is not None and pp > 1 and topo.gpus % (value * pp) == 0:
                real = topo.gpus // (value * pp)
                text += say("m-ns3-pp-one", lang, pp=pp, real=real, times=pp)
            ev = [say("evidence-model", lang, module="wkparse.models.simai.ns3")]
            ev.append(evidence.line_of(topo.line, lang))
            if line is not None:
                ev.append(evidence.line_of(line, lang))
            t.answers.append(Answer(say("q-groups", lang), text, ev))


def _traffic(t: Triage, src: sources.Source, line: int) -> None:
    """The user's file through the traffic model: the bytes inside and between servers, and
    the dimensions that cross, on the thread's topology (else all_gpus, 8 per server)."""
    from wkparse.models.simai.traffic import (
        NotModelled,
        TopologyError,
        TrafficError,
        model_traffic,
        stated,
    )

    lang = t.language
    if src.origin == "pasted" and src.excerpt:
        return  # an excerpt's rows are not the run's
    topo = next((x for x in t.found.topologies if x.gpus and x.per_server), None)
    try:
        if topo is not None and topo.gpus and topo.per_server:
            run = model_traffic(src.data, stated(topo.gpus, topo.per_server))
        else:
            m = re.search(rb"all_gpus:?\s*(\d+)", src.data[:4096])
            if m is None or int(m.group(1)) < 1:
                return
            run = model_traffic(src.data, stated(int(m.group(1))))
    except (TrafficError, NotModelled, TopologyError):
        return
    t_ = run.topology
    intra, _, inter, _ = run.server_split()
    nvls = sum(b for (s, d), (b, _) in run.pairs.items() if max(s, d) >= t_.gpus)
    crossing = [
        kind
        for kind, pairs in run.pairs_by_dimension.items()
        if any(max(p) < t_.gpus and t_.server(p[0]) != t_.server(p[1]) for p in pairs)
    ]
    text = say(
        "m-traffic-file",
        lang,
        gpus=t_.gpus,
        per=t_.gpus_per_server,
        intra=intra,
        inter=inter,
        nvls=say("m-traffic-nvls", lang, nvls=nvls) if nvls else "",
        crossing=say("m-traffic-crossing", lang, dims=", ".join(crossing))
        if crossing
        else say("m-traffic-none", lang),
    )
    if all(a.answer != text for a in t.answers):
        _add(t, text, "wkparse.models.simai.traffic", line)


def _refused_option(t: Triage) -> None:
    """`-busbw` named in the thread: why SimAI refuses it, and the options that replace it."""
    from wkparse.models.simai.options import USAGE_LINE, knows, refusal_reason
    from wkparse.models.simai.versions import DEFAULT

    line = next(
        (n for n, x in [(0, t.thread.title), *t.thread.numbered()] if _OPTION.search(x)), None
    )
    version = t.simai or DEFAULT  # the SimAI the thread ran
    if line is None or knows(version, "-busbw"):
        return
    options = ", ".join(f"`{o}`" for o in ("-nv", "-nic", "-n_p_s") if knows(version, o))
    from wkparse.i18n import language

    with language(t.language):
        reason = refusal_reason("-busbw", version)
    both = all(knows(version, o) for o in ("-g_p_s", "-g_type", "-nic_t"))
    text = say(
        "m-option",
        t.language,
        reason=reason,
        usage=USAGE_LINE,
        options=options,
        models=say("m-option-models", t.language) if both else "",
    )
    _add(t, text, "wkparse.models.simai.options", line)


#: the catalog page that says why a topic's facts are so, cited beside the model
_WHY = {"dp": "behaviour-dp-gradient-step"}
_CONCEPT = "concept:"


#: the thread looks for its results in a `results/` folder
_RESULTS_DIR = re.compile(
    r"(?i)(?<![\w./-])results/|\bresults? (?:directory|folder|dir)\b|results? ?(?:目录|文件夹)"
)
#: the thread says its run stopped printing, hangs or sits still
_STALL = re.compile(
    r"(?i)\bhang|\bhung\b|\bstuck\b|no (?:more )?output|stops? (?:printing|responding)|silent"
    r"|freez|卡住|卡死|停(?:下|了|止|住)|不再输出|没有.{0,8}(?:输出|提示|报错)|不动了"
)


_RESULT = "wkparse.threads.result_rows"


def _result_phases(t: Triage) -> list[result_rows.Phase]:
    return [p for a in t.found.of("log") for p in result_rows.phases(a.line, a.text)]


def _stall(t: Triage) -> tuple[str, int] | None:
    """An ns-3 run that went silent, with an analytical result pasted whose collectives are
    several GB (algbw x time): SimAI_simulator takes a long silent wall time to simulate them.
    The sentence and the result's line; None where the result shows no such collective."""
    lang = t.language
    big = [p for p in _result_phases(t) if p.size >= 1e9]
    if not big:
        return None
    first, largest = big[0], max(big, key=lambda p: p.size)
    named = [first] if largest is first else [first, largest]
    shown = say("list-sep", lang).join(
        say(
            "m-stall-collective",
            lang,
            layer=p.layer,
            phase=say(f"m-phase-{p.phase}", lang),
            gb=f"{p.size / 1e9:.2f}",
            algbw=f"{p.algbw:.2f}",
            us=f"{p.total_us:,.0f}",
        )
        for p in named
    )
    return say("m-stall", lang, shown=shown), first.line


def _example_busbw(t: Triage, rows: list[result_rows.Phase]) -> None:
    """The run's busbw values, where they are all of SimAI's example `busbw.yaml` and the
    user's SimAI still reads a `-busbw` file: that file (the result alone cannot tell a copy)."""
    from wkparse.models.simai.busbw_file import parse_yaml
    from wkparse.models.simai.options import example_busbw

    if not rows or t.simai is None or t.simai.has("cal_busbw"):
        return  # from 26b4574b the bandwidths come from cal_busbw, not a file
    with open(example_busbw(), encoding="utf-8") as f:
        example = parse_yaml(f.read(), with_pp=True)
    seen = sorted({p.busbw for p in rows if p.busbw > 0})
    where = {v: [k for k, x in example.values.items() if x == v] for v in seen}
    if len(seen) < 2 or not all(where.values()):
        return
    pairs = say("list-sep", t.language).join(
        f"{v:g}: " + ", ".join(f"{g} {c}" for g, c in where[v]) for v in seen
    )
    _add(
        t,
        say("m-busbw-example", t.language, pairs=pairs),
        f"wkparse.models.simai.busbw_file; {_CONCEPT}busbw-file",
        rows[0].line,
    )


#: the thread asks why something is so, or where a factor comes from
_WHY_ASKED = re.compile(
    r"(?i)\bwhy\b|\bfactors?\b|multipl(?:ier|ied)|coefficient|how (?:is|are|was|were|do|does)"
    r"\b[^.?\n]{0,40}(?:comput|calculat|deriv|determin|obtain)|为什么|为何|倍数|系数|怎么得|如何得"
)


def _joined(first: str, second: str, lang: str) -> str:
    if not second:
        return first
    return first + gap(lang) + second


#: the catalog page on how SimAI_simulator cuts a collective into flows
_FLOWS = "behaviour-ns3-packets"


def _page_text(ident: str, lang: str) -> str:
    from wkparse.concepts import find

    page = find(ident)
    return page.inline(lang) if page else ""


def _cite(module: str, lang: str) -> str:
    if module.startswith("rules/"):
        return module
    if module.startswith(_CONCEPT):
        return evidence.page(module.removeprefix(_CONCEPT), lang)
    return say("evidence-model", lang, module=module)


def _add(t: Triage, text: str, module: str, line: int, topic: str = "") -> None:
    """`module`: what the text is read from, several joined by `; ` (a model, a rule page or
    `concept:<id>`)."""
    lang = t.language
    ev = [_cite(m, lang) for m in module.split("; ")]
    ev.append(evidence.line_of(line, lang))
    t.answers.append(Answer(say("q-concepts", lang), text, ev, topic))
