"""Ring channels as the mock builds them (`gen_local_ring`, MockNcclGroup.cc lines 197-227;
`genringchannels`, lines 229-279), and the sends of one ring step.

`nlocal` = ranks / nNodes; the local ranks are the `nlocal` smallest ranks of the group. There
are `nlocal` channels, channel c ordering the local ranks as `local[(c + j) % nlocal]`: every
channel is a rotation of one cycle, so inside a server traffic only goes `k -> k+1`. The ring
then repeats that order shifted by `delta` = Ranks[nlocal] - Ranks[0] (construction order) for
each further server, the last rank wrapping to the first. Each rank of a channel sends to its
successor once per step.
"""

from __future__ import annotations

from dataclasses import dataclass

from wkparse.models.simai.traffic.groups import Group


@dataclass(frozen=True, slots=True)
class Member:
    """One rank's entry in a channel (the mock's `{prev, next, node_recv, node_send}`)."""

    rank: int
    next: int
    #: the first and the last rank of its server block in this channel
    node_recv: int
    node_send: int


def local_size(group: Group) -> int:
    return group.size // group.servers


def channels(group: Group) -> list[list[Member]]:
    """The group's channels, each its members in rank order (the mock's `std::map`)."""
    nlocal = local_size(group)
    servers = group.servers
    local = sorted(group.ranks)[:nlocal]
    delta = group.ranks[nlocal] - group.ranks[0] if servers > 1 else 0
    out: list[list[Member]] = []
    for c in range(nlocal):
        order = [local[(c + j) % nlocal] for j in range(nlocal)]
        entries: dict[int, list[int]] = {}
        for i in range(servers):
            recv, send = order[0] + i * delta, order[-1] + i * delta
            for j in range(nlocal):
                current = order[j] + i * delta
                nxt = order[0] + (i + 1) * delta if j == nlocal - 1 else order[j + 1] + i * delta
                entries[current] = [nxt, recv, send]
        end = order[-1] + (servers - 1) * delta
        entries[end][0] = order[0]
        out.append([Member(r, *entries[r]) for r in sorted(entries)])
    return out


def step_sends(channel: list[Member], pxn: bool, servers: int) -> list[tuple[int, int]]:
    """The (src, dst) flows of one step of a channel. With PXN (a group over more than one
    server), a block's last rank no longer sends across: it sends to its block's first rank,
    which forwards to the next block (reduce-scatter lines 453-515, all-reduce 1104-1164)."""
    sends: list[tuple[int, int]] = []
    for m in channel:
        if pxn and servers > 1 and m.node_send == m.rank and m.node_recv != m.rank:
            sends.append((m.rank, m.node_recv))
            sends.append((m.node_recv, m.next))
        else:
            sends.append((m.rank, m.next))
    return sends


def rewired(channel: list[Member], servers: int) -> bool:
    """Whether PXN changes any send of this channel."""
    return servers > 1 and any(m.node_send == m.rank != m.node_recv for m in channel)
