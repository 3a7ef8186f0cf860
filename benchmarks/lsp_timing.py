"""How long `wkparse server` takes to answer on a million-row file, against lint's own time.

Needs the lsp extra (pygls). Writes the 1M-row file with synthesize.py (the file the speed
benchmarks use: GPT-7B, TP 8, PP 1, ga 13,698, 999,966 rows, 77 MB), then, `--runs` times in
turn (interleaved, so a busy machine slows both alike):

- lint: parse and lint of the file's bytes in this process, as the server's worker does (no
  interpreter start-up), and `wkparse lint FILE` as a command (start-up included);
- the server (started once, driven by pygls's own client over stdio):
  - change: a one-line edit of line 1 (ga one less, so a WK302 appears or goes), timed from
    the didChange sent to its diagnostics received;
  - hover: a hover on row 500,000 sent straight after the edit, timed to its answer (it waits
    up to 0.3 s for the edit's lint, then answers from the last one), and whether it came
    before the edit's diagnostics;
- open: didOpen of the whole 77 MB text to its diagnostics, once (the text's transfer and
  JSON decoding included).

With `--findings`, the file is synthesize.py's at 100,000 rows with every ALLREDUCE misspelt,
a WK401 on nearly every row (36 MB of JSON per publishDiagnostics), and a small second
document (the sample) is opened too. Each edit is then probed with hovers on that document,
sent one after another until the edit's diagnostics arrive; the longest wait for one (counted
up to the diagnostics' arrival, which includes the client reading 36 MB) shows how long the
server's event loop was held. The client counts each publication's diagnostics instead of
building objects of them (which would cost it seconds).

Prints the medians, the server's overhead over lint (the target is at most 100 ms), the load
average and pygls's version.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import Any, cast

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.protocol import LanguageServerProtocol

HERE = Path(__file__).resolve().parent
ROW = 500_000


SAMPLE = HERE.parent / "samples" / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"
#: where the probing hovers point in the sample: a row of the first micro-batch group
SAMPLE_ROW = 29


def synthesized(folder: Path, rows: int) -> Path:
    command = [sys.executable, str(HERE / "synthesize.py"), "--model", "gpt_7B", "--world", "8"]
    command += ["--tp", "8", "--pp", "1", "--rows", str(rows), "-o", f"{folder}/"]
    subprocess.run(command, check=True, capture_output=True)
    return next(folder.glob("*.txt"))


def with_findings(folder: Path) -> Path:
    """100,000 rows, each ALLREDUCE misspelt: a finding on nearly every row."""
    path = synthesized(folder, 100_000)
    text = path.read_text(encoding="utf-8").replace("ALLREDUCE", "ALLREDUSE")
    path.write_text(text, encoding="utf-8")
    return path


def findings_of(data: bytes, path: Path) -> int:
    from wkparse.config import Config
    from wkparse.engine import lint
    from wkparse.parse import parse_bytes

    return len(lint(parse_bytes(data), str(path), Config()))


def lint_in_process(data: bytes, path: Path) -> float:
    from wkparse.config import Config
    from wkparse.engine import lint
    from wkparse.parse import parse_bytes

    start = time.perf_counter()
    lint(parse_bytes(data), str(path), Config())
    return time.perf_counter() - start


def lint_command(path: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "wkparse", "lint", str(path)], capture_output=True)
    return time.perf_counter() - start


class Counting(LanguageServerProtocol):
    """The client's protocol, keeping of a publishDiagnostics only how many it holds."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.counts: dict[str, int] = {}

    def structure_message(self, data: dict[str, Any]) -> Any:
        if data.get("method") == types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS:
            params = data["params"]
            self.counts[params["uri"]] = len(params["diagnostics"])
            data = {**data, "params": {**params, "diagnostics": []}}
        return super().structure_message(data)


class Session:
    """One server, its documents, and when each version's diagnostics arrived."""

    def __init__(self, uri: str) -> None:
        self.client = LanguageClient("wkparse-benchmark", "1", protocol_cls=Counting)
        self.arrived: dict[int, float] = {}
        #: how many diagnostics each version's publication held
        self.sizes: dict[int, int] = {}
        self.event = asyncio.Event()
        counts = cast(Counting, self.client.protocol).counts

        def published(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
            if params.uri != uri:
                return
            self.arrived[params.version or 0] = time.perf_counter()
            self.sizes[params.version or 0] = counts[uri]
            self.event.set()

        # pygls's client decorators are untyped: register through Any
        cast(Any, self.client).feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(published)

    async def diagnostics(self, version: int) -> float:
        while version not in self.arrived:
            self.event.clear()
            await asyncio.wait_for(self.event.wait(), 600)
        return self.arrived[version]


async def probe(
    client: LanguageClient, uri: str, until: asyncio.Future[float]
) -> list[tuple[float, float]]:
    """Hovers on `uri`, one after another until `until` is done: when each was sent and
    answered."""
    times = []
    while not until.done():
        start = time.perf_counter()
        await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(SAMPLE_ROW, 0))
        )
        times.append((start, time.perf_counter()))
    return times


