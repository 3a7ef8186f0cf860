"""Header checks (WK201-WK222): what SimAI's reader makes of line 1's `key: value` pairs.

SimAI splits line 1 on whitespace and, for every token that is a key it knows (`ep:`, ...),
hands the *next token*, whatever it is, to `std::stoi`; a key given twice is read twice and the
last one wins. `reading()` models that once per header; each check below reports one way the
result differs from what the file says. Transformer policies are read for
`model_parallel_NPU_group ep pp vpp ga all_gpus` (and `checkpoints` under
HYBRID_TRANSFORMER_FWD_IN_BCKWD), the DLRM policies for `DLRM_LAST_BOTTOM_LAYER`, and every
policy for `pp_comm`; other policies need no key, so these checks stay quiet on them.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from wkparse.ast import Header, HeaderField, Span
from wkparse.checks import Context, FileCheck, file_check
from wkparse.diagnostics import Diagnostic, Edit, Fix
from wkparse.simai.cpp import INT_MAX, Stoi, stoi
from wkparse.simai.header import keys_read, read_header_tokens
from wkparse.simai.tables import DLRM_POLICIES, FWD_IN_BCKWD, POLICIES, TRANSFORMER_POLICIES

#: the transformer keys SimAI reads with stoi, in its (and AICB's) order, without colons
SIZE_KEYS: tuple[str, ...] = keys_read(FWD_IN_BCKWD)[:6]
CHECKPOINT_KEYS: tuple[str, ...] = keys_read(FWD_IN_BCKWD)[6:8]
DLRM_KEY = keys_read("HYBRID_DLRM")[0]
TP = SIZE_KEYS[0]
#: where AICB puts each key; missing keys are inserted after the last earlier one present
ORDER: tuple[str, ...] = (*SIZE_KEYS, *CHECKPOINT_KEYS, "pp_comm")
TRANSFORMER_KNOWN: frozenset[str] = frozenset({*ORDER, "mode"})
MISMATCH = "'Input workload format mismatch'"

#: names people (and AICB's micro-benchmark generator) write for the keys SimAI reads
ALIASES: dict[str, str] = {
    "expert_parallel_npu_group": "ep",
    "expert_model_parallel_size": "ep",
    "expert_parallel": "ep",
    "ep_size": "ep",
    "tp": TP,
    "tp_size": TP,
    "tensor_model_parallel_size": TP,
    "tensor_parallel": TP,
    "model_parallel": TP,
    "pipeline_model_parallel": "pp",
    "pipeline_model_parallel_size": "pp",
    "pipeline_parallel": "pp",
    "pp_size": "pp",
    "virtual_pipeline": "vpp",
    "vpp_size": "vpp",
    "gradient_accumulation": "ga",
    "gradient_accumulation_steps": "ga",
    "grad_accum": "ga",
    "world_size": "all_gpus",
    "num_gpus": "all_gpus",
    "gpus": "all_gpus",
    "pp_comm_size": "pp_comm",
    "pp_commsize": "pp_comm",
}
ROLES: dict[str, str] = {
    TP: "the tensor-parallel size",
    "ep": "the expert-parallel size",
    "pp": "the pipeline-parallel size",
    "vpp": "the transformer layers per pipeline stage",
    "ga": "the micro-batches per iteration",
    "all_gpus": "the world size",
    "pp_comm": "the bytes sent between pipeline stages",
}


# ---- SimAI's reading of line 1 ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Token:
    """One whitespace-separated token of line 1; `field` indexes `Header.fields`."""

    text: str
    span: Span
    field: int | None
    #: True for a field's first token (its key), False for values and the policy
    key: bool = False


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One place SimAI reads `key`: the key token and the token it hands to stoi."""

    key: str
    key_token: Token
    index: int
    value_token: Token | None
    #: what stoi made of the value token; None when there is none (SimAI reads past the line)
    result: Stoi | None


