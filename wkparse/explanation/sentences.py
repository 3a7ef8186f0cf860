"""The words of an explanation: the summary, the answered questions and the notes.

Each function reads a finished `Explanation` (the facts) and returns plain sentences saying
what the file stands for and what SimAI does with what is written; nothing here counts rows.
Sentences go through `wkparse.i18n` (`_`, and `_plural` for counted nouns), so they come out
in the language in effect; identifiers, keys and numbers are filled in as written.
"""

from __future__ import annotations

from collections import Counter
from pathlib import PurePath

from wkparse import syntax
from wkparse.explanation.model import Explanation
from wkparse.explanation.routing import GROUP_LABELS, TRANSFORMER_DIALECTS
from wkparse.explanation.units import as_written, human_bytes, percent
from wkparse.i18n import _, _plural
from wkparse.parse import STDIN_NAME


def represents(e: Explanation) -> str:
    """The summary: what the file stands for, in plain words, from the facts above."""
    if e.bom and e.policy is not None:
        return _(
            "A UTF-8 byte-order mark precedes the policy word, so SimAI cannot decode the "
            "parallelization strategy and stops with exit 1. Read without it: "
        ) + _represents(e)
    return _represents(e)


def _represents(e: Explanation) -> str:
    if e.dialect == "transformer":
        return _represents_training(e)
    if e.dialect == "inference":
        return _represents_inference(e)
    if e.dialect == "micro":
        return _represents_micro(e)
    if e.dialect == "unknown":
        if e.policy is None:
            return _unread(e) or _("A file without a policy line: SimAI cannot read it.")
        if e.bom:
            text = _(
                "The first word, {policy} (a UTF-8 byte-order mark precedes it), is no "
                'parallelism policy SimAI knows: SimAI stops with exit 1 ("unable to decode '
                'the workload parallelization strategy").'
            )
        else:
            text = _(
                "The first word, {policy}, is no parallelism policy SimAI knows: SimAI stops "
                'with exit 1 ("unable to decode the workload parallelization strategy").'
            )
        return text.format(policy=repr(e.policy))
    return _represents_astra(e)


def _unread(e: Explanation) -> str | None:
    """Why the file was not read, when the parser stopped at line 1."""
    code = next((f.code for f in e.findings if f.code in _UNREAD_CODES), None)
    if code == syntax.WIDE_ENCODING:
        return _(
            "A text file in UTF-16 or UTF-32, not ASCII: SimAI cannot read it. Convert it to "
            "UTF-8 (`wkparse lint --fix` does) to have its content explained."
        )
    if code == syntax.CR_LINE_ENDS:
        return _(
            "A file whose lines end in a carriage return alone (classic Mac OS line ends): "
            "SimAI reads it all as line 1 and crashes. Convert the line ends to LF (`wkparse "
            "lint --fix` does) to have its content explained."
        )
    if code == syntax.NOT_TEXT:
        return _("Not a text file (binary data): SimAI cannot read it as a workload.")
    if code == syntax.FILE_TOO_LARGE:
        return _(
            "A file over wkparse's size limit, so it was not read; raise `max-bytes` to have "
            "it explained."
        )
    return None


#: the codes that stop the parser at line 1, each with its own summary in `_unread`
_UNREAD_CODES = (
    syntax.WIDE_ENCODING,
    syntax.CR_LINE_ENDS,
    syntax.NOT_TEXT,
    syntax.FILE_TOO_LARGE,
)


def _tp_phrase(e: Explanation) -> str:
    if e.tp is None:
        return _("one GPU")
    if e.tp == 1:
        return _("one GPU (TP 1, no tensor parallelism)")
    return _("one GPU of a TP group of {tp}").format(tp=e.tp)


def _once_phrase(e: Explanation) -> str:
    once = e.prologue_rows + e.epilogue_rows
    if not once:
        return ""
    rows = _plural(once, "{n} once-per-iteration row", "{n} once-per-iteration rows")
    return _(", plus {rows} ({before} before the groups, {after} after)").format(
        rows=rows, before=e.prologue_rows, after=e.epilogue_rows
    )


