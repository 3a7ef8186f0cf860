"""The rule catalog: one TOML page per code under the top-level `rules/` folder.

A page is the rule's documentation and its test cases at once: `[[fail]]` examples must
trigger exactly that code, `[[pass]]` examples must trigger nothing (tests/test_catalog.py).

A lint run needs only each rule's name, severity, opt-in flag, targets and area (which, with
the name, says the rule's module), and reading the 80 pages costs more than linting a small
file, so those are also stored beside the pages
(`rules/summaries.json`, written by `python -c "from wkparse.catalog import write_summaries;
write_summaries()"`) with a checksum of the pages' bytes: in a checkout the index is used only
while the pages are the ones it was made from (a stale index costs time, never correctness); a
wheel's is used as it is (`_installed`).
"""

from __future__ import annotations

import functools
import json
import sys
import zlib
from collections.abc import Iterator
from dataclasses import field
from pathlib import Path
from typing import Any

from wkparse.diagnostics import Severity
from wkparse.record import record
from wkparse.resources import rules_dir

FIXABLE = ("no", "safe", "unsafe")
#: what a file can be linted for (`--target`): SimAI (its reader and SimAI-Analytical), SimAI
#: run by its ns-3 backend (the same reader, then SimAI-Simulation: the WK8xx rules speak only
#: for it), or the ASTRA-sim 1.0 SimAI forked
TARGETS = ("simai", "simai-ns3", "astra-sim-1.0")


@record
class Example:
    text: str
    #: the file name the example is linted under (file-name rules read it)
    filename: str = "workload.txt"
    note: str = ""
    #: how the text becomes the file's bytes (WK117 and WK119 need other than UTF-8)
    encoding: str = "utf-8"
    #: the AICB command the example is linted against (the WK6xx rules need one)
    aicb_command: str | None = None
    #: the SimAI revision the example is linted for (`--at`; rules that speak for old SimAIs)
    simai: str | None = None

    @property
    def data(self) -> bytes:
        return self.text.encode(self.encoding, "surrogatepass")


@record
class RulePage:
    code: str
    name: str
    severity: Severity
    area: str
    summary: str
    what: str
    why: str
    fix: str
    fixable: str = "no"
    references: tuple[str, ...] = ()
    #: off by default, as ruff's non-default rules: runs only when selected by its code or a
    #: prefix longer than `WK` (what it finds is true of correct files too; explain says it)
    opt_in: bool = False
    #: the targets the rule speaks for: a SimAI-only key is no fault in an ASTRA-sim 1.0 file
    targets: tuple[str, ...] = TARGETS
    fail: tuple[Example, ...] = ()
    passing: tuple[Example, ...] = field(default=())
    #: the runs of the real SimAI that show what the rule says (an oracle-backed rule may fire
    #: on unedited generator output)
    oracle: tuple[str, ...] = ()


def _examples(raw: list[dict[str, Any]]) -> tuple[Example, ...]:
    return tuple(
        Example(
            e["text"],
            e.get("filename", "workload.txt"),
            e.get("note", ""),
            e.get("encoding", "utf-8"),
            e.get("aicb_command"),
            e.get("simai"),
        )
        for e in raw
    )


def _targets(data: dict[str, Any]) -> tuple[str, ...]:
    targets = tuple(data.get("targets", TARGETS))
    unknown = set(targets) - set(TARGETS)
    if unknown:
        raise ValueError(f"{data.get('code')}: unknown targets {sorted(unknown)}")
    return targets


def load_page(data: dict[str, Any]) -> RulePage:
    fixable = data.get("fixable", "no")
    if fixable not in FIXABLE:
        raise ValueError(f"{data.get('code')}: fixable must be one of {FIXABLE}")
    return RulePage(
        code=data["code"],
        name=data["name"],
        severity=Severity.parse(data["severity"]),
        area=data["area"],
        summary=data["summary"],
        what=data["what"].strip(),
        why=data["why"].strip(),
        fix=data["fix"].strip(),
        fixable=fixable,
        references=tuple(data.get("references", ())),
        opt_in=bool(data.get("opt-in", False)),
        targets=_targets(data),
        fail=_examples(data.get("fail", [])),
        passing=_examples(data.get("pass", [])),
        oracle=tuple(data.get("oracle", ())),
    )


@record
class RuleSummary:
    """What a lint run needs of a page (`RulePage` has the same fields and more)."""

    code: str
    name: str
    severity: Severity
    opt_in: bool = False
    targets: tuple[str, ...] = TARGETS
    #: the rule's folder under wkparse/checks (`wkparse.checks.rule_module` names its module)
    area: str = ""


