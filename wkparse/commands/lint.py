"""`wkparse lint`: expand the paths, lint each file with the settings that apply to it, report.

Exit 0 when no diagnostic is an error, 1 when one is (or a warning under --strict), 2 for a
usage error (reported before anything runs) or a path that could not be read or configured
(reported on stderr while every other path is still linted). Start-up is paid once per run:
the grammar, the catalog and the checks load once, config lookups are cached per folder,
and rich is only imported to colour a finding or to print a message on stderr.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from wkparse import discover, terminal
from wkparse.catalog import catalog, summaries
from wkparse.config import Config, ConfigError, Resolver, check_target, parse_selectors
from wkparse.diagnostics import Diagnostic, Severity
from wkparse.i18n import _, language, ngettext, resolve
from wkparse.record import record
from wkparse.render.lint.base import FileReport, Formatter, PathProblem, Summary

if TYPE_CHECKING:
    from rich.console import Console

    from wkparse.fix import FileFixed

FORMATS = ("text", "json", "sarif", "github")


@record(slots=False)
class LintOptions:
    paths: Sequence[Path]
    format: str = "text"
    select: str | None = None
    ignore: str | None = None
    strict: bool = False
    config: Path | None = None
    fix: bool = False
    unsafe_fixes: bool = False
    #: skip non-workload files even when named explicitly (pre-commit passes every `.txt`)
    skip_non_workloads: bool = False
    #: the AICB command that made the files (`--aicb-command`): turns the WK6xx checks on
    aicb_command: str | None = None
    extend_select: str | None = None
    extend_ignore: str | None = None
    #: exit 0 whatever is found (2 still reports a path that could not be read)
    exit_zero: bool = False
    #: print how often each code was found instead of each finding
    statistics: bool = False
    #: with --fix, list what was fixed
    show_fixes: bool = False
    #: the name standard input is linted under (file-name rules, per-file-ignores, config)
    stdin_filename: str | None = None
    #: the reader the files are for (`--target`), over the configuration's `target`
    target: str | None = None
    #: the language of the messages (en, zh, auto); None: each file's configuration decides
    lang: str | None = None
    #: list every skipped file (without it, one summary line counts them)
    verbose: bool = False
    #: the SimAI the checks speak for (`--at`), over the configuration's `simai`
    at: str | None = None


class Fixer(Protocol):
    def __call__(
        self,
        path: Path,
        diagnostics: Sequence[Diagnostic],
        unsafe: bool = False,
        *,
        config: Config | None = None,
    ) -> FileFixed: ...


class UsageError(Exception):
    pass


class _Stderr:
    """Notes and errors about paths, on stderr; rich is imported only if one is needed."""

    def __init__(self) -> None:
        self._console: Console | None = None

    def say(self, label: str, style: str, text: str) -> None:
        if self._console is None:
            self._console = terminal.console(stderr=True, highlight=False, soft_wrap=True)
        from rich.markup import escape

        self._console.print(f"[{style}]{label}:[/] {escape(_printable(text))}")


def _printable(text: str) -> str:
    from wkparse.render.lint.text import clean

    return clean(text)


def run(options: LintOptions) -> int:
    stderr = _Stderr()
    try:
        return _Run(options, stderr).execute()
    except UsageError as exc:
        stderr.say("error", "bold red", str(exc))
        return 2


class _Run:
    def __init__(self, options: LintOptions, stderr: _Stderr) -> None:
        from wkparse.engine import known_codes

        self.options = options
        self.stderr = stderr
        if options.format not in FORMATS:
            raise UsageError(f"unknown format {options.format!r}; use one of {', '.join(FORMATS)}")
        if options.unsafe_fixes and not options.fix:
            raise UsageError("--unsafe-fixes only applies together with --fix")
        if not options.paths:
            raise UsageError("no path given; name files, folders or - for standard input")
        try:
            resolve(options.lang)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        self.fixer = _load_fixer() if options.fix else None
        known = known_codes()
        try:
            select = None if options.select is None else parse_selectors(options.select, known)
            ignore = None if options.ignore is None else parse_selectors(options.ignore, known)
            more = parse_selectors(options.extend_select or "", known)
            fewer = parse_selectors(options.extend_ignore or "", known)
            target = None if options.target is None else check_target(options.target)
        except ConfigError as exc:
            raise UsageError(f"--select/--ignore/--target: {exc}") from None
        try:
            Config().with_simai(options.at)
        except ConfigError as exc:
            raise UsageError(f"--at {exc}") from None

        def adjust(c: Config) -> Config:
            c = c.with_command_line(select, ignore, more, fewer)
            c = c.with_aicb_command(options.aicb_command).with_target(target)
            return c.with_simai(options.at)

        try:
            self.resolver = Resolver(
                options.config,
                known=known,
                adjust=adjust,
            )
        except ConfigError as exc:
            raise UsageError(f"--config: {exc}") from None
        try:
            help_base = self.resolver.for_path(None).help_base_url
        except ConfigError:
            help_base = None  # reported per file, where it applies
        self.formatter = _formatter(options.format, options.statistics, help_base)
        #: (path, code) of every fix applied, for --show-fixes
        self.fixes_shown: list[tuple[str, str]] = []
        self.counts: Counter[Severity] = Counter()
        self.files = self.fixed = self.skipped = 0
        self.problems: list[PathProblem] = []
        self._said: set[str] = set()

    def execute(self) -> int:
        # Each file speaks its own configuration's language; the summary, the run's.
        with language(self._language(None)):
            return self._execute()

    def _language(self, config: Config | None) -> str:
        if self.options.lang:
            return resolve(self.options.lang)
        if config is None:
            try:
                config = self.resolver.for_path(None)
            except ConfigError:
                return "en"  # reported per file, where it applies
        return resolve(config.lang)

    def _execute(self) -> int:
        _tolerate_unencodable(sys.stdout)
        self.formatter.start()
        for item in discover.walk(list(self.options.paths), self.resolver.for_path):
            if isinstance(item, discover.Target) and item.path is None:
                item = discover.Target(None, self.options.stdin_filename or discover.STDIN)
            if isinstance(item, discover.Target) and self.options.skip_non_workloads:
                item = discover.sniff(item.path, item.display) if item.path else item
            if isinstance(item, discover.Skipped):
                self.skipped += 1
                if self.options.verbose:
                    skipped = _("skipped {path}: {reason}")
                    self.stderr.say(
                        "note", "cyan", skipped.format(path=item.display, reason=item.reason)
                    )
            elif isinstance(item, discover.Unreadable):
                self._problem(item.display, item.reason)
            else:
                self._lint(item)
        if self.files == 0 and not self.problems:
            self.stderr.say("warning", "yellow", _(discover.NO_WORKLOADS))
        summary = Summary(
            self.files,
            dict(self.counts),
            self.fixed,
            self.skipped,
            self.problems,
            skipped_listed=self.options.verbose,
        )
        self.formatter.stop(summary)
        if self.options.show_fixes and self.fixes_shown:
            _print_fixes(self.fixes_shown)
        code = self._exit_code()
        if self.options.format != "text" and (code or self.skipped):
            # JSON, SARIF and annotations carry findings only: why the exit is not 0, and
            # what was skipped, is said where a person reads it
            from wkparse.render.lint.text import summary_line

            # plain text: a machine format's run never imports rich (pre-commit's start-up)
            sys.stderr.write(f"note: {summary_line(summary)}\n")
        return code

    def _exit_code(self) -> int:
        if self.problems:
            return 2
        if self.options.exit_zero:
            return 0
        failing = self.counts[Severity.ERROR] + (
            self.counts[Severity.WARNING] if self.options.strict else 0
        )
        return 1 if failing else 0

    def _problem(self, path: str, message: str) -> None:
        self.problems.append(PathProblem(path, message))
        # A bad config file is met once per folder under it: say it once.
        if message not in self._said:
            self._said.add(message)
            self.stderr.say("error", "bold red", f"{path}: {message}")

    def _lint(self, target: discover.Target) -> None:
        named = self.options.stdin_filename
        where = Path(named) if target.path is None and named else target.path
        try:
            config = self.resolver.for_path(where)
        except ConfigError as exc:
            self._problem(target.display, str(exc))
            return
        with language(self._language(config)):
            self._lint_read(target, config)

    def _lint_read(self, target: discover.Target, config: Config) -> None:
        """Read, lint and report one file in the language in effect."""
        from wkparse.engine import lint
        from wkparse.parse import parse_bytes, parse_file, read_stdin

        data = b""
        try:
            if target.path is None:
                data = read_stdin(config.limits)
                result = parse_bytes(data, limits=config.limits)
            else:
                result = parse_file(target.path, limits=config.limits)
        except OSError as exc:
            self._problem(target.display, terminal.reason(exc))
            return
        diagnostics = lint(result, target.display, config)
        fixed = 0
        if self.fixer is not None and any(d.fix is not None for d in diagnostics):
            if target.path is None:
                self.stderr.say("note", "cyan", _("--fix does not rewrite standard input"))
            else:
                try:
                    done = self.fixer(
                        target.path, diagnostics, self.options.unsafe_fixes, config=config
                    )
                except OSError as exc:  # the file is unchanged: its findings still stand
                    reason = terminal.reason(exc)
                    self._problem(target.display, _("cannot fix: {reason}").format(reason=reason))
                else:
                    after = {(d.code, d.span) for d in done.diagnostics}
                    self.fixes_shown += [
                        (target.display, d.code)
                        for d in diagnostics
                        if d.fix is not None and (d.code, d.span) not in after
                    ]
                    fixed, diagnostics = done.applied, done.diagnostics
        lines = {}
        if self.formatter.needs_source and diagnostics:
            lines = _source_lines(target.path, data, {d.span.line for d in diagnostics})
        self.files += 1
        self.fixed += fixed
        self.counts.update(d.severity or Severity.ERROR for d in diagnostics)
        self.formatter.handle(FileReport(target.display, diagnostics, lines, fixed))


def _source_lines(path: Path | None, data: bytes, wanted: set[int]) -> dict[int, str]:
    if path is None:
        return discover.read_lines(io.BytesIO(data), wanted)
    try:
        with path.open("rb") as stream:
            return discover.read_lines(stream, wanted)
    except OSError:
        return {}  # the diagnostics still print, without their excerpt


def _load_fixer() -> Fixer:
    try:
        from wkparse.fix import fix_file
    except ImportError:
        raise UsageError("--fix is not available: this build has no wkparse.fix") from None
    fixer: Fixer = fix_file
    return fixer


def _print_fixes(fixes: list[tuple[str, str]]) -> None:
    """What --fix changed, by file and code, as ruff's --show-fixes lists it."""
    n = len(fixes)
    print(ngettext("Fixed {n} problem:", "Fixed {n} problems:", n).format(n=f"{n:,}"))
    by_path: dict[str, Counter[str]] = {}
    for path, code in fixes:
        by_path.setdefault(path, Counter())[code] += 1
    for path, codes in by_path.items():
        print(f"- {path}:")
        for code, n in sorted(codes.items()):
            page = summaries().get(code)
            print(f"    {n} x {code} ({page.name if page else code})")