def _bubble_phrase(e: Explanation) -> str:
    if e.bubble_fraction is not None and e.pp is not None:
        return _(
            "the bubble formula (PP-1)/(GA*vpp) = {pp1}/({ga}*{vpp}) = {share} of the "
            "non-embedding layer time"
        ).format(pp1=e.pp - 1, ga=e.ga, vpp=e.vpp, share=percent(e.bubble_fraction))
    return _(
        "the bubble formula (PP-1)/(GA*vpp), which divides by zero here (ga {ga}, vpp {vpp}): "
        "SimAI reports the total time as NaN or Inf"
    ).format(ga=as_written(e.ga), vpp=as_written(e.vpp))


def _has_kind(e: Explanation, kind: str) -> bool:
    return any(k.kind == kind for k in e.kinds)


def _represents_training(e: Explanation) -> str:
    layers = e.layers_per_stage or 0
    pp = e.pp
    g = e.generation
    if e.groups == 0:
        if e.layers_in_body:
            return _(
                "One GPU's view of {layers} written without embedding_layer rows, so the "
                "micro-batch repetitions cannot be told apart ({rows} rows in all, on {tp})."
            ).format(
                layers=_plural(e.layers_in_body, "{n} transformer layer", "{n} transformer layers"),
                rows=f"{e.rows:,}",
                tp=_tp_phrase(e),
            )
        if e.ga == 0:
            return _(
                "No micro-batch at all: the header declares ga 0 and the body holds only {rows}, "
                "no transformer layer. AICB writes this when the global batch is smaller than "
                "micro_batch x DP (ga floors to 0); SimAI warns about ga 0 and its bubble "
                "formula divides by zero."
            ).format(
                rows=_plural(e.rows, "{n} once-per-iteration row", "{n} once-per-iteration rows")
            )
        return _(
            "A transformer-policy workload of {rows} for {tp}; its rows are not AICB's layer "
            "list (no embedding_layer groups, no attention or mlp rows), so each row is one "
            "layer run once per pass."
        ).format(rows=_plural(e.rows, "{n} row", "{n} rows"), tp=_tp_phrase(e))
    if e.ga is None:
        ga_part = _(" (no ga in the header)")
    elif e.ga != e.groups:
        ga_part = _(" (the header says ga {ga})").format(ga=e.ga)
    else:
        ga_part = _(" (ga)")
    micro = _("run once per micro-batch for {groups}").format(
        groups=_plural(e.groups, "{n} micro-batch", "{n} micro-batches")
    )
    if e.dp == 1:
        dp = _(" (DP 1: no data parallelism)")
    else:
        dp = _(" (one of {dp} data-parallel replicas)").format(dp=f"{e.dp:,}") if e.dp else ""
    once = _once_phrase(e)
    if not layers:
        pattern = e.structure.shapes[0].pattern if e.structure.shapes else "?"
        first = _(
            "One GPU's view of {groups}{ga_part} with no transformer layer (each group is only "
            "{pattern}), on {tp}{dp}{once}."
        ).format(
            groups=_plural(e.groups, "{n} micro-batch group", "{n} micro-batch groups"),
            ga_part=ga_part,
            pattern=pattern,
            tp=_tp_phrase(e),
            dp=dp,
            once=once,
        )
    elif (pp is None or pp <= 1) and g.model_layers != layers:
        # the whole model only when the layers are the preset's: a 12-layer sample of a
        # 80-layer model, or a model of unknown size, is "{layers}", not "the whole model"
        first = _("One GPU's view of {layers} on {tp}{dp}, {micro}{ga_part}{once}.").format(
            layers=_plural(layers, "{n} transformer layer", "{n} transformer layers"),
            tp=_tp_phrase(e),
            dp=dp,
            micro=micro,
            ga_part=ga_part,
            once=once,
        )
        if g.preset_layers is not None:
            first += _(" The {model} preset has {preset} layers.").format(
                model=g.name.model if g.name is not None else "",
                preset=g.preset_layers,
            )
    elif pp is None or pp <= 1:
        first = _(
            "One GPU's view of the whole model: all {layers} on {tp}{dp}, {micro}{ga_part}{once}."
        ).format(
            layers=_plural(layers, "{n} transformer layer", "{n} transformer layers"),
            tp=_tp_phrase(e),
            dp=dp,
            micro=micro,
            ga_part=ga_part,
            once=once,
        )
    if pp is None:
        if g.model_layers != layers:
            return first + _(" The header has no pp: key, so the file describes no pipeline split.")
        return first + _(
            " The header has no pp: key, so the file describes no pipeline split: the rows "
            "are the whole model."
        )
    if pp <= 1 and not (e.ga and e.vpp):
        # SimAI still divides (PP - 1) by ga x vpp: 0 / 0 prints as NaN
        # (wkparse.models.simai.reasons)
        return first + _(
            " With pp 1 there is no pipeline and no stage-to-stage traffic, but SimAI_analytical "
            "from b83ea3d4 divides the bubble by ga x vpp, which is 0 here: its bubble is NaN."
        )
    if pp <= 1:
        return first + _(
            " With pp 1 there is no pipeline: no stage-to-stage traffic and no bubble."
        )
    preset = g.preset_layers
    model = g.name.model if g.name is not None else _("the model")
    dropped = ""
    if not layers:
        pass
    elif preset is not None and preset == layers and preset != layers * pp:
        first = _(
            "One GPU's view of one representative pipeline stage that holds all {layers} of "
            "{model}'s layers (this generator did not divide num_layers by pp {pp}), "
            "{micro}{ga_part}{once}."
        ).format(layers=layers, model=model, pp=pp, micro=micro, ga_part=ga_part, once=once)
    else:
        first = _(
            "One GPU's view of one representative pipeline stage: {layers} of the model's "
            "{total} transformer layers ({layers} per stage x pp {pp}), {micro}{ga_part}{once}."
        ).format(layers=layers, total=layers * pp, pp=pp, micro=micro, ga_part=ga_part, once=once)
        if preset is not None and preset > layers * pp and preset // pp == layers:
            dropped = _(
                " {model} has {preset} layers (AICB preset): AICB floors {preset}/{pp} to "
                "{layers} per stage, so {lost} not simulated."
            ).format(
                model=model,
                preset=preset,
                pp=pp,
                layers=layers,
                lost=_plural(preset - layers * pp, "{n} layer is", "{n} layers are"),
            )
    if e.pp_comm_simai:
        pp_comm = _("pp_comm ({bytes} B)").format(bytes=f"{e.pp_comm_simai:,}")
    else:
        pp_comm = _("pp_comm (absent or 0 here, so none)")
    if pp == 2:
        second = _(
            " SimAI applies these same rows to both stages, so it simulates the other stage as "
            "identical to this one, and models stage-to-stage traffic only through {pp_comm} "
            "and {bubble}."
        )
    else:
        second = _(
            " SimAI applies these same rows to all {pp} stages, so it simulates the other "
            "{others} stages as identical to this one, and models stage-to-stage traffic only "
            "through {pp_comm} and {bubble}."
        )
    second = second.format(pp=pp, others=pp - 1, pp_comm=pp_comm, bubble=_bubble_phrase(e))
    if _has_kind(e, "loss"):
        third = _(
            " In a real pipeline only the first stage holds the embedding and only the last "
            "the loss; the file does not show that difference: every group here starts with "
            "embedding_layer and the loss rows (cross_entropy) come once, for every stage alike."
        )
    else:
        third = _(
            " In a real pipeline only the first stage holds the embedding and only the last "
            "the loss; the file does not show that difference: every group here starts with "
            "embedding_layer, for every stage alike."
        )
    return first + dropped + second + third


