"""`--help` in the user's words: no Python type (`<bool>`, `<list[Path]>`) and no choice list
cut in two by a narrow column. Newer typers label each option with its Python annotation; this
labels flags with nothing, values with click's own name (TEXT, PATH, INTEGER) and names every
choice in the option's help, where the text wraps between words."""

from __future__ import annotations

from typing import Any

import typer.core


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

    def get_params(self, ctx: Any) -> list[Any]:
        params = list(super().get_params(ctx))  # with `--help`, which click adds here
        plain(params)
        return params


class PlainGroup(typer.core.TyperGroup):
    """The root (`wkparse --help`), plain like its commands."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = list(super().get_params(ctx))  # with `--help`, which click adds here
        plain(params)
        return params
