"""The training run a file's content shows (`wkparse aicb --infer FILE`), its name only a hint.

A training file (the generators since v1.1) shows its parallelism in the header (tp, ep, pp,
vpp, ga, all_gpus); micro-batch x sequence in the cross-entropy rows; the activation (hence
the hidden size, `formulas.hidden_of`) in its TP rows or `pp_comm`; the layers per stage in
the header or its rows; sequence parallelism, AIOB, MoE and recompute in its row names and
sizes; the experts and top-k in a MoE block's sizes (`formulas.experts_of`, `topk_of`); and
the parameter total (vocabulary, FFN width, bias, the sequence) in its gradient rows. What
one number mixes (the FFN width, the vocabulary and the sequence in the parameter total) is
solved from AICB's own layer walk (`layers.parameter_totals`), each reading tried in the
order a user most likely ran it: a script preset's shape, AICB's default FFN width, the
file name's values. `shapes` yields the argument lists; `infer` generates and compares each.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import PurePath

from wkparse.models.aicb.errors import AicbError
from wkparse.models.aicb.formulas import (
    activation_of,
    data_parallel,
    experts_of,
    hidden_of,
    topk_of,
)
from wkparse.models.aicb.names import (
    AicbName,
    parse_filename,
    parse_first_inference_filename,
    parse_v1_filename,
)
from wkparse.models.aicb.reading.infer_text import (
    DIVISIBLE_BY,
    EXAMPLE,
    MOST,
    VOCABS,
    header_int,
    header_keys,
    header_size,
    row_number,
    token_splits,
)
from wkparse.models.aicb.training.args import TrainingArgs, ffn_size, padded_vocab, training_args
from wkparse.models.aicb.training.layers import layers, parameter_totals
from wkparse.models.aicb.training.presets import SCRIPT_PRESETS

#: the block openers of a micro-batch group (one per layer)
_OPENERS = ("attention_layer", "attention_column", "attention_layer_mla", "attention_linear_q")
_MLA = ("attention_layer_mla", "attention_linear_q_lora")
NAME_FLAGS = re.compile(r"-GEMM-(True|False)-flash_attn-(True|False)\.txt$")
#: the most candidate commands one file costs
_MOST_CANDIDATES = 16


@dataclass(frozen=True, slots=True)
class Observed:
    """What a training file's text shows about its run (None: the file does not show it)."""

    tp: int
    ep: int
    pp: int
    world: int
    ga: int
    stage_layers: int
    #: micro-batch x sequence length (the cross-entropy rows' bytes / 4)
    tokens: int
    act: int | None
    sp: bool
    aiob: bool
    moe: bool
    mla: bool
    #: recompute shows as doubled attention bytes without AIOB; None: not shown
    recompute: bool | None
    #: the unpadded vocabulary (the path without AIOB writes it in `embedding_norm`)
    vocab: int | None
    total: int | None
    dense: int | None
    moe_params: int | None
    #: (fwd size, ig size) of the first MoE block's rows
    moe_rows: tuple[tuple[int, int], ...]
    #: layers of the first group before its first MoE block (DeepSeek's dense layers), and
    #: whether dense MLP rows follow a MoE block (DeepSeek's shared experts)
    dense_layers: int = 0
    shared: bool = False


def _rows(text: str, most: int = 4000) -> list[list[str]]:
    return [line.split("\t") for line in text.split("\n", most + 2)[2 : most + 2]]


def _size(fields: list[str], at: int) -> int:
    return row_number(fields[at]) if len(fields) > at else 0


