"""What the user says they changed in the file AICB wrote for their command: the first rows
deleted ("deleted the first 7 rows", "把 workload 前面 7 行删掉"). The rebuild is then not
the file they ran: the edit is applied to it, and the answer says which rows went."""

from __future__ import annotations

import re
from dataclasses import dataclass

from wkparse.digits import whole_number

_DELETED = (
    re.compile(
        r"(?:删掉|删除|删去|去掉|删了)[^。\n]{0,12}?(?:最前面|前面|开头|前)的?\s*(\d{1,4})\s*行"
    ),
    re.compile(r"(?:最前面|前面|开头|前)的?\s*(\d{1,4})\s*行[^。\n]{0,8}?(?:删掉|删除|删去|去掉)"),
    re.compile(r"(?i)\b(?:delet|remov|drop)\w*\s+the\s+first\s+(\d{1,4})\s+(?:rows|lines)\b"),
)


@dataclass(frozen=True)
class Deleted:
    """The first `rows` rows deleted, as the thread's `line` says."""

    rows: int
    line: int


def deleted_first(prose: list[tuple[int, str]]) -> Deleted | None:
    """The first rows the user says they deleted, if the thread says so."""
    for number, text in prose:
        for pattern in _DELETED:
            m = pattern.search(text)
            n = whole_number(m.group(1)) if m else None
            if n:
                return Deleted(n, number)
    return None


@dataclass(frozen=True)
class Cut:
    """A file with its first rows deleted, and what went with them."""

    data: bytes
    #: (name, [(phase, collective, size, group)]) of each deleted row
    gone: list[tuple[str, list[tuple[str, str, int, str]]]]
    #: the DP collectives (with data) left in the rest of the file
    dp_left: int


def cut_first(data: bytes, n: int) -> Cut | None:
    """`data` without its first `n` rows (line 1 and the count line kept, the count lowered);
    None where the file has no more than `n` rows."""
    from wkparse.models.simai.tables import decode_comm
    from wkparse.parse import parse_bytes

    rows = parse_bytes(data).workload.rows
    if len(rows) <= n:
        return None

    def collectives(row: object) -> list[tuple[str, str, int, str]]:
        out = []
        fields = getattr(row, "fields", None)
        for phase in ("fwd", "ig", "wg"):
            p = getattr(fields, phase, None)
            if p is None or not p.comm or p.comm == "NONE":
                continue
            group = decode_comm(p.comm, phase)[1].value
            out.append((phase, p.comm, p.size or 0, group))
        return out

    gone = [(r.name or "?", collectives(r)) for r in rows[:n]]
    dp_left = sum(
        1
        for r in rows[n:]
        for _, _, size, group in collectives(r)
        if group in ("DP", "DP_EP") and size
    )
    lines = data.decode("utf-8", "replace").splitlines()
    count = whole_number(lines[1].strip()) if len(lines) > 1 else None
    if count is None:
        return None
    text = "\n".join([lines[0], str(count - n), *lines[2 + n :]]) + "\n"
    return Cut(text.encode(), gone, dp_left)


#: the script that makes the `-m` presets, or a script named in general
_SCRIPT = r"(?:megatron_workload_with_aiob\.sh|脚本|\bscript\b)"
_SCRIPT_EDITED = (
    re.compile(r"(?:改|修改|改动)了?\s*`?megatron_workload_with_aiob\.sh"),
    re.compile(r"(?:改了|修改了|加了|添加了|增加了|新增了)[^。\n?\uff1f]{0,40}?" + _SCRIPT),
    re.compile(_SCRIPT + r"[^。\n?\uff1f]{0,40}?(?:改了|修改了|加了|添加了|增加了|新增了)"),
    re.compile(
        r"(?i)\b(?:edited|modified|changed|patched|added)\b[^.\n?]{0,40}?"
        r"(?:megatron_workload_with_aiob\.sh|\bscript\b)"
    ),
    re.compile(
        r"(?i)(?:megatron_workload_with_aiob\.sh|\bscript\b)[^.\n?]{0,40}?"
        r"\b(?:edited|modified|changed|patched)\b"
    ),
)


def script_edited(prose: list[tuple[int, str]]) -> int | None:
    """The line where the user says they changed AICB's script (added a preset, edited it):
    what the stock script does is then not what their run did."""
    for number, text in prose:
        if any(p.search(text) for p in _SCRIPT_EDITED):
            return number
    return None
