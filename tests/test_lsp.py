"""`wkparse server` end to end: a real LSP client (tests/lsp_client.py) speaks JSON-RPC to the
server in a child process over stdio, as an editor does, on our sample, on the seed's AICB
file, on a note that is not a workload, and on a million-row file made from the sample."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, SAMPLES
from tests.lsp_client import Client
from wkparse.catalog import page_uri
from wkparse.config import Resolver
from wkparse.engine import known_codes, lint
from wkparse.format import format_text
from wkparse.i18n import language, resolve
from wkparse.parse import parse_bytes

pytest.importorskip("pygls", reason="the lsp extra is not installed")

SAMPLE = SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"
HELD = Path(__file__).with_name("lsp_held_server.py")
SEVERITY = {"error": 1, "warning": 2, "info": 3}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Client]:
    c = Client(cwd=tmp_path)
    c.initialize(tmp_path)
    try:
        yield c
    finally:
        c.close()


def expected(text: str, path: Path) -> list[dict[str, Any]]:
    """What `wkparse lint PATH` finds in `text`, as LSP diagnostics (ASCII text)."""
    config = Resolver(known=known_codes()).for_path(path)
    with language(resolve(config.lang)):
        found = lint(parse_bytes(text.encode()), str(path), config)
    return [
        {
            "range": {
                "start": {"line": d.span.line - 1, "character": d.span.column - 1},
                "end": {"line": d.span.end_line - 1, "character": d.span.end_column - 1},
            },
            "message": d.message,
            "severity": SEVERITY[str(d.severity)],
            "code": d.code,
            "codeDescription": {"href": page_uri(d.code, config.help_base_url)},
            "source": "wkparse",
        }
        for d in found
    ]


def at(uri: str, line: int, character: int) -> dict[str, Any]:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


def hover_text(c: Client, uri: str, line: int, character: int) -> str:
    found = c.request("textDocument/hover", at(uri, line, character))
    assert found is not None
    text: str = found["contents"]["value"]
    return text


def apply(text: str, edits: list[dict[str, Any]]) -> str:
    """Apply LSP text edits (positions in an ASCII text), last first."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(p: dict[str, int]) -> int:
        return offsets[p["line"]] + p["character"]

    for e in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        a, b = offset(e["range"]["start"]), offset(e["range"]["end"])
        text = text[:a] + e["newText"] + text[b:]
    return text


def change(
    c: Client, uri: str, version: int, start: tuple[int, int], end: tuple[int, int], new: str
) -> None:
    c.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [
                {
                    "range": {
                        "start": {"line": start[0], "character": start[1]},
                        "end": {"line": end[0], "character": end[1]},
                    },
                    "text": new,
                }
            ],
        },
    )


