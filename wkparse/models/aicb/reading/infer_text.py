"""What --infer reads from a file's text: header keys, row fields and sizes, preset shapes.

Small readers shared by the searches of `infer` (the generators since v1.1) and `v1_infer`
(AICB v1.0): they never fail on a hostile file, they give a default instead.
"""

from __future__ import annotations

from wkparse.digits import whole_number
from wkparse.models.aicb.training.presets import SCRIPT_PRESETS

#: the AIOB file AICB ships, which candidate commands pass
EXAMPLE = "workload/aiob_inputs/Example.txt"
#: vocabularies tried where a file does not show its own (AICB's scripts', its default)
VOCABS = (50257, 32000)
#: AICB's default `--make_vocab_size_divisible_by` (the vocabulary is padded to it x TP)
DIVISIBLE_BY = 128

#: header values above this are no run AICB makes (and would cost memory to generate)
MOST = 10**7
#: micro-batch sizes tried, likeliest first, where a file shows only micro-batch x sequence
_MICRO_BATCHES = (1, 2, 4, 8, 16, 3, 6, 32)


def token_splits(tokens: int, named: tuple[int, int] | None = None) -> list[tuple[int, int]]:
    """(micro-batch, sequence) readings of `tokens` (what the cross-entropy rows carry, the
    two multiplied): the file name's first where it agrees, then small batches."""
    order = [named] if named is not None and named[0] * named[1] == tokens else []
    for mbs in _MICRO_BATCHES:
        if tokens % mbs == 0 and (mbs, tokens // mbs) not in order:
            order.append((mbs, tokens // mbs))
    return order


def settings(text: str) -> tuple[str, dict[str, str], list[str]]:
    """(header line, its keys, the names of the first 400 rows)."""
    head, _, rest = text.partition("\n")
    keys = header_keys(head)
    names: list[str] = []
    for line in rest.split("\n", 400)[1:400]:
        word = line.split(None, 1)
        if word:
            names.append(word[0])
    return head, keys, names


def header_keys(head: str) -> dict[str, str]:
    """A header's `key: value` pairs (`key:value` too), in one pass over its words: a
    regular expression backtracks quadratically over a long line without a colon."""
    words = head.split()
    keys: dict[str, str] = {}
    for i, word in enumerate(words):
        key, colon, value = word.partition(":")
        if not colon or not key.replace("_", "a").isalnum():
            continue
        if not value and i + 1 < len(words):
            value = words[i + 1]
        if value:
            keys[key] = value
    return keys


def header_int(keys: dict[str, str], key: str, default: int) -> int:
    """A header key's number (as AICB could have written it), else `default`."""
    try:
        value = int(float(keys[key]))
    except (KeyError, ValueError, OverflowError):
        return default
    return value if 0 <= value <= MOST else default


def header_size(keys: dict[str, str], key: str) -> int:
    """A header's byte count (`pp_comm`, which SP runs write as a float `8388608.0`) as
    SimAI's stoi reads it, else 0; unlike `header_int`, not bounded by `MOST`."""
    return row_number(keys.get(key, "").split(".", 1)[0])


def row_number(text: str) -> int:
    """A row's size as AICB writes it (digits, at most 18 of them), else 0."""
    number = whole_number(text) if len(text) <= 18 else None
    return 0 if number is None else number


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
