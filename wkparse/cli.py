"""The command line: arguments in, exit code out. Every command calls into the library."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Any, NoReturn

import typer

from wkparse import terminal
from wkparse.parse import parse_bytes, parse_file, read_stdin, shown_path
from wkparse.plain_help import PlainCommand, PlainGroup

_SETTINGS: dict[str, Any] = {
    "name": "wkparse",
    "help": "Parse, lint, explain and format SimAI workload files.",
    "no_args_is_help": True,
    "add_completion": False,
    "pretty_exceptions_enable": False,
    "cls": PlainGroup,
}
app = typer.Typer(**_SETTINGS)


class Color(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


def _use_color(value: Color | None) -> Color | None:
    if isinstance(value, Color):
        terminal.set_color(value.value)
    return value


def _use_typed_color(ctx: typer.Context, value: Color | None) -> Color | None:
    """A command's `--color` when typed: its default must not undo the root's
    (`wkparse --color always lint ...`), which runs first and sets every run's mode."""
    source = ctx.get_parameter_source("color")
    if source is not None and source.name == "COMMANDLINE":
        _use_color(value)
    return value


def _show_version(value: bool) -> None:
    if value:
        from wkparse import __version__

        print(f"wkparse {__version__}")
        raise typer.Exit(0)


_COLOR_HELP = "Colour: auto (terminals, unless NO_COLOR; FORCE_COLOR forces it), always, never."
#: every command's `--color`: a terminal gets colour unless NO_COLOR is set (see wkparse.terminal)
COLOR = typer.Option(
    Color.auto, "--color", help=_COLOR_HELP, callback=_use_typed_color, is_eager=True
)
#: the root's `--color`, before the command: sets the mode of every run, its default included
ROOT_COLOR = typer.Option(
    Color.auto, "--color", help=_COLOR_HELP, callback=_use_color, is_eager=True
)


@app.callback()
def _root(
    version: bool = typer.Option(
        False,
        "--version",
        "-V",
        help="Print the version and exit.",
        callback=_show_version,
        is_eager=True,
    ),
    color: Color = ROOT_COLOR,
) -> None:
    """Parse, lint, explain and format SimAI workload files."""


class ParseFormat(str, Enum):
    text = "text"
    json = "json"


def typed(ctx: typer.Context, name: str) -> bool:
    """Whether the user typed the on-flag `name` on the command line.

    Flags that make a command write (`--fix`) or stop it writing (`--check`, `--diff`) are
    read from where their value came from, not from the value: some typer and click releases
    that pyproject.toml once allowed filled in a wrong default (plain `lint` ran with --fix
    on), and a linter must never rewrite a file because of a parser's default.
    """
    source = ctx.get_parameter_source(name)  # an enum of click's (vendored by newer typer)
    return source is not None and source.name == "COMMANDLINE"


def fail_usage(message: str) -> typer.Exit:
    """Report a usage problem (bad path, bad option value) and give exit code 2."""

    terminal.error(terminal.console(stderr=True), message)
    return typer.Exit(2)


@app.command()
def parse(
    path: Path = typer.Argument(..., help="Workload file to parse ('-' reads stdin)."),
    format: ParseFormat = typer.Option(ParseFormat.text, "--format", "-f", help="Output format."),
    config: Path | None = typer.Option(None, "--config", help="Config file to use."),
    color: Color = COLOR,
) -> None:
    """Parse a file and print its syntax tree (json) or a summary (text).

    Exit 0 when it parsed cleanly, 1 on syntax errors, 2 when it cannot be read. The limits
    (`max-bytes`, `max-line-bytes`) come from the same configuration lint reads.
    """
    from wkparse.config import ConfigError, Resolver

    stdin = str(path) == "-"
    try:
        limits = Resolver(config).for_path(None if stdin else path).limits
    except ConfigError as exc:
        raise fail_usage(str(exc)) from None
    try:
        if stdin:
            result = parse_bytes(read_stdin(limits), limits=limits)
        else:
            result = parse_file(path, limits=limits)
    except OSError as exc:
        raise fail_usage(f"{path}: {terminal.reason(exc)}") from None
    from wkparse.i18n import english_count

    if format is ParseFormat.json:
        from wkparse.render.parse import json as ast_json

        ast_json.write(result, sys.stdout, str(path))
    else:
        w = result.workload
        policy = w.header.policy if w.header else "no policy"
        rows, errors = (
            english_count(len(w.rows), "row"),
            english_count(len(result.diagnostics), "syntax error"),
        )
        name = shown_path(path)
        print(f"{name}: {policy}, {rows}, {errors}")
        for d in result.diagnostics:
            print(f"{name}:{d.span.line}:{d.span.column}: {d.code} {d.message}")
    if not result.ok:  # why the exit is 1, on standard error whatever the format
        errors = english_count(len(result.diagnostics), "syntax error")
        terminal.say(
            terminal.console(stderr=True), "exit 1", f"{shown_path(path)}: {errors}", "cyan"
        )
    raise typer.Exit(0 if result.ok else 1)