def test_a_whole_session_on_the_sample(client: Client, tmp_path: Path) -> None:
    path = tmp_path / "workload.txt"
    original = SAMPLE.read_text(encoding="utf-8")
    text = original.replace("ga: 64", "ga: 60", 1)
    path.write_text(text, encoding="utf-8")
    uri = client.open(path)

    # open: exactly lint's diagnostics, each linking its rule page
    found = client.diagnostics(uri, 1)
    assert found == expected(text, path) and [d["code"] for d in found] == ["WK302"]

    # change (incremental): ga back to 64, then a misspelt collective on row line 30
    ga = original.index("ga: 64") + len("ga: ")
    change(client, uri, 2, (0, ga), (0, ga + 2), "64")
    assert client.diagnostics(uri, 2) == []
    row = original.split("\n")[29]
    col = row.index("ALLREDUCE")
    change(client, uri, 3, (29, col), (29, col + len("ALLREDUCE")), "ALLREDUSE")
    lines = original.split("\n")
    lines[29] = row.replace("ALLREDUCE", "ALLREDUSE", 1)
    text = "\n".join(lines)
    found = client.diagnostics(uri, 3)
    assert found == expected(text, path) and found

    # hover on a row: its group and layer, each phase's collective, SimAI's reading, findings
    shown = hover_text(client, uri, 48, 0)
    assert "`attention_layer`" in shown and "micro-batch group 3 of ga 64" in shown
    assert "layer 1 of the stage's 9" in shown
    assert "all-reduce (`ALLREDUCE`) in the TP group of 4 GPUs, 32 MiB, 8 MiB per rank" in shown
    assert "SimAI schedules it; compute 1,820 µs" in shown
    assert "prologue, once per iteration" in hover_text(client, uri, 2, 0)
    assert "epilogue, once per iteration" in hover_text(client, uri, 1231, 0)
    broken = hover_text(client, uri, 29, 0)
    assert any(d["code"] in broken for d in found)
    # on a header key: what SimAI reads and what the key means
    vpp = hover_text(client, uri, 0, original.index("vpp:"))
    assert vpp.startswith("**vpp: 9**")
    assert "not Megatron's virtual pipeline stages" in vpp
    assert "The body holds 9 transformer layers per group." in vpp
    # on line 2: rows declared against rows present
    assert hover_text(client, uri, 1, 0).startswith("**1,230 rows declared, 1,230 present**")

    # code action: lint's fix as a quick fix; applying it gives lint's clean file
    actions = client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": found[0]["range"],
            "context": {"diagnostics": found},
        },
    )
    quick = [a for a in actions if a["kind"] == "quickfix"]
    assert quick and quick[0]["diagnostics"][0]["code"] == found[0]["code"]
    fixed = apply(text, quick[0]["edit"]["changes"][uri])
    assert expected(fixed, path) == []

    # the explain HTML report, written by a command
    report = tmp_path / "report.html"
    command = next(a for a in actions if a.get("command"))["command"]
    assert command["arguments"] == [uri]
    written = client.request(
        "workspace/executeCommand",
        {"command": command["command"], "arguments": [uri, str(report)]},
    )
    assert written == str(report) and "<html" in report.read_text(encoding="utf-8")

    # formatting is `wkparse fmt`
    spaced = original.replace("\t", "   ")
    client.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"text": spaced}]},
    )
    assert client.diagnostics(uri, 4) == expected(spaced, path)
    edits = client.request(
        "textDocument/formatting",
        {"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}},
    )
    assert apply(spaced, edits) == format_text(spaced) == original

    # outline and folding: prologue, each micro-batch group, epilogue
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    names = [s["name"] for s in symbols]
    assert names == [
        "prologue",
        *(f"micro-batch group {k} of 64" for k in range(1, 65)),
        "epilogue",
    ]
    assert symbols[1]["range"]["start"]["line"] == 9 and symbols[1]["detail"] == "19 rows"
    folds = client.request("textDocument/foldingRange", {"textDocument": {"uri": uri}})
    assert [(f["startLine"], f["endLine"]) for f in folds][:2] == [(2, 8), (9, 27)]

    # a malformed request gets an error, not a crash; the server goes on answering
    bad = client.request_raw("textDocument/hover", {"textDocument": {"uri": uri}})
    assert bad["error"]["code"] == -32602
    unknown = client.request_raw("wkparse/nothing", {})
    assert unknown["error"]["code"] == -32601
    client.send_raw(b"{not json")
    assert "micro-batch group 3 of ga 64" in hover_text(client, uri, 48, 0)

    # shutdown and exit: exit code 0
    assert client.close() == 0


def test_fix_all_and_unsafe_fixes_are_marked(client: Client, tmp_path: Path) -> None:
    path = tmp_path / "workload.txt"
    text = SAMPLE.read_text(encoding="utf-8").replace("ga: 64", "ga: 60", 1)
    text = text.replace("ep: 1 ", "ep: 1 ep: 1 ", 1)  # a safe fix (the repeated key) too
    path.write_text(text, encoding="utf-8")
    uri = client.open(path)
    found = client.diagnostics(uri, 1)
    assert {d["code"] for d in found} == {"WK302", "WK206"}
    actions = client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}},
            "context": {"diagnostics": found},
        },
    )
    quick = {a["diagnostics"][0]["code"]: a for a in actions if a["kind"] == "quickfix"}
    assert quick["WK302"]["isPreferred"] is False and "unsafe" in quick["WK302"]["title"]
    assert quick["WK206"]["isPreferred"] is True and "unsafe" not in quick["WK206"]["title"]
    every = next(a for a in actions if a["kind"] == "source.fixAll.wkparse")
    resolved = client.request("codeAction/resolve", every)
    fixed = apply(text, resolved["edit"]["changes"][uri])
    assert "ep: 1 ep" not in fixed and "ga: 60" in fixed  # the unsafe fix is left alone


