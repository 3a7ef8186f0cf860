"""Which flows of one ring collective SimAI_simulator actually sends: the mock's flow list for a
group (ids, parents, children, `prev`, chunk ids, connection types: MockNcclGroup.cc
`genAllReduceRingFlowModels` lines 1047-1400, `genReduceScatterFlowModels` 408-660) run
through the frontend's rules (NcclFlowModel.cc, entry.h), without ns-3's timing:

- a rank first sends its flows without parents; a flow is sent once all its parents were
  received by its sender (`indegree_mapping`);
- before sending a flow, its sender posts a receive from each of the flow's `prev` ranks under
  the tag `channel * chunks + chunk`, plus 1 for a flow with parents whose type is not `RING`
  (`ready`); StreamInit first posts one for each first-step flow with parents (`recv_ready`,
  no chunk, no +1);
- a flow is sent under the tag `channel * chunks + chunk`; on arrival it is matched to a posted
  receive with the same (tag, sender, receiver), or kept until one is posted (entry.h
  `notify_receiver_receive_data`, `sim_recv`); only a matched flow lets its children go.

Used only where the mock's list can stall (PXN rewires a group): the flows of one collective
in one group are listed, a few steps at a time (`completed`), never those of a run. With PXN
a reduce-scatter types its forwarded hops `PXN_INIT` only in its first step (line 489; `RING`
after, line 593) while the receiver still adds 1 to their tag, so the run stalls part way
(864 of 2,160 flows in `dense_tp1_16g__pxn`, as recorded); an all-reduce types them `PXN_INIT`
in every step and completes.
"""

from __future__ import annotations

import heapq
import itertools
from collections import Counter
from dataclasses import dataclass, field

from wkparse.models.simai.traffic import rings
from wkparse.models.simai.traffic.groups import Group

#: the most flows listed at once to find how far a collective gets
MOST_FLOWS = 2_000_000


class TooLarge(ValueError):
    """A collective that would list more than MOST_FLOWS flows before it is decided."""


RING, PXN_INIT = "RING", "PXN_INIT"


@dataclass(slots=True)
class Flow:
    """One entry of the mock's flow list (`SingleFlow`)."""

    id: int
    src: int
    dst: int
    prev: list[int]
    parents: list[int]
    channel: int
    chunk: int
    kind: str
    children: list[int] = field(default_factory=list)


def ring_flows(
    group: Group, all_reduce: bool, pxn: bool, steps: int | None = None
) -> tuple[list[Flow], int]:
    """The flow list the mock makes for one ring collective in `group` (its first `steps`
    steps only, when given), and its chunk count."""
    n = group.size
    chunks = 2 * (n - 1) if all_reduce else n - 1
    flows: list[Flow] = []
    rewire = pxn and group.servers > 1

    def add(
        src: int, dst: int, prev: list[int], parents: list[int], ch: int, step: int, kind: str
    ) -> Flow:
        f = Flow(len(flows), src, dst, prev, parents, ch, step, kind)
        flows.append(f)
        for p in parents:
            flows[p].children.append(f.id)
        return f

    for ch, members in enumerate(rings.channels(group)):
        before = {m.next: m.rank for m in members}
        task: dict[int, Flow] = {}
        for step in range(chunks if steps is None else min(steps, chunks)):
            made: dict[int, Flow] = {}
            pre_recv = members[-1].node_recv
            cur_recv, cur_send = members[0].node_recv, members[0].node_send
            for m in members:
                if cur_recv != m.node_recv and cur_send != m.node_send:
                    pre_recv, cur_recv, cur_send = cur_recv, m.node_recv, m.node_send
                prev = before[m.rank]
                parents = [task[prev].id] if step else []
                if rewire and m.node_send == m.rank != m.node_recv:
                    a = add(m.rank, m.node_recv, [prev], parents, ch, step, RING)
                    kind = PXN_INIT if all_reduce or step == 0 else RING
                    made[m.rank] = add(m.node_recv, m.next, [m.rank], [a.id], ch, step, kind)
                elif rewire and m.node_recv == m.rank != m.node_send:
                    made[m.rank] = add(m.rank, m.next, [pre_recv], parents, ch, step, RING)
                else:
                    made[m.rank] = add(m.rank, m.next, [prev], parents, ch, step, RING)
            task = made
    return flows, chunks


