"""`--help` in the user's words: no Python type (`<bool>`, `<list[Path]>`) and no choice list
cut in two by a narrow column. Newer typers label each option with its Python annotation; this
labels flags with nothing, values with click's own name (TEXT, PATH, INTEGER) and names every
choice in the option's help, where the text wraps between words. A command's description is
one paragraph per paragraph of its docstring (typer >= 0.2x keeps the docstring's line breaks,
cutting sentences where the source wrapped them), its arguments are named in the usage line
as click names them (`PATHS...`, not `{paths}...`), and an unknown choice says which are
allowed in one line."""

from __future__ import annotations

import inspect
import re
from typing import Any, NoReturn

import typer.core

#: a docstring line that keeps its own line in `--help` (a list item, an indented block, and
#: click's `\b` mark)
_OWN_LINE = re.compile(r"\s|[-*] |\d+\. |\x08")


def unwrapped(text: str | None) -> str | None:
    """`text` with each paragraph's lines joined, as the source's wrapping is no sentence's
    end; list items and indented lines keep their line."""
    if not text:
        return text
    paragraphs = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        lines = paragraph.split("\n")
        joined = [lines[0]]
        for line in lines[1:]:
            if _OWN_LINE.match(line):
                joined.append(line)
            else:
                joined[-1] += " " + line.strip()
        paragraphs.append("\n".join(joined))
    return "\n\n".join(paragraphs)


def usage_name(param: Any) -> str:
    """An argument as the usage line names it: `PATH`, `[PATH]`, `PATHS...`."""
    name = (param.metavar or param.name or "").upper()
    name = name if param.required else f"[{name}]"
    return name + ("..." if param.nargs != 1 else "")


def refuse_choice(exc: Exception) -> NoReturn:
    """An option's value that is none of its choices: one line that names them, exit 2."""
    from wkparse import terminal

    param = getattr(exc, "param", None)
    allowed = choices(param) or []
    option = (getattr(param, "opts", None) or ["--" + str(getattr(param, "name", "value"))])[0]
    given = re.search(r"'([^']*)' is not", str(getattr(exc, "message", exc)))
    value = f" {given.group(1)!r}" if given else ""
    terminal.error(
        terminal.console(stderr=True),
        f"unknown {option}{value}: use one of {', '.join(allowed)}",
    )
    raise typer.Exit(2)


def label(param: Any) -> str:
    """What `--help` prints in the type column: nothing for a flag or an argument (its name is
    printed already), the choices' noun for a choice, else click's type name. (Duck-typed:
    newer typers vendor their own click.)"""
    if getattr(param, "is_flag", False) or param.param_type_name == "argument":
        return ""
    if choices(param) is not None:
        return str(param.name or "value").upper()
    click_type = getattr(param, "type", None)
    if click_type is not None:
        return str(click_type.name).upper()
    described = getattr(param, "type_descriptor", None)
    if getattr(described, "is_path", False):
        return "PATH"
    annotation = getattr(described, "annotation", str)
    return {int: "INTEGER", float: "FLOAT"}.get(annotation, "TEXT")


def choices(param: Any) -> list[str] | None:
    """The values a choice parameter takes (older typers: click's Choice type; newer ones:
    typer's own type descriptor), or None."""
    found = getattr(getattr(param, "type", None), "choices", None)
    if found is None:
        found = getattr(getattr(param, "type_descriptor", None), "choices", None)
    if found is None:
        return None
    return [str(getattr(c, "value", c)) for c in found]


def plain(params: list[Any]) -> None:
    """Relabel `params` in place (see the module's docstring)."""
    for param in params:
        if param.param_type_name == "argument" and hasattr(param, "_usage_display_name"):
            param._usage_display_name = lambda param=param: usage_name(param)
        text = label(param)
        # typer >= 0.20 asks the parameter; older ones print click's metavar, already plain
        param.display_type_rich = lambda ctx, text=text: text
        param.display_type = lambda ctx, text=text: text
        values = choices(param)
        if values is not None and param.param_type_name == "option":
            help_text = param.help or ""
            if not all(value in help_text for value in values):
                param.help = f"{help_text.rstrip('.')}: {', '.join(values)}."


class PlainCommand(typer.core.TyperCommand):
    """A command whose `--help` speaks plainly (`plain`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = unwrapped(self.help)

    def get_params(self, ctx: Any) -> list[Any]:
        params = list(super().get_params(ctx))  # with `--help`, which click adds here
        plain(params)
        return params

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return list(super().parse_args(ctx, args))
        except Exception as exc:  # click's BadParameter (typer vendors its own click)
            if type(exc).__name__ == "BadParameter" and choices(getattr(exc, "param", None)):
                refuse_choice(exc)
            raise


class PlainGroup(typer.core.TyperGroup):
    """The root (`wkparse --help`), plain like its commands."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = unwrapped(self.help)

    def get_params(self, ctx: Any) -> list[Any]:
        params = list(super().get_params(ctx))  # with `--help`, which click adds here
        plain(params)
        return params
