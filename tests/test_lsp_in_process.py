"""`wkparse server` in process, without a client: a burst of edits is linted once, as its
last text, while an open is linted at once (the event loop's clock stands still until the test
moves it, so the burst is a burst however slow the machine is); and a publishDiagnostics made
on the lint thread is, byte for byte, what pygls itself would write."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.conftest import SAMPLES

pytest.importorskip("pygls", reason="the lsp extra is not installed")

from lsprotocol import types

from wkparse.lsp import server as module
from wkparse.lsp.analysis import Analysis
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


class Recorder:
    """A transport that keeps what pygls writes."""

    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def close(self) -> None:
        pass


@pytest.mark.parametrize("count", [0, 1, 7, 10, 1000])
def test_a_publication_is_what_pygls_would_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    # a finding on nearly every row, and one message of no ASCII with quotes in it
    path = tmp_path / "findings.txt"
    path.write_text(SAMPLE.read_text(encoding="utf-8").replace("ALLREDUCE", "ALLREDUSE"))
    server = module.WorkloadServer()
    analysis = Analysis(Version.of(path.read_bytes()), path, 3)
    items = server.diagnostics(analysis)
    odd = types.Diagnostic(items[0].range, 'µs "quoted" \\ 時間', code="WK999")
    items = [*items[: count - 1], odd][:count]
    assert len(items) == count
    monkeypatch.setattr(module, "CHUNK", 3)  # several chunks, the last one short
    recorder = Recorder()
    server.protocol.set_writer(recorder)
    for version in (3, None):
        params = types.PublishDiagnosticsParams(path.as_uri(), items, version=version)
        server.protocol.notify(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params)
        assert server.wire.publication(path.as_uri(), version, items) == recorder.written[-1]


def test_the_explain_html_command_writes_what_explain_writes(tmp_path: Path) -> None:
    """`wkparse.explainHtml` writes the page `wkparse explain --format html` writes, through
    the layers below the commands; a file it cannot read is an error, not a page."""
    from typer.testing import CliRunner

    from wkparse.cli import app

    path = tmp_path / SAMPLE.name
    path.write_bytes(SAMPLE.read_bytes())
    server = module.WorkloadServer()
    server.window_show_message = lambda params: None  # type: ignore[method-assign]
    page = tmp_path / "page.html"
    loop = asyncio.new_event_loop()
    try:
        written = loop.run_until_complete(module.explain_html(server, path.as_uri(), str(page)))
        assert written == str(page)
        expected = tmp_path / "expected.html"
        run = CliRunner().invoke(
            app, ["explain", str(path), "--format", "html", "-o", str(expected)]
        )
        assert run.exit_code == 0
        assert page.read_text(encoding="utf-8") == expected.read_text(encoding="utf-8")
        with pytest.raises(ValueError, match="could not write"):
            missing = (tmp_path / "gone.txt").as_uri()
            loop.run_until_complete(module.explain_html(server, missing, str(page)))
    finally:
        loop.close()


def test_hovers_read_the_rows_as_the_configured_simai_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`simai = "REV"` in the configuration: what a hover says SimAI makes of a row comes
    from that SimAI, as lint's findings do (it came from the default whatever was set)."""
    from wkparse.models.simai import run as simai_run
    from wkparse.models.simai.versions import resolve

    (tmp_path / ".wkparse.toml").write_text('simai = "4e66932a"\n')
    path = tmp_path / "w.txt"
    path.write_bytes((SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt").read_bytes())
    analysis = Analysis(Version.of(path.read_bytes()), path, 1)
    asked: list[object] = []
    real = simai_run.simulate

    def spy(*args: object, **kwargs: object) -> object:
        asked.append(kwargs.get("version"))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(simai_run, "simulate", spy)
    monkeypatch.setattr("wkparse.models.simai.simulate", spy)
    assert analysis.layer_plan(3, 0) is not None  # a row read on its own
    assert analysis.simai.version == resolve("4e66932a")  # the whole file
    assert asked == [resolve("4e66932a")] * 2