def completed(group: Group, all_reduce: bool, pxn: bool) -> tuple[Counter[tuple[int, int]], int]:
    """The (src, dst) counts of the flows one ring collective in `group` sends, and how many
    it lists. The steps are listed a few at a time: once a step sends nothing, no later step
    can (each flow waits for one of the step before)."""
    chunks = 2 * (group.size - 1) if all_reduce else group.size - 1
    per_step = Counter(
        (dst, ch, src)
        for ch, c in enumerate(rings.channels(group))
        for src, dst in rings.step_sends(c, pxn, group.servers)
    )
    expected = Counter({k: v * chunks for k, v in per_step.items()})
    steps = 4
    while True:
        if min(steps, chunks) * sum(per_step.values()) > MOST_FLOWS:
            raise TooLarge(
                f"{min(steps, chunks) * sum(per_step.values()):,} flows over {group.size} ranks"
            )
        flows, _ = ring_flows(group, all_reduce, pxn, steps)
        done, last = sent(flows, chunks, expected)
        if steps >= chunks or last < steps - 1:
            return done, chunks * sum(per_step.values())
        steps *= 2


def sent(
    flows: list[Flow], chunks: int, expected: Counter[tuple[int, int, int]] | None = None
) -> tuple[Counter[tuple[int, int]], int]:
    """The (src, dst) counts of the flows the frontend sends before it has nothing left to do,
    and the last step any of them belongs to (-1: none). `expected`: flows each rank receives
    per (channel, sender) over the whole collective, when `flows` holds only its first steps."""
    indegree = {f.id: len(f.parents) for f in flows}
    unreceived: Counter[tuple[int, int, int]] = (
        Counter((f.dst, f.channel, f.src) for f in flows) if expected is None else Counter(expected)
    )
    last = -1
    posted: set[tuple[int, int, int]] = set()
    arrived: Counter[tuple[int, int, int]] = Counter()
    pending: dict[tuple[int, int, int], Flow] = {}
    events: list[tuple[int, int, str, Flow]] = []
    order = itertools.count()
    out: Counter[tuple[int, int]] = Counter()
    now = 0

    def receive_tag(f: Flow, first: bool = False) -> int:
        if first:
            return f.channel * chunks
        extra = 0 if not f.parents or f.kind == RING else 1
        return f.channel * chunks + f.chunk + extra

    def deliver(receiver: int, f: Flow | None) -> None:
        if f is None:
            return
        unreceived[(receiver, f.channel, f.src)] -= 1
        for c in f.children:
            child = flows[c]
            if child.src != receiver:
                break
            indegree[c] -= 1
            if indegree[c] == 0:
                heapq.heappush(events, (now + 1, next(order), "send", child))

    def post(receiver: int, sender: int, tag: int) -> None:
        key = (tag, sender, receiver)
        if arrived[key]:
            arrived[key] -= 1
            deliver(receiver, pending.pop(key, None))
        else:
            posted.add(key)

    def send(f: Flow) -> None:
        for p in f.prev:
            if unreceived[(f.src, f.channel, p)] > 0:
                post(f.src, p, receive_tag(f))
        nonlocal last
        last = max(last, f.chunk)
        out[(f.src, f.dst)] += 1
        heapq.heappush(events, (now + 2, next(order), "arrive", f))

    firsts: dict[tuple[int, int, tuple[int, ...]], list[Flow]] = {}
    for f in flows:
        if f.chunk == 0 and f.parents:
            same = firsts.setdefault((f.src, f.channel, tuple(f.prev)), [])
            if all(o.parents != f.parents for o in same):
                same.append(f)
    for group in firsts.values():
        for f in group:
            for p in f.prev:
                post(f.src, p, receive_tag(f, first=True))
    for f in flows:
        if not f.parents and f.chunk == 0:
            heapq.heappush(events, (1, next(order), "send", f))
    while events:
        now, _, what, f = heapq.heappop(events)
        if what == "send":
            send(f)
            continue
        key = (f.channel * chunks + f.chunk, f.src, f.dst)
        if key in posted:
            posted.discard(key)
            deliver(f.dst, f)
        else:
            arrived[key] += 1
            pending[key] = f
    return out, last
