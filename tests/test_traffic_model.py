"""The traffic model's parts on their own: groups as SimAI's mock builds them, ring channels,
flow sizes in C integer division, NVLS, PXN, all-to-all, SimAI_simulator's command line, and
where a run stops. The recorded runs are replayed in test_traffic_recorded.py."""

from __future__ import annotations

from collections import Counter

import pytest

from wkparse.models.simai.tables import ComType, GroupType
from wkparse.models.simai.traffic import (
    TopologyError,
    TrafficError,
    groups,
    model_traffic,
    rings,
    stated,
)
from wkparse.models.simai.traffic import command_line as cl
from wkparse.models.simai.traffic.collectives import Env, plan
from wkparse.models.simai.traffic.topology import parse_first_line

HEAD = (
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: {tp} ep: {ep} pp: 1 vpp: 1 "
    "ga: 1 all_gpus: {g} checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0"
)


def workload(rows: list[str], tp: int = 8, ep: int = 1, gpus: int = 8) -> bytes:
    lines = [HEAD.format(tp=tp, ep=ep, g=gpus), str(len(rows)), *rows]
    return ("\n".join(lines) + "\n").encode()


def row(name: str, fwd: str = "NONE 0", ig: str = "NONE 0", wg: str = "NONE 0") -> str:
    f, i, w = (x.split() for x in (fwd, ig, wg))
    return "\t".join([name, "-1", "10", *f, "10", *i, "10", *w, "100"])


def ranks(layout: groups.Layout, kind: GroupType) -> list[tuple[int, ...]]:
    return [tuple(sorted(g.ranks)) for g in layout.of(kind)]


def test_ep_and_dp_ep_groups_as_the_mock_builds_them() -> None:
    layout = groups.build(32, 8, 4, tp_held=2, ep=8)
    assert ranks(layout, GroupType.EP) == [
        tuple(range(0, 16, 2)), tuple(range(1, 16, 2)),
        tuple(range(16, 32, 2)), tuple(range(17, 32, 2)),
    ]  # fmt: skip
    assert ranks(layout, GroupType.DP_EP) == [(k, k + 16) for k in range(16)]
    tp4 = groups.build(16, 8, 2, tp_held=4, ep=2)
    assert ranks(tp4, GroupType.EP)[:2] == [(0, 4), (1, 5)]
    assert (8, 12) in ranks(tp4, GroupType.EP)


def test_dp_groups_are_strided_and_tp_1_builds_no_ep_group() -> None:
    layout = groups.build(16, 8, 2, tp_held=1, ep=1)
    assert ranks(layout, GroupType.DP) == [tuple(range(16))]
    assert layout.of(GroupType.TP) == () and layout.of(GroupType.EP) == ()
    assert ranks(groups.build(16, 8, 2, tp_held=4, ep=1), GroupType.DP)[0] == (0, 4, 8, 12)


def test_layouts_the_mock_cannot_build_are_errors() -> None:
    with pytest.raises(groups.LayoutError, match="not a multiple"):
        groups.build(12, 8, 2, tp_held=4, ep=1)
    with pytest.raises(groups.LayoutError, match="divides"):
        groups.build(4, 8, 1, tp_held=8, ep=1)
    with pytest.raises(groups.LayoutError, match="ep 0"):
        groups.build(16, 8, 2, tp_held=2, ep=0)


def test_rings_are_rotations_and_cross_servers_off_the_rail() -> None:
    dp16 = groups.build(16, 8, 2, tp_held=1, ep=1).of(GroupType.DP)[0]
    chans = rings.channels(dp16)
    assert len(chans) == 8
    sends = Counter(p for c in chans for p in rings.step_sends(c, False, dp16.servers))
    assert sends[(0, 1)] == 7 and sends[(0, 9)] == 1 and sends[(0, 8)] == 0
    assert sends[(15, 0)] == 1 and sends[(1, 0)] == 0
    pxn = Counter(p for c in chans for p in rings.step_sends(c, True, dp16.servers))
    assert pxn[(0, 8)] == 1 and pxn[(8, 0)] == 1 and pxn[(0, 9)] == 0


def test_flow_sizes_use_c_integer_division_and_a_zero_flow_stops_the_run() -> None:
    layout = groups.build(16, 8, 2, tp_held=2, ep=1)
    topo = stated(16)
    dp = plan(ComType.ALLGATHER, GroupType.DP, layout, topo, Env())
    assert [p.flow_size(3730120) for p in dp.parts] == [116566]
    data = workload([row("a", ig="ALLREDUCE 4")], tp=8)
    run = model_traffic(data, stated(8))
    # the ns-3 model stops there first: 7f06c19c raises forward sizes only (from the source)
    assert run.stop is not None and run.stop.phase == "ig" and "never completes" in run.stop.why
    assert run.total_flows == 0


def test_the_forward_raise_to_4096() -> None:
    run = model_traffic(workload([row("a", fwd="ALLREDUCE 4")], tp=8), stated(8))
    assert run.finished
    # 4096 / 8 ranks / 8 channels = 64 B per flow, 2 x 7 steps on 8 channels, 8 ranks
    assert run.total_flows == 14 * 8 * 8 and run.total_bytes == 64 * run.total_flows