AT_HELP = (
    "The SimAI to describe: a commit (short or full), a date (the one in force then) or a "
    "release (1.6, 1.7); default cef83f9, or the configuration's `simai`."
)


class LintFormat(str, Enum):
    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"


class ExplainFormat(str, Enum):
    text = "text"
    markdown = "markdown"
    json = "json"
    html = "html"


@app.command()
def lint(
    ctx: typer.Context,
    paths: list[Path] = typer.Argument(..., help="Files or directories ('-' reads stdin)."),
    format: LintFormat = typer.Option(
        LintFormat.text, "--format", "--output-format", "-f", help="Output format."
    ),
    select: str | None = typer.Option(None, help="Comma-separated codes or prefixes to run."),
    ignore: str | None = typer.Option(None, help="Comma-separated codes or prefixes to skip."),
    extend_select: str | None = typer.Option(
        None, "--extend-select", help="Codes or prefixes to run on top of the configured ones."
    ),
    extend_ignore: str | None = typer.Option(
        None, "--extend-ignore", help="Codes or prefixes to skip on top of the configured ones."
    ),
    exit_zero: bool = typer.Option(
        False, "--exit-zero", help="Exit 0 even when errors are found (2 still means unread)."
    ),
    statistics: bool = typer.Option(
        False, "--statistics", help="Print how often each code was found, not each finding."
    ),
    show_fixes: bool = typer.Option(False, "--show-fixes", help="With --fix, list the fixes."),
    stdin_filename: str | None = typer.Option(
        None, "--stdin-filename", help="The file name standard input stands for."
    ),
    target: str | None = typer.Option(
        None,
        "--target",
        help="What runs the files: simai (default), simai-ns3 (its ns-3 backend) or astra-sim-1.0.",
    ),
    strict: bool = typer.Option(False, "--strict", help="Warnings fail the run too."),
    config: Path | None = typer.Option(None, "--config", help="Config file to use."),
    fix: bool = typer.Option(False, "--fix", help="Apply safe fixes in place."),
    unsafe_fixes: bool = typer.Option(
        False, "--unsafe-fixes", help="With --fix, also apply fixes that change meaning."
    ),
    skip_non_workloads: bool = typer.Option(
        False,
        "--skip-non-workloads",
        help="Skip files that are not workloads even when named (pre-commit passes every .txt).",
    ),
    aicb_command: str | None = typer.Option(
        None, "--aicb-command", help="Compare with what AICB writes for this command (WK6xx)."
    ),
    lang: str | None = typer.Option(
        None, "--lang", help="Language of the messages: en, zh, or auto (LC_ALL/LANG)."
    ),
    verbose: bool = typer.Option(
        False, "--verbose", "-v", help="List each skipped file (else one line counts them)."
    ),
    at: str | None = typer.Option(None, "--at", help=AT_HELP),
    color: Color = COLOR,
) -> None:
    """Check workload files for everything SimAI and AICB let through.

    Exit 0 when no diagnostic is an error, 1 when one is (or a warning with --strict),
    2 for usage errors or unreadable paths.
    """
    from wkparse.commands.lint import LintOptions, run

    options = LintOptions(
        paths,
        format.value,
        select,
        ignore,
        typed(ctx, "strict"),
        config,
        typed(ctx, "fix"),
        typed(ctx, "unsafe_fixes"),
        typed(ctx, "skip_non_workloads"),
        aicb_command=aicb_command,
        extend_select=extend_select,
        extend_ignore=extend_ignore,
        exit_zero=typed(ctx, "exit_zero"),
        statistics=typed(ctx, "statistics"),
        show_fixes=typed(ctx, "show_fixes"),
        stdin_filename=stdin_filename,
        target=target,
        lang=lang,
        verbose=typed(ctx, "verbose"),
        at=at,
    )
    raise typer.Exit(run(options))


