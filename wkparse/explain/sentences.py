"""The words of an explanation: the summary, the answered questions and the notes.

Each function reads a finished `Explanation` (the facts) and returns plain sentences saying
what the file stands for and what SimAI does with what is written; nothing here counts rows.
"""

from __future__ import annotations

from collections import Counter
from pathlib import PurePath

from wkparse import syntax
from wkparse.explain.model import Explanation
from wkparse.explain.routing import GROUP_LABELS, TRANSFORMER_DIALECTS
from wkparse.explain.units import human_bytes, percent


def represents(e: Explanation) -> str:
    """The summary: what the file stands for, in plain words, from the facts above."""
    if e.bom and e.policy is not None:
        return (
            "A UTF-8 byte-order mark precedes the policy word, so SimAI cannot decode the "
            "parallelization strategy and stops with exit 1. Read without it: " + _represents(e)
        )
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
            return _unread(e) or "A file without a policy line: SimAI cannot read it."
        bom = " (a UTF-8 byte-order mark precedes it)" if e.bom else ""
        return (
            f"The first word, {e.policy!r}{bom}, is no parallelism policy SimAI knows: SimAI "
            f'stops with exit 1 ("unable to decode the workload parallelization strategy").'
        )
    return _represents_astra(e)


#: what a file the parser stopped at line 1 is, by the code that stopped it
_UNREAD = {
    syntax.WIDE_ENCODING: (
        "A text file in UTF-16 or UTF-32, not ASCII: SimAI cannot read it. Convert it to UTF-8 "
        "(`wkparse lint --fix` does) to have its content explained."
    ),
    syntax.CR_LINE_ENDS: (
        "A file whose lines end in a carriage return alone (classic Mac OS line ends): SimAI "
        "reads it all as line 1 and crashes. Convert the line ends to LF (`wkparse lint --fix` "
        "does) to have its content explained."
    ),
    syntax.NOT_TEXT: "Not a text file (binary data): SimAI cannot read it as a workload.",
    syntax.FILE_TOO_LARGE: (
        "A file over wkparse's size limit, so it was not read; raise `max-bytes` to have it "
        "explained."
    ),
}


def _unread(e: Explanation) -> str | None:
    """Why the file was not read, when the parser stopped at line 1."""
    return next((_UNREAD[f.code] for f in e.findings if f.code in _UNREAD), None)


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n:,} {word if n == 1 else plural or word + 's'}"


def _tp_phrase(e: Explanation) -> str:
    if e.tp is None:
        return "one GPU"
    if e.tp == 1:
        return "one GPU (TP 1, no tensor parallelism)"
    return f"one GPU of a TP group of {e.tp}"


def _once_phrase(e: Explanation) -> str:
    once = e.prologue_rows + e.epilogue_rows
    if not once:
        return ""
    return (
        f", plus {_plural(once, 'once-per-iteration row')} "
        f"({e.prologue_rows} before the groups, {e.epilogue_rows} after)"
    )


def _bubble_phrase(e: Explanation) -> str:
    if e.bubble_fraction is not None and e.pp is not None:
        return (
            f"the bubble formula (PP-1)/(GA*vpp) = {e.pp - 1}/({e.ga}*{e.vpp}) = "
            f"{percent(e.bubble_fraction)} of the non-embedding layer time"
        )
    return (
        f"the bubble formula (PP-1)/(GA*vpp), which divides by zero here (ga {e.ga}, "
        f"vpp {e.vpp}): SimAI reports the total time as NaN or Inf"
    )


def _has_kind(e: Explanation, kind: str) -> bool:
    return any(k.kind == kind for k in e.kinds)


