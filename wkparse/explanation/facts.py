"""The facts of one file: `explain(result, path)` computes an `Explanation` from a ParseResult.

Header values as written (None when absent), what the body holds counted from its rows, the
parallel layout, every row of the prologue, of one micro-batch group and of the epilogue
annotated with the group each collective runs in (SimAI's rules, `routing`), totals per
iteration, what can be inferred about how the file was generated, and the lint findings.
Header values and counted values are kept apart: when they disagree, a note says which one
SimAI uses. The sentences are added last, by `sentences`.

Everything is computed per distinct row value with its count (AICB repeats one group `ga`
times, so a million-row file has a few hundred distinct rows), never per row object.

One module per concern, each a pure function of a `Context` (`context`: the header values as
SimAI reads them, the group sizes, the routes), assembled here:

- `totals`: bytes per group, compute per phase, per collective and per kind of layer;
- `structure`: prologue, groups, epilogue and their annotated rows;
- `generation`: activation, hidden size, preset, MoE shape, compute kind;
- `provenance`: the generator era (AICB's dated changes);
- `findings`: lint's diagnostics grouped per code and message;
- `missing_traffic`: what an AICB file leaves out of the training it describes (Megatron-LM's
  per-layer collectives, `wkparse.models.aicb.reading.departures`).

How to add a section (say "What SimAI-Analytical will report"):

1. its facts: a frozen dataclass in `model`, and a field on `Explanation` with a default
   (`None` or `()`), so every other caller keeps working;
2. a module `explain/<section>.py` with one pure function `<section>(ctx: Context)` that
   returns it (read what other sections need through `ctx`, put what only it needs in it);
3. one line in `_assemble` below filling the field;
4. its words: a function in `render/explain_cells.py` returning (label, text) items, added
   to `ITEM_SECTIONS` there, and the text, Markdown and HTML renderers show it as a table
   after "How it was generated" with nothing else to write (a section wanting a picture or
   a table of its own gets a function in each renderer instead);
5. its JSON: a key in `render/explain_json.to_dict` (the JSON is a contract: add, never
   rename) and, if the summary should mention it, a sentence in `sentences`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from wkparse.body import Body, count_layers
from wkparse.diagnostics import Diagnostic
from wkparse.explanation.context import Context
from wkparse.explanation.findings import findings as grouped_findings
from wkparse.explanation.generation import activation, generation
from wkparse.explanation.missing_traffic import missing_traffic
from wkparse.explanation.model import Explanation
from wkparse.explanation.sentences import answers, notes, represents
from wkparse.explanation.structure import BODY_ROWS_SHOWN, structure
from wkparse.explanation.totals import totals
from wkparse.explanation.values import fraction, scaled, written_number
from wkparse.models.simai.reach import reach, read_view
from wkparse.parse import ParseResult

__all__ = ["BODY_ROWS_SHOWN", "explain"]


def explain(
    result: ParseResult,
    path: str | None = None,
    findings: Sequence[Diagnostic] | None = None,
    body: Body | None = None,
    aicb_command: str | None = None,
    data: bytes | None = None,
    provenance: bool = True,
) -> Explanation:
    """Explain a parsed file. `findings` defaults to lint's, opt-in rules included: explain
    states every fact, lint only what is wrong. `body` is the file's `Body` when the caller
    has counted it already (diff reads the same one); `data` its bytes, when the caller has
    them (otherwise the AICB command behind the file is inferred from `path`, read again);
    `provenance` False leaves that inference out (diff compares no provenance)."""
    if findings is None:
        from wkparse.config import Config
        from wkparse.engine import lint

        findings = lint(result, path, Config(opt_in=True))
    # what SimAI reads: the rows past line 2's count and notes below them are not counted
    workload = read_view(result.workload)
    ctx = Context(workload, path, findings, body, aicb_command, data, provenance)
    e = _assemble(ctx)
    past = reach(result.workload).unread_rows
    return replace(e, rows_past_count=past) if past else e


def _assemble(ctx: Context) -> Explanation:
    """Every section's facts in one Explanation, then the sentences that read them."""
    body = ctx.body
    sums = totals(ctx)
    bubble = None
    if ctx.pp is not None and ctx.ga and ctx.vpp:
        bubble = fraction(ctx.pp - 1, ctx.ga * ctx.vpp)
    elif ctx.pp == 1 and ctx.dialect in ("transformer", "inference"):
        bubble = None if not (ctx.ga and ctx.vpp) else 0.0
    groups = len(body.groups)
    training = ctx.dialect == "transformer"
    layers_per_stage = body.layers_per_group if training else None
    layers_in_body = (
        (body.layers_per_group or 0) * groups
        if groups and len(body.shapes) == 1
        else count_layers(body.names)
    )
    model_layers = None
    if training and layers_per_stage is not None:
        model_layers = layers_per_stage * (ctx.pp if ctx.pp else 1)
    rows = len(ctx.w.rows)
    pro_rows = body.prologue_end if groups else 0
    epi_rows = rows - body.epilogue_start if (groups or ctx.aicb_rows) else 0
    made = generation(ctx)
    layout = structure(ctx)
    header = ctx.header
    header_text = {}
    if header is not None:
        for f in header.fields:
            header_text[f.key] = " ".join(v.text for v in f.values)
    act, act_source = activation(ctx)
    e = Explanation(
        path=ctx.path,
        dialect=ctx.dialect,
        policy=ctx.policy,
        header_text=header_text,
        tp=ctx.tp,
        pp=ctx.pp,
        ep=ctx.ep,
        ga=ctx.ga,
        vpp=ctx.vpp,
        all_gpus=ctx.all_gpus,
        pp_comm=written_number(ctx.pp_comm_text),
        pp_comm_text=ctx.pp_comm_text,
        pp_comm_simai=ctx.pp_comm,
        declared_rows=ctx.w.count.value if ctx.w.count is not None else None,
        dp=ctx.dp,
        dp_remainder=ctx.dp_remainder,
        dp_ep=ctx.dp_ep,
        bubble_fraction=bubble,
        rows=rows,
        groups=body.micro_batches,
        layers_per_stage=layers_per_stage,
        layers_in_body=layers_in_body,
        model_layers=model_layers,
        prologue_rows=pro_rows,
        epilogue_rows=epi_rows,
        sequence_parallel=body.sequence_parallel,
        moe=body.moe,
        activation_bytes=act,
        activation_source=act_source,
        placeholder_compute=ctx.placeholder(),
        comm_bytes=sums.comm_bytes,
        compute_ns=sums.compute_ns,
        bubble_compute_ns=scaled(sums.non_embedding_ns, bubble),
        collectives=sums.collectives,
        kinds=sums.kinds,
        structure=layout,
        generation=made,
        represents="",
        notes=(),
        findings=grouped_findings(ctx),
        bom=ctx.w.bom,
        leading=tuple(v.text for v in header.leading) if header else (),
    )
    missing, basis = missing_traffic(ctx)
    e = replace(e, missing_traffic=missing, missing_traffic_basis=basis)
    return replace(e, represents=represents(e), notes=tuple(notes(e)), answers=tuple(answers(e)))
