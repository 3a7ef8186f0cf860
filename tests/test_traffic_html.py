"""`wkparse traffic --format html`: one self-contained page, a heat map per dimension and in
all, one cell per pair with traffic, servers outlined, NVSwitches after the GPUs under NVLS."""

from __future__ import annotations

import re

from tests.conftest import SAMPLES
from wkparse.models.simai.traffic import TrafficRun, model_traffic, stated
from wkparse.render.traffic import html

MOE = SAMPLES / "mixtral-world32-tp2-pp2-ep8-sp-moe.txt"
MICRO = (
    b"HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 8 ep: 1 pp: 1 vpp: 1 ga: 1 "
    b"all_gpus: 8 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n1\n"
    b"a\t-1\t10\tALLREDUCE\t1048576\t10\tNONE\t0\t10\tNONE\t0\t100\n"
)


def moe() -> TrafficRun:
    return model_traffic(MOE.read_bytes(), stated(32))


def test_one_heat_map_per_dimension_and_in_all() -> None:
    run = moe()
    page = html.render(run, "moe.txt")
    assert set(run.pairs_by_dimension) == {"TP", "DP", "EP"}  # the file has no _DP_EP collective
    assert page.count("<svg") == 1 + len(run.pairs_by_dimension)
    assert all(f"Heat map: {kind}" in page for kind in run.pairs_by_dimension)
    cells = sum(1 for v in run.pairs.values() if v[1])
    cells += sum(1 for d in run.pairs_by_dimension.values() for v in d.values() if v[1])
    assert page.count("class='cell'") == cells
    assert page.count("class='server'") == run.topology.servers * page.count("<svg")


def test_the_page_is_self_contained_and_says_the_model() -> None:
    page = html.render(moe(), "moe.txt")
    assert "<script" not in page and "http://" not in page.replace("http://www.w3.org", "")
    assert "https://" not in page and "cef83f9" in page and "1.6" in page
    assert re.search(r"<title>.*moe\.txt</title>", page)


def test_nvls_puts_the_nvswitch_after_the_gpus() -> None:
    run = model_traffic(MICRO, stated(8), {"AS_NVLS_ENABLE": "1"})
    page = html.render(run, "micro.txt")
    assert "NVSwitch 8 (server 0)" in page and "9 nodes" in page