@dataclass(frozen=True)
class Reading:
    header: Header
    tokens: tuple[Token, ...]
    #: every read of each key SimAI reads for this policy, in line order
    reads: dict[str, tuple[Occurrence, ...]]

    def last(self, key: str) -> Occurrence | None:
        found = self.reads.get(key, ())
        return found[-1] if found else None

    def value(self, key: str) -> int | None:
        """What SimAI ends up with for `key`; None when absent or when stoi throws."""
        last = self.last(key)
        return last.result.value if last is not None and last.result is not None else None

    def written(self, key: str) -> bool:
        """Whether the key appears at all: with its colon, without it, or glued to a value."""
        return any(
            t.key and (t.text in (key, f"{key}:") or t.text.startswith(f"{key}:"))
            for t in self.tokens
        )

    @functools.cached_property
    def key_positions(self) -> dict[int, int]:
        """Where each field's key stands among the tokens, by field index: looked up once, as
        a hostile header can hold thousands of fields that each get a fix."""
        return {t.field: i for i, t in enumerate(self.tokens) if t.key and t.field is not None}

    @functools.cached_property
    def consumed(self) -> frozenset[int]:
        """Indexes of tokens SimAI takes as a key's value (so they are not keys themselves)."""
        return frozenset(
            o.index + 1 for occ in self.reads.values() for o in occ if o.value_token is not None
        )


def known_keys(policy: str) -> frozenset[str]:
    """Keys that are not typos for this policy (read by SimAI, or AICB's unread `mode`)."""
    if policy in TRANSFORMER_POLICIES:
        return TRANSFORMER_KNOWN
    if policy in DLRM_POLICIES:
        return frozenset({DLRM_KEY, "pp_comm"})
    return frozenset()


def line_tokens(header: Header) -> tuple[Token, ...]:
    tokens = [Token(header.policy, header.policy_span, None)]
    tokens += [Token(v.text, v.span, None) for v in header.leading]
    for i, f in enumerate(header.fields):
        tokens.append(Token(f"{f.key}:" if f.colon else f.key, f.span, i, key=True))
        tokens += [Token(v.text, v.span, i) for v in f.values]
    return tuple(tokens)


@functools.lru_cache(maxsize=16)
def reading(header: Header) -> Reading:
    """SimAI's reading of the header (`wkparse.simai`), each read placed on its tokens."""
    tokens = line_tokens(header)
    model = read_header_tokens(tuple(t.text for t in tokens), through=True)
    reads: dict[str, list[Occurrence]] = {}
    for r in model.reads:
        if r.offset != 1:
            continue
        key_token = tokens[r.index]
        key = key_token.text.removesuffix(":")
        nxt = tokens[r.index + 1] if r.index + 1 < len(tokens) else None
        reads.setdefault(key, []).append(Occurrence(key, key_token, r.index, nxt, r.result))
    return Reading(header, tokens, {k: tuple(v) for k, v in reads.items()})


def _header_reading(ctx: Context, policies: frozenset[str] | None = None) -> Reading | None:
    """SimAI's reading of the header, when it gets that far (a known policy) for `policies`."""
    header = ctx.workload.header
    if header is None or header.policy not in POLICIES:
        return None
    if policies is not None and header.policy not in policies:
        return None
    return reading(header)


HeaderCheck = Callable[[Context, Reading], Iterator[Diagnostic]]


def _header_check(
    code: str, policies: frozenset[str] | None = None
) -> Callable[[HeaderCheck], FileCheck]:
    """Register a check that runs only when SimAI reads the header (for `policies`).

    Every header check starts from the same question, so it is asked here once and the
    check receives the reading instead of repeating the guard.
    """

    def register(fn: HeaderCheck) -> FileCheck:
        @functools.wraps(fn)
        def check(ctx: Context) -> Iterator[Diagnostic]:
            r = _header_reading(ctx, policies)
            if r is not None:
                yield from fn(ctx, r)

        return file_check(code)(check)

    return register


class IntRead(NamedTuple):
    """An integer SimAI read for a key, and the token it read it from."""

    value: int
    token: Token


