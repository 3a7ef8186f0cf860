"""The Python API: `lint`, `explain`, `simai`, `aicb` and `diff`, re-exported by `wkparse`.

Each returns the object the command's JSON renders, so a script sees what `--format json`
shows: lint's `Diagnostic`s, explain's `Explanation`, SimAI's `SimaiRun`, AICB's `Generated`
and diff's `Difference`. A `source` is a file's path (`str` or `os.PathLike`), its text
(`str` holding a line break: a workload has at least two lines) or its bytes. Nothing here
prints; what cannot be read raises `OSError`, a broken configuration `ConfigError`.

Every import happens in the function that needs it, so `import wkparse` stays cheap.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Union

from wkparse.digits import whole_number

if TYPE_CHECKING:
    from wkparse.config import Config
    from wkparse.diagnostics import Diagnostic
    from wkparse.difference.model import Difference
    from wkparse.explanation import Explanation
    from wkparse.models.aicb import Generated
    from wkparse.models.simai import SimaiRun
    from wkparse.parse import ParseResult
    from wkparse.threads import Triage

#: a file's path, its text (a `str` with a line break) or its bytes
Source = Union[str, "os.PathLike[str]", bytes]

__all__ = [
    "Source",
    "WorkloadSyntaxError",
    "aicb",
    "diff",
    "explain",
    "lint",
    "simai",
    "triage",
]


class WorkloadSyntaxError(ValueError):
    """A file `diff` cannot compare: it does not parse (`lint` lists its diagnostics)."""

    def __init__(self, name: str, diagnostics: Sequence[Diagnostic]) -> None:
        first = diagnostics[0]
        super().__init__(
            f"{name}: {len(diagnostics):,} syntax error(s), the first at line {first.span.line} "
            f"column {first.span.column}: {first.code} {first.message}"
        )
        self.diagnostics = tuple(diagnostics)


def lint(source: Source, *, config: Config | None = None) -> list[Diagnostic]:
    """The findings `wkparse lint` reports for one file, in order.

    `config` defaults to what `wkparse lint` would use: for a path the nearest
    `.wkparse.toml` or `pyproject.toml`, for text and bytes the default settings.
    """
    from wkparse.engine import lint as run_lint

    result, name, config = _parse(source, config)
    return run_lint(result, name, config)


def explain(source: Source, *, config: Config | None = None) -> Explanation:
    """The facts `wkparse explain` shows for one file (`config` as for `lint`)."""
    from wkparse.explanation.configured import explained

    result, name, config = _parse(source, config)
    return explained(result, name, config, data=_bytes(source, config))


def simai(source: Source, options: Sequence[str] | str = (), at: str | None = None) -> SimaiRun:
    """What the real `SimAI_analytical -w FILE OPTIONS` reads and does with one file, and the
    EndToEnd.csv it writes (`run.report`; `run.report.csv()` is the file).

    `options` are SimAI's own command-line words (`["-g", "128", "-g_p_s", "8", ...]`, or one
    string as typed or pasted, program path included); `-w` defaults to the file. With none,
    or only `-g`, wkparse's stated set is used: `-g` (default: the header's all_gpus),
    `-g_p_s 8 -n_p_s 8`, SimAI's default bandwidths. Options SimAI's parser refuses give a run
    whose `outcome.kind` is "refused" with SimAI's exit code. A `-g` without a count of at
    least 1, or a command line with an unclosed quote, raises ValueError (the command line's
    usage errors). `at` names the SimAI (a commit, a date or a release, as `--at`; default
    cef83f9); one wkparse does not know raises `simai.versions.UnknownVersion` (a ValueError).
    """
    from wkparse.models.simai import simulate
    from wkparse.models.simai.options import options_for, split_command
    from wkparse.models.simai.versions import DEFAULT, resolve

    words = split_command(options if isinstance(options, str) else list(options))
    _check_gpus(words)
    if isinstance(source, bytes):
        data, name = source, "workload.txt"
    elif isinstance(source, str) and _is_text(source):
        data, name = source.encode("utf-8", "surrogatepass"), "workload.txt"
    else:
        from wkparse.parse import Limits, read_input

        data, name = read_input(Path(source), Limits()), str(source)
    version = DEFAULT if at is None else resolve(at)
    return simulate(data, None, options_for(Path(name), data, None, words, version), version)


def aicb(command: str | Sequence[str], at: str | None = None) -> Generated:
    """The file AICB writes for `command` (a command line as typed, or its words), with its
    name and notes; `generated.text()` is the file. Raises `AicbError` when AICB writes no
    file for it or wkparse cannot reproduce the run.

    `at` is an AICB revision, a commit (short or full) or a date (YYYY-MM-DD): the file AICB
    wrote then (`wkparse aicb --versions` lists what changed when); None is AICB 2025-12
    (commit 23eec3c). An `at` that names no AICB revision raises `AicbError`.
    """
    from wkparse.models.aicb import generate

    return generate(command, at=at)


def diff(a: Source, b: Source) -> Difference:
    """What really differs between two files, as `wkparse diff` compares them.

    Each side is read with its own configuration's limits, as for `lint`. Raises
    `WorkloadSyntaxError` for a side that does not parse.
    """
    from wkparse.difference import diff as compare

    sides = []
    for source, side in ((a, "a"), (b, "b")):
        result, name, _config = _parse(source, None)
        if result.diagnostics:
            raise WorkloadSyntaxError(name or side, result.diagnostics)
        sides.append((result, name or side))
    (ra, na), (rb, nb) = sides
    return compare(ra, rb, na, nb)


def triage(
    text: str | bytes,
    attachments: str | os.PathLike[str] | None = None,
    date: str | None = None,
    lang: str = "auto",
) -> Triage:
    """What `wkparse triage` concludes from an issue's `text` (Markdown, plain text, front
    matter or `gh issue view --json` output): its artefacts, findings, predictions, answers
    and the Markdown to post (`.markdown`; `.public()` is the JSON). `attachments` is a folder
    of the files the issue links to (matched by name), `date` (YYYY-MM-DD) the day whose SimAI
    and AICB to assume (default: the issue's; ValueError when it is no date), `lang` auto
    (the issue's), en or zh."""
    from wkparse.render.triage.answer import answered
    from wkparse.threads import triage as run_triage

    return answered(run_triage(text, attachments=attachments, date=date, lang=lang))


def _is_text(source: str) -> bool:
    """A `str` is a file's text when it holds a line break: a path does not, a workload
    (its header line, then its row count) always does."""
    return "\n" in source or "\r" in source


def _parse(source: Source, config: Config | None) -> tuple[ParseResult, str | None, Config]:
    """The source parsed with the limits of `config` (resolved as lint resolves it), the
    name lint reports it under (None for text and bytes) and that configuration."""
    from wkparse.config import Config, Resolver
    from wkparse.parse import parse_bytes, parse_file, parse_text

    if isinstance(source, bytes):
        config = config or Config()
        return parse_bytes(source, limits=config.limits), None, config
    if isinstance(source, str) and _is_text(source):
        config = config or Config()
        return parse_text(source, limits=config.limits), None, config
    path = Path(source)
    config = config or Resolver().for_path(path)
    return parse_file(path, limits=config.limits), os.fspath(source), config


def _bytes(source: Source, config: Config) -> bytes | None:
    """The file's bytes, for the SimAI-Analytical prediction explain includes (None over the
    read limits)."""
    if isinstance(source, bytes):
        return source
    if isinstance(source, str) and _is_text(source):
        return source.encode("utf-8", "surrogatepass")
    from wkparse.parse import read_input

    try:
        return read_input(Path(source), config.limits)
    except OSError:
        return None


def _check_gpus(words: list[str]) -> None:
    """A `-g` must carry a GPU count of at least 1 (SimAI would read past its list)."""
    for i, word in enumerate(words):
        if word in ("-g", "--gpus"):
            value = words[i + 1] if i + 1 < len(words) else None
            count = whole_number(value)
            if count is None or count < 1:
                raise ValueError(f"-g needs a GPU count of at least 1, not {value!r}")
