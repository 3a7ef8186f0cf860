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

HERE = Path(__file__).resolve().parent
ROW = 500_000


def million_rows(folder: Path) -> Path:
    command = [sys.executable, str(HERE / "synthesize.py"), "--model", "gpt_7B", "--world", "8"]
    command += ["--tp", "8", "--pp", "1", "--rows", "1000000", "-o", f"{folder}/"]
    subprocess.run(command, check=True, capture_output=True)
    return next(folder.glob("*.txt"))


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


class Session:
    """One server, one document, and when each version's diagnostics arrived."""

    def __init__(self) -> None:
        self.client = LanguageClient("wkparse-benchmark", "1")
        self.arrived: dict[int, float] = {}
        self.event = asyncio.Event()

        def published(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
            self.arrived[params.version or 0] = time.perf_counter()
            self.event.set()

        # pygls's client decorators are untyped: register through Any
        cast(Any, self.client).feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(published)

    async def diagnostics(self, version: int) -> float:
        while version not in self.arrived:
            self.event.clear()
            await asyncio.wait_for(self.event.wait(), 600)
        return self.arrived[version]


async def drive(path: Path, text: str, runs: int, hover: bool) -> dict[str, list[float]]:
    data = text.encode()
    header = text[: text.index("\n")]
    ga = int(header.split("ga: ")[1].split()[0])
    at = header.index("ga: ") + len("ga: ")
    session = Session()
    client = session.client
    await client.start_io(sys.executable, "-m", "wkparse", "server")
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=path.parent.as_uri()
        )
    )
    client.initialized(types.InitializedParams())
    uri = path.as_uri()
    found: dict[str, list[float]] = {k: [] for k in ("lint", "command", "change", "hover")}
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
        if hover:
            answer = await client.text_document_hover_async(
                types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(ROW, 0))
            )
        answered = time.perf_counter()
        arrived = await session.diagnostics(version)
        found["change"].append(arrived - start)
        found["hover"].append(answered - start)
        before += answered < arrived and answer is not None
        await asyncio.sleep(3)  # let the facts of this version settle before the next edit
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
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        path = million_rows(Path(work))
        text = path.read_text(encoding="utf-8")
        found = asyncio.run(drive(path, text, args.runs, args.hover))
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
    print(f"server, hover sent after the edit:        {statistics.median(found['hover']):.3f} s")
    print(f"  answered before the edit's diagnostics: {found['hover before diagnostics'][0]:.0f}")
    print(f"server, didOpen of the text to diagnostics: {found['open'][0]:.3f} s (once)")
    for key in ("lint", "command", "change", "hover"):
        print(f"  {key}: {', '.join(f'{v:.3f}' for v in found[key])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