def _represents_training(e: Explanation) -> str:
    layers = e.layers_per_stage or 0
    pp = e.pp
    g = e.generation
    if e.groups == 0:
        if e.layers_in_body:
            return (
                f"One GPU's view of {_plural(e.layers_in_body, 'transformer layer')} written "
                f"without embedding_layer rows, so the micro-batch repetitions cannot be told "
                f"apart ({e.rows:,} rows in all, on {_tp_phrase(e)})."
            )
        if e.ga == 0:
            return (
                f"No micro-batch at all: the header declares ga 0 and the body holds only "
                f"{_plural(e.rows, 'once-per-iteration row')}, no transformer layer. AICB writes "
                f"this when the global batch is smaller than micro_batch x DP (ga floors to 0); "
                f"SimAI warns about ga 0 and its bubble formula divides by zero."
            )
        return (
            f"A transformer-policy workload of {_plural(e.rows, 'row')} for {_tp_phrase(e)}; "
            f"its rows are not AICB's layer list (no embedding_layer groups, no attention or "
            f"mlp rows), so each row is one layer run once per pass."
        )
    if e.ga is None:
        ga_part = " (no ga in the header)"
    elif e.ga != e.groups:
        ga_part = f" (the header says ga {e.ga})"
    else:
        ga_part = " (ga)"
    micro = f"run once per micro-batch for {_plural(e.groups, 'micro-batch', 'micro-batches')}"
    if e.dp == 1:
        dp = " (DP 1: no data parallelism)"
    else:
        dp = f" (one of {e.dp:,} data-parallel replicas)" if e.dp else ""
    if not layers:
        pattern = e.structure.shapes[0].pattern if e.structure.shapes else "?"
        hold = "holds" if e.groups == 1 else "hold"
        first = (
            f"One GPU's view of {_plural(e.groups, 'micro-batch group')}{ga_part} that {hold} "
            f"no transformer layer (each group is only {pattern}), on {_tp_phrase(e)}{dp}"
            f"{_once_phrase(e)}."
        )
    elif pp is None or pp <= 1:
        first = (
            f"One GPU's view of the whole model: all {_plural(layers, 'transformer layer')} on "
            f"{_tp_phrase(e)}{dp}, {micro}{ga_part}{_once_phrase(e)}."
        )
    if pp is None:
        return first + (
            " The header has no pp: key, so the file describes no pipeline split: the rows "
            "are the whole model."
        )
    if pp <= 1:
        return first + " With pp 1 there is no pipeline: no stage-to-stage traffic and no bubble."
    preset = g.preset_layers
    model = g.name.model if g.name is not None else "the model"
    dropped = ""
    if not layers:
        pass
    elif preset is not None and preset == layers and preset != layers * pp:
        first = (
            f"One GPU's view of one representative pipeline stage that holds all {layers} of "
            f"{model}'s layers (this generator did not divide num_layers by pp {pp}), {micro}"
            f"{ga_part}{_once_phrase(e)}."
        )
    else:
        first = (
            f"One GPU's view of one representative pipeline stage: {layers} of the model's "
            f"{layers * pp} transformer layers ({layers} per stage x pp {pp}), {micro}{ga_part}"
            f"{_once_phrase(e)}."
        )
        if preset is not None and preset > layers * pp and preset // pp == layers:
            dropped = (
                f" {model} has {preset} layers (AICB preset): AICB floors {preset}/{pp} to "
                f"{layers} per stage, so {_plural(preset - layers * pp, 'layer is', 'layers are')}"
                f" not simulated."
            )
    if e.pp_comm_simai:
        pp_comm = f"pp_comm ({e.pp_comm_simai:,} B)"
    else:
        pp_comm = "pp_comm (absent or 0 here, so none)"
    stages, others = (
        ("both stages", "the other stage")
        if pp == 2
        else (f"all {pp} stages", f"the other {pp - 1} stages")
    )
    second = (
        f" SimAI applies these same rows to {stages}, so it simulates {others} as identical "
        f"to this one, and models stage-to-stage traffic only through {pp_comm} and "
        f"{_bubble_phrase(e)}."
    )
    loss = " and the loss rows (cross_entropy) come once" if _has_kind(e, "loss") else ""
    third = (
        " In a real pipeline only the first stage holds the embedding and only the last the "
        "loss; the file does not show that difference: every group here starts with "
        f"embedding_layer{loss}, for every stage alike."
    )
    return first + dropped + second + third


def _represents_inference(e: Explanation) -> str:
    layers = e.layers_in_body
    ep = f" with EP {e.ep}" if e.ep is not None else ""
    pp = ""
    if e.pp is not None and e.pp > 1:
        pp = (
            f", under pp {e.pp}; SimAI applies these rows to each of the {e.pp} stages like a "
            "training stage"
        )
    bubble = ""
    if e.pp is not None and e.pp > 1:
        bubble = f", pipeline bubble included ({_bubble_phrase(e)})"
    return (
        f"An inference workload (mode: 1): {_plural(layers, 'layer')}, each once "
        f"({_plural(e.rows, 'row')}), for {_tp_phrase(e)}{ep}{pp}. SimAI reads mode: "
        f"nowhere: it simulates these rows as one training iteration (forward, input-gradient "
        f"and weight-gradient phases){bubble}."
    )


def _collective_summary(e: Explanation) -> str:
    several = len({c.group for c in e.collectives if c.group is not None}) > 1
    parts = [
        f"{c.calls:,} x {c.collective}"
        + (f" in the {GROUP_LABELS[c.group]} group" if several and c.group != "ALL" else "")
        + (" over all GPUs" if several and c.group == "ALL" else "")
        + f", {human_bytes(c.bytes)}"
        for c in e.collectives
        if c.group is not None
    ]
    return "; ".join(parts) if parts else "none"


