"""How the file was generated, as far as its name and rows tell: the activation size and the
hidden size it implies, the AICB preset, MoE's experts and top-k, compute measured or
placeholder, the ga the name implies, and which generator era wrote it (`provenance`)."""

from __future__ import annotations

import stat
from itertools import pairwise
from pathlib import Path

from wkparse.body import MOE_NAMES
from wkparse.digits import whole_number
from wkparse.explanation.context import Context
from wkparse.explanation.model import Era, Generation
from wkparse.explanation.provenance import era, moe_rows_per_layer
from wkparse.explanation.routing import TRANSFORMER_DIALECTS
from wkparse.i18n import _
from wkparse.models.aicb import PRESETS, parse_filename
from wkparse.models.aicb.formulas import activation_of, experts_of, ga, hidden_of, topk_of


def activation(ctx: Context) -> tuple[int | None, str | None]:
    """The activation size (2 x mbs x seq x hidden) and where it is read: a TP collective
    of the first group's rows, or, when no row carries it (TP 1) and PP > 1, pp_comm,
    which AICB writes as the activation (divided by TP with sequence parallelism)."""
    act = ctx.body.activation_bytes
    if act is not None:
        return act, "rows"
    pp_comm = ctx.pp_comm
    if ctx.pp is not None and ctx.pp > 1 and pp_comm and pp_comm > 0:
        sp = ctx.body.sequence_parallel
        return activation_of(pp_comm, ctx.tp or 0, sequence_parallel=sp), "pp_comm"
    return None, None


def generation(ctx: Context) -> Generation:
    body = ctx.body
    name = parse_filename(ctx.path) if ctx.path else None
    act = activation(ctx)[0]
    hidden, hidden_how = None, None
    if name is not None and act:
        tokens = 1 if name.inference_phase == "decode" else name.seq
        hidden = hidden_of(act, name.mbs, tokens)
        if hidden is not None:
            what = (
                _("batch {mbs} (decode: one token each)").format(mbs=name.mbs)
                if name.inference_phase == "decode"
                else f"mbs {name.mbs} x seq {name.seq}"
            )
            hidden_how = _("activation {bytes} B = 2 x {what} x hidden").format(
                bytes=f"{act:,}", what=what
            )
    preset = name.preset if name is not None else None
    if name is not None and preset is None:
        preset = PRESETS.get(name.model.replace("*", "x"))
    notes: list[str] = []
    if hidden is not None and preset is not None and hidden != preset.hidden:
        notes.append(
            _("hidden {hidden} differs from the {model} preset's {preset}").format(
                hidden=f"{hidden:,}",
                model=name.model if name else "",
                preset=f"{preset.hidden:,}",
            )
        )
    if name is not None and name.model.startswith("DeepSeek"):
        notes.append(
            _(
                "AICB's DeepSeek presets pass the FFN size as hidden_size, which inflates "
                "activation sizes and pp_comm (the file stays consistent with itself)"
            )
        )
    experts, topk, moe_how = _moe_shape(ctx)
    compute = "none"
    if len(ctx.w.rows):
        compute = "placeholder" if ctx.placeholder() else "measured"
    expected_ga = None
    if name is not None and name.gbs is not None and ctx.dp:
        expected_ga = ga(name.gbs, name.mbs, ctx.dp)
    if name is not None and ctx.policy in TRANSFORMER_DIALECTS:
        for key, said, header in (
            ("tp", name.tp, ctx.tp),
            ("pp", name.pp, ctx.pp),
            ("ep", name.ep, ctx.ep),
            ("world_size", name.world, ctx.all_gpus),
        ):
            if header is not None and said != header:
                notes.append(
                    _("the file name says {key} {said} but the header says {header}").format(
                        key=key, said=said, header=header
                    )
                )
    era_, command, aicb = _aicb_provenance(ctx, era(ctx, compute))
    return Generation(
        name=name,
        hidden=hidden,
        hidden_how=hidden_how,
        preset_layers=preset.layers if preset else None,
        preset_hidden=preset.hidden if preset else None,
        sequence_parallel=body.sequence_parallel,
        moe=body.moe,
        experts=experts,
        topk=topk,
        moe_how=moe_how,
        compute=compute,
        era=era_,
        expected_ga=expected_ga,
        notes=tuple(notes),
        aicb_command=command,
        aicb=aicb,
        model_layers=preset.layers if preset else _num_layers(command),
    )


def _num_layers(command: str | None) -> int | None:
    """--num_layers of an AICB command (None: not given)."""
    words = command.split() if command else []
    for flag, value in pairwise(words):
        if flag == "--num_layers" and (layers := whole_number(value)) is not None:
            return layers
    return None


#: explain asks `aicb.infer` about files up to this size (100k rows are about 8 MB); bigger
#: files keep the era their header shows, so explain stays linear on a million rows
_INFER_MOST_BYTES = 16 * 1024 * 1024


