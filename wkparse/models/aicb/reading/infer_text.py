"""What --infer reads from a file's text: header keys, row fields and sizes, preset shapes.

Small readers shared by the searches of `infer` (the generators since v1.1) and `v1_infer`
(AICB v1.0): they never fail on a hostile file, they give a default instead.
"""

from __future__ import annotations

import re

from wkparse.models.aicb.training.presets import SCRIPT_PRESETS

#: the AIOB file AICB ships, which candidate commands pass
EXAMPLE = "workload/aiob_inputs/Example.txt"
#: vocabularies tried where a file does not show its own (AICB's scripts', its default)
VOCABS = (50257, 32000)
#: a key starts where a word does: tried from inside a word too, a colonless line of n word
#: characters cost n**2/2 steps
_KEY = re.compile(r"\b(\w+):\s*(\S+)")

#: header values above this are no run AICB makes (and would cost memory to generate)
MOST = 10**7


def settings(text: str) -> tuple[str, dict[str, str], list[str]]:
    """(header line, its keys, the names of the first 400 rows)."""
    head, _, rest = text.partition("\n")
    keys = dict(_KEY.findall(head))
    names: list[str] = []
    for line in rest.split("\n", 400)[1:400]:
        word = line.split(None, 1)
        if word:
            names.append(word[0])
    return head, keys, names


def header_int(keys: dict[str, str], key: str, default: int) -> int:
    """A header key's number (as AICB could have written it), else `default`."""
    try:
        value = int(float(keys[key]))
    except (KeyError, ValueError, OverflowError):
        return default
    return value if 0 <= value <= MOST else default


def row_number(text: str) -> int:
    """A row's size as AICB writes it (digits, at most 18 of them), else 0."""
    return int(text) if text.isdigit() and len(text) <= 18 else 0


def row_fields(text: str, name: str) -> list[str] | None:
    """The fields of the first row called `name`."""
    at = text.find(f"\n{name}\t")
    if at < 0:
        return None
    return text[at + 1 : text.find("\n", at + 1)].split("\t")


def preset_settings(model: str) -> dict[str, str]:
    """The training script's preset for a model name (its shell-safe spelling too), or {}."""
    for preset in SCRIPT_PRESETS.values():
        found = dict(preset.settings)
        name = found.get("model_name", "")
        if model in (name, name.replace("*", "x")):
            return found
    return {}