def _represents_micro(e: Explanation) -> str:
    if not e.rows:
        return f"A collective micro-benchmark ({e.policy} header) with no rows."
    rows = e.structure.body
    sizes: list[int] = []
    kinds: list[str] = []
    for r in rows:
        for ph in r.phases:
            if ph.comm not in (None, "NONE"):
                if ph.comm not in kinds:
                    kinds.append(ph.comm or "")
                if ph.size is not None and ph.size not in sizes:
                    sizes.append(ph.size)
    what = " / ".join(kinds) or "no collective"
    span = ""
    if sizes:
        low, high = min(sizes), max(sizes)
        span = (
            f" of {human_bytes(low)}"
            if low == high
            else f" of {human_bytes(low)} to {human_bytes(high)}"
        )
        if len(sizes) > 1:
            span += f" ({_plural(len(sizes), 'size')})"
    if e.policy == "MICRO":
        where = f"SimAI runs {'it' if e.rows == 1 else 'each one'} over all GPUs of the run."
    else:
        where = (
            f"It is written under a {e.policy} header, so SimAI runs weight-gradient-column "
            f"collectives in the DP group (-g / (TP x PP) GPUs) and forward or input-gradient "
            f"ones in the TP group of {e.tp}."
        )
    each = "one" if e.rows == 1 else "each one"
    them = "it" if e.rows == 1 else "them"
    return (
        f"A collective micro-benchmark: {_plural(e.rows, 'row')}, {each} {what}{span}, "
        f"with no model behind {them}. {where}"
    )


def _represents_astra(e: Explanation) -> str:
    n = _plural(e.rows, "layer")
    colls = _collective_summary(e)
    if e.dialect == "data":
        return (
            f"A data-parallel workload (ASTRA-sim 1.0 policy DATA): {n}, each run once per "
            f"pass; every GPU holds the whole model and its collectives run over all GPUs of the "
            f"run. Collectives: {colls}."
        )
    if e.dialect == "model":
        return (
            f"A model-parallel workload (policy MODEL): {n} split across all GPUs; its "
            f"collectives run over all GPUs of the run. Collectives: {colls}."
        )
    if e.dialect in ("hybrid_data_model", "hybrid_model_data"):
        return (
            f"A hybrid data- and model-parallel workload (policy {e.policy}): {n}; forward and "
            f"input-gradient collectives run in the model-parallel group, weight-gradient ones "
            f"in the data-parallel group (the policy decides which network dimensions each "
            f"group spans). Collectives: {colls}."
        )
    if e.dialect == "dlrm":
        return (
            f"A DLRM workload (policy {e.policy}): {n}; forward and input-gradient collectives "
            f"(the embedding all-to-alls) run in the model-parallel group, weight-gradient "
            f"all-reduces of the MLPs in the data-parallel group. Collectives: {colls}."
        )
    counts = Counter(r.policy or "(none)" for r in e.structure.body)
    mix = ", ".join(f"{c} {p}" for p, c in counts.most_common())
    return (
        f"A per-layer workload (policy HYBRID_CUSTOMIZED): {n}, each naming its own policy in "
        f"a 13th field ({mix}); each row's collectives run in the groups of its own policy. "
        f"Collectives: {colls}."
    )


def answers(e: Explanation) -> list[tuple[str, str]]:
    """The two questions users ask of a pipeline-parallel training file, answered from it."""
    if e.dialect != "transformer" or not e.groups or not e.pp or e.pp <= 1:
        return []
    layers, pp = e.layers_per_stage or 0, e.pp
    g = e.generation
    model = g.name.model if g.name is not None else "the model"
    total = g.preset_layers if g.preset_layers is not None else layers * pp
    if g.preset_layers is not None and g.preset_layers == layers:
        split = (
            f"No: each group holds all {layers} layers of {model} although pp is {pp} (this "
            f"generator did not divide num_layers by pp), and SimAI still treats the rows as "
            f"one stage's."
        )
    else:
        vpp = f", written as vpp: {e.vpp}" if e.vpp is not None else ""
        floored = f" = {total / pp:.2f}, floored by AICB" if total % pp else ""
        split = (
            f"Yes. Each of the {e.groups} groups (one per micro-batch, ga {e.ga}) holds "
            f"{layers} transformer layers: {total} layers / pp {pp}{floored}{vpp}. "
            f"The file is one GPU's rows for one representative stage (a GPU of a TP group of "
            f"{e.tp}); it is not a trace of every rank, and nothing in it says which stage."
        )
    same = (
        f"In SimAI, yes: no row depends on the stage index, SimAI applies the same rows to all "
        f"{pp} stages and models the pipeline only through pp_comm and the bubble "
        f"(PP-1)/(GA*vpp). In a real run the stages at the ends differ: the first also holds "
        f"the input embedding, the last the output layer and the loss (cross_entropy); the "
        f"file does not show that, since every group starts with embedding_layer and the loss "
        f"rows are written once for every stage alike."
    )
    return [
        (
            f"Does the file show only one pipeline stage ({layers} of {total} layers) on one GPU?",
            split,
        ),
        ("Are the other stages the same?", same),
    ]


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
            f"SimAI-Analytical takes DP from its -g option, as -g / (TP x PP), not from "
            f"all_gpus (which only feeds its zero check): run it with -g {e.all_gpus} to "
            f"simulate DP {e.dp}."
        )
    if transformer and e.pp is not None and e.pp > 1 and e.pp_comm_simai:
        out.append(
            "pp_comm only costs time when SimAI runs with a PP overlap ratio (-pp_o) below 1; "
            "with the default of 1 the exposed PP time is 0 whatever its value."
        )
    out.extend(f"{note[0].upper()}{note[1:]}." for note in e.generation.notes)
    return out


def path_label(path: str | None) -> str:
    return PurePath(path).name if path else "<stdin>"