def _page_files() -> list[Path]:
    return sorted(rules_dir().glob("WK*.toml"))


def _toml_loads(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    data: dict[str, Any] = tomllib.loads(text)
    return data


@functools.cache
def catalog() -> dict[str, RulePage]:
    pages: dict[str, RulePage] = {}
    for path in _page_files():
        page = load_page(_toml_loads(path.read_text(encoding="utf-8")))
        if page.code != path.stem:
            raise ValueError(f"{path.name} describes {page.code}")
        pages[page.code] = page
    return pages


def summaries_path() -> Path:
    return rules_dir() / "summaries.json"


def _checksum(files: list[Path]) -> str:
    """Of every page's name and bytes: any edit, new page or removed page changes it."""
    crc = 0
    for path in files:
        crc = zlib.crc32(path.read_bytes(), zlib.crc32(path.name.encode(), crc))
    return f"{crc:08x}"


def _summaries() -> dict[str, Any]:
    """The stored form of the summaries, made from the pages."""
    return {
        "checksum": _checksum(_page_files()),
        "rules": [
            [p.code, p.name, str(p.severity), p.opt_in, list(p.targets), p.area]
            for p in catalog().values()
        ],
    }


def write_summaries() -> None:
    """Store the summaries of the pages as they are now (run after editing a page)."""
    stored = _summaries()
    rules = ",\n".join(json.dumps(rule) for rule in stored["rules"])
    text = f'{{"checksum": "{stored["checksum"]}", "rules": [\n{rules}\n]}}\n'
    summaries_path().write_text(text, encoding="utf-8")


@functools.cache
def summaries() -> dict[str, RuleSummary]:
    """Every rule's name, severity, opt-in flag, targets and area, by code, without reading
    the pages when the stored summaries were made from them."""
    try:
        stored = json.loads(summaries_path().read_text(encoding="utf-8"))
        if _installed() or stored.get("checksum") == _checksum(_page_files()):
            return _from_rows(stored["rules"])
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        pass  # unreadable, or stored by another version of this function: made again
    return _from_rows(_summaries()["rules"])


def _installed() -> bool:
    """Whether the pages are a wheel's copy (`wkparse/_data/rules`, see `wkparse.resources`):
    a wheel ships the pages and their index together, from a checkout whose index is its pages
    (tests/test_startup.py holds it to them), and nobody edits an installed wheel, so its index
    is used without reading the pages for the checksum. A checkout's is checked at every run."""
    return rules_dir().parent.name == "_data"


def _from_rows(rows: list[list[Any]]) -> dict[str, RuleSummary]:
    return {
        code: RuleSummary(code, name, Severity.parse(severity), opt_in, tuple(targets), area)
        for code, name, severity, opt_in, targets, area in rows
    }


@functools.cache
def opt_in_codes() -> frozenset[str]:
    """The codes that run only when selected (by code, or by a prefix named: `WK4`, `WK`, `ALL`)."""
    return frozenset(code for code, p in summaries().items() if p.opt_in)


@functools.cache
def foreign_codes(target: str) -> frozenset[str]:
    """The codes that do not speak for `target` (silent when linting for it)."""
    return frozenset(code for code, p in summaries().items() if target not in p.targets)


def page_uri(code: str, base: str | None = None) -> str:
    """Where a rule's page is read: `<base>/<CODE>.toml` (`help-base-url`), by default the
    installed page itself. SARIF's helpUri and JSON's `url` link it."""
    if base is None:
        return (rules_dir() / f"{code}.toml").absolute().as_uri()
    return f"{base.rstrip('/')}/{code}.toml"


def page(code: str) -> RulePage | None:
    return catalog().get(code.upper())


def extract_summaries(
    fileobj: Any, keywords: object, comment_tags: object, options: object
) -> Iterator[tuple[int, None, str, list[str]]]:
    """A `pybabel extract` method for the pages: each page's one-line summary is a message
    (`wkparse rules`, `wkparse rule` and SARIF show it in the language of the run; the rest of
    a page's prose in another language is `rules/<lang>/`, see `wkparse.translated_pages`).
    """
    text = fileobj.read().decode("utf-8")
    summary = _toml_loads(text).get("summary")
    if isinstance(summary, str):
        line = next((n for n, s in enumerate(text.splitlines(), 1) if s.startswith("summary")), 1)
        yield line, None, summary, []
