"""Start-up: what `wkparse lint` of a small clean file leaves unloaded, and the stored rule
summaries that let it skip reading the catalog's pages. Never timed: benchmarks/run.py
measures the start-up itself."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from tests.conftest import CORPUS, SAMPLES, on_a_terminal
from wkparse import catalog, terminal
from wkparse.config import Config
from wkparse.diagnostics import Diagnostic, Fix, Severity
from wkparse.render.lint.base import FileReport, Summary
from wkparse.render.lint.text import TextFormatter

#: 37 rows that AICB wrote and that lint silent
SMALL = (
    CORPUS / "aicb-generated" / "aicb-2025-12" / "aiob-sp-None-gpt_13B-world_size256-tp8-pp8-"
    "ep1-gbs4-mbs1-seq8192-MOE-False-GEMM-False-flash_attn-True.txt"
)
#: what a run that finds nothing has no use for
UNUSED = (
    "lark",
    "numpy",
    "rich",
    "wkparse.models.aicb.generation",
    "wkparse.explanation",
    "pygls",
    "lsprotocol",
    "wkparse.lsp",
    # the rules it does not run (ns-3's under the default target, the opt-in ones), and what
    # only they, or a finding, need: SimAI's run and collective models, AICB's history
    "wkparse.checks.all",
    "wkparse.checks.ns3",
    "wkparse.checks.aicb.known_generator_defect",
    "wkparse.checks.header.inference_mode",
    "wkparse.checks.rows.zero_size_collective",
    "wkparse.checks.structure.missing_field",  # a parser code's rule, for a file that has one
    "wkparse.models.simai.ns3",
    "wkparse.models.simai.run",
    "wkparse.models.simai.comm",
    "wkparse.models.simai.options",
    "wkparse.models.simai.timeline",
    "wkparse.models.aicb.revisions",
    # the concept pages: read only by the commands that show them
    "wkparse.concepts",
)
REGENERATE = 'python -c "from wkparse.catalog import write_summaries; write_summaries()"'


def _lint_in_a_child(*args: str) -> dict[str, object]:
    code = (
        "import json, sys\n"
        "import typer.main\n"
        "floor = set(sys.modules)  # typer's own imports (typer 0.18 loads rich's package)\n"
        "from wkparse.cli import main\n"
        f"sys.argv = ['wkparse', 'lint', *{list(args)!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    status = exc.code\n"
        "from wkparse.catalog import catalog\n"
        "new = [m for m in sys.modules if m not in floor]\n"
        "top = ('lark', 'numpy', 'rich', 'pygls', 'lsprotocol')\n"
        "loaded = [m for m in new if m.split('.')[0] in top]\n"
        "loaded += [m for m in new if m.startswith('wkparse')]\n"
        "classes = [c for m in new if m.startswith('wkparse') for c in\n"
        "           vars(sys.modules[m]).values() if isinstance(c, type) and c.__module__ == m]\n"
        "made = sorted(c.__qualname__ for c in classes if '__dataclass_params__' in c.__dict__)\n"
        "records = sorted(c.__qualname__ for c in classes if '__record_defaults__' in c.__dict__)\n"
        "print(json.dumps({'status': status, 'modules': sorted(set(loaded)),\n"
        "                  'pages_read': catalog.cache_info().currsize, 'dataclasses': made,\n"
        "                  'records': records}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    *output, report = done.stdout.splitlines()
    result: dict[str, object] = json.loads(report)
    result["output"] = output
    return result


@pytest.mark.skipif(not SMALL.is_file(), reason="needs ../shared/corpus")
def test_lint_of_a_small_clean_file_loads_only_what_it_uses() -> None:
    run = _lint_in_a_child(str(SMALL))
    assert run["status"] == 0 and run["output"] == ["All checks passed (1 file)."]
    modules = run["modules"]
    assert isinstance(modules, list)
    assert [m for m in modules if m.startswith(UNUSED)] == []
    assert run["pages_read"] == 0


@pytest.mark.skipif(not SMALL.is_file(), reason="needs ../shared/corpus")
def test_a_small_clean_lint_defines_records_not_dataclasses() -> None:
    """A dataclass costs several times a `wkparse.record` to define (six methods compiled
    each), and a record is one to `dataclasses`: a clean lint defines only records."""
    run = _lint_in_a_child(str(SMALL))
    assert run["dataclasses"] == []
    records = run["records"]
    assert isinstance(records, list) and {"Span", "Diagnostic", "Config"} <= set(records)


def _findings(paths: list[Path], config: Config) -> list[list[str]]:
    from wkparse import api

    return [[repr(d) for d in api.lint(path, config=config)] for path in paths]


def test_a_run_that_loads_only_its_rules_finds_what_every_rule_loaded_finds() -> None:
    """Each process imports the rules its configuration runs (`wkparse.checks.load`); here the
    test process has imported every one: the findings must not depend on it."""
    import wkparse.checks.all  # noqa: F401  (every rule registered here)

    paths = sorted(SAMPLES.glob("*.txt"))
    if CORPUS.is_dir():
        paths += sorted(CORPUS.rglob("*.txt"))[::6]
    selections = [
        {},
        {"select": ("WK1", "WK2", "WK3", "WK4", "WK5", "WK6", "WK7", "WK8", "WK9")},
        {"target": "simai-ns3", "extend_select": ("WK803", "WK901", "WK211", "WK405")},
        {"target": "astra-sim-1.0"},
    ]
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from wkparse import api\n"
        "from wkparse.config import Config\n"
        "selections, paths = json.loads(sys.argv[1]), [Path(p) for p in sys.argv[2:]]\n"
        "runs = []\n"
        "for s in selections:\n"
        "    config = Config(**{k: tuple(v) if isinstance(v, list) else v for k, v in s.items()})\n"
        "    runs.append([[repr(d) for d in api.lint(p, config=config)] for p in paths])\n"
        "print(json.dumps({'runs': runs, 'all': 'wkparse.checks.all' in sys.modules}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(selections), *map(str, paths)],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    child = json.loads(done.stdout)
    assert child["all"] is False
    for selection, theirs in zip(selections, child["runs"]):
        mine = _findings(paths, Config(**selection))  # type: ignore[arg-type]
        assert theirs == mine, selection
    assert any(run for run in child["runs"][2])  # the ns-3 and opt-in rules found something


def test_a_page_whose_module_is_missing_loads_every_rule() -> None:
    code = (
        "import sys\n"
        "from wkparse import catalog, checks\n"
        "pages = dict(catalog.summaries())\n"
        "pages['WK105'] = catalog.RuleSummary('WK105', 'no-such-rule', pages['WK105'].severity,"
        " area='structure')\n"
        "catalog.summaries = lambda: pages\n"
        "checks.load(['WK105'])\n"
        "print('wkparse.checks.all' in sys.modules, len(checks.REGISTRY))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    loaded, registered = done.stdout.split()
    assert loaded == "True" and int(registered) == len(catalog.catalog())


@pytest.mark.skipif(not SMALL.is_file(), reason="needs ../shared/corpus")
def test_the_pages_are_read_when_a_format_shows_them() -> None:
    run = _lint_in_a_child("--format", "sarif", str(SMALL))
    assert run["status"] == 0 and run["pages_read"] == 1


def test_the_stored_summaries_are_the_pages() -> None:
    stored = json.loads(catalog.summaries_path().read_text(encoding="utf-8"))
    assert stored == catalog._summaries(), f"a rule page changed: run {REGENERATE}"


def test_the_summaries_say_what_the_pages_say() -> None:
    pages = catalog.catalog()
    assert list(catalog.summaries()) == list(pages)
    for code, rule in catalog.summaries().items():
        page = pages[code]
        assert (rule.code, rule.name, rule.severity) == (page.code, page.name, page.severity)
        assert (rule.opt_in, rule.targets, rule.area) == (page.opt_in, page.targets, page.area)
    assert catalog.opt_in_codes() == {c for c, p in pages.items() if p.opt_in}


def test_stale_summaries_are_made_again_from_the_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = json.loads(catalog.summaries_path().read_text(encoding="utf-8"))
    stale["rules"] = [[c, "renamed", "info", True, [], area] for c, *_, area in stale["rules"]]
    stale["checksum"] = "00000000"  # made from other pages
    path = tmp_path / "summaries.json"
    path.write_text(json.dumps(stale), encoding="utf-8")
    monkeypatch.setattr(catalog, "summaries_path", lambda: path)
    catalog.summaries.cache_clear()
    try:
        fresh = catalog.summaries()
        assert {r.name for r in fresh.values()} == {p.name for p in catalog.catalog().values()}
        # the same stale content with the pages' checksum is believed: the checksum decides
        stale["checksum"] = catalog._summaries()["checksum"]
        path.write_text(json.dumps(stale), encoding="utf-8")
        catalog.summaries.cache_clear()
        assert {r.name for r in catalog.summaries().values()} == {"renamed"}
        # rows of another shape (before the area was stored) are made again, not misread
        stale["rules"] = [row[:5] for row in stale["rules"]]
        path.write_text(json.dumps(stale), encoding="utf-8")
        catalog.summaries.cache_clear()
        assert catalog.summaries() == fresh
        path.write_text("not json", encoding="utf-8")
        catalog.summaries.cache_clear()
        assert catalog.summaries() == fresh
    finally:
        catalog.summaries.cache_clear()


def test_a_wheel_s_summaries_are_used_without_the_checksum(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wheel's pages and index come from one checkout, held together by the test above: its
    index is believed without reading its pages; a checkout's only with their checksum."""
    stale = json.loads(catalog.summaries_path().read_text(encoding="utf-8"))
    stale["rules"] = [[c, "renamed", "info", True, [], area] for c, *_, area in stale["rules"]]
    stale["checksum"] = "12345678"  # of other pages
    for installed, folder in ((True, tmp_path / "_data" / "rules"), (False, tmp_path / "rules")):
        folder.mkdir(parents=True)
        (folder / "summaries.json").write_text(json.dumps(stale), encoding="utf-8")
        monkeypatch.setattr(catalog, "rules_dir", lambda folder=folder: folder)
        catalog.summaries.cache_clear()
        catalog.catalog.cache_clear()
        try:
            assert catalog._installed() is installed
            names = {r.name for r in catalog.summaries().values()}
            # the checkout's index is checked against its pages (here none): made again
            assert names == ({"renamed"} if installed else set())
        finally:
            catalog.summaries.cache_clear()
            catalog.catalog.cache_clear()