@app.command()
def explain(
    path: Path | None = typer.Argument(
        None, help="Workload file ('-' reads stdin); none: the file --aicb-command writes."
    ),
    format: ExplainFormat | None = typer.Option(
        None,
        "--format",
        "-f",
        help="Output format: text, markdown, json or html (default: text, or the one the "
        "name given to -o ends in: .md, .json, .html).",
        show_default=False,
    ),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="Write to this file instead of stdout."
    ),
    aicb_command: str | None = typer.Option(
        None, "--aicb-command", help="The AICB command that made the file (or to explain)."
    ),
    lang: str | None = typer.Option(
        None, "--lang", help="Language: en, zh, or auto (Chinese when LC_ALL/LANG say zh)."
    ),
    target: str | None = typer.Option(
        None,
        "--target",
        help="What runs the file: simai (default), simai-ns3 (its ns-3 backend) or astra-sim-1.0.",
    ),
    simai_options: str | None = typer.Option(
        None,
        "--simai-options",
        help="SimAI_analytical's options for what it will report (default: -g all_gpus "
        "-g_p_s 8 -n_p_s 8).",
    ),
    at: str | None = typer.Option(None, "--at", help=AT_HELP),
    color: Color = COLOR,
) -> None:
    """Say what a workload file means: layout, structure, totals, and its lint findings."""
    from wkparse.commands.explain import format_for, run

    chosen = format_for(None if format is None else format.value, output)
    raise typer.Exit(run(path, chosen, output, aicb_command, lang, target, simai_options, at))


class SimaiFormat(str, Enum):
    text = "text"
    json = "json"
    csv = "csv"


def _list_versions(value: bool) -> None:
    """`--versions` runs before the FILE argument is asked for (an eager option)."""
    if value:
        from wkparse.commands.simai import list_versions

        sys.stdout.write(list_versions())
        raise typer.Exit(0)


@app.command()
def simai(
    path: Path = typer.Argument(
        ..., help="Workload file ('-' reads stdin); or a pasted SimAI_analytical command line."
    ),
    simai_options: list[str] | None = typer.Argument(
        None,
        help="After --: SimAI_analytical's options as it spells them (-g 128 -g_p_s 8 ...).",
        show_default=False,
    ),
    gpus: int | None = typer.Option(
        None, "-g", "--gpus", help="SimAI's -g, or the topology's GPUs for ns3 (default: all_gpus)."
    ),
    format: SimaiFormat = typer.Option(
        SimaiFormat.text, "--format", "-f", help="text, json, or csv (SimAI's EndToEnd.csv)."
    ),
    backend: str = typer.Option(
        "analytical", "--backend", help="analytical (SimAI_analytical) or ns3 (SimAI_simulator)."
    ),
    at: str | None = typer.Option(None, "--at", help=AT_HELP),
    versions: bool = typer.Option(
        False,
        "--versions",
        help="List the modelled SimAI revisions and what changed at each.",
        is_eager=True,
        callback=_list_versions,
    ),
    color: Color = COLOR,
) -> None:
    """Say what SimAI-Analytical (--backend ns3: SimAI-Simulation) reads, how its run ends, and
    the EndToEnd.csv SimAI-Analytical writes."""
    from wkparse.commands.simai import run

    raise typer.Exit(run(path, gpus, format.value, simai_options, backend, at))


class TrafficFormat(str, Enum):
    text = "text"
    json = "json"
    csv = "csv"
    html = "html"


