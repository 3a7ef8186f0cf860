"""Totals per iteration of one GPU: bytes per group, compute per phase, per collective and
per kind of layer, summed per distinct row value (`Context.combinations`), never per row."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from wkparse.ast import PHASES
from wkparse.body import GROUP_START
from wkparse.explanation.context import Context
from wkparse.explanation.model import CollectiveTotal, KindTotal
from wkparse.explanation.routing import GROUPS, layer_kind
from wkparse.i18n import _


@dataclass(frozen=True, slots=True)
class Totals:
    """What `totals` sums; `facts` spreads it over the Explanation's fields."""

    comm_bytes: dict[str, int]
    compute_ns: dict[str, int]
    #: compute of every row but the embedding's (the part a pipeline bubble idles)
    non_embedding_ns: int
    collectives: tuple[CollectiveTotal, ...]
    kinds: tuple[KindTotal, ...]


def totals(ctx: Context) -> Totals:
    comm: Counter[str] = Counter({g: 0 for g in GROUPS[:5]})
    compute: Counter[str] = Counter({p: 0 for p in PHASES})
    calls: Counter[tuple[str | None, str]] = Counter()
    coll_bytes: Counter[tuple[str | None, str]] = Counter()
    kinds: dict[str, list[int]] = {}
    non_embedding = 0
    transformer = ctx.dialect in ("transformer", "inference")
    texts = ctx.values.texts
    for key, rows, sums in ctx.combinations:
        if not rows:
            continue  # values only lines SimAI never reads carry (notes, rows past the count)
        name_code, policy_code, *comms = key
        name = texts[name_code]
        policy = ctx.policy_of(texts[policy_code])
        row_bytes = 0
        row_compute = 0
        for phase, comm_code, (phase_ns, size) in zip(PHASES, comms, sums):
            row_compute += phase_ns
            compute[phase] += phase_ns
            comm_name = texts[comm_code]
            if comm_name is None or comm_name == "NONE":
                continue
            group = ctx.route(policy, phase, comm_name)
            calls[(group, comm_name)] += rows
            coll_bytes[(group, comm_name)] += size
            if group is not None:
                comm[group] += size
                row_bytes += size
        if name != GROUP_START:
            non_embedding += row_compute
        kind = kinds.setdefault(layer_kind(name, transformer), [0, 0, 0])
        kind[0] += rows
        kind[1] += row_bytes
        kind[2] += row_compute
    sent = pp_bytes(ctx)
    if sent:
        comm["PP"] += sent
        calls[("PP", "pp_comm")] += 2 * (ctx.vpp or 0) * (ctx.ga or 0)
        coll_bytes[("PP", "pp_comm")] += sent
    compute_ns = dict(compute)
    compute_ns["total"] = sum(compute.values())
    collectives = tuple(
        CollectiveTotal(
            group,
            coll,
            calls[(group, coll)],
            total,
            _share(ctx, group, total, coll),
        )
        for (group, coll), total in sorted(
            coll_bytes.items(),
            key=lambda item: (GROUPS.index(item[0][0]) if item[0][0] else 99, -item[1]),
        )
    )
    kind_totals = tuple(
        KindTotal(k, v[0], v[1], v[2])
        for k, v in sorted(kinds.items(), key=lambda kv: (-(kv[1][1] + kv[1][2]), kv[0]))
    )
    if not transformer and len(kind_totals) > 8:
        rest = kind_totals[7:]
        kind_totals = (
            *kind_totals[:7],
            KindTotal(
                _("{n} other kinds").format(n=len(rest)),
                sum(k.rows for k in rest),
                sum(k.bytes for k in rest),
                sum(k.compute_ns for k in rest),
            ),
        )
    return Totals(dict(comm), compute_ns, non_embedding, collectives, kind_totals)


def _share(ctx: Context, group: str | None, total: int, coll: str) -> int | None:
    if group is None or coll == "pp_comm":
        return None
    size = ctx.sizes.get(group)
    return total // size if size else None


def pp_bytes(ctx: Context) -> int:
    """PP traffic as SimAI counts it: pp_comm bytes 2 x vpp x ga times per iteration."""
    simai = ctx.pp_comm
    if not simai or not ctx.pp or ctx.pp <= 1 or not ctx.vpp or not ctx.ga:
        return 0
    return 2 * ctx.vpp * ctx.ga * simai