def _represents_inference(e: Explanation) -> str:
    ep = _(" with EP {ep}").format(ep=e.ep) if e.ep is not None else ""
    pp = bubble = ""
    if e.pp is not None and e.pp > 1:
        pp = _(
            ", under pp {pp}; SimAI applies these rows to each of the {pp} stages like a "
            "training stage"
        ).format(pp=e.pp)
        bubble = _(", pipeline bubble included ({bubble})").format(bubble=_bubble_phrase(e))
    return _(
        "An inference workload (mode: 1): {layers}, each once ({rows}), for {tp}{ep}{pp}. "
        "SimAI reads mode: nowhere: it simulates these rows as one training iteration "
        "(forward, input-gradient and weight-gradient phases){bubble}."
    ).format(
        layers=_plural(e.layers_in_body, "{n} layer", "{n} layers"),
        rows=_plural(e.rows, "{n} row", "{n} rows"),
        tp=_tp_phrase(e),
        ep=ep,
        pp=pp,
        bubble=bubble,
    )


def _collective_summary(e: Explanation) -> str:
    several = len({c.group for c in e.collectives if c.group is not None}) > 1
    parts = []
    for c in e.collectives:
        if c.group is None:
            continue
        if several and c.group == "ALL":
            text = _("{calls} x {collective} over all GPUs, {bytes}")
        elif several:
            text = _("{calls} x {collective} in the {group} group, {bytes}")
        else:
            text = _("{calls} x {collective}, {bytes}")
        parts.append(
            text.format(
                calls=f"{c.calls:,}",
                collective=c.collective,
                group=_(GROUP_LABELS[c.group]),
                bytes=human_bytes(c.bytes),
            )
        )
    return "; ".join(parts) if parts else _("none")