async def drive(
    path: Path, text: str, runs: int, hover: bool, findings: bool
) -> dict[str, list[float]]:
    data = text.encode()
    header = text[: text.index("\n")]
    ga = int(header.split("ga: ")[1].split()[0])
    at = header.index("ga: ") + len("ga: ")
    uri = path.as_uri()
    session = Session(uri)
    client = session.client
    await client.start_io(sys.executable, "-m", "wkparse", "server")
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=path.parent.as_uri()
        )
    )
    client.initialized(types.InitializedParams())
    found: dict[str, list[float]] = {k: [] for k in ("lint", "command", "change", "hover")}
    for key in ("longest hover wait", "hovers answered", "last hover to diagnostics"):
        found[key] = []
    found["diagnostics"] = []
    small = SAMPLE.absolute().as_uri()
    if findings:
        sample = SAMPLE.read_text(encoding="utf-8")
        item = types.TextDocumentItem(small, "plaintext", 1, sample)
        client.text_document_did_open(types.DidOpenTextDocumentParams(item))
    start = time.perf_counter()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "plaintext", 1, text))
    )
    found["open"] = [await session.diagnostics(1) - start]
    await asyncio.sleep(5)  # the hover facts of version 1 are computed after its diagnostics
    before = 0
    for run in range(runs):
        found["lint"].append(lint_in_process(data, path))
        found["command"].append(lint_command(path))
        version = run + 2
        value = str(ga - 1 if run % 2 == 0 else ga)
        old = str(ga if run % 2 == 0 else ga - 1)
        edit = types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(0, at), types.Position(0, at + len(old))), text=value
        )
        start = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=version, uri=uri), [edit]
            )
        )
        answer = None
        if findings:
            arrival = asyncio.ensure_future(session.diagnostics(version))
            times = await probe(client, small, arrival)
            until = arrival.result()
            early = [b - a for a, b in times if b < until]
            found["longest hover wait"].append(max(early, default=0.0))
            found["hovers answered"].append(len(early))
            found["last hover to diagnostics"].append(until - times[-1][0])
            found["diagnostics"].append(session.sizes[version])
        elif hover:
            answer = await client.text_document_hover_async(
                types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(ROW, 0))
            )
        answered = time.perf_counter()
        arrived = await session.diagnostics(version)
        found["change"].append(arrived - start)
        found["hover"].append(answered - start)
        before += answered < arrived and answer is not None
        # let the facts of this version settle before the next edit
        await asyncio.sleep(10 if findings else 3)
    found["hover before diagnostics"] = [before]
    await client.shutdown_async(None)
    client.exit(None)
    await cast(Any, client).stop()
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--no-hover", dest="hover", action="store_false", help="time the edits alone"
    )
    parser.add_argument(
        "--findings", action="store_true", help="100,000 findings per publication, probed"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        path = with_findings(folder) if args.findings else synthesized(folder, 1_000_000)
        text = path.read_text(encoding="utf-8")
        found = asyncio.run(drive(path, text, args.runs, args.hover, args.findings))
        lint_found = findings_of(text.encode(), path) if args.findings else 0
    rows = text.count("\n") - 2
    print(f"{path.name}: {rows:,} rows, {len(text) / 1e6:.0f} MB; {args.runs} runs, medians")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load} on {os.cpu_count()} CPUs; pygls {metadata.version('pygls')}")
    lint_s = statistics.median(found["lint"])
    change_s = statistics.median(found["change"])
    print(f"lint in process (parse + lint):           {lint_s:.3f} s")
    print(f"wkparse lint FILE (start-up included):    {statistics.median(found['command']):.3f} s")
    print(f"server, edit to its diagnostics:          {change_s:.3f} s")
    print(f"  over lint in process:                   {(change_s - lint_s) * 1000:+.0f} ms")
    if args.findings:
        sizes = sorted(set(found["diagnostics"]))
        print(f"diagnostics per publication: {sizes} (lint of version 1: {lint_found})")
        answered = statistics.median(found["hovers answered"])
        print(f"hovers on another document answered before the diagnostics: {answered:.0f}")
        longest = statistics.median(found["longest hover wait"])
        print(f"  the longest wait of those:                       {longest:.3f} s")
        last = statistics.median(found["last hover to diagnostics"])
        print(f"  the last hover, sent to the diagnostics' arrival: {last:.3f} s")
    else:
        print(
            f"server, hover sent after the edit:        {statistics.median(found['hover']):.3f} s"
        )
        print(
            f"  answered before the edit's diagnostics: {found['hover before diagnostics'][0]:.0f}"
        )
    print(f"server, didOpen of the text to diagnostics: {found['open'][0]:.3f} s (once)")
    keys = ["lint", "command", "change"]
    probed = ["longest hover wait", "hovers answered", "last hover to diagnostics"]
    keys += probed if args.findings else ["hover"]
    for key in keys:
        print(f"  {key}: {', '.join(f'{v:.3f}' for v in found[key])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
