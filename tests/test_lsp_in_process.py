"""`wkparse server`'s debounce, in process: a burst of edits is linted once, as its last text,
while an open is linted at once. The event loop's clock stands still until the test moves it,
so the burst is a burst however slow the machine is (no timing in the test)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.conftest import SAMPLES

pytest.importorskip("pygls", reason="the lsp extra is not installed")

from lsprotocol import types

from wkparse.lsp import server as module
from wkparse.lsp.text import Version

SAMPLE = SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"


class StoppedClock(asyncio.SelectorEventLoop):
    """An event loop whose time moves only when the test says."""

    now = 0.0

    def time(self) -> float:
        return self.now


def edit(uri: str, version: int, ga: int, value: str) -> types.DidChangeTextDocumentParams:
    """Line 1's ga (two digits at column `ga`) becomes `value`."""
    where = types.Range(types.Position(0, ga), types.Position(0, ga + 2))
    return types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(version=version, uri=uri),
        [types.TextDocumentContentChangePartial(range=where, text=value)],
    )


def test_a_burst_of_edits_is_linted_once_as_its_last_text(tmp_path: Path) -> None:
    path = tmp_path / "workload.txt"
    text = SAMPLE.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    ga = text.index("ga: 64") + len("ga: ")
    server = module.WorkloadServer()
    started: list[int] = []  # the version each lint read
    published: list[tuple[int, list[str]]] = []

    def publish(doc: module.Document, analysis: object, message: bytes) -> None:
        params = json.loads(message)["params"]  # no client: no header
        published.append((params["version"], [d["code"] for d in params["diagnostics"]]))

    server.publish = publish  # type: ignore[method-assign]
    loop = StoppedClock()

    async def session() -> None:
        item = types.TextDocumentItem(uri, "plaintext", 1, text)
        server.opened(types.DidOpenTextDocumentParams(item))
        doc = server.documents[uri]
        snapshot = doc.text.snapshot

        def recorded() -> Version:
            started.append(doc.version)
            return snapshot()

        doc.text.snapshot = recorded  # type: ignore[method-assign]
        assert doc.linting is not None
        await doc.linting  # an open is linted at once: the clock never moved
        assert started == [1] and published == [(1, [])]

        for version, value in enumerate(("61", "62", "63", "60"), start=2):
            server.changed(edit(uri, version, ga, value))
            await asyncio.sleep(0)  # each edit's task gets its turn
        assert started == [1]
        loop.now += module.DEBOUNCE
        await doc.linting
        assert started == [1, 5] and published == [(1, []), (5, ["WK302"])]

    try:
        loop.run_until_complete(session())
    finally:
        loop.close()