def observe(text: str) -> Observed | None:
    """What `text` shows, or None where it is no training file of AICB's (since v1.1)."""
    head = text.split("\n", 1)[0]
    keys = header_keys(head)
    tp, pp = header_int(keys, "model_parallel_NPU_group", 0), header_int(keys, "pp", 0)
    ep, ga = header_int(keys, "ep", 1), header_int(keys, "ga", -1)
    world = header_int(keys, "all_gpus", 0)
    if not tp or not pp or not world or ga < 0 or not ep or "mode" in keys:
        return None
    rows = _rows(text)
    names = [r[0] for r in rows]
    by_name: dict[str, list[str]] = {}
    for r in rows:
        by_name.setdefault(r[0], r)
    ce = by_name.get("cross_entropy1") or _last(text, "cross_entropy1")
    tokens = _size(ce, 4) // 4 if ce else 0
    if not tokens or tokens > MOST:
        return None
    sp = any(n.endswith(("_column", "_row")) for n in names)
    aiob, moe = "grad_gather" in by_name, "mlp_moelayer" in by_name
    mla = any(n in by_name for n in _MLA)
    act = _activation(by_name, keys, tp, sp, pp)
    stage = header_int(keys, "vpp", 0) or _stage_layers(names)
    recompute: bool | None = None
    if not aiob and act:
        first = next((r for r in rows if r[0].startswith("attention")), None)
        recompute = bool(first) and _size(first or [], 4) == 2 * act
    norm = by_name.get("embedding_norm")
    vocab = None
    if norm and not aiob and act and tokens:
        hidden = hidden_of(act, 1, tokens)
        vocab = _size(norm, 4) // (2 * hidden) if hidden else None
    total = _half(by_name.get("grad_norm"), 4) or _half(by_name.get("layernorm"), 7)
    dense = _half(by_name.get("grad_gather"), 10)
    moe_params = _half(by_name.get("moe_grad_norm1"), 10, zero=True)
    at = names.index("mlp_moelayer") if moe else len(names)
    block = [(_size(r, 4), _size(r, 7)) for r in rows[at : at + 7] if r[0] == "mlp_moelayer"]
    return Observed(
        tp, ep, pp, world, ga, stage, tokens, act, sp, aiob, moe, mla, recompute, vocab,
        total, dense, moe_params, tuple(block), *_dense_and_shared(names),
    )  # fmt: skip


def _last(text: str, name: str) -> list[str] | None:
    at = text.rfind(f"\n{name}\t")
    return text[at + 1 : text.find("\n", at + 1)].split("\t") if at >= 0 else None


def _half(fields: list[str] | None, at: int, zero: bool = False) -> int | None:
    if not fields:
        return None
    size = _size(fields, at)
    return size // 2 if size or zero else None


def _activation(
    by_name: dict[str, list[str]], keys: dict[str, str], tp: int, sp: bool, pp: int
) -> int | None:
    """The activation bytes: a TP row's, else the header's pp_comm (undone for SP)."""
    for name in ("embedding_layer", "attention_layer", "attention_row", "mlp_layer", "mlp_row"):
        fields = by_name.get(name)
        if fields and _size(fields, 4):
            return _size(fields, 4)
    if pp > 1 and "pp_comm" in keys:
        read = header_size(keys, "pp_comm")
        return activation_of(read, tp, sequence_parallel=sp) if read else None
    return None


def _dense_and_shared(names: list[str]) -> tuple[int, bool]:
    """(layers before the first MoE block, whether MLP rows follow one) in the first group."""
    group = _first_group(names)
    if "mlp_moelayer" not in group:
        return 0, False
    at = group.index("mlp_moelayer")
    opened = sum(1 for n in group[:at] if n.startswith(_OPENERS) and not n.endswith("_kv_lora"))
    dense = max(opened - 1, 0)  # the MoE block's own layer opened last
    after = group[at:]
    shared = any(n.startswith("mlp_") and n != "mlp_moelayer" for n in after)
    return dense, shared


def _first_group(names: list[str]) -> list[str]:
    if "embedding_layer" not in names:
        return []
    group = names[names.index("embedding_layer") + 1 :]
    return group[: group.index("embedding_layer")] if "embedding_layer" in group else group


def _stage_layers(names: list[str]) -> int:
    """The layers of one stage: the block openers of the first micro-batch group."""
    if "embedding_layer" not in names:
        return 0
    group = names[names.index("embedding_layer") + 1 :]
    if "embedding_layer" in group:
        group = group[: group.index("embedding_layer")]
    return sum(1 for n in group if n.startswith(_OPENERS) and not n.endswith("_kv_lora"))


@dataclass(frozen=True, slots=True)
class Hint:
    """What a file's name says (an AICB name, or a preset's model named in it)."""

    aicb: AicbName | None
    model: str | None
    gemm: bool | None
    flash: bool | None


def hint(path: str) -> Hint:
    """The file name's evidence: an AICB name, else a preset model spelled in it loosely
    (`gpt7b-world128.txt` names gpt_7B)."""
    base = PurePath(path).name
    name = parse_filename(base)
    flags = NAME_FLAGS.search(base)
    gemm, flash = (flags[1] == "True", flags[2] == "True") if flags else (None, None)
    if name is not None and name.inference_phase is None:
        return Hint(name, name.model, gemm, flash)
    loose = re.sub(r"[^a-z0-9]", "", base.lower())
    for preset in SCRIPT_PRESETS.values():
        model = preset.settings["model_name"]
        spelled = re.sub(r"[^a-z0-9]", "", model.lower().replace("*", "x"))
        if "num_layers" in preset.settings and spelled in loose:
            return Hint(None, model.replace("*", "x"), None, None)
    return Hint(None, None, None, None)