def _represents_micro(e: Explanation) -> str:
    if not e.rows:
        return _("A collective micro-benchmark ({policy} header) with no rows.").format(
            policy=e.policy
        )
    st = e.structure  # a body of identical groups is kept as its reference group
    rows = [*st.prologue, *st.reference, *st.body, *st.epilogue]
    sizes: list[int] = []
    kinds: list[str] = []
    for r in rows:
        for ph in r.phases:
            if ph.comm not in (None, "NONE"):
                if ph.comm not in kinds:
                    kinds.append(ph.comm or "")
                if ph.size is not None and ph.size not in sizes:
                    sizes.append(ph.size)
    what = " / ".join(kinds)
    span = ""
    if sizes:
        low, high = min(sizes), max(sizes)
        span = (
            _(" of {size}").format(size=human_bytes(low))
            if low == high
            else _(" of {low} to {high}").format(low=human_bytes(low), high=human_bytes(high))
        )
        if len(sizes) > 1:
            span += " (" + _plural(len(sizes), "{n} size", "{n} sizes") + ")"
    if e.policy == "MICRO":
        # SimAI and ASTRA-sim 1.0 issue layers[0]'s weight-gradient collective only
        # (Workload::iterate_micro_benchmark; concepts/behaviour-micro-policy.toml);
        # recorded: SimAI-Analytical stops on every MICRO file (rules/WK704.toml)
        where = _(
            "Under MICRO only the first row's weight-gradient collective is issued, once per "
            "pass (SimAI as ASTRA-sim 1.0); SimAI-Analytical dies of SIGFPE on it (MICRO sets "
            "neither TP nor PP, WK704)."
        )
    else:
        where = _(
            "It is written under a {policy} header, so SimAI runs weight-gradient-column "
            "collectives in the DP group (-g / (TP x PP) GPUs) and forward or input-gradient "
            "ones in the TP group of {tp}."
        ).format(policy=e.policy, tp=e.tp)
    if not kinds:
        text = _("A collective micro-benchmark: {rows}, none with a collective in any column.")
    elif e.rows == 1:
        text = _("A collective micro-benchmark: one row, {what}{span}, with no model behind it.")
    else:
        text = _(
            "A collective micro-benchmark: {rows}, each one {what}{span}, with no model behind "
            "them."
        )
    rows_text = _plural(e.rows, "{n} row", "{n} rows")
    return text.format(rows=rows_text, what=what, span=span) + " " + where


def _represents_astra(e: Explanation) -> str:
    n = _plural(e.rows, "{n} layer", "{n} layers")
    colls = _collective_summary(e)
    if e.dialect == "data":
        text = _(
            "A data-parallel workload (ASTRA-sim 1.0 policy DATA): {n}, each run once per pass; "
            "every GPU holds the whole model and its collectives run over all GPUs of the run. "
            "Collectives: {colls}."
        )
    elif e.dialect == "model":
        text = _(
            "A model-parallel workload (policy MODEL): {n} split across all GPUs; its "
            "collectives run over all GPUs of the run. Collectives: {colls}."
        )
    elif e.dialect in ("hybrid_data_model", "hybrid_model_data"):
        text = _(
            "A hybrid data- and model-parallel workload (policy {policy}): {n}; forward and "
            "input-gradient collectives run in the model-parallel group, weight-gradient ones "
            "in the data-parallel group (the policy decides which network dimensions each "
            "group spans). Collectives: {colls}."
        )
    elif e.dialect == "dlrm":
        text = _(
            "A DLRM workload (policy {policy}): {n}; forward and input-gradient collectives "
            "(the embedding all-to-alls) run in the model-parallel group, weight-gradient "
            "all-reduces of the MLPs in the data-parallel group. Collectives: {colls}."
        )
    else:
        counts = Counter(r.policy or "(none)" for r in e.structure.body)
        mix = ", ".join(f"{c} {p}" for p, c in counts.most_common())
        return _(
            "A per-layer workload (policy HYBRID_CUSTOMIZED): {n}, each naming its own policy "
            "in a 13th field ({mix}); each row's collectives run in the groups of its own "
            "policy. Collectives: {colls}."
        ).format(n=n, mix=mix, colls=colls)
    return text.format(n=n, colls=colls, policy=e.policy)


