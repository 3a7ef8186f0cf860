"""`wkparse server`: the language server (pygls over stdio).

The event loop only receives messages, edits texts and sends answers; every parse, lint,
explain and format runs in a worker thread, so a million-row file never holds up a hover or
another document. Lints run one at a time (`_LINT`). An open or a save is linted at once; an
edit after a short wait (`DEBOUNCE`), so that a burst of keystrokes is linted once, as its last
text. A lint whose document changed again before it started is skipped as well, so typing into
a big file, whose edits come while a lint runs, lints the text the typing stopped at.
The lint thread also turns the diagnostics into the publishDiagnostics message's bytes
(`Protocol.publication`): pygls would make the JSON on the event loop, a second for 100,000
findings; the loop only writes the bytes.
Hover facts (explain's, SimAI's reading) are computed on a second thread (`_FACTS`) right after
the diagnostics go out, so the first hover finds them ready.

Positions: `wkparse.lsp.text` turns LSP positions (in the code units the client chose) into
string indexes; the parser's 1-based columns count characters of the line after any BOM.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.uris import to_fs_path

from wkparse import __version__
from wkparse.ast import Span
from wkparse.catalog import page_uri
from wkparse.config import ConfigError
from wkparse.diagnostics import Diagnostic, Edit, Severity
from wkparse.lsp.analysis import Analysis
from wkparse.lsp.text import MAX_PIECES, Text, Version, to_units

#: how long an edit waits before its lint starts (seconds). Changes an editor sends together
#: (a key and its auto-closed pair, a snippet, a multi-cursor edit, an undo of several) come
#: within a few ms and are linted once; a human's keystrokes, 60 ms apart and more, are not
#: held back. 25 ms is a quarter of issue 26's budget of 100 ms over lint's time, beside the
#: ~7 ms the server adds otherwise (benchmarks/README.md).
DEBOUNCE = 0.025
#: diagnostics turned into JSON at a time on the lint thread (a few ms of the GIL each)
CHUNK = 2000
#: how long a hover waits for the lint of the text on screen before it answers without it
HOVER_WAIT = 0.3
#: quick fixes offered for one range at most (a selection of a million rows with a fix each
#: would be a million actions; "fix every safe problem" still fixes them all)
MAX_QUICK_FIXES = 1000
EXPLAIN_HTML = "wkparse.explainHtml"
FIX_ALL = "source.fixAll.wkparse"
_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
_LINT = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wkparse-lint")
_FACTS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wkparse-facts")
#: writes of an asynchronous transport still under way (held so none is collected)
_SENDING: set[asyncio.Future[Any]] = set()


@dataclass
class Document:
    """An open document: its text as edited, and what wkparse last made of it."""

    uri: str
    text: Text
    version: int
    path: Path | None
    #: the newest finished analysis (possibly of an older version)
    analysis: Analysis | None = None
    #: the lint of the newest version, while it is waited for or running
    linting: asyncio.Task[None] | None = None
    #: whether the client holds diagnostics of ours for it (cleared when it stops attaching)
    published: bool = False

    def current(self) -> Analysis | None:
        a = self.analysis
        return a if a is not None and a.revision == self.text.revision else None


def path_of(uri: str) -> Path | None:
    """The file a `file:` URI names (None for an unsaved buffer's `untitled:` and the like)."""
    path = to_fs_path(uri)
    return Path(path) if path and uri.startswith("file:") else None


class Protocol(LanguageServerProtocol):
    """pygls's protocol with the documents kept in `Text`s: pygls's own store walks every line
    of a document in Python on each change, far too slow for a million rows."""

    _server: WorkloadServer

    def structure_message(self, data: dict[str, Any]) -> Any:
        """pygls drops a request whose params do not fit their type, and the editor waits for
        ever: answer it with the JSON-RPC error instead."""
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if "id" in data and "method" in data:
                self._send_response(data["id"], None, error.to_response_error())
            raise

    def publication(self, uri: str, version: int | None, items: list[types.Diagnostic]) -> bytes:
        """publishDiagnostics, byte for byte as pygls's `_send_data` would write it, made on
        a worker thread. The JSON encoder holds the GIL while it runs (a third of a second
        for 100,000 diagnostics), so the list is encoded `CHUNK` items at a time."""
        empty = types.PublishDiagnosticsParams(uri, [], version=version)
        message = types.PublishDiagnosticsNotification(params=empty)
        around = json.dumps(message, default=self._serialize_message)
        # once only: a quote inside a JSON string is escaped
        head, tail = around.split('"diagnostics": []')
        chunks = []
        for at in range(0, len(items), CHUNK):
            plain = [self._converter.unstructure(d) for d in items[at : at + CHUNK]]
            chunks.append(json.dumps(plain, default=self._serialize_message)[1:-1])
        body = f'{head}"diagnostics": [{", ".join(chunks)}]{tail}'.encode(self.CHARSET)
        if not self._include_headers:
            return body
        # pygls counts the body's characters: the same, its JSON being ASCII
        header = f"Content-Length: {len(body)}\r\n"
        header += f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        return header.encode(self.CHARSET) + body

    def send_encoded(self, data: bytes) -> None:
        """Write a `publication`, as `_send_data` writes a message (on the event loop)."""
        if self.writer is None:
            return
        written = self.writer.write(data)
        if inspect.isawaitable(written):  # a websocket's send
            sending = asyncio.ensure_future(written)
            _SENDING.add(sending)
            sending.add_done_callback(_SENDING.discard)

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        self._server.opened(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        self._server.changed(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        self._server.closed(params)


class WorkloadServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "wkparse",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=Protocol,
        )
        self.documents: dict[str, Document] = {}

    @property
    def encoding(self) -> str:
        try:
            chosen = self.workspace.position_encoding
        except RuntimeError:
            chosen = None
        return str(chosen or types.PositionEncodingKind.Utf16)

    # ---- text sync ------------------------------------------------------------------------

    def opened(self, params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        doc = Document(item.uri, Text(item.text, self.encoding), item.version, path_of(item.uri))
        self.documents[item.uri] = doc
        self.schedule(doc)

    def changed(self, params: types.DidChangeTextDocumentParams) -> None:
        doc = self.documents.get(params.text_document.uri)
        if doc is None:
            return
        for change in params.content_changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                r = change.range
                doc.text.replace(
                    (r.start.line, r.start.character), (r.end.line, r.end.character), change.text
                )
            else:
                doc.text.reset(change.text)
        doc.version = params.text_document.version
        self.schedule(doc, DEBOUNCE)

    def closed(self, params: types.DidCloseTextDocumentParams) -> None:
        doc = self.documents.pop(params.text_document.uri, None)
        if doc is not None and doc.linting is not None:
            doc.linting.cancel()
        if doc is not None and doc.published:
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=doc.uri, diagnostics=[])
            )

    def schedule(self, doc: Document, wait: float = 0.0) -> None:
        """Lint the document's text as it stands after `wait` seconds (a lint of an older text
        not yet started, or still waiting, is dropped)."""
        if doc.linting is not None and not doc.linting.done():
            doc.linting.cancel()
        doc.linting = asyncio.get_running_loop().create_task(self._lint(doc, wait))

    async def _lint(self, doc: Document, wait: float = 0.0) -> None:
        if wait > 0:
            await asyncio.sleep(wait)  # an edit within the wait cancels this task
        text, version = doc.text.snapshot(), doc.version

        def work() -> tuple[Analysis, bytes] | None:
            # Skipped when the text moved on while this waited for the thread.
            if doc.text.revision != text.revision or self.documents.get(doc.uri) is not doc:
                return None
            analysis = Analysis(text, doc.path, version)
            return analysis, self.publication(doc.uri, analysis)

        loop = asyncio.get_running_loop()
        done = await loop.run_in_executor(_LINT, work)
        if done is None or doc.text.revision != text.revision:
            return
        analysis, message = done
        if analysis.attached or doc.published:
            self.publish(doc, analysis, message)
        doc.analysis = analysis  # after: freeing the last one takes milliseconds

        def settle() -> Version | None:
            """The line starts, so that the next edit need not count them on the event loop;
            the text in one piece when edits have cut it into many."""
            _ = text.starts
            return text.joined() if len(text.pieces) > MAX_PIECES else None

        joined = await loop.run_in_executor(_LINT, settle)
        if joined is not None:
            doc.text.adopt(joined)
        if analysis.result is None:
            return

        def prepare() -> None:
            if doc.analysis is analysis:  # not when a newer version is already linted
                analysis.prepare()

        await loop.run_in_executor(_FACTS, prepare)

    def publication(self, uri: str, analysis: Analysis) -> bytes:
        """The publishDiagnostics of an analysis, ready to write (made on the lint thread: the
        JSON of 100,000 diagnostics takes most of a second, which the event loop must not
        spend)."""
        items = []
        if analysis.attached and analysis.config_error is not None:
            items = [
                types.Diagnostic(
                    range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                    message=f"configuration: {analysis.config_error}",
                    severity=types.DiagnosticSeverity.Error,
                    source="wkparse",
                )
            ]
        elif analysis.attached:
            items = self.diagnostics(analysis)
        return self.wire.publication(uri, analysis.version, items)

    def publish(self, doc: Document, analysis: Analysis, message: bytes) -> None:
        """Send a `publication` (on the event loop, in turn with pygls's own messages)."""
        self.wire.send_encoded(message)
        doc.published = analysis.attached

    @property
    def wire(self) -> Protocol:
        return cast(Protocol, self.protocol)

    # ---- conversions ----------------------------------------------------------------------

    def range_of(self, analysis: Analysis, span: Span) -> types.Range:
        return types.Range(
            self.position(analysis, span.line, span.column),
            self.position(analysis, span.end_line, span.end_column),
        )

    def position(self, analysis: Analysis, line: int, column: int) -> types.Position:
        """The LSP position of the parser's (line, column); column 0 of line 1 is a BOM."""
        bom = line == 1 and analysis.bom
        index = max(column - (0 if bom else 1), 0)
        if analysis.ascii:
            return types.Position(max(line - 1, 0), index)
        units = to_units(analysis.line_text(line), index, self.encoding)
        return types.Position(max(line - 1, 0), units)

    def column_of(self, doc: Document, position: types.Position) -> int:
        """The parser's column of an LSP position in the document's text."""
        from wkparse.lsp.text import to_index

        index = to_index(doc.text.line(position.line), position.character, self.encoding)
        bom = position.line == 0 and doc.text.line(0).startswith("\ufeff")
        return index if bom else index + 1

    def diagnostics(
        self, analysis: Analysis, found: list[Diagnostic] | None = None
    ) -> list[types.Diagnostic]:
        """Lint's diagnostics (or `found` among them) as LSP's, each linking its rule page."""
        base = analysis.config.help_base_url
        pages: dict[str, types.CodeDescription] = {}
        out = []
        for d in analysis.diagnostics if found is None else found:
            link = pages.get(d.code)
            if link is None:
                link = pages[d.code] = types.CodeDescription(href=page_uri(d.code, base))
            out.append(
                types.Diagnostic(
                    range=self.range_of(analysis, d.span),
                    message=d.message,
                    severity=_SEVERITY[d.severity or Severity.ERROR],
                    code=d.code,
                    code_description=link,
                    source="wkparse",
                )
            )
        return out

    def edits(self, analysis: Analysis, edits: tuple[Edit, ...]) -> list[types.TextEdit]:
        return [types.TextEdit(self.range_of(analysis, e.span), e.text) for e in edits]

    def whole(self, analysis: Analysis) -> types.Range:
        last = analysis.line_count
        end = to_units(analysis.line_text(last), len(analysis.line_text(last)), self.encoding)
        return types.Range(types.Position(0, 0), types.Position(last - 1, end))

    async def analysis_for(self, uri: str, wait: float = HOVER_WAIT) -> Analysis | None:
        """The analysis of the text on screen, waiting for its lint at most `wait` seconds."""
        doc = self.documents.get(uri)
        if doc is None:
            return None
        if doc.current() is None and doc.linting is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(doc.linting), wait)
        return doc.current()

    async def in_thread(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(_FACTS, fn, *args)


server = WorkloadServer()


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: WorkloadServer, params: types.DidSaveTextDocumentParams) -> None:
    doc = ls.documents.get(params.text_document.uri)
    if doc is not None:
        ls.schedule(doc)  # the configuration beside it may have changed too


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: WorkloadServer, params: types.HoverParams) -> types.Hover | None:
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return None
    analysis = await ls.analysis_for(doc.uri)
    note = ""
    if analysis is None:
        # Still linting the text on screen: the last version answers for a line that reads
        # the same there, in a text of as many lines.
        stale = doc.analysis
        line = params.position.line
        if stale is None or not stale.attached:
            return None
        same = await ls.in_thread(
            lambda: (
                stale.line_count == doc.text.line_count
                and stale.line_text(line + 1) == doc.text.line(line)
            )
        )
        if not same:
            reading = f"wkparse is still reading this version ({doc.text.line_count:,} lines)."
            return types.Hover(types.MarkupContent(kind=types.MarkupKind.Markdown, value=reading))
        analysis = stale
        note = "\n\n_(as of the last lint: this version is still being read)_"
    if not analysis.attached:
        return None
    column = ls.column_of(doc, params.position)
    found = await ls.in_thread(analysis.hover, params.position.line + 1, column)
    if found is None:
        return None
    text, span = found
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text + note),
        range=ls.range_of(analysis, span),
    )


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.Source, FIX_ALL],
        resolve_provider=True,
    ),
)
async def code_action(
    ls: WorkloadServer, params: types.CodeActionParams
) -> list[types.CodeAction] | None:
    uri = params.text_document.uri
    analysis = await ls.analysis_for(uri)
    if analysis is None or not analysis.attached:
        return None
    first, last = params.range.start.line + 1, params.range.end.line + 1
    actions: list[types.CodeAction] = []
    fixes = await ls.in_thread(analysis.fixes_between, first, last)
    for d, fix in fixes[:MAX_QUICK_FIXES]:
        title = fix.description if fix.safe else f"{fix.description} (unsafe: changes the meaning)"
        actions.append(
            types.CodeAction(
                title=f"{d.code}: {title}",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=ls.diagnostics(analysis, [d]),
                edit=types.WorkspaceEdit(changes={uri: ls.edits(analysis, fix.edits)}),
                is_preferred=fix.safe,
            )
        )
    if any(d.fix is not None and d.fix.safe and d.fix.edits for d in analysis.diagnostics):
        actions.append(
            types.CodeAction(
                title="wkparse: fix every safe problem",
                kind=FIX_ALL,
                data={"uri": uri, "version": analysis.version},
            )
        )
    if analysis.path is not None:
        actions.append(
            types.CodeAction(
                title="wkparse: write the explain HTML report",
                kind=types.CodeActionKind.Source,
                command=types.Command(
                    title="wkparse: write the explain HTML report",
                    command=EXPLAIN_HTML,
                    arguments=[uri],
                ),
            )
        )
    only = params.context.only
    if only:
        actions = [a for a in actions if any((a.kind or "").startswith(k) for k in only)]
    return actions