def _last_int(r: Reading, key: str) -> IntRead | None:
    """The integer SimAI ends up with for `key` and the token it read it from.

    None when the key is absent, has no value or stoi throws: those are WK201/WK207/WK208's,
    so the checks comparing values stay quiet on them.
    """
    last = r.last(key)
    if last is None or last.value_token is None or last.result is None:
        return None
    if last.result.value is None:
        return None
    return IntRead(last.result.value, last.value_token)


def _replace(description: str, span: Span, text: str, safe: bool = True) -> Fix:
    """A fix that rewrites one span: what nearly every header fix is."""
    return Fix(description, (Edit(span, text),), safe=safe)


def _field_end(f: HeaderField) -> int:
    return f.values[-1].span.end_column if f.values else f.span.end_column


def _field_span(f: HeaderField) -> Span:
    return Span.on_line(f.span.line, f.span.column, _field_end(f))


def _delete_field(r: Reading, index: int) -> Edit:
    """An edit removing field `index` and the blank before it."""
    f = r.header.fields[index]
    key_at = r.key_positions[index]
    start = r.tokens[key_at - 1].span.end_column
    return Edit(Span.on_line(f.span.line, start, _field_end(f)), "")


def _insertion_point(r: Reading, key: str) -> int:
    """The column after which AICB would have written `key`."""
    earlier = ORDER[: ORDER.index(key)] if key in ORDER else ORDER
    column = r.tokens[len(r.header.leading)].span.end_column
    for f in r.header.fields:
        if f.colon and f.key in earlier:
            column = max(column, _field_end(f))
    return column


def _insert(r: Reading, key: str, value: int) -> Edit:
    at = _insertion_point(r, key)
    return Edit(Span.on_line(1, at, at), f" {key}: {value}")


def _sizes(r: Reading) -> dict[str, int]:
    """What SimAI reads for the size keys and pp_comm (keys it cannot read are left out)."""
    out = {}
    for key in (*SIZE_KEYS, "pp_comm"):
        v = r.value(key)
        if v is not None:
            out[key] = v
    return out


def suggest_key(key: str, known: frozenset[str]) -> str | None:
    """The known key a mistyped one most likely meant."""
    bare = key.rstrip(":").lower()
    if bare in ALIASES and ALIASES[bare] in known:
        return ALIASES[bare]
    lowered = {k.lower(): k for k in known}
    if bare in lowered:
        return lowered[bare]
    close = difflib.get_close_matches(bare, list(lowered), n=1, cutoff=0.75)
    return lowered[close[0]] if close else None


def _unknown_fields(r: Reading) -> Iterator[tuple[HeaderField, str | None]]:
    """Fields SimAI ignores because their key is not one it reads, with a suggestion."""
    known = known_keys(r.header.policy)
    if not known:
        return
    # A hostile header can repeat one unknown key thousands of times: ask difflib once.
    suggestions: dict[str, str | None] = {}
    for i, t in enumerate(r.tokens):
        if not t.key or t.field is None or i in r.consumed:
            continue
        f = r.header.fields[t.field]
        if f.key in known or _glued(f, known) is not None:
            continue
        if f.key not in suggestions:
            suggestions[f.key] = suggest_key(f.key, known)
        yield f, suggestions[f.key]


def _glued(f: HeaderField, known: frozenset[str]) -> tuple[str, str] | None:
    """(`key`, `value`) for a token such as `vpp:9`, where the value lacks its blank."""
    if f.colon or ":" not in f.key:
        return None
    key, _, value = f.key.partition(":")
    return (key, value) if key in known and value else None


# ---- keys the policy needs ----------------------------------------------------------------


def _layout_effect(key: str, value: int = 0) -> str:
    """What SimAI makes of `key` read as `value` (0 when the key is missing)."""
    bubble = "the pipeline bubble (layer time x (PP - 1) / (ga x vpp))"
    if key in ("vpp", "ga"):
        if value < 0:
            return f"{bubble} comes out negative"
        return f"{bubble} then divides by zero and the total time reads NaN or Inf"
    role = ROLES[key].removeprefix("the ")
    article = "an" if role[0] in "aeiou" else "a"
    return f"simulates with {article} {role} of {value}, not one the file gives"


