"""Line 1 of two files compared as SimAI reads it, key by key.

Each value is taken the way SimAI's reader takes it (`stoi`: `16777216.0` is 16777216, so the
two spellings are equal); a token stoi cannot read is compared as written. A key counts where
SimAI reads it: the last occurrence written with a colon (`pp_comm` also without one). A key
only one side writes is a difference, and so is a key written on both sides that SimAI reads
on one side only (`ga 8` against `ga: 8`). The policy is compared too.
"""

from __future__ import annotations

from wkparse.ast import Header, HeaderField, Value
from wkparse.diff.model import HeaderChange
from wkparse.explain.values import stoi

POLICY = "policy"
LEADING = "(numbers after the policy)"

_Reading = tuple[bool, tuple[int | str, ...]]


def header_changes(a: Header | None, b: Header | None) -> tuple[HeaderChange, ...]:
    """Every difference between two headers, the policy first, then keys in order of writing."""
    out: list[HeaderChange] = []
    policy_a = a.policy if a is not None else None
    policy_b = b.policy if b is not None else None
    if policy_a != policy_b:
        out.append(HeaderChange(POLICY, policy_a, policy_b))
    leading_a = a.leading if a is not None else ()
    leading_b = b.leading if b is not None else ()
    if _read_all(leading_a) != _read_all(leading_b):
        out.append(HeaderChange(LEADING, _text(leading_a), _text(leading_b)))
    for key in _keys(a, b):
        field_a, field_b = _field(a, key), _field(b, key)
        reading_a, reading_b = _reading(a, key, field_a), _reading(b, key, field_b)
        if reading_a != reading_b:
            out.append(_change(key, field_a, field_b, reading_a, reading_b))
    return tuple(out)


def _keys(a: Header | None, b: Header | None) -> list[str]:
    keys: dict[str, None] = {}
    for header in (a, b):
        if header is not None:
            keys.update((f.key, None) for f in header.fields)
    return list(keys)


def _field(header: Header | None, key: str) -> HeaderField | None:
    """The field SimAI reads for `key`, else the last one written without its colon."""
    if header is None:
        return None
    read = header.read(key)
    if read is not None:
        return read
    written = header.all(key)
    return written[-1] if written else None


def _reading(header: Header | None, key: str, field: HeaderField | None) -> _Reading | None:
    """(SimAI reads the key, its values as read); None when the key is not written."""
    if header is None or field is None:
        return None
    return header.read(key) is not None, _read_all(field.values)


def _read_all(values: tuple[Value, ...]) -> tuple[int | str, ...]:
    out: list[int | str] = []
    for v in values:
        number = stoi(v.text)
        out.append(v.text if number is None else number)
    return tuple(out)


def _text(values: tuple[Value, ...]) -> str | None:
    return " ".join(v.text for v in values) if values else None


def _change(
    key: str,
    field_a: HeaderField | None,
    field_b: HeaderField | None,
    reading_a: _Reading | None,
    reading_b: _Reading | None,
) -> HeaderChange:
    text_a = _text(field_a.values) if field_a is not None else None
    text_b = _text(field_b.values) if field_b is not None else None
    notes: list[str] = []
    for side, reading, text in (("a", reading_a, text_a), ("b", reading_b, text_b)):
        if reading is None:
            continue
        read, values = reading
        if not read:
            notes.append(f"{side} writes `{key}` without its colon: SimAI does not read it")
        elif text is not None and " ".join(map(str, values)) != text:
            notes.append(f"SimAI reads {side}'s {text} as {' '.join(map(str, values))}")
    return HeaderChange(key, text_a, text_b, "; ".join(notes) or None)