@server.feature(types.CODE_ACTION_RESOLVE)
async def resolve_code_action(ls: WorkloadServer, action: types.CodeAction) -> types.CodeAction:
    data = action.data if isinstance(action.data, dict) else {}
    uri = str(data.get("uri", ""))
    analysis = await ls.analysis_for(uri)
    if analysis is None or analysis.version != data.get("version"):
        return action
    fixed = await ls.in_thread(analysis.fix_all)
    if fixed is not None:
        edit = types.TextEdit(range=ls.whole(analysis), new_text=fixed)
        action.edit = types.WorkspaceEdit(changes={uri: [edit]})
    return action


@server.command(EXPLAIN_HTML)
async def explain_html(ls: WorkloadServer, *arguments: Any) -> str | None:
    """Write `wkparse explain FILE --format html -o FILE.html` of the saved file; return
    the page's path."""
    uri = str(arguments[0]) if arguments else ""
    path = path_of(uri)
    if path is None:
        raise ValueError(f"{uri!r} is not a file on disk")
    output = Path(str(arguments[1])) if len(arguments) > 1 else path.with_suffix(".html")

    def write() -> None:
        from wkparse.atomic import atomic_write
        from wkparse.config import Resolver
        from wkparse.parse import parse_file, read_input
        from wkparse.render.explain import html, shown

        config = Resolver().for_path(path)
        data = read_input(path, config.limits)
        page = html.render(
            shown(parse_file(path, limits=config.limits), str(path), config, data=data)
        )
        atomic_write(output, [page.encode("utf-8")])

    try:
        await ls.in_thread(write)
    except (OSError, ConfigError) as exc:
        raise ValueError(f"wkparse explain could not write {output}: {exc}") from exc
    ls.window_show_message(
        types.ShowMessageParams(type=types.MessageType.Info, message=f"wrote {output}")
    )
    return str(output)