def test_configuration_comes_from_the_files_own_folder(client: Client, tmp_path: Path) -> None:
    (tmp_path / "quiet").mkdir()
    (tmp_path / "quiet" / ".wkparse.toml").write_text('ignore = ["WK302"]\n', encoding="utf-8")
    text = SAMPLE.read_text(encoding="utf-8").replace("ga: 64", "ga: 60", 1)
    loud = tmp_path / "loud.txt"
    quiet = tmp_path / "quiet" / "quiet.txt"
    for path in (loud, quiet):
        path.write_text(text, encoding="utf-8")
    assert [d["code"] for d in client.diagnostics(client.open(loud))] == ["WK302"]
    quiet_uri = client.open(quiet)
    assert client.diagnostics(quiet_uri) == []
    # a save lints again, with the configuration as it now stands
    (tmp_path / "quiet" / ".wkparse.toml").write_text("", encoding="utf-8")
    client.notify("textDocument/didSave", {"textDocument": {"uri": quiet_uri}})
    assert [d["code"] for d in client.diagnostics(quiet_uri)] == ["WK302"]


def test_only_workload_files_are_attached(client: Client, tmp_path: Path) -> None:
    note = tmp_path / "notes.txt"
    note.write_text("Ask about ga and vpp\n12\nattention_layer looks odd\n", encoding="utf-8")
    configured = tmp_path / "odd" / "run.wk"
    configured.parent.mkdir()
    (configured.parent / ".wkparse.toml").write_text('include = ["*.wk"]\n', encoding="utf-8")
    configured.write_text("not a policy\n1\n", encoding="utf-8")
    note_uri = client.open(note)
    configured_uri = client.open(configured)
    # the configured `include` attaches a file whose line 1 is no policy; the note is left be
    attached = client.wait_for("textDocument/publishDiagnostics")
    assert attached["uri"] == configured_uri and attached["diagnostics"]
    for method in ("textDocument/documentSymbol", "textDocument/foldingRange"):
        assert client.request(method, {"textDocument": {"uri": note_uri}}) is None
    assert client.request("textDocument/hover", at(note_uri, 0, 0)) is None
    assert client.notifications.empty()


def test_the_seed_report_is_no_workload(client: Client, seed_report: Path) -> None:
    uri = client.open(seed_report)
    # formatting waits for the lint (hovers wait a moment only): the answers below are about
    # the lint's verdict, not about a lint still running
    options = {"tabSize": 4, "insertSpaces": True}
    formatting = {"textDocument": {"uri": uri}, "options": options}
    assert client.request("textDocument/formatting", formatting) is None
    assert client.request("textDocument/hover", at(uri, 0, 0)) is None
    assert client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}) is None
    assert client.notifications.empty()