def test_nvls_sends_to_the_nvswitch_and_stops_across_servers() -> None:
    data = workload([row("a", fwd="ALLREDUCE 1048576")], tp=8)
    run = model_traffic(data, stated(8), {"AS_NVLS_ENABLE": "1"})
    assert run.matrix() == []
    assert run.non_gpu()[0] == [0, 8, "gpu", "nvswitch", 1048576, 4]
    assert model_traffic(data, stated(8, gpu_type="A100"), {"AS_NVLS_ENABLE": "1"}).non_gpu() == []
    assert model_traffic(data, stated(8), {"AS_NVLS_ENABLE": "true"}).non_gpu() == []
    wide = workload([row("a", fwd="ALLREDUCE 1048576")], tp=16, gpus=16)
    across = model_traffic(wide, stated(16), {"AS_NVLS_ENABLE": "1"})
    assert across.stop is not None and "NVLS across servers" in across.stop.why


def test_all_to_all_is_one_flow_per_ordered_pair() -> None:
    data = workload([row("a", fwd="ALLTOALL_EP 4096")], tp=4, ep=2, gpus=8)
    run = model_traffic(data, stated(8))
    assert sorted((s, d) for s, d, _, _ in run.matrix()) == sorted(
        [(k, k + 4) for k in range(4)] + [(k + 4, k) for k in range(4)]
    )
    assert {b for _, _, b, _ in run.matrix()} == {2048}


def test_pxn_all_gather_is_never_rewired() -> None:
    layout = groups.build(16, 8, 2, tp_held=1, ep=1)
    topo = stated(16)
    gather = plan(ComType.ALLGATHER, GroupType.DP, layout, topo, Env(pxn=True))
    assert gather.algorithm == "ring" and gather.stalls is None
    scatter = plan(ComType.REDUCESCATTER, GroupType.DP, layout, topo, Env(pxn=True))
    assert scatter.stalls is not None


def test_a_compute_stop_is_where_the_ns3_model_says() -> None:
    data = workload([row("a", fwd="ALLREDUCE 1048576"), row("b")], tp=8)
    stalled = data.replace(b"b\t-1\t10\t", b"b\t-1\t2147483647\t")
    run = model_traffic(stalled, stated(8))
    assert run.stop is not None and run.stop.layer == 1 and run.stop.phase == "fwd"
    assert run.total_flows == 14 * 8 * 8


def test_an_unbuildable_layout_is_a_traffic_error() -> None:
    with pytest.raises(TrafficError):
        model_traffic(workload([row("a")], tp=8), stated(4))


def test_topology_first_line() -> None:
    t = parse_first_line("90 8 2 72 200 H100\n", "topo")
    assert (t.gpus, t.gpus_per_server, t.nvswitches, t.gpu_type) == (16, 8, 2, "H100")
    with pytest.raises(TopologyError, match="topo:1:"):
        parse_first_line("90 eight", "topo")
    with pytest.raises(TopologyError, match="leaves"):
        parse_first_line("10 8 2 72 200 H100", "topo")


def test_simulator_command_lines() -> None:
    c = cl.parse(["AS_PXN_ENABLE=1 nice -n 19 ./bin/SimAI_simulator -t 1 -w w.txt -n ./topo -c c"])
    assert (c.env, c.workload, c.topology, c.config) == (
        {"AS_PXN_ENABLE": "1"},
        "w.txt",
        "./topo",
        "c",
    )
    assert cl.parse(["AS_NVLS_ENABLE=1", "-ntopo"]).topology == "topo"
    for bad, named in (
        (["-g", "16"], "-g"),
        (["-x"], "-x"),
        (["--topo", "t"], "--topo"),
        (["-n"], "-n"),
    ):
        with pytest.raises(cl.Refused, match=named):
            cl.parse(bad)
    assert cl.unknown_variables({"AS_NVLS_ENABLED": "1", "AS_PXN_ENABLE": "1"}) == [
        "AS_NVLS_ENABLED"
    ]


def test_the_frontend_sends_every_flow_unless_pxn_rewires_a_reduce_scatter() -> None:
    from wkparse.models.simai.traffic import frontend

    for gpus, tp in ((16, 1), (16, 4), (32, 2)):
        group = groups.build(gpus, 8, gpus // 8, tp_held=tp, ep=1).of(GroupType.DP)[0]
        for all_reduce, pxn in ((False, False), (True, False), (True, True)):
            flows, chunks = frontend.ring_flows(group, all_reduce, pxn)
            done, last = frontend.sent(flows, chunks)
            assert sum(done.values()) == len(flows) and last == chunks - 1
            assert frontend.completed(group, all_reduce, pxn) == (done, len(flows))
        flows, chunks = frontend.ring_flows(group, False, pxn=True)
        done, last = frontend.sent(flows, chunks)
        assert 0 < sum(done.values()) < len(flows) and last < chunks
        assert set(done) <= {(f.src, f.dst) for f in flows}
        # listed a few steps at a time, the same flows are sent
        assert frontend.completed(group, False, pxn=True) == (done, len(flows))


def test_a_stop_in_the_layers_after_the_file_ends_counts_every_forward_first() -> None:
    """A count line larger than the rows makes SimAI create layers after them (copies of the
    last values read); the backward pass starts with them, so a compute stop there comes after
    every read layer's forward collective and before any backward one."""
    rows = [row("a", fwd="ALLREDUCE 1048576", wg="ALLREDUCE 1048576")]
    data = workload(rows, tp=4).replace(b"\n1\n", b"\n3\n", 1)
    stalled = data.replace(
        b"\t10\tALLREDUCE\t1048576\t100", b"\t2147483647\tALLREDUCE\t1048576\t100"
    )
    run = model_traffic(stalled, stated(8))
    assert run.stop is not None and run.stop.layer == 2 and run.stop.phase == "wg"
    # 2 TP groups of 4 ranks, 4 channels, 2 x 3 steps, flows of 1048576 / 4 / 4 B
    flows = 2 * 4 * 4 * (2 * 3)
    assert run.by_phase() == {"fwd": [flows * (1048576 // 16), flows]}
