"""Explain's outputs: terminal text, Markdown, HTML, JSON and the pictures they share.

`shown` is the Explanation every output of a file starts from, shared by the command and the
language server: the configured explanation, and under the ns-3 target SimAI-Simulation's
verdict as its first note and who talks to whom in its flows (`wkparse traffic`) as its second.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from wkparse.config import Config
from wkparse.explanation.configured import explained
from wkparse.explanation.model import Explanation
from wkparse.parse import ParseResult

if TYPE_CHECKING:
    from wkparse.models.simai.ns3 import Ns3Run


def shown(
    result: ParseResult,
    path: str | None,
    config: Config,
    aicb_command: str | None = None,
    data: bytes | None = None,
    simai_options: str | None = None,
) -> Explanation:
    """What `wkparse explain` shows for `result` (named `path`, its bytes `data`)."""
    ns3 = config.target == "simai-ns3"
    # SimAI-Analytical's report is for the simai target; the ns-3 backend gets its verdict
    e = explained(result, path, config, aicb_command, None if ns3 else data, simai_options)
    if ns3 and data is not None:
        from wkparse.models.simai.ns3 import simulate_ns3
        from wkparse.render.simai.ns3 import verdict

        run = simulate_ns3(data, version=config.simai_version)
        talk = _who_talks(data, run)
        e = replace(e, notes=(verdict(run), *((talk,) if talk else ()), *e.notes))
    return e


def _who_talks(data: bytes, run: Ns3Run) -> str | None:
    """SimAI-Simulation's traffic on all_gpus GPUs, 8 per server, in one sentence (the
    `wkparse traffic` model, of today's SimAI only); None when it cannot be told."""
    from wkparse.models.simai.traffic import (
        NotModelled,
        TopologyError,
        TrafficError,
        model_traffic,
        stated,
    )
    from wkparse.render.traffic.words import who_talks

    if not run.gpus or not run.finishes:
        return None
    try:
        return who_talks(model_traffic(data, stated(run.gpus), version=run.reading.version))
    except (TrafficError, NotModelled, TopologyError):
        return None