#: what a v1.0 file (its header: TP only; every layer, whatever the stages) does not show:
#: runs that differ only in these write the same file
V1_UNSHOWN = ("world size", "pipeline stages", "global batch")


def unrecorded(path: str, inference: bool, first_generator: bool = False) -> tuple[str, ...]:
    """What only AICB's file name records that this file's name does not give (the command
    found names a guess for each): the model (the content shows its shape; several models
    may share one), and for training the GPU type (v1.0 had none) and flash attention; for
    v1.0 also the world size, pipeline stages and global batch (`V1_UNSHOWN`)."""
    base = PurePath(path).name
    if inference:
        named = parse_filename(base) or parse_first_inference_filename(base)
        return () if named is not None else ("model name",)
    h = hint(path)
    if first_generator:
        if parse_v1_filename(base) is not None:
            return ()
        missing: tuple[str, ...] = (*V1_UNSHOWN, "flash attention")
    elif h.aicb is not None or parse_v1_filename(base) is not None:
        return ()
    else:
        missing = ("GPU type", "flash attention")
    return missing if h.model is not None else ("model name", *missing)


@dataclass(frozen=True, slots=True)
class _Model:
    """One reading of the model's shape: a preset's, or the file's own."""

    name: str | None
    settings: dict[str, str]
    layers: int
    heads: int
    ffns: tuple[int, ...]


def _preset_models(o: Observed, hidden: int, h: Hint) -> list[_Model]:
    """The presets the content agrees with (the name's first; the name's model named)."""
    found: list[_Model] = []
    span = range(o.stage_layers * o.pp, o.stage_layers * o.pp + o.pp)
    for preset in SCRIPT_PRESETS.values():
        s = dict(preset.settings)
        if "num_layers" not in s or int(s["hidden_size"]) != hidden:
            continue
        moe_on_dense = o.moe and not o.mla and "moe_enable" not in s  # -m 7 --moe_enable
        mismatch = ("moe_enable" in s) != o.moe or (s.get("frame") == "DeepSeek") != o.mla
        if mismatch and not moe_on_dense:
            continue
        if int(s["num_layers"]) not in span:
            continue
        name = s["model_name"].replace("*", "x")
        ffns = [int(s["ffn_hidden_size"])] if "ffn_hidden_size" in s else []
        ffns += [ffn_size(hidden, True), 4 * hidden]
        shape = _Model(name, s, int(s["num_layers"]), int(s["num_attention_heads"]), tuple(ffns))
        found.insert(0, shape) if h.model == name else found.append(shape)
    if h.model is not None:
        found = [replace(m, name=h.model) for m in found]  # the name decides
    return found


