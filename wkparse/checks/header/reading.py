"""SimAI's reading of line 1, placed on the file's tokens, and what the header rules share.

The reading itself is `wkparse.models.simai.header` (the model checked against the real SimAI); this
module puts each key it reads on the token it stands on, so every rule can point at it, and
holds the fixes and helpers several header rules use. One module per rule sits beside it.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Callable, Iterator
from typing import NamedTuple

from wkparse.ast import HeaderField, Span
from wkparse.checks import Context, FileCheck, file_check
from wkparse.diagnostics import Diagnostic, Edit, Fix
from wkparse.i18n import N_, _
from wkparse.models.aicb.formulas import pp_comm_bytes
from wkparse.models.simai.header import keys_read
from wkparse.models.simai.tables import DLRM_POLICIES, FWD_IN_BCKWD, POLICIES, TRANSFORMER_POLICIES
from wkparse.models.simai.tokens import Occurrence, Reading, Token, reading

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


#: "SimAI simulates ... as N": what each key sets (translated where used)
ROLES: dict[str, str] = {
    TP: N_("simulates the tensor-parallel size as {value}"),
    "ep": N_("simulates the expert-parallel size as {value}"),
    "pp": N_("simulates the pipeline-parallel size as {value}"),
    "vpp": N_("simulates the transformer layers per pipeline stage as {value}"),
    "ga": N_("simulates the micro-batches per iteration as {value}"),
    "all_gpus": N_("simulates the world size as {value}"),
    "pp_comm": N_("simulates the bytes sent between pipeline stages as {value}"),
}


def known_keys(policy: str) -> frozenset[str]:
    """Keys that are not typos for this policy (read by SimAI, or AICB's unread `mode`)."""
    if policy in TRANSFORMER_POLICIES:
        return TRANSFORMER_KNOWN
    if policy in DLRM_POLICIES:
        return frozenset({DLRM_KEY, "pp_comm"})
    return frozenset()


def header_reading(ctx: Context, policies: frozenset[str] | None = None) -> Reading | None:
    """SimAI's reading of the header, when it gets that far (a known policy) for `policies`."""
    header = ctx.workload.header
    if header is None or header.policy not in POLICIES:
        return None
    if policies is not None and header.policy not in policies:
        return None
    return reading(header)


HeaderCheck = Callable[[Context, Reading], Iterator[Diagnostic]]
#: the one header rule that speaks for SimAI before b83ea3d4 (`positional_header`)
POSITIONAL = "WK230"


def header_check(
    code: str, policies: frozenset[str] | None = None
) -> Callable[[HeaderCheck], FileCheck]:
    """Register a check that runs only when SimAI reads the header (for `policies`).

    Every header check starts from the same question, so it is asked here once and the
    check receives the reading instead of repeating the guard.
    """

    def register(fn: HeaderCheck) -> FileCheck:
        @functools.wraps(fn)
        def check(ctx: Context) -> Iterator[Diagnostic]:
            if code != POSITIONAL and not ctx.simai.has("header_by_name"):
                # these rules describe the reader by name (b83ea3d4 on); before it WK230
                # says what the positional reader makes of line 1
                return
            r = header_reading(ctx, policies)
            if r is not None:
                yield from fn(ctx, r)

        return file_check(code)(check)

    return register


class IntRead(NamedTuple):
    """An integer SimAI read for a key, and the token it read it from."""

    value: int
    token: Token


def last_int(r: Reading, key: str) -> IntRead | None:
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


def replacement(description: str, span: Span, text: str, safe: bool = True) -> Fix:
    """A fix that rewrites one span: what nearly every header fix is."""
    return Fix(description, (Edit(span, text),), safe=safe)


def field_end(f: HeaderField) -> int:
    return f.values[-1].span.end_column if f.values else f.span.end_column


def field_span(f: HeaderField) -> Span:
    return Span.on_line(f.span.line, f.span.column, field_end(f))


def delete_field(r: Reading, index: int) -> Edit:
    """An edit removing field `index` and the blank before it."""
    f = r.header.fields[index]
    key_at = r.key_positions[index]
    start = r.tokens[key_at - 1].span.end_column
    return Edit(Span.on_line(f.span.line, start, field_end(f)), "")


def sizes(r: Reading) -> dict[str, int]:
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


def unknown_fields(r: Reading) -> Iterator[tuple[HeaderField, str | None]]:
    """Fields SimAI ignores because their key is not one it reads, with a suggestion. A word
    straight after an unknown key that has no value (`model: gpt_13B`, `dtype bf16`) is that
    key's value, not one more key."""
    known = known_keys(r.header.policy)
    if not known:
        return
    # A hostile header can repeat one unknown key thousands of times: ask difflib once.
    suggestions: dict[str, str | None] = {}
    valueless: int | None = None  # the field index of the last unknown key without a value
    for i, t in enumerate(r.tokens):
        if not t.key or t.field is None or i in r.consumed:
            continue
        f = r.header.fields[t.field]
        if f.key in known or glued_key(f, known) is not None:
            valueless = None
            continue
        if valueless == t.field - 1 and not f.colon and not f.values:
            valueless = None
            continue
        valueless = t.field if not f.values else None
        if f.key not in suggestions:
            suggestions[f.key] = suggest_key(f.key, known)
        yield f, suggestions[f.key]


def glued_key(f: HeaderField, known: frozenset[str]) -> tuple[str, str] | None:
    """(`key`, `value`) for a token such as `vpp:9`, where the value lacks its blank."""
    if f.colon or ":" not in f.key:
        return None
    key, _, value = f.key.partition(":")
    return (key, value) if key in known and value else None


def short_effect(key: str, value: int = 0, ns3: bool = False) -> str:
    """What SimAI does with `key` read as `value`, in a few words (0: the key is missing);
    `ns3`: for the ns-3 backend (target simai-ns3), whose EndToEnd summary keeps its Total
    time a number (`wkparse.models.simai.ns3`), so the analytical ending is not its."""
    if key in ("vpp", "ga"):
        if value < 0:
            return _("its pipeline bubble comes out negative")
        if not ns3:
            return _("finishes with bubble and Total time NaN or Inf")
        if key == "vpp":
            return _("finishes with a bubble time of NaN or Inf; its Total time stays a number")
        return _("divides the pipeline bubble by it (what SimAI_simulator reports is not modelled)")
    if key in (TP, "pp") and value == 0:
        # the model (wkparse.models.simai.run): DP = -g / (TP x PP) in int arithmetic, exit 136
        return _("dies of SIGFPE computing DP = -g / (TP x PP)")
    return _(ROLES[key]).format(value=value)


def pp_comm_from_body(ctx: Context, r: Reading) -> int | None:
    """Current AICB's pp_comm for this file (`aicb.formulas.pp_comm_bytes`); None where the
    rows carry no activation, or, under SP, one TP does not divide."""
    activation = ctx.body.activation_bytes
    tp = r.value(TP)
    sp = ctx.body.sequence_parallel
    if activation is None or (sp and not (tp and tp > 0 and activation % tp == 0)):
        return None
    return pp_comm_bytes(activation, tp or 0, sequence_parallel=sp)


def repeats(r: Reading) -> Iterator[tuple[str, tuple[Occurrence, ...], bool]]:
    """Keys read more than once where the last read wins (checkpoint lists accumulate), and
    whether every read gives SimAI the same number (`ga: 8` and `ga: 8.0` do; a value stoi
    throws on compares by its text)."""
    for key, occurrences in r.reads.items():
        if key not in CHECKPOINT_KEYS and len(occurrences) > 1:
            read = {
                o.result.value if o.result is not None and o.result.value is not None else shown(o)
                for o in occurrences
            }
            yield key, occurrences, len(read) == 1


def shown(o: Occurrence) -> str:
    return o.value_token.text if o.value_token is not None else _("nothing")


def field_index(o: Occurrence) -> int:
    assert o.key_token.field is not None  # a read key is always a field's key token
    return o.key_token.field


def value_reads(r: Reading) -> Iterator[Occurrence]:
    """Every read, including each checkpoint list's count."""
    for occurrences in r.reads.values():
        yield from occurrences


def as_float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def checkpoint_lists(r: Reading) -> Iterator[tuple[Occurrence, HeaderField]]:
    for key in CHECKPOINT_KEYS:
        for o in r.reads.get(key, ()):
            if o.result and o.result.value is not None and o.key_token.field is not None:
                yield o, r.header.fields[o.key_token.field]