def _aicb_provenance(ctx: Context, guessed: Era | None) -> tuple[Era | None, str | None, bool]:
    """(era, AICB command, whether AICB may be named), from `aicb.infer` over the file's
    bytes (those explain read, or the file read again): a command that writes the file
    exactly gives its revisions; none gives no AICB claim at all, except for v1.0-style
    headers (AICB's shipped examples have them, and no v1.0 run writes those examples exactly).
    Without the bytes (standard input or a pipe that the caller did not keep cannot be read
    again: its writer is gone, and opening it would wait for another) the header's era is
    all there is."""
    if not ctx.provenance or ctx.policy not in TRANSFORMER_DIALECTS:
        return guessed, None, True
    try:
        if ctx.data is not None:
            data = ctx.data
        elif not ctx.path or ctx.path == "-":
            return guessed, None, True
        else:
            info = Path(ctx.path).stat()
            if not stat.S_ISREG(info.st_mode) or info.st_size > _INFER_MOST_BYTES:
                return guessed, None, True
            data = Path(ctx.path).read_bytes()
        if len(data) > _INFER_MOST_BYTES:
            return guessed, None, True
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return guessed, None, True
    if text.count("\n") + (not text.endswith("\n") and bool(text)) != ctx.w.line_count:
        return guessed, None, True  # not the text explained (an editor's unsaved buffer)
    from wkparse.models.aicb.errors import AicbError
    from wkparse.models.aicb.reading.infer import infer
    from wkparse.models.aicb.revisions import LATEST, REVISIONS, after, resolve

    try:
        found = infer(ctx.path or "-", text)
    except (AicbError, ArithmeticError, ValueError):  # a hostile file: keep the header's era
        return guessed, None, True
    first_at = resolve(found.at[0]) if found.exact and found.at is not None else None
    if first_at is not None and (first_at.era.inference == "current" or first_at not in REVISIONS):
        # the current inference generator ran on a side branch from 2025-11-04, before its
        # merge into master (2025-12-27), and some runs only a side branch writes: the
        # header's era says more
        return guessed, found.command, True
    command = found.command
    if found.other_compute_times:
        command = _(
            "{command} (with compute times of another AIOB measurement than the shipped "
            "Example.txt)"
        ).format(command=command)
    from wkparse.models.aicb.reading.content import V1_UNSHOWN

    if set(V1_UNSHOWN) & set(found.not_in_file):
        command = _(
            "{command} (its world size, pipeline stages and global batch are a guess: an AICB "
            "v1.0 file shows only TP, and its name did not give them)"
        ).format(command=command)
    span = found.span
    if (found.exact or found.other_compute_times) and span is not None:
        first, last = resolve(span[0]), resolve(span[1])
        nxt = after(last)
        if last is LATEST or nxt is None:
            label = _("AICB {earliest} or later").format(earliest=first.label)
        else:
            label = _("AICB {earliest} to {latest}").format(earliest=first.label, latest=last.label)
        return Era(label, first.date, nxt.date if nxt else None, ()), command, True
    if guessed is not None and guessed.earliest is None and guessed.latest is None:
        return guessed, None, True
    return None, None, False


def _moe_shape(ctx: Context) -> tuple[int | None, int | None, str | None]:
    """Experts and top-k from AICB's MoE row sizes, when the rows allow it.

    The EP all-to-all carries activation x top-k / TP bytes; in the 5-row layer of AICB
    2025-09+ the first row's all-gather carries 2 x EP x experts x TP bytes.
    """
    act = ctx.body.activation_bytes
    if not ctx.body.moe or not act or not ctx.tp:
        return None, None, None
    values = ctx.values
    texts = values.texts
    name_codes, comms, sizes = (values.column(k) for k in ("name", "fwd_comm", "fwd_size"))
    moe = {i for i, text in enumerate(texts) if text in MOE_NAMES}
    dispatch_code = texts.index("ALLTOALL_EP") if "ALLTOALL_EP" in texts else None
    dispatch = max(
        (
            size
            for name, comm, size in zip(name_codes, comms, sizes)
            if comm == dispatch_code and name in moe
        ),
        default=0,
    )
    topk = None
    how = []
    topk = topk_of(dispatch, act, ctx.tp) if dispatch else None
    if topk is not None:
        how.append(
            _("top-k = EP all-to-all {bytes} B x TP {tp} / activation").format(
                bytes=f"{dispatch:,}", tp=ctx.tp
            )
        )
    experts = None
    names = ctx.body.reference.names if ctx.body.reference is not None else ()
    per_layer = moe_rows_per_layer(names)
    if per_layer == 5 and ctx.ep and ctx.body.reference is not None:
        ref = ctx.body.reference
        first = next(f for f in ctx.w.rows.fields[ref.start : ref.end] if f.name == "mlp_moelayer")
        gather = first.fwd.size or 0
        if first.fwd.comm == "ALLGATHER":
            experts = experts_of(gather, ctx.ep, ctx.tp)
        if experts is not None:
            how.append(
                _("experts = router all-gather {bytes} B / (2 x EP x TP)").format(
                    bytes=f"{gather:,}"
                )
            )
    return experts, topk, "; ".join(how) or None