def answers(e: Explanation) -> list[tuple[str, str]]:
    """The two questions users ask of a pipeline-parallel training file, answered from it."""
    if e.dialect != "transformer" or not e.groups or not e.pp or e.pp <= 1:
        return []
    layers, pp = e.layers_per_stage or 0, e.pp
    g = e.generation
    model = g.name.model if g.name is not None else _("the model")
    total = g.preset_layers if g.preset_layers is not None else layers * pp
    if g.preset_layers is not None and g.preset_layers == layers:
        split = _(
            "No: each group holds all {layers} layers of {model} although pp is {pp} (this "
            "generator did not divide num_layers by pp), and SimAI still treats the rows as "
            "one stage's."
        ).format(layers=layers, model=model, pp=pp)
    else:
        vpp = _(", written as vpp: {vpp}").format(vpp=e.vpp) if e.vpp is not None else ""
        floored = (
            _(" = {value}, floored by AICB").format(value=f"{total / pp:.2f}") if total % pp else ""
        )
        split = _(
            "Yes. Each of the {groups} groups (one per micro-batch, ga {ga}) holds {layers} "
            "transformer layers: {total} layers / pp {pp}{floored}{vpp}. The file is one GPU's "
            "rows for one representative stage (a GPU of a TP group of {tp}); it is not a trace "
            "of every rank, and nothing in it says which stage."
        ).format(
            groups=e.groups,
            ga=e.ga,
            layers=layers,
            total=total,
            pp=pp,
            floored=floored,
            vpp=vpp,
            tp=e.tp,
        )
    same = _(
        "In SimAI, yes: no row depends on the stage index, SimAI applies the same rows to all "
        "{pp} stages and models the pipeline only through pp_comm and the bubble "
        "(PP-1)/(GA*vpp). In a real run the stages at the ends differ: the first also holds "
        "the input embedding, the last the output layer and the loss (cross_entropy); the "
        "file does not show that, since every group starts with embedding_layer and the loss "
        "rows are written once for every stage alike."
    ).format(pp=pp)
    question = _(
        "Does the file show only one pipeline stage ({layers} of {total} layers) on one GPU?"
    ).format(layers=layers, total=total)
    return [(question, split), (_("Are the other stages the same?"), same)]


def notes(e: Explanation) -> list[str]:
    """What SimAI does with what is written that is no lint finding: how it takes DP and when
    pp_comm costs time, and how the file was generated. Where the header contradicts the body
    or SimAI misreads a value, lint says so and explain shows that finding (`e.findings`)."""
    out: list[str] = []
    transformer = e.dialect in ("transformer", "inference") or (
        e.dialect == "micro" and e.policy in TRANSFORMER_DIALECTS
    )
    if transformer and e.all_gpus is not None and e.tp and e.pp:
        out.append(
            _(
                "SimAI-Analytical takes DP from its -g option, as -g / (TP x PP), not from "
                "all_gpus (which only feeds its zero check): run it with -g {gpus} to simulate "
                "DP {dp}."
            ).format(gpus=e.all_gpus, dp=e.dp)
        )
    if transformer and e.pp is not None and e.pp > 1 and e.pp_comm_simai:
        out.append(
            _(
                "pp_comm only costs time when SimAI runs with a PP overlap ratio (-pp_o) below "
                "1; with the default of 1 the exposed PP time is 0 whatever its value."
            )
        )
    out.extend(f"{note[0].upper()}{note[1:]}." for note in e.generation.notes)
    return out


def path_label(path: str | None) -> str:
    return PurePath(path).name if path and path != "-" else STDIN_NAME
