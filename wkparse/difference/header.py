"""Line 1 of two files compared as SimAI reads it, key by key (`wkparse.models.simai`'s reading).

A key SimAI reads (the sizes, `pp_comm`, the checkpoint lists, DLRM's last bottom layer)
compares by the value SimAI ends up with: `16777216.0` and `16777216` are both 16777216,
`checkpoints: 2 3 5` and `checkpoints: 2 3 7` both mark layer 3 twice. A key SimAI never reads
(`mode:`, an unknown key, `ga 8` without its colon) compares by its values as stoi would read
them, and the text where stoi reads nothing. A key only one side writes is a difference, and
so are the policy and where SimAI stops reading line 1.
"""

from __future__ import annotations

from wkparse.ast import Header, HeaderField, Value
from wkparse.difference.model import HeaderChange
from wkparse.format import header_line
from wkparse.models.simai import HeaderReading, read_header, stoi
from wkparse.models.simai.header import CHECKPOINT_KEYS, DLRM_KEY, PP_COMM_KEYS, SIZE_KEYS
from wkparse.models.simai.tokens import reading

POLICY = "policy"
LEADING = "(numbers after the policy)"
STOP = "(SimAI stops reading line 1)"
#: written key (without its colon) -> the name SimAI's reading stores it under
READ_NAMES: dict[str, str] = {
    key.rstrip(":"): name
    for key, name in {
        **SIZE_KEYS,
        **CHECKPOINT_KEYS,
        **dict.fromkeys(PP_COMM_KEYS, "pp_comm"),
        DLRM_KEY: "dlrm_last_bottom_layer",
    }.items()
}

_Comparable = tuple[object, ...]


def header_changes(a: Header | None, b: Header | None) -> tuple[HeaderChange, ...]:
    """Every difference between two headers: the policy, then keys in order of writing."""
    reading_a, reading_b = _read(a), _read(b)
    out: list[HeaderChange] = []
    policy_a = a.policy if a is not None else None
    policy_b = b.policy if b is not None else None
    if policy_a != policy_b:
        out.append(HeaderChange(POLICY, policy_a, policy_b))
    leading_a = a.leading if a is not None else ()
    leading_b = b.leading if b is not None else ()
    if _as_stoi(leading_a) != _as_stoi(leading_b):
        out.append(HeaderChange(LEADING, _text(leading_a), _text(leading_b)))
    stop_a, stop_b = _stop(reading_a), _stop(reading_b)
    fields_a, fields_b = _fields(a), _fields(b)
    for key in {**fields_a, **fields_b}:
        field_a, field_b = fields_a.get(key), fields_b.get(key)
        seen_a = _comparable(reading_a, key, field_a)
        seen_b = _comparable(reading_b, key, field_b)
        if seen_a != seen_b:
            stopped = (stop_a is not None, stop_b is not None)
            out.append(_change(key, field_a, field_b, (seen_a, seen_b), stopped))
    if stop_a != stop_b:
        out.append(HeaderChange(STOP, stop_a, stop_b))
    return tuple(out)


def _read(header: Header | None) -> HeaderReading | None:
    # SimAI splits line 1 on whitespace as the grammar does: the tokens rejoined are its line.
    return read_header(header_line(header).encode("utf-8")) if header is not None else None


def _stop(reading: HeaderReading | None) -> str | None:
    return reading.stop.message if reading is not None and reading.stop is not None else None


def _fields(header: Header | None) -> dict[str, HeaderField]:
    """Each key, in order of writing, with the field SimAI reads for it (the last one with
    its colon; `pp_comm` also without), else the last one written. A "field" SimAI reads as
    another key's value (`tp: 2abc`'s `2abc`) is that key's value, not a key. One pass: a
    hostile header writes tens of thousands of keys."""
    if header is None:
        return {}
    values = reading(header).value_fields
    out: dict[str, HeaderField] = {}
    for i, f in enumerate(header.fields):
        if i in values:
            continue
        held = out.get(f.key)
        if held is None or f.colon or f.key == "pp_comm" or not held.colon:
            out[f.key] = f
    return out


def _comparable(
    reading: HeaderReading | None, key: str, field: HeaderField | None
) -> _Comparable | None:
    """What decides equality for one key on one side; None when the side does not write it."""
    if reading is None or field is None:
        return None
    name = READ_NAMES.get(key)
    if name is not None and reading.last(name) is not None:
        if name in CHECKPOINT_KEYS.values():
            marked: tuple[int, ...] = getattr(reading, name)
            return ("read", marked)
        return ("read", reading.value(name))
    return ("written", field.colon, _as_stoi(field.values))


def _as_stoi(values: tuple[Value, ...]) -> tuple[int | str, ...]:
    out: list[int | str] = []
    for v in values:
        number = stoi(v.text).value
        out.append(v.text if number is None else number)
    return tuple(out)


def _text(values: tuple[Value, ...]) -> str | None:
    return " ".join(v.text for v in values) if values else None


def _change(
    key: str,
    field_a: HeaderField | None,
    field_b: HeaderField | None,
    seen: tuple[_Comparable | None, _Comparable | None],
    stopped: tuple[bool, bool],
) -> HeaderChange:
    # a key written without a value is "" (present), a key not written at all is None
    text_a = " ".join(v.text for v in field_a.values) if field_a is not None else None
    text_b = " ".join(v.text for v in field_b.values) if field_b is not None else None
    notes: list[str] = []
    for side, comparable, text, stop in zip("ab", seen, (text_a, text_b), stopped):
        if comparable is None:
            continue
        if comparable[0] == "read":
            value = comparable[1]
            if value is None:
                continue  # stoi threw: the stop entry says so
            shown = " ".join(map(str, value)) if isinstance(value, tuple) else str(value)
            if shown != text:
                notes.append(f"SimAI reads {side}'s {text} as {shown}")
        elif key in READ_NAMES:
            if stop:
                notes.append(f"SimAI stops reading line 1 before {side}'s `{key}`")
            else:
                notes.append(f"SimAI does not read {side}'s `{key}` (no colon, or not this policy)")
    return HeaderChange(key, text_a, text_b, "; ".join(notes) or None)