def _report() -> FileReport:
    from wkparse.ast import Span

    found = Diagnostic(
        "WK105",
        "line 2 declares 3 rows but the file has 2",
        Span(2, 1, 2, 2),
        severity=Severity.ERROR,
        fix=Fix("set the count to 2", ()),
    )
    return FileReport("w.txt", [found], {2: "3"})


def test_plain_text_is_what_a_colourless_console_prints() -> None:
    names = {"WK105": "count-mismatch"}
    summary = Summary(1, {Severity.ERROR: 1}, 0, 0, [])
    through_rich, plain = io.StringIO(), io.StringIO()
    for formatter in (
        TextFormatter(Console(file=through_rich, color_system=None), names),
        TextFormatter(None, names, out=plain),
    ):
        formatter.start()
        formatter.handle(_report())
        formatter.stop(summary)
    assert plain.getvalue() == through_rich.getvalue()
    assert plain.getvalue().endswith("Found 1 error in 1 file.\n")
    with pytest.raises(ValueError):
        TextFormatter(None, names)


def test_plain_output_only_where_the_colour_rule_gives_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    piped = io.StringIO()
    monkeypatch.setattr(sys, "stdout", piped)
    try:
        assert terminal.plain() is not None  # auto, not a terminal
        terminal.set_color("always")
        assert terminal.plain() is None
        terminal.set_color("never")
        out = terminal.plain()
        assert out is not None
        out.write("padded   \nend")
        out.flush()
        assert piped.getvalue() == "padded\nend"  # as a console's stream: no padding
        terminal.set_color("auto")
        monkeypatch.setenv("FORCE_COLOR", "1")
        assert terminal.plain() is None
    finally:
        terminal.set_color("auto")