def _formatter(name: str, statistics: bool = False, help_base: str | None = None) -> Formatter:
    # The rule pages themselves only for the formats that show more than a rule's name.
    names = {code: rule.name for code, rule in summaries().items()}
    if statistics:
        from wkparse.render.lint.statistics import StatisticsFormatter

        return StatisticsFormatter(sys.stdout, catalog(), as_json=name == "json")
    out = sys.stdout
    if name == "json":
        from wkparse.render.lint.json import JsonFormatter

        return JsonFormatter(out, names, help_base)
    if name == "sarif":
        from wkparse import __version__
        from wkparse.render.lint.sarif import SarifFormatter

        return SarifFormatter(out, catalog(), __version__, help_base)
    if name == "github":
        from wkparse.render.lint.github import GithubFormatter

        return GithubFormatter(out)

    from wkparse.render.lint.text import TextFormatter

    plain = terminal.plain()
    if plain is not None:
        return TextFormatter(None, names, out=plain)
    return TextFormatter(None, names, out=sys.stdout, colours=_text_console)


def _text_console() -> Console:
    return terminal.console(highlight=False)


def _tolerate_unencodable(stream: object) -> None:
    """A file's odd characters must not crash output on a terminal that cannot show them."""
    reconfigure: Callable[..., None] | None = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):
            reconfigure(errors="backslashreplace")