@app.command()
def traffic(
    path: Path | None = typer.Argument(
        None, help="Workload file ('-' reads stdin); or a pasted SimAI_simulator command line."
    ),
    simai_options: list[str] | None = typer.Argument(
        None,
        help="After --: [VAR=VALUE ...] and SimAI_simulator's options (-n TOPOLOGY ...).",
        show_default=False,
    ),
    gpus: int | None = typer.Option(None, "-g", "--gpus", help="GPUs, in place of a topology."),
    per_server: int | None = typer.Option(
        None, "--gpus-per-server", help="With -g: GPUs per server (default 8)."
    ),
    gpu_type: str | None = typer.Option(
        None, "--gpu-type", help="With -g: the GPU type (default H100)."
    ),
    format: TrafficFormat = typer.Option(
        TrafficFormat.text, "--format", "-f", help="text, json, csv or html."
    ),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="Write to this file instead of stdout."
    ),
    color: Color = COLOR,
) -> None:
    """Say which GPU sends how many bytes to which, as SimAI_simulator's flow model does."""
    from wkparse.commands.traffic import run

    raise typer.Exit(run(path, simai_options, gpus, per_server, gpu_type, format.value, output))


@app.command()
def fmt(
    ctx: typer.Context,
    paths: list[Path] = typer.Argument(..., help="Files or directories ('-': stdin to stdout)."),
    check: bool = typer.Option(False, "--check", help="Exit 1 if a file would change."),
    diff: bool = typer.Option(False, "--diff", help="Print a unified diff; write nothing."),
    skip_non_workloads: bool = typer.Option(
        False,
        "--skip-non-workloads",
        help="Skip named files whose first line is not a workload policy (for pre-commit).",
    ),
    verbose: bool = typer.Option(
        False, "--verbose", "-v", help="List each skipped file (else one line counts them)."
    ),
    color: Color = COLOR,
) -> None:
    """Rewrite files in the canonical form, keeping every value.

    Exit 0 when nothing needed changing (or was rewritten), 1 with --check when a file would
    change or when a file has syntax errors (never rewritten), 2 for unreadable paths.
    """
    from wkparse.commands.fmt import run

    raise typer.Exit(
        run(
            paths,
            check=typed(ctx, "check"),
            diff=typed(ctx, "diff"),
            skip_non_workloads=typed(ctx, "skip_non_workloads"),
            verbose=typed(ctx, "verbose"),
        )
    )


class DiffFormat(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"


@app.command("diff")
def diff_command(
    a: Path = typer.Argument(..., metavar="A", help="First workload file ('-' reads stdin)."),
    b: Path = typer.Argument(..., metavar="B", help="Second workload file ('-' reads stdin)."),
    format: DiffFormat = typer.Option(DiffFormat.text, "--format", "-f", help="Output format."),
    color: Color = COLOR,
) -> None:
    """Say what really differs between two workload files: header, facts and rows.

    Exit 0 when they mean the same, 1 when they differ, 2 when a side cannot be read or parsed.
    """
    from wkparse.commands.diff import run

    raise typer.Exit(run(a, b, format.value))


@app.command()
def triage(
    issue: Path = typer.Argument(
        ..., help="The issue: Markdown or text, `gh issue view --json` output, or '-' (stdin)."
    ),
    attachments: Path | None = typer.Option(
        None, "--attachments", help="Folder of the files the issue links to (matched by name)."
    ),
    format: str = typer.Option("markdown", "--format", "-f", help="markdown, text or json."),
    lang: str = typer.Option("auto", "--lang", help="auto (the issue's language), en or zh."),
    date: str | None = typer.Option(
        None, "--date", help="YYYY-MM-DD: the SimAI and AICB in force then (default: the issue's)."
    ),
    output: Path | None = typer.Option(None, "--output", "-o", help="Write to this file."),
    color: Color = COLOR,
) -> None:
    """Read an issue's commands, files and logs, run the models on them, draft the answer."""
    from wkparse.commands.triage import run

    raise typer.Exit(run(issue, attachments, format, lang, date, output))


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def aicb(
    command: list[str] = typer.Argument(None, help="The AICB command line, after '--'."),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="Write into this directory under AICB's file name."
    ),
    options: bool = typer.Option(
        False,
        "--options",
        help="List every AICB option and what wkparse does with it (with --at: at that revision).",
    ),
    at: str | None = typer.Option(
        None, "--at", help="AICB revision to reproduce: a commit (short or full) or a date."
    ),
    versions: bool = typer.Option(
        False, "--versions", help="List the AICB revisions modelled and what changed at each."
    ),
    infer: Path | None = typer.Option(
        None, "--infer", help="Find the AICB command and revisions that wrote this file."
    ),
    format: ParseFormat = typer.Option(
        ParseFormat.text, "--format", "-f", help="Output format of --infer."
    ),
    color: Color = COLOR,
) -> None:
    """Write the workload file AICB would write for a command (stdout, or into -o DIR)."""
    from wkparse.commands.aicb import run

    raise typer.Exit(
        run(
            command or [],
            output,
            options,
            at=at,
            versions=versions,
            infer=infer,
            as_json=format is ParseFormat.json,
        )
    )