def _own_models(o: Observed, hidden: int, h: Hint, preset_found: bool) -> list[_Model]:
    """The file's own shape (its model named only when the name names one); a DeepSeek
    one only where no preset's MLA shape fits."""
    found: list[_Model] = []
    if o.mla and not preset_found:
        found += _own_deepseek(o, hidden, h)
    if not o.mla:
        # fewer layers than stages leave every stage empty: one layer is the plausible run
        total = o.stage_layers * o.pp or min(o.pp - 1, 1)
        wide = next((hidden // d for d in (128, 64) if hidden % d == 0 and hidden >= d), 1)
        # AICB's heads default to the layers, which the stages floor (any of pp counts);
        # a width of its own, to 128 per head
        readings = [(total, total), (total, wide)]
        readings += [(n, n) for n in range(total + 1, o.stage_layers * o.pp + o.pp)]
        for layers_, heads in dict.fromkeys(readings):
            ffns = (ffn_size(hidden, True), 4 * hidden)
            found.append(_Model(h.model, {}, layers_, heads, ffns))
    return found


#: MLA query ranks tried for a DeepSeek shape of the user's own (the file shows their sum
#: with the FFN width only): AICB's default first, then DeepSeek-V2-Lite's (none) and smaller
_Q_LORA = ("1536", "0", "512", "768", "1024", "384", "256")


def _own_deepseek(o: Observed, hidden: int, h: Hint) -> list[_Model]:
    """DeepSeek shapes of the user's own: AICB's default MLA ranks and head sizes, the
    dense layers and shared experts the rows show, the query rank tried over `_Q_LORA`."""
    total = o.stage_layers * o.pp or 1
    heads = next((hidden // d for d in (128, 64) if hidden % d == 0 and hidden >= d), 1)
    shape = {
        "frame": "DeepSeek",
        "kv_lora_rank": "512",
        "qk_nope_dim": "128",
        "qk_rope_dim": "64",
        "v_head_dim": "128",
        "n_shared_expert": "2" if o.shared else "0",
        "n_dense_layer": str(o.dense_layers),
    }
    return [
        _Model(h.model, {**shape, "q_lora_rank": q}, total, heads, (ffn_size(hidden, True),))
        for q in _Q_LORA
    ]


#: widths tried where no row shows the activation, after the presets' (a user's own model)
_COMMON_WIDTHS = (512, 1024, 2048, 3072, 4096, 5120, 6144, 8192)


def _unseen_widths(o: Observed) -> list[int]:
    """Hidden sizes for a file whose rows show no activation (TP 1 under AIOB zeroes it):
    a MoE dispatch's bytes over likely top-k values, then the presets' and common widths."""
    widths: list[int] = []
    for fwd, ig in o.moe_rows:
        for size in (fwd, ig):
            for k in (2, 4, 1, 8, 6):
                width = hidden_of(size * o.tp // k, 1, o.tokens) if size > 1 else None
                if width and size * o.tp % k == 0 and width % 64 == 0:
                    widths.append(width)
    if not widths:  # no MoE block either
        widths += [int(p.settings.get("hidden_size", 0)) for p in SCRIPT_PRESETS.values()]
        widths += _COMMON_WIDTHS
    return [w for w in dict.fromkeys(widths) if w]


def _splits(o: Observed, h: Hint) -> list[tuple[int, int]]:
    """(micro-batch, sequence) readings of the tokens, the name's first, then small batches."""
    return token_splits(o.tokens, (h.aicb.mbs, h.aicb.seq) if h.aicb is not None else None)


def _observed(o: Observed, a: TrainingArgs, rows: int, gemm_needed: bool) -> tuple[int, ...]:
    total, moe = parameter_totals(layers(a, rows, gemm_needed))
    values = []
    if o.total is not None:
        values.append(total)
    if o.dense is not None:
        values.append(total - moe)
    if o.moe_params is not None:
        values.append(moe)
    return tuple(values)


def _solve_ffn(o: Observed, a: TrainingArgs, rows: int, gemm: bool) -> list[int] | None:
    """FFN widths that give the file's parameter totals (None: any width does)."""
    want = tuple(
        v for v in (o.total, o.dense, o.moe_params) if v is not None
    )  # in `_observed`'s order
    step = a.tp * max(a.ep, 1)
    try:
        low = _observed(o, replace(a, ffn_hidden_size=step), rows, gemm)
        high = _observed(o, replace(a, ffn_hidden_size=2 * step), rows, gemm)
    except AicbError:
        return []
    width: int | None = None
    for w, lo, hi in zip(want, low, high, strict=True):
        slope = hi - lo
        if slope == 0:
            if lo != w:
                return []
            continue
        base = lo - slope  # the total at width 0
        if (w - base) % slope:
            return []
        f = (w - base) // slope * step
        if f <= 0 or (width is not None and f != width):
            return []
        width = f
    return None if width is None else [width]


#: expert counts tried where no row shows the count (Mixtral's first)
_EXPERTS = (8, 16, 64, 32, 4, 160, 256)


def _experts(o: Observed, seq: int, hidden: int, preset: dict[str, str]) -> list[tuple[int, int]]:
    """(experts, top-k) readings of the first MoE block's sizes, likeliest first: a block of
    five rows (Megatron-Core 0.13) carries the router all-gather (`formulas.experts_of`) and
    the dispatch (`formulas.topk_of`); one of seven, 2 x tokens (AIOB) or 2 x sequence
    (without) per expert and the routed activation x top-k; then the preset's, then 8 and 2."""
    act, tp, ep, block = o.act or 2 * o.tokens * hidden, o.tp, o.ep, o.moe_rows
    counts: list[int | None] = []
    ks: list[int | None] = []

    def ratio(size: int, per: int) -> int | None:
        return size // per if per and size and size % per == 0 else None

    if len(block) == 5:
        counts.append(experts_of(block[0][0], ep, tp) if block[0][0] else None)
        ks += [topk_of(block[1][1], act, tp) if block[1][1] else None]
        ks += [ratio(block[2][0], act)]
    elif len(block) == 7:
        counts.append(ratio(block[0][0], 2 * (o.tokens if o.aiob else seq)))
        ks.append(ratio(block[3][0], act) if o.aiob else topk_of(block[2][0], act, tp))
        ks += [topk_of(block[2][1], act, tp), topk_of(block[5][0], act, tp)]
    if "num_experts" in preset:
        counts.append(int(preset["num_experts"]))
    found: list[tuple[int, int]] = []
    # where no row shows the count, the parameter totals tell the likely ones apart
    for e in dict.fromkeys(c for c in [*counts, *_EXPERTS] if c):
        if e > MOST or (ep > 1 and e % ep):
            continue
        for k in dict.fromkeys(k for k in [*ks, 2, 1] if k and k <= 1024):
            if k <= e:
                found.append((e, k))
    return found[:12]


def _words(words: list[str], option: str, value: object) -> None:
    words += [option, str(value)]


def shapes(path: str, text: str) -> Iterator[str]:
    """Argument lists (the current option names) that may reproduce `text`, likeliest first."""
    o = observe(text)
    if o is None:
        return
    h = hint(path)
    dp = data_parallel(o.world, o.tp, o.pp)
    if dp is None or o.ga > MOST:
        return
    read = hidden_of(o.act, 1, o.tokens) if o.act else None
    hiddens = [read] if read else []
    if not hiddens:  # TP 1 under AIOB shows no activation: a MoE dispatch's, common ones
        hiddens = _unseen_widths(o)
    # the presets' shapes first; the user's own (costlier: more unknowns) only when asked
    presets = {hidden: _preset_models(o, hidden, h) for hidden in hiddens}
    found = any(presets.values())
    for tier in ("presets", "own"):
        ranked: dict[str, int] = {}
        for hidden in hiddens:
            models = presets[hidden] if tier == "presets" else _own_models(o, hidden, h, found)
            for model in models:
                for rank, command in _commands(o, h, hidden, model, dp):
                    ranked.setdefault(command, rank)
        # plausible widths of every reading before an odd width of the first
        order = sorted(ranked, key=ranked.__getitem__)
        yield from order[:_MOST_CANDIDATES]


def _commands(o: Observed, h: Hint, hidden: int, m: _Model, dp: int) -> Iterator[tuple[int, str]]:
    """The commands for one model reading, each with its rank (0: likeliest)."""
    deepseek = m.settings.get("frame") == "DeepSeek"
    aicb = h.aicb
    ranked: list[tuple[int, str]] = []
    template: TrainingArgs | None = None
    for mbs, seq in _splits(o, h):
        gbs = o.ga * mbs * dp
        if aicb is not None and aicb.gbs is not None and aicb.gbs // (mbs * dp) == o.ga:
            gbs = aicb.gbs
        if gbs == 0:
            gbs = 1
        experts = _experts(o, seq, hidden, m.settings) if o.moe else [(0, 0)]
        vocabs = [o.vocab] if o.vocab else list(VOCABS)
        for vocab in vocabs:
            for at, ((e, k), bias) in enumerate((x, b) for x in experts for b in (False, True)):
                words = _base(o, h, m, hidden, deepseek, gbs, mbs, seq, vocab)
                if template is None:  # parsed once: the readings differ in a few numbers
                    template = _parsed(words, o.sp)
                    if template is None:
                        return
                a = replace(
                    template,
                    micro_batch=mbs,
                    seq_length=seq,
                    vocab_size=vocab,
                    padded_vocab_size=padded_vocab(vocab, DIVISIBLE_BY, o.tp),
                    add_bias_linear=bias,
                    moe_enable=o.moe,
                    ep=o.ep,
                    grouped_gemm=o.moe and h.gemm is not False,
                    num_experts=e if o.moe else template.num_experts,
                    topk=k if o.moe else template.topk,
                )
                words += ["--add_bias_linear"] if bias else []
                if o.moe:
                    words += ["--moe_enable"] + (
                        ["--moe_grouped_gemm"] if h.gemm is not False else []
                    )
                    words += ["--num_experts", str(e), "--moe_router_topk", str(k)]
                if o.ep != 1 and not o.moe:  # EP without a MoE block: experts it divides
                    words += ["--num_experts", str(o.ep)]
                if o.moe or o.ep != 1:  # the header's EP, with or without a MoE block
                    words += ["--expert_model_parallel_size", str(o.ep)]
                for width, rank in _widths(o, a, m):
                    full = [*words, *_width_words(width, hidden, m)]
                    full += ["--enable_sequence_parallel"] if o.sp else []
                    full += ["--aiob_enable", "--comp_filepath", EXAMPLE] if o.aiob else []
                    penalty = rank + (0 if (mbs, seq) == _splits(o, h)[0] else 1)
                    penalty += 2 * bias + (vocab != vocabs[0]) + at // 2
                    for recompute in (False, True) if o.recompute is None else (o.recompute,):
                        tail = ["--recompute_activations"] if recompute else []
                        ranked.append((penalty + recompute, " ".join(full + tail)))
    ranked.sort(key=lambda pair: pair[0])
    yield from ranked[:_MOST_CANDIDATES]


def _parsed(words: list[str], sp: bool) -> TrainingArgs | None:
    try:
        return training_args([*words, *(["--enable_sequence_parallel"] if sp else [])])[0]
    except AicbError:
        return None


def _width_words(width: int, hidden: int, m: _Model) -> list[str]:
    """The FFN width as a user would give it: AICB's SwiGLU default or its plain 4 x hidden
    by their switch, any other number as itself (after --swiglu for a preset's, as the
    script passes it)."""
    if width == ffn_size(hidden, True):
        return ["--swiglu"]
    if width == 4 * hidden:
        return []
    given = ["--ffn_hidden_size", str(width)]
    return ["--swiglu", *given] if "ffn_hidden_size" in m.settings else given


def _base(
    o: Observed,
    h: Hint,
    m: _Model,
    hidden: int,
    deepseek: bool,
    gbs: int,
    mbs: int,
    seq: int,
    vocab: int,
) -> list[str]:
    words: list[str] = []
    gpu = h.aicb.gpu_type if h.aicb else None
    if gpu not in (None, "None"):
        words += ["--gpu_type", str(gpu)]
    words += ["--frame", "DeepSeek" if deepseek else "Megatron"]
    if m.name is not None:
        words += ["--model_name", m.name]
    words += [
        "--num_layers", str(m.layers), "--hidden_size", str(hidden),
        "--num_attention_heads", str(m.heads), "--world_size", str(o.world),
        "--tensor_model_parallel_size", str(o.tp), "--pipeline_model_parallel", str(o.pp),
        "--global_batch", str(gbs), "--micro_batch", str(mbs), "--seq_length", str(seq),
    ]  # fmt: skip
    words += ["--use_flash_attn"] if h.flash is not False else []
    words += ["--vocab_size", str(vocab)]
    if deepseek:
        for variable, option in DEEPSEEK_SHAPE.items():
            words += [option, m.settings[variable]] if variable in m.settings else []
    return words


#: the script variables of a DeepSeek preset's MLA and expert shape -> their options
DEEPSEEK_SHAPE = {
    "q_lora_rank": "--q_lora_rank",
    "kv_lora_rank": "--kv_lora_rank",
    "qk_nope_dim": "--qk_nope_dim",
    "qk_rope_dim": "--qk_rope_dim",
    "v_head_dim": "--v_head_dim",
    "n_shared_expert": "--n_shared_expert",
    "n_dense_layer": "--n_dense_layers",
}


def _widths(o: Observed, a: TrainingArgs, m: _Model) -> Iterator[tuple[int, int]]:
    """(FFN width, rank): the widths the parameter totals allow for settings `a` (under
    both embedding shapes AICB had), the model's own first; rank 0 for a width a user gives
    without thinking (the preset's, AICB's defaults)."""
    solved: list[int] = []
    free = False
    for rows, gemm in ((4, False), (2, False), (2, True)):
        widths = _solve_ffn(o, a, rows, gemm)
        if widths is None:
            free = True
        else:
            solved += [w for w in widths if w not in solved]
    if free or (o.total is None and o.dense is None):
        for width in m.ffns:
            yield width, 0
    for width in solved:
        yield width, 0 if width in m.ffns else 3


__all__ = [
    "DEEPSEEK_SHAPE",
    "NAME_FLAGS",
    "Hint",
    "Observed",
    "hint",
    "observe",
    "shapes",
    "unrecorded",
]
