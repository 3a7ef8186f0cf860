"""Candidate commands for a file AICB v1.0 may have written (`wkparse aicb --infer FILE`).

A v1.0 header carries only TP; the rest comes from the file name
(`{model}-world_size-tp-pp-gbs-mbs-seq-flash_attn-..`, `names.V1Name`) and the rows: the
activation of a TP row gives the hidden size, the rows per group the layers, `embedding_norm`
the vocabulary, a plain MoE block's first and third rows the experts and top-k. What the file
shows only through its parameter total (the vocabulary under AIOB, the FFN width, bias, the
experts per rank) is tried, most likely first; under AIOB the MoE parameters stand apart in
the gradient tuple, which gives the experts per rank directly. `infer` generates each
candidate at the v1.0 revisions and keeps the one that reproduces the file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from wkparse.models.aicb.names import V1Name, parse_v1_filename
from wkparse.models.aicb.reading.infer_text import (
    DIVISIBLE_BY,
    EXAMPLE,
    MOST,
    VOCABS,
    header_int,
    preset_settings,
    row_fields,
    row_number,
    settings,
    token_splits,
)
from wkparse.models.aicb.training.args import ffn_size

#: the readings of micro-batch x sequence tried where the name does not give them
_SPLITS = 4
_PAIR = re.compile(r"\((\d{1,18}), (\d{1,18}), \1, \2\)")


def is_v1_header(keys: dict[str, str]) -> bool:
    """Whether a training header is v1.0's: TP only (no ep, pp, ga or all_gpus)."""
    later = ("ep", "pp", "ga", "all_gpus")
    return "model_parallel_NPU_group" in keys and not any(k in keys for k in later)


def _divisors(n: int) -> list[int]:
    """The EP sizes tried: the smallest divisors of the expert count (a dozen at most, so a
    hostile count costs a dozen generations)."""
    return [d for d in range(1, min(n, 1024) + 1) if n % d == 0][:12]


