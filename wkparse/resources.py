"""Locate the data that ships with wkparse: the grammar, the rule catalog and the concept pages.

In a wheel they live in `wkparse/_data/`; in a source checkout (including `pip install -e .`)
the package resolves to the tree, where they are the top-level `grammar/`, `rules/` and
`concepts/` folders.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The installed copy of `name` if there is one, else the repository's folder."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"wkparse data folder {name!r} is missing from the installation")


def grammar_file() -> Path:
    return data_dir("grammar") / "workload.lark"


def rules_dir() -> Path:
    return data_dir("rules")


def concepts_dir() -> Path:
    return data_dir("concepts")