@pytest.mark.parametrize(
    "args",
    [
        ["lint", "x.txt"],
        ["--color", "never", "fmt", "--check", "x.txt"],
        ["-V", "rules"],
        ["diff", "a", "b"],
        ["rule", "WK105"],
    ],
)
def test_a_named_command_is_built_alone_and_the_same(args: list[str]) -> None:
    import typer.main
    from typer.testing import CliRunner

    from wkparse.cli import app, app_for

    alone = app_for(args)
    one, whole = typer.main.get_command(alone), typer.main.get_command(app)
    name = next(a for a in args if a[0].isalpha() and a != "never")
    assert list(one.commands) == [name]  # type: ignore[attr-defined]
    mine, theirs = one.commands[name], whole.commands[name]  # type: ignore[attr-defined]
    assert [p.opts for p in mine.params] == [p.opts for p in theirs.params]
    assert [p.opts for p in one.params] == [p.opts for p in whole.params]
    runner = CliRunner()
    assert (
        runner.invoke(alone, [name, "--help"]).output == runner.invoke(app, [name, "--help"]).output
    )


@pytest.mark.parametrize("args", [[], ["--help"], ["lnt"], ["--color", "lint"], ["never"]])
def test_without_a_command_named_the_whole_app_runs(args: list[str]) -> None:
    from wkparse.cli import app, app_for

    assert app_for(args) is app


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.skipif(not SMALL.is_file(), reason="needs ../shared/corpus")
def test_on_a_terminal_rich_waits_for_the_first_finding(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from wkparse.cli import main\n"
        "sys.argv = ['wkparse', 'lint', *sys.argv[1:]]\n"
        "try:\n"
        "    main()\n"
        "finally:\n"
        "    print('rich loaded:', 'rich.console' in sys.modules)\n"
    )

    def lint(*args: str) -> str:
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
        return on_a_terminal([sys.executable, "-c", code, *args], env).decode("utf-8", "replace")

    clean = lint(str(SMALL))
    assert "All checks passed (1 file)." in clean and "rich loaded: False" in clean
    header, count, rows = SMALL.read_bytes().split(b"\n", 2)
    wrong = tmp_path / SMALL.name
    wrong.write_bytes(b"\n".join([header, str(int(count) + 1).encode(), rows]))
    found = lint(str(wrong))
    assert "WK105" in found and "\x1b[" in found and "rich loaded: True" in found