@server.feature(types.TEXT_DOCUMENT_FORMATTING)
async def formatting(
    ls: WorkloadServer, params: types.DocumentFormattingParams
) -> list[types.TextEdit] | None:
    analysis = await ls.analysis_for(params.text_document.uri, wait=60.0)
    if analysis is None or not analysis.attached:
        return None
    new = await ls.in_thread(analysis.formatted)
    if new is None or new == analysis.source:
        return []
    return [types.TextEdit(range=ls.whole(analysis), new_text=new)]


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def symbols(
    ls: WorkloadServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol] | None:
    analysis = await ls.analysis_for(params.text_document.uri)
    if analysis is None or not analysis.attached:
        return None
    out = []
    for s in await ls.in_thread(analysis.sections):
        whole = types.Range(types.Position(s.first_line - 1, 0), types.Position(s.last_line, 0))
        start = types.Position(s.first_line - 1, 0)
        first = types.Range(start, start)
        out.append(
            types.DocumentSymbol(
                name=s.name,
                detail=s.detail,
                kind=types.SymbolKind.Namespace,
                range=whole,
                selection_range=first,
            )
        )
    return out


@server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
async def folding(
    ls: WorkloadServer, params: types.FoldingRangeParams
) -> list[types.FoldingRange] | None:
    analysis = await ls.analysis_for(params.text_document.uri)
    if analysis is None or not analysis.attached:
        return None
    return [
        types.FoldingRange(
            start_line=s.first_line - 1,
            end_line=s.last_line - 1,
            kind=types.FoldingRangeKind.Region,
        )
        for s in await ls.in_thread(analysis.sections)
        if s.last_line > s.first_line
    ]


def serve() -> None:
    """Speak LSP over stdin and stdout until the client says exit."""
    server.start_io()