def _era(key: str) -> str:
    if key == TP:
        return "every AICB era writes it"
    if key == "vpp":
        return "AICB wrote no vpp before 2024-11-05; its v1.0 headers carry only TP"
    return "AICB's v1.0 headers (and its multi-allreduce micro-benchmark) carry only TP"


@_header_check("WK201", TRANSFORMER_POLICIES)
def missing_key(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    typos = {s: f for f, s in _unknown_fields(r) if s is not None}
    for key in SIZE_KEYS[:-1]:
        if r.written(key):
            continue
        fix = None
        counted = _counted(ctx, key)
        if counted is not None:
            what = "layers per micro-batch group" if key == "vpp" else "micro-batch groups"
            fix = Fix(
                f"add `{key}: {counted}` ({what} counted in the body)",
                (_insert(r, key, counted),),
                safe=False,
            )
        add = f"`{key}: {counted}`" if counted is not None else f"`{key}: N`"
        hint = ""
        if key in typos:
            typo = typos[key]
            written = f"{typo.key}:" if typo.colon else typo.key
            hint = f" (`{written}` on this line looks meant for it, but SimAI ignores that)"
        yield Diagnostic(
            "WK201",
            f"the header has no `{key}:` ({ROLES[key]}){hint}: SimAI reads it as 0, prints only "
            f"{MISMATCH} and {_layout_effect(key)}; {_era(key)}; add {add}",
            r.header.span,
            fix=fix,
        )


def _counted(ctx: Context, key: str) -> int | None:
    """vpp or ga as the body shows them, when the body has micro-batch groups."""
    body = ctx.body
    if not body.has_groups:
        return None
    if key == "ga":
        return len(body.groups)
    if key == "vpp":
        return body.layers_per_group or None
    return None


@_header_check("WK202", TRANSFORMER_POLICIES)
def all_gpus_unset(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    note = (
        "SimAI only checks it for 0 (and prints "
        f"{MISMATCH}); SimAI-Analytical takes DP from its -g option, not from all_gpus"
    )
    if not r.written("all_gpus"):
        yield Diagnostic(
            "WK202",
            f"the header has no `all_gpus:` (the world size): {note}; add `all_gpus: W` with "
            f"the GPU count the file was generated for",
            r.header.span,
        )
        return
    read = _last_int(r, "all_gpus")
    if read is not None and read.value <= 0:
        yield Diagnostic(
            "WK202",
            f"all_gpus is {read.value}: {note}; set it to the GPU count the file was generated for",
            read.token.span,
        )


@_header_check("WK203", TRANSFORMER_POLICIES)
def missing_pp_comm(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    pp = r.value("pp")
    if pp is None or pp <= 1 or r.written("pp_comm"):
        return
    value = _pp_comm_from_body(ctx, r)
    fix = None
    add = "`pp_comm: V` (2 x mbs x seq x hidden bytes, divided by TP with sequence parallel)"
    if value is not None:
        add = f"`pp_comm: {value}` (from the activation size in the rows)"
        at = r.header.span.end_column
        fix = _replace(
            f"add `pp_comm: {value}`", Span.on_line(1, at, at), f" pp_comm: {value}", safe=False
        )
    yield Diagnostic(
        "WK203",
        f"pp is {pp} but the header has no `pp_comm:`: SimAI reads it as 0, prints {MISMATCH}, "
        f"and with an overlap ratio -pp_o below 1 simulates no stage-to-stage traffic; AICB "
        f"wrote no pp_comm before 2024-12-02; add {add}",
        r.header.span,
        fix=fix,
    )


def _pp_comm_from_body(ctx: Context, r: Reading) -> int | None:
    """Current AICB's pp_comm for this file: the activation size, divided by TP under SP."""
    activation = ctx.body.activation_bytes
    tp = r.value(TP)
    if activation is None:
        return None
    if ctx.body.sequence_parallel:
        return activation // tp if tp and tp > 0 and activation % tp == 0 else None
    return activation


# ---- the keys that are there --------------------------------------------------------------


@_header_check("WK204")
def unknown_key(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for f, guess in _unknown_fields(r):
        written = f"`{f.key}:`" if f.colon else f"`{f.key}`"
        values = " ".join(v.text for v in f.values)
        ignored = f"it and its value {values}" if values else "it"
        fix = None
        if guess is not None and not r.written(guess):
            hint = f"did you mean `{guess}:`?"
            fix = _replace(f"rename to `{guess}:`", f.span, f"{guess}:", safe=False)
        elif guess is not None:
            hint = f"it looks like `{guess}:`, which the header already has; delete it"
        else:
            hint = "delete it, or spell the key SimAI reads"
        yield Diagnostic(
            "WK204",
            f"{written} is not a key SimAI reads for {r.header.policy}: it ignores {ignored}; "
            f"{hint}",
            f.span,
            fix=fix,
        )


def _repeats(r: Reading) -> Iterator[tuple[str, tuple[Occurrence, ...]]]:
    """Keys read more than once where the last read wins (checkpoint lists accumulate)."""
    for key, occurrences in r.reads.items():
        if key not in CHECKPOINT_KEYS and len(occurrences) > 1:
            yield key, occurrences


def _shown(o: Occurrence) -> str:
    return o.value_token.text if o.value_token is not None else "nothing"


@_header_check("WK205")
def conflicting_duplicate(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for key, occurrences in _repeats(r):
        if len({_shown(o) for o in occurrences}) == 1:
            continue
        last = occurrences[-1]
        earlier = [_field_index(o) for o in occurrences[:-1]]
        values = ", ".join(_shown(o) for o in occurrences)
        yield Diagnostic(
            "WK205",
            f"`{key}` is given {len(occurrences)} times with different values ({values}): SimAI "
            f"silently takes the last, {_shown(last)} (column {last.key_token.span.column}); "
            f"keep the one you mean and delete the others",
            _field_span(r.header.fields[earlier[0]]),
            fix=Fix(
                f"keep only the last `{key}` (what SimAI reads)",
                tuple(_delete_field(r, i) for i in earlier),
                safe=False,
            ),
        )


def _field_index(o: Occurrence) -> int:
    assert o.key_token.field is not None  # a read key is always a field's key token
    return o.key_token.field


@_header_check("WK206")
def repeated_key(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for key, occurrences in _repeats(r):
        if len({_shown(o) for o in occurrences}) != 1:
            continue
        for o in occurrences[1:]:
            index = _field_index(o)
            yield Diagnostic(
                "WK206",
                f"`{key}` is given again with the same value ({_shown(o)}; first at column "
                f"{occurrences[0].key_token.span.column}): harmless, but a later edit to one of "
                f"them will silently not count; delete the repeat",
                _field_span(r.header.fields[index]),
                fix=Fix(f"delete the repeated `{key}`", (_delete_field(r, index),)),
            )


def _value_reads(r: Reading) -> Iterator[Occurrence]:
    """Every read, including each checkpoint list's count."""
    for occurrences in r.reads.values():
        yield from occurrences


@_header_check("WK207")
def key_without_value(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for o in _value_reads(r):
        if o.result is None:
            yield Diagnostic(
                "WK207",
                f"`{o.key_token.text}` is the last token of the line, with no value: SimAI reads "
                f"past the end of the line for it and crashes (segfault); add the value",
                o.key_token.span,
            )
        elif o.result.error == "invalid_argument":
            assert o.value_token is not None
            yield Diagnostic(
                "WK207",
                f"`{o.key_token.text}` is followed by `{o.value_token.text}`, not an integer: "
                f"SimAI's stoi throws std::invalid_argument and it crashes; give `{o.key}` a "
                f"value",
                o.key_token.span,
            )


@_header_check("WK208")
def value_overflow(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for o in _value_reads(r):
        if o.result is not None and o.result.error == "out_of_range" and o.value_token:
            stored = " (and SimAI stores pp_comm in 32 bits)" if o.key == "pp_comm" else ""
            yield Diagnostic(
                "WK208",
                f"`{o.key}` is {o.value_token.text}, over 2,147,483,647: SimAI reads it with "
                f"stoi, which throws std::out_of_range, and it crashes{stored}; it must fit a "
                f"32-bit signed integer",
                o.value_token.span,
            )


@_header_check("WK209", TRANSFORMER_POLICIES)
def zero_or_negative_size(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for key in SIZE_KEYS[:-1]:
        read = _last_int(r, key)
        if read is None or read.value > 0:
            continue
        value = read.value
        effect = _layout_effect(key, value)
        if key == "ga" and value == 0:
            effect += " (AICB floors ga to 0 when the global batch is below mbs x DP)"
        elif key == "vpp" and value == 0:
            effect += " (AICB floors vpp to 0 when PP exceeds the layer count)"
        warned = f"SimAI prints {MISMATCH} and " if value == 0 else "SimAI "
        yield Diagnostic(
            "WK209",
            f"{key} ({ROLES[key]}) is {value}: {warned}{effect}; it must be at least 1",
            read.token.span,
        )
    read = _last_int(r, "pp_comm")
    if read is not None and read.value < 0:
        value = read.value
        yield Diagnostic(
            "WK209",
            f"pp_comm is {value}: SimAI stores it as a 32-bit unsigned integer, so it becomes "
            f"{value % 2**32:,} bytes; it must be 0 or the bytes sent between stages",
            read.token.span,
        )


@_header_check("WK210", TRANSFORMER_POLICIES)
def all_gpus_not_divisible(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    s = _sizes(r)
    tp, pp, world = s.get(TP, 0), s.get("pp", 0), s.get("all_gpus", 0)
    read = _last_int(r, "all_gpus")
    if tp <= 0 or pp <= 0 or world <= 0 or world % (tp * pp) == 0 or read is None:
        return
    dp = world // (tp * pp)
    yield Diagnostic(
        "WK210",
        f"all_gpus {world} is not a multiple of TP x PP = {tp} x {pp} = {tp * pp}: "
        f"SimAI-Analytical takes DP from its -g option, not from all_gpus, as floor(-g / "
        f"(TP x PP)); run with -g {world} and DP is silently {dp}, leaving "
        f"{world - dp * tp * pp} GPUs out; use a multiple of {tp * pp}",
        read.token.span,
    )


@_header_check("WK211", TRANSFORMER_POLICIES)
def dp_not_divisible_by_ep(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    s = _sizes(r)
    tp, pp, world, ep = s.get(TP, 0), s.get("pp", 0), s.get("all_gpus", 0), s.get("ep", 0)
    read = _last_int(r, "ep")
    if min(tp, pp, world, ep) <= 0 or world % (tp * pp) or read is None:
        return
    dp = world // (tp * pp)
    if dp % ep == 0:
        return
    yield Diagnostic(
        "WK211",
        f"ep {ep} does not divide DP = all_gpus / (TP x PP) = {world} / ({tp} x {pp}) = {dp}: "
        f"the expert-parallel groups do not tile the data-parallel ranks, and the `_DP_EP` "
        f"groups SimAI builds (size DP / EP) are not whole; use an ep that divides {dp}",
        read.token.span,
    )


@_header_check("WK212", TRANSFORMER_POLICIES)
def pp_comm_zero_with_pipeline(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    pp, read = r.value("pp"), _last_int(r, "pp_comm")
    if pp is None or pp <= 1 or read is None or read.value != 0:
        return
    span = read.token.span
    value = _pp_comm_from_body(ctx, r)
    fix = _replace(f"set pp_comm to {value}", span, str(value), safe=False) if value else None
    target = f"{value} (from the activation size in the rows)" if value else "the bytes sent"
    yield Diagnostic(
        "WK212",
        f"pp is {pp} but pp_comm is 0: SimAI prints {MISMATCH} and, with an overlap ratio "
        f"-pp_o below 1, simulates no stage-to-stage traffic; set pp_comm to {target}",
        span,
        fix=fix,
    )


@_header_check("WK213", TRANSFORMER_POLICIES)
def pp_comm_without_pipeline(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    pp, read = r.value("pp"), _last_int(r, "pp_comm")
    if pp != 1 or read is None or read.value == 0:
        return
    span = read.token.span
    yield Diagnostic(
        "WK213",
        f"pp is 1 but pp_comm is {read.token.text}: with one stage nothing crosses "
        f"stages, SimAI's format check expects 0 and prints {MISMATCH}; AICB wrote this "
        f"between 2024-12-02 and 2024-12-04; set pp_comm: 0",
        span,
        fix=_replace("set pp_comm to 0", span, "0", safe=False),
    )


@_header_check("WK214")
def key_without_colon(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    known = known_keys(r.header.policy)
    read = set(keys_read(r.header.policy))
    for i, t in enumerate(r.tokens):
        if not t.key or t.field is None or i in r.consumed:
            continue
        f = r.header.fields[t.field]
        glued = _glued(f, known)
        if glued is not None:
            key, value = glued
            if key not in read:
                continue
            yield Diagnostic(
                "WK214",
                f"`{f.key}` has no blank after its colon: SimAI splits the line on whitespace, "
                f"finds no `{key}:` token and ignores it, as if {key} were missing; write "
                f"`{key}: {value}`",
                f.span,
                fix=_replace(f"write `{key}: {value}`", f.span, f"{key}: {value}"),
            )
        elif not f.colon and f.key in read and f.key != "pp_comm":
            value = " ".join(v.text for v in f.values) or "N"
            other = r.last(f.key)
            yield Diagnostic(
                "WK214",
                f"`{f.key} {value}` has no colon: SimAI only reads `{f.key}:` and ignores it, "
                f"as if {f.key} were missing"
                + (
                    f" (it reads {_shown(other)} from column {other.key_token.span.column})"
                    if other
                    else ""
                )
                + f"; write `{f.key}: {value}`",
                f.span,
                fix=_replace(f"add the colon: `{f.key}:`", f.span, f"{f.key}:", other is None),
            )


@_header_check("WK215")
def pp_comm_without_colon(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for o in r.reads.get("pp_comm", ()):
        if o.key_token.text != "pp_comm":
            continue
        yield Diagnostic(
            "WK215",
            f"`pp_comm {_shown(o)}` has no colon: SimAI reads pp_comm in both forms, but every "
            f"other key needs its colon and AICB writes `pp_comm: {_shown(o)}`; add the colon",
            o.key_token.span,
            fix=_replace("write `pp_comm:`", o.key_token.span, "pp_comm:"),
        )


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


@_header_check("WK216")
def float_value(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for o in _value_reads(r):
        t, res = o.value_token, o.result
        if t is None or res is None or res.value is None or res.whole:
            continue
        if _number(t.text) != res.value:
            continue
        era = (
            " (AICB writes it so since 2025-01 with sequence parallel)"
            if o.key == "pp_comm"
            else ""
        )
        yield Diagnostic(
            "WK216",
            f"`{o.key}` is written as a float, {t.text}{era}: SimAI's stoi stops at the dot and "
            f"reads {res.value}, the same number; the integer form is what SimAI's reader, "
            f"and any strict one, expects: write {res.value}",
            t.span,
            fix=_replace(f"write {res.value}", t.span, str(res.value)),
        )


@_header_check("WK217")
def value_misread(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for o in _value_reads(r):
        t, res = o.value_token, o.result
        if t is None or res is None or res.value is None or res.whole:
            continue
        number = _number(t.text)
        if number == res.value:
            continue
        fix = None
        if number is not None and number.is_integer() and abs(number) <= INT_MAX:
            exact = int(number)
            fix = _replace(f"write {exact}", t.span, str(exact), safe=False)
            want = f"write {exact}"
        else:
            want = "write the integer you mean"
        yield Diagnostic(
            "WK217",
            f"`{o.key}` is {t.text}, but SimAI's stoi reads only its leading integer, "
            f"{res.value}, and ignores `{t.text[res.consumed :]}`; {want}",
            t.span,
            fix=fix,
        )


# ---- checkpoints, mode, DLRM --------------------------------------------------------------


def _checkpoint_lists(r: Reading) -> Iterator[tuple[Occurrence, HeaderField]]:
    for key in CHECKPOINT_KEYS:
        for o in r.reads.get(key, ()):
            if o.result and o.result.value is not None and o.key_token.field is not None:
                yield o, r.header.fields[o.key_token.field]


@_header_check("WK218", TRANSFORMER_POLICIES)
def checkpoint_list(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for o, f in _checkpoint_lists(r):
        count = (o.result.value if o.result else None) or 0
        indexes = [v.text for v in f.values[1:]]
        if count <= 0 or len(indexes) < 2:
            continue
        times = f" (read {count} times)" if count > 1 else ""
        yield Diagnostic(
            "WK218",
            f"`{o.key}: {count} {' '.join(indexes)}` lists {len(indexes)} layers, but SimAI "
            f"marks only the first, layer {indexes[0]}{times}: layer(s) "
            f"{', '.join(indexes[1:])} are never marked; expect only layer {indexes[0]} to "
            f"count, or list just that one",
            _field_span(f),
        )


@_header_check("WK219", TRANSFORMER_POLICIES)
def checkpoint_index(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    count_line = ctx.workload.count
    layers = (
        count_line.value
        if count_line is not None and count_line.value is not None
        else len(ctx.workload.rows)
    )
    for o, f in _checkpoint_lists(r):
        count = (o.result.value if o.result else None) or 0
        if count <= 0:
            continue
        first = r.tokens[o.index + 2] if o.index + 2 < len(r.tokens) else None
        if first is None or stoi(first.text).value is None:
            got = f"`{first.text}`" if first is not None else "the end of the line"
            yield Diagnostic(
                "WK219",
                f"`{o.key}: {count}` announces {count} layer index(es) but is followed by "
                f"{got}: SimAI's stoi throws (or reads past the line) and it crashes; list the "
                f"layer indexes after the count",
                _field_span(f),
            )
            continue
        for v in f.values[1:]:
            index = stoi(v.text).value
            if index is not None and not 0 <= index < layers:
                yield Diagnostic(
                    "WK219",
                    f"`{o.key}` names layer {index}, but the layers are numbered 0 to "
                    f"{layers - 1}: SimAI marks no layer for it, so the checkpoint silently "
                    f"does not happen; use an index below {layers}",
                    v.span,
                )


@_header_check("WK220", TRANSFORMER_POLICIES)
def inference_mode(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for f in r.header.fields:
        if f.colon and f.key == "mode" and f.value is not None and f.value.integer not in (0, None):
            pp = r.value("pp")
            bubble = f" (pp {pp})" if pp and pp > 1 else ""
            yield Diagnostic(
                "WK220",
                f"`mode: {f.value.text}` marks an inference workload, but SimAI reads no "
                f"`mode:` key: it simulates the file as one training iteration, with "
                f"backward passes and the pipeline bubble{bubble}; read its times as training "
                f"times, not inference latency",
                _field_span(f),
            )


@_header_check("WK221", DLRM_POLICIES)
def dlrm_bottom_layer_missing(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    if r.written(DLRM_KEY) or r.header.leading:
        return
    yield Diagnostic(
        "WK221",
        f"{r.header.policy} needs `{DLRM_KEY}: N` (the index of the last bottom-MLP layer): "
        f"without it SimAI leaves that index unset and the DLRM schedule runs on an undefined "
        f"layer; add `{DLRM_KEY}: N`",
        r.header.span,
    )


@_header_check("WK222", DLRM_POLICIES)
def dlrm_bottom_layer_bare(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    if r.written(DLRM_KEY) or not r.header.leading:
        return
    v = r.header.leading[0]
    at = v.span.column
    yield Diagnostic(
        "WK222",
        f"`{r.header.policy} {v.text}` gives the last bottom layer as a bare number, as "
        f"ASTRA-sim 1.0 read it; SimAI only reads `{DLRM_KEY}: {v.text}` and leaves the index "
        f"unset; write `{DLRM_KEY}: {v.text}`",
        v.span,
        fix=_replace(f"write `{DLRM_KEY}: {v.text}`", Span.on_line(1, at, at), f"{DLRM_KEY}: "),
    )