def test_the_seed_file(client: Client, seed_workload: Path, tmp_path: Path) -> None:
    path = tmp_path / seed_workload.name
    shutil.copyfile(seed_workload, path)
    text = path.read_text(encoding="utf-8")
    uri = client.open(path)
    assert client.diagnostics(uri, 1) == expected(text, path)
    row = hover_text(client, uri, 29, 0)
    assert "micro-batch group 2 of ga 64, layer 1 of the stage's 9" in row
    assert "in the TP group of 4 GPUs" in row and "SimAI schedules it" in row
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert len(symbols) == 66
    assert (
        client.request(
            "textDocument/formatting",
            {"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}},
        )
        == []
    )


def million_rows(sample: str) -> tuple[str, int]:
    """The sample with its micro-batch group repeated past a million rows (ga to match)."""
    lines = sample.split("\n")[:-1]
    header, prologue, group, epilogue = lines[0], lines[2:9], lines[9:28], lines[-7:]
    groups = (1_000_000 - len(prologue) - len(epilogue)) // len(group) + 1
    rows = len(prologue) + groups * len(group) + len(epilogue)
    body = "\n".join(prologue) + "\n" + ("\n".join(group) + "\n") * groups
    text = f"{header.replace('ga: 64', f'ga: {groups}')}\n{rows}\n{body}" + "\n".join(epilogue)
    return text + "\n", groups


def test_a_million_rows_never_block_a_hover(tmp_path: Path) -> None:
    text, groups = million_rows(SAMPLE.read_text(encoding="utf-8"))
    path = tmp_path / "million.txt"
    path.write_text(text, encoding="utf-8")
    small = tmp_path / "small.txt"
    small.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    # The million rows' lints wait while `hold` exists (tests/lsp_held_server.py): the hovers
    # below are asked while the lint of the edit surely runs, however fast the machine.
    hold = tmp_path / "hold"
    client = Client(cwd=tmp_path, command=[sys.executable, str(HELD), str(path), str(hold)])
    try:
        client.initialize(tmp_path)
        small_uri = client.open(small)
        assert client.diagnostics(small_uri, 1) == []
        uri = client.open(path, text)
        assert client.diagnostics(uri, 1, timeout=600) == []
        before = hover_text(client, uri, 500_000, 0)
        assert "micro-batch group 26,316 of ga 52,631" in before

        # an edit starts a second lint of the million rows (held); hovers are answered
        # meanwhile: the other document's at once, this one's from the last lint, marked so
        hold.touch()
        ga = text.index(f"ga: {groups}") + len("ga: ")
        change(client, uri, 2, (0, ga), (0, ga + len(str(groups))), str(groups - 1))
        other = client.request("textDocument/hover", at(small_uri, 29, 0))
        assert "layer 1 of the stage's 9" in other["contents"]["value"]
        stale = hover_text(client, uri, 500_000, 0)
        assert stale.startswith(before) and "this version is still being read" in stale
        edited = client.request("textDocument/hover", at(uri, 0, ga))
        lines = f"{text.count(chr(10)) + 1:,} lines"
        assert f"still reading this version ({lines})" in edited["contents"]["value"]

        hold.unlink()
        published = client.diagnostics(uri, 2, timeout=600)
        assert [d["code"] for d in published] == ["WK302"]
        row = hover_text(client, uri, 500_000, 0)
        assert f"of ga {groups - 1:,}, layer" in row and "still being read" not in row
    finally:
        client.close()


def test_without_pygls_server_says_how_to_install() -> None:
    code = (
        "import sys\n"
        "sys.modules['pygls'] = None\n"
        "from wkparse.cli import main\n"
        "sys.argv = ['wkparse', 'server']\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert "pip install 'wkparse[lsp]'" in done.stderr and "Traceback" not in done.stderr


def test_only_the_server_module_imports_pygls() -> None:
    importing = re.compile(r"^\s*(from|import)\s+(pygls|lsprotocol)\b", re.MULTILINE)
    allowed = {Path("wkparse/lsp/server.py"), Path("wkparse/commands/server.py")}
    found = {
        p.relative_to(ROOT)
        for p in (ROOT / "wkparse").rglob("*.py")
        if importing.search(p.read_text(encoding="utf-8"))
    }
    assert found <= allowed


def test_hovers_are_answered_while_a_publication_is_made(tmp_path: Path) -> None:
    # a finding on nearly every row: turning them into JSON is the publication's long part
    text = SAMPLE.read_text(encoding="utf-8").replace("ALLREDUCE", "ALLREDUSE")
    path = tmp_path / "findings.txt"
    path.write_text(text, encoding="utf-8")
    small = tmp_path / "small.txt"
    small.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    # The publication of `path`'s diagnostics, made on the lint thread, waits there while
    # `publishing` exists (tests/lsp_held_server.py): the hovers below are asked meanwhile.
    hold, publishing = tmp_path / "hold", tmp_path / "publishing"
    reached = tmp_path / "publishing.reached"
    command = [sys.executable, str(HELD), str(path), str(hold), str(publishing)]
    client = Client(cwd=tmp_path, command=command)
    try:
        client.initialize(tmp_path)
        small_uri = client.open(small)
        assert client.diagnostics(small_uri, 1) == []
        publishing.touch()
        uri = client.open(path)
        for _ in range(60_000):  # not a timing: a guard against waiting for ever
            if reached.exists():
                break
            time.sleep(0.01)
        assert reached.exists()
        other = hover_text(client, small_uri, 29, 0)
        assert "layer 1 of the stage's 9" in other
        assert client.notifications.empty()  # the publication is still held
        publishing.unlink()
        found = client.diagnostics(uri, 1)
        assert found == expected(text, path) and len(found) > 1000
    finally:
        client.close()