@app.command("rules")
def list_rules(
    format: ParseFormat = typer.Option(ParseFormat.text, "--format", "-f", help="Output format."),
    lang: str | None = typer.Option(
        None, "--lang", help="Language of the summaries: en, zh, or auto (LC_ALL/LANG)."
    ),
    color: Color = COLOR,
) -> None:
    """List the rule catalog."""
    from wkparse.commands.rules import list_catalog

    raise typer.Exit(list_catalog(format is ParseFormat.json, lang))


@app.command("rule")
def show_rule(
    code: str = typer.Argument(..., help="Rule code, e.g. WK105."),
    lang: str | None = typer.Option(
        None, "--lang", help="Language of the page: en, zh, or auto (LC_ALL/LANG)."
    ),
    color: Color = COLOR,
) -> None:
    """Print one rule's page: what, why, examples and fix."""
    from wkparse.commands.rules import show

    raise typer.Exit(show(code, lang))


@app.command("concepts")
def list_concepts(
    kind: str | None = typer.Option(
        None, "--kind", help="Only this kind: option, environment-variable, formula, ..."
    ),
    format: ParseFormat = typer.Option(ParseFormat.text, "--format", "-f", help="Output format."),
    lang: str | None = typer.Option(
        None, "--lang", help="Language of the titles: en, zh, or auto (LC_ALL/LANG)."
    ),
    color: Color = COLOR,
) -> None:
    """List the concept pages: what SimAI's and AICB's options, keys, files and numbers mean."""
    from wkparse.commands.concepts import list_pages

    raise typer.Exit(list_pages(kind, lang, format is ParseFormat.json))


@app.command("concept", context_settings={"ignore_unknown_options": True})
def show_concept(
    name: str = typer.Argument(..., help="Any name of it: -n_p_s, AS_LOG_LEVEL, busbw, 气泡..."),
    path: Path | None = typer.Argument(
        None, help="A workload file ('-' reads stdin): the page adds its numbers."
    ),
    simai_options: list[str] | None = typer.Argument(
        None, help="After --: SimAI_analytical's options for FILE's numbers.", show_default=False
    ),
    lang: str | None = typer.Option(
        None, "--lang", help="Language of the page: en, zh, or auto (LC_ALL/LANG)."
    ),
    # diff's formats are the same three: no class of its own to make at every start-up
    format: DiffFormat = typer.Option(
        DiffFormat.text, "--format", "-f", help="text, markdown or json."
    ),
    at: str | None = typer.Option(None, "--at", help=AT_HELP),
    color: Color = COLOR,
) -> None:
    """Print what one SimAI or AICB concept means; with FILE, that file's numbers.

    Exit 0 when shown, 2 for an unknown name (the nearest names are suggested), an unreadable
    file or options SimAI refuses.
    """
    from wkparse.commands.concepts import show

    raise typer.Exit(show(name, lang, format.value, path, simai_options, at))


@app.command("server")
def server_command(color: Color = COLOR) -> None:
    """Run the language server over stdin and stdout (editors start it; needs the lsp extra).

    Diagnostics, hovers, quick fixes, formatting and the outline for workload files.
    """
    from wkparse.commands.server import run

    raise typer.Exit(run())


def main() -> None:
    # A run allocates millions of small, long-lived objects (row values, line numbers) and
    # frees them all at exit; the cyclic collector's repeated full passes over them cost
    # about a tenth of a large lint (benchmarks/README.md), for garbage it would never find.
    import gc

    gc.freeze()
    gc.set_threshold(200_000, 50, 1000)
    try:
        try:
            app_for(sys.argv[1:])()
        finally:
            # what is still buffered is written here, where a full disk is `output_failed`,
            # not when Python exits (a traceback, and exit 120)
            if not sys.stdout.closed:
                sys.stdout.flush()
    except OSError as exc:
        output_failed(exc)