def _topk(text: str, act: int, tp: int) -> int:
    """Top-k from a plain MoE block's third row (activation x k // tp bytes)."""
    at = text.find("\nmoelayer\t")
    rows = text[at + 1 :].split("\n", 3)[:3] if at >= 0 else []
    if len(rows) < 3 or not act:
        return 1
    size = row_number(rows[2].split("\t")[4] if rows[2].count("\t") > 4 else "")
    return next((k for k in range(1, 1025) if act * k // tp == size), 1)


def v1_candidates(path: str, text: str) -> Iterator[str]:
    """Argument lists (v1.0's option names) that may reproduce `text`, likeliest first: each
    reading with the FFN width its parameter total gives, where that is another width, then
    as is; only after every reading, each with the padded vocabulary the total gives (a file
    under AIOB shows no other; solved first, it would take up what another micro-batch and
    sequence reading, or the FFN width, explains with a vocabulary a user ran)."""
    target = _total(text)
    seen: set[str] = set()
    read: list[str] = []
    later: list[str] = []
    for args in _readings(path, text):
        read.append(args)
        yield from _new(_with_width(args, target), seen)
        # AICB's heads default to the layers (a width they do not divide counts fewer)
        layers = re.search(r"--num_layers (\d+)", args)
        if layers is not None:
            later.append(
                re.sub(r"--num_attention_heads \d+", f"--num_attention_heads {layers[1]}", args)
            )
    for args in dict.fromkeys(later):
        read.append(args)
        yield from _new(_with_width(args, target), seen)
    for args in read:
        vocab = _solve(args, target, "vocab_size") if target else None
        if vocab is not None:
            words = re.sub(r"--vocab_size \d+", f"--vocab_size {vocab}", args)
            yield from _new([words], seen)


def _new(found: Iterable[str], seen: set[str]) -> Iterator[str]:
    """The argument lists of `found` not yet in `seen` (added to it)."""
    for args in found:
        if args not in seen:
            seen.add(args)
            yield args


def _with_width(args: str, target: int) -> Iterator[str]:
    """`args` with the FFN width the parameter total gives (where another), then as is."""
    solve = target and "--ffn_hidden_size" not in args
    width = _solve(args, target, "ffn_hidden_size") if solve else None
    if width is not None:
        yield f"{args} --ffn_hidden_size {width}"
    yield args


def _total(text: str) -> int:
    """All parameters the file's gradient rows count (0: not shown)."""
    norm = row_fields(text, "grad_norm")
    if norm and len(norm) > 4 and row_number(norm[4]):
        return row_number(norm[4]) // 2
    gather = row_fields(text, "grad_gather")
    pair = _PAIR.search(gather[10]) if gather and len(gather) > 10 else None
    return int(pair[1]) if pair else 0  # AICB writes 2 x (total, moe): the tuple twice


def _solve(args: str, target: int, field: str) -> int | None:
    """The FFN width (`ffn_hidden_size`), padded vocabulary (`vocab_size`) or layer count
    (`num_layers`) that gives `target` parameters for these arguments, when it is whole and
    not the one they already give (AICB's own layer walk, `layers`: the total grows by a
    fixed step per unit)."""
    from dataclasses import replace

    from wkparse.models.aicb.errors import AicbError
    from wkparse.models.aicb.training.layers import layers, parameter_totals
    from wkparse.models.aicb.v1.args import v1_args
    from wkparse.models.aicb.v1.rows import MOE_NAME

    try:
        a, _idle = v1_args(args.split(), moe_only=False)
        vocab = field == "vocab_size"
        if field == "num_layers":
            step, given = 1, a.num_layers
        else:
            step = a.tp * (DIVISIBLE_BY if vocab else max(a.ep, 1))
            given = a.padded_vocab_size if vocab else a.ffn_hidden_size

        def total(value: int) -> int:
            changed = {"vocab_size": value, "padded_vocab_size": value} if vocab else {field: value}
            listed = layers(replace(a, **changed), 2, True, MOE_NAME)  # type: ignore[arg-type]
            return parameter_totals(listed)[0]

        low, high = total(step), total(2 * step)
    except AicbError:
        return None
    slope = high - low
    if slope <= 0 or (target - (low - slope)) % slope:
        return None
    value = (target - (low - slope)) // slope * step
    return value if 0 < value != given else None


def _readings(path: str, text: str) -> Iterator[str]:
    """Argument lists (v1.0's option names) that may reproduce `text`, likeliest first: the
    file name's micro-batch and sequence, else each reading of the tokens the loss rows carry
    (the sequence also counts in the parameter total, through the position embedding)."""
    _head, keys, names = settings(text)
    tp = header_int(keys, "model_parallel_NPU_group", 0)
    if not tp:
        return
    name = parse_v1_filename(path)
    ce = row_fields(text, "cross_entropy1")
    tokens = row_number(ce[4]) // 4 if ce and len(ce) > 4 else 0
    if name is not None:
        splits = [(name.mbs, name.seq)]
    else:
        splits = token_splits(tokens)[:_SPLITS] if tokens else [(1, 1)]
    for mbs, seq in splits:
        for args in _reading(text, tp, names, name, mbs, seq):
            if "--num_layers 0 " not in args:
                yield args
                continue
            # no micro-batch group (a global batch below mbs x dp): the layers only count in
            # the parameter total
            count = _solve(args, _total(text), "num_layers")
            if count is not None:
                yield args.replace("--num_layers 0 ", f"--num_layers {count} ", 1)


def _reading(
    text: str, tp: int, names: list[str], name: V1Name | None, mbs: int, seq: int
) -> Iterator[str]:
    """The argument lists of one micro-batch and sequence (`--num_layers 0`: no group
    shows them)."""
    aiob, moe = "grad_gather" in names, "moelayer" in names
    lines = text.count("\n") + 1
    groups = text.count("\nembedding_layer\t" if aiob else "\nembedding_norm\t")
    # without a group, sequence parallelism shows as the missing `layernorm` row
    sp = "attention_column" in names or (not groups and "layernorm" not in names)
    pp = name.pp if name else 1
    # no group: AICB floored global batch / (mbs x dp) to 0; the least run that does is a
    # sample over two micro-batch slots (two data-parallel ranks when mbs is 1)
    world = name.world if name else tp * pp * (2 if not groups and mbs == 1 else 1)
    dp = max(world // (tp * pp), 1)
    gbs = name.gbs if name else (groups * mbs * dp if groups else 1)
    if gbs // max(mbs * dp, 1) > lines or max(mbs, seq) > MOST:
        return  # the name asks for more micro-batches than the file has lines
    block = "attention_column" if sp else "attention_layer"
    fields = row_fields(text, block)
    act = row_number(fields[4]) if fields and len(fields) > 4 else 0
    grads = row_fields(text, "embedding_grads")  # AIOB's: its input gradient, the activation
    act = act or (row_number(grads[7]) if grads and len(grads) > 7 else 0)
    preset = preset_settings(name.model) if name else {}
    hidden = int(preset.get("hidden_size", 0)) or (act // (2 * mbs * seq) or 4096)
    per_group = text.count("\nattention_row\t" if sp else "\nattention_layer\t")
    layers = per_group // groups if groups else int(preset.get("num_layers", 0))
    heads = int(preset.get("num_attention_heads", 0)) or max(hidden // 128, 1)
    norm = row_fields(text, "embedding_norm")
    vocab = row_number(norm[4]) // (2 * hidden) if norm and len(norm) > 4 else 0
    base = [f"--model_name {name.model}"] if name else []
    base += [
        f"--num_layers {layers} --hidden_size {hidden} --num_attention_heads {heads}",
        f"--world_size {world} --tp_num {tp} --pp_num {pp} --global_batch {gbs}",
        f"--micro_batch {mbs} --seq_length {seq}",
    ]
    flags = ["--use_flash_attn"] if name and name.flash else []
    if sp:  # v1.0's first check wants MoE switched on; without grouped GEMM it changes nothing
        flags += ["--moe_enabled", "--enable_sequence_parallel"]
    if aiob:
        flags += ["--aiob_enable", "--comp_filepath", EXAMPLE]
    gather = row_fields(text, "grad_gather")
    pair = _PAIR.search(gather[10]) if gather and len(gather) > 10 else None
    for ffn in [int(preset["ffn_hidden_size"])] if "ffn_hidden_size" in preset else [0]:
        for swiglu in (True, False):
            width = ffn or ffn_size(hidden, swiglu)
            for moe_args in _moe(text, moe, pair, act, tp, seq, layers, hidden, width):
                for words in VOCABS if not vocab else (vocab,):
                    for bias in (False, True):
                        yield " ".join(
                            [
                                *base,
                                *(["--swiglu"] if swiglu else []),
                                f"--vocab_size {words}",
                                *([f"--ffn_hidden_size {ffn}"] if ffn else []),
                                *flags,
                                *moe_args,
                                *(["--add_bias_linear"] if bias else []),
                            ]
                        )


def _moe(
    text: str,
    moe: bool,
    pair: re.Match[str] | None,
    act: int,
    tp: int,
    seq: int,
    layers: int,
    hidden: int,
    ffn: int,
) -> Iterator[list[str]]:
    """The MoE options worth trying: none without a MoE block; under AIOB the experts per rank
    the gradient tuple gives; else the experts and top-k the rows give, over every EP that
    divides the experts."""
    if not moe:
        yield []
        return
    flags = ["--moe_grouped_gemm"]
    if pair is not None:
        per_layer = 2 * layers * hidden * ffn
        moe_params = int(pair[2]) * tp
        if per_layer and moe_params % per_layer == 0 and moe_params:
            local = moe_params // per_layer
            yield [*flags, f"--num_moe_experts {local} --expert_parallel_size 1"]
            return
        # another width: the tuple gives width x local experts; one expert of all of it
        product = moe_params // (2 * layers * hidden) if layers * hidden else 0
        if product and moe_params % (2 * layers * hidden) == 0:
            width = f"--ffn_hidden_size {product}"
            yield [*flags, f"--num_moe_experts 1 --expert_parallel_size 1 {width}"]
            return
    first = row_fields(text, "moelayer")
    experts = row_number(first[4]) // (2 * seq) if first and len(first) > 4 and seq else 0
    if not experts:
        return
    topk = _topk(text, act, tp)
    for ep in _divisors(experts):
        yield [
            *flags,
            f"--num_moe_experts {experts} --moe_router_topk {topk} --expert_parallel_size {ep}",
        ]
