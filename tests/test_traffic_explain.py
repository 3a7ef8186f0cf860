"""`wkparse explain --target simai-ns3` says who talks to whom, from the traffic model: the
bytes inside and between servers and the first ring of each dimension, as `wkparse traffic`
counts them on all_gpus GPUs; the default target does not."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from tests.conftest import SAMPLES
from wkparse.cli import app

runner = CliRunner()
SAMPLE = SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"


def _json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, [*args, "--format", "json"])
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_explain_under_the_ns3_target_says_who_talks_to_whom() -> None:
    notes = _json("explain", str(SAMPLE), "--target", "simai-ns3")["notes"]
    talk = [n for n in notes if n.startswith("Who talks to whom")]
    assert len(talk) == 1
    traffic = _json("traffic", str(SAMPLE), "-g", "128")
    assert f"{traffic['intra_server_bytes']:,} B stay inside servers" in talk[0]
    assert f"{traffic['inter_server_bytes']:,} B cross between them" in talk[0]
    tp = traffic["rings"]["TP"][0]
    assert "TP " + " -> ".join(map(str, tp["ring"])) + f" -> {tp['ring'][0]}" in talk[0]


def test_the_default_target_has_no_traffic_note() -> None:
    notes = _json("explain", str(SAMPLE))["notes"]
    assert not any(n.startswith("Who talks to whom") for n in notes)