def output_failed(exc: OSError) -> NoReturn:
    """Standard output could not be written (a full disk, a vanished device): one line and
    exit 2, not a traceback. Each command reports the paths it cannot read or write itself;
    an error that still gets here names its file."""
    import os

    where = f"{exc.filename}: " if exc.filename else "cannot write the output: "
    terminal.error(terminal.console(stderr=True), where + terminal.reason(exc))
    # what is still buffered would fail again, with a traceback, when Python exits
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(2)


def app_for(args: list[str]) -> typer.Typer:
    """`app` with only the command `args` name: typer reads every command's signature before
    it runs one (about 15 ms for nine, a tenth of wkparse's own start-up). The whole app when
    no command is named (`--help`, a misspelt one: its message lists the others)."""
    name = None
    values = iter(args)
    for arg in values:
        if arg == "--color":
            next(values, None)  # the root option's value is no command
        elif not arg.startswith("-"):
            name = arg
            break
    chosen = [
        c
        for c in app.registered_commands
        if c.callback is not None
        and (c.name or typer.main.get_command_name(c.callback.__name__)) == name
    ]
    if len(chosen) != 1:
        return app
    one = typer.Typer(**_SETTINGS)
    one.registered_callback = app.registered_callback
    one.registered_commands = chosen
    return one


#: the option words of `wkparse simai` itself (SimAI's `-g` among them)
_SIMAI_OWN = frozenset({"-g", "--gpus", "-f", "--format", "--backend", "--at", "--versions"})


def simai_arguments(args: list[str]) -> list[str]:
    """`wkparse simai`'s arguments as typer is to read them: a SimAI_analytical command line
    pasted unquoted (`AS_SEND_LAT=3 ./bin/SimAI_analytical -w F -g 8`) is SimAI's words
    whole, behind a `--` wkparse adds after the program. SimAI's own options before `--`
    (`FILE -g 128 -g_p_s 8`, typer would read `-g_p_s` as `-g _p_s`) raise ValueError with
    where they go."""
    from wkparse.models.simai.option_values import OPTION_NAMES
    from wkparse.models.simai.options import PROGRAM

    ours = args.index("--") if "--" in args else len(args)
    program = next((i for i, w in enumerate(args[:ours]) if PROGRAM.search(w)), None)
    if program is not None:
        return [*args[: program + 1], "--", *(w for w in args[program + 1 :] if w != "--")]
    theirs = next(
        (
            i
            for i, w in enumerate(args[:ours])
            if w.split("=", 1)[0] in OPTION_NAMES and w.split("=", 1)[0] not in _SIMAI_OWN
        ),
        None,
    )
    if theirs is None:
        return args
    first = next((i for i, w in enumerate(args[:ours]) if w in OPTION_NAMES), theirs)
    path = next((w for w in args[:first] if not w.startswith("-")), None)
    options = args[first:ours]
    if path is None:
        # the file after SimAI's options (`-g_p_s 8 FILE`): the word that is no option's value
        at = next(
            (
                i
                for i, w in enumerate(options)
                if i and not w.startswith("-") and not options[i - 1].startswith("-")
            ),
            None,
        )
        path = "FILE" if at is None else options.pop(at)
    example = " ".join(["wkparse simai", path, "--", *options, *args[ours + 1 :]])
    word = args[theirs]
    if OPTION_NAMES[word.split("=", 1)[0]] == "lang":
        # other commands' --lang: simai's output is English; SimAI's own -l is en or ja
        raise ValueError(
            f"{word}: wkparse simai writes English only (`wkparse explain --lang zh` explains "
            "in Chinese); SimAI's own -l/--lang (en or ja) goes after `--`"
        )
    raise ValueError(
        f"{word} is an option of SimAI's, not of wkparse: put SimAI's options "
        f"after `--` ({example})"
    )


class SimaiCommand(PlainCommand):
    """`wkparse simai`, whose arguments `simai_arguments` reads first."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            args = simai_arguments(args)
        except ValueError as exc:
            raise fail_usage(str(exc)) from None
        return list(super().parse_args(ctx, args))


# every command's `--help` in the user's words (wkparse.plain_help)
for _command in app.registered_commands:
    _command.cls = SimaiCommand if _command.callback is simai else PlainCommand
