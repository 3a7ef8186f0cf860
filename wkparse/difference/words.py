"""A difference in words, as pieces the renderers style: plain, old (a) or new (b).

Shared by the three renderers so that text, Markdown and JSON say each change the same way;
`plain` joins the pieces with `git diff --word-diff`'s markers (`[-old-]{+new+}`).
"""

from __future__ import annotations

from wkparse.difference.model import (
    FactChange,
    HeaderChange,
    LayerCostChange,
    RowChange,
    SimaiChange,
    SimaiSide,
)
from wkparse.explanation import human_bytes, human_ns, percent

#: a piece of a sentence and its role: "" (plain), "old" (side a) or "new" (side b)
Piece = tuple[str, str]
#: widest value shown; a hostile file's 60,000-character token is cut
MAX_VALUE = 60

FIELD_LABELS = {
    "reserved": "reserved field",
    "fwd_compute": "fwd compute",
    "fwd_comm": "fwd collective",
    "fwd_size": "fwd size",
    "ig_compute": "ig compute",
    "ig_comm": "ig collective",
    "ig_size": "ig size",
    "wg_compute": "wg compute",
    "wg_comm": "wg collective",
    "wg_size": "wg size",
    "update_time": "update time",
    "policy": "row policy",
}


def short(value: object) -> str:
    text = "none" if value is None else str(value)
    return text if len(text) <= MAX_VALUE else text[: MAX_VALUE - 1] + "…"


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def header_pieces(change: HeaderChange) -> list[Piece]:
    out: list[Piece] = [(f"{change.key}: ", "")]
    if change.a is not None:
        out.append((short(change.a) or "(no value)", "old"))
    if change.b is not None:
        out.append((short(change.b) or "(no value)", "new"))
    if change.a is None:
        out.append(("  (only in b)", ""))
    elif change.b is None:
        out.append(("  (only in a)", ""))
    if change.note:
        out.append((f"  ({change.note})", ""))
    return out


def fact_value(change: FactChange, value: int | float | bool | None) -> str:
    if value is None:
        return "none"
    if change.unit == "flag":
        return "yes" if value else "no"
    if change.unit == "bytes":
        return human_bytes(value)
    if change.unit == "ns":
        return human_ns(value)
    if change.unit == "fraction":
        return percent(float(value))
    return f"{value:,}"


def ratio(change: FactChange) -> str:
    """b / a: as a percentage change near 1 (`-1.6%`, `+0.05%`), else as a factor (`x4.15`)."""
    r = change.ratio
    if r is None:
        return ""
    return f"{(r - 1) * 100:+.2g}%" if 0.5 < r < 2 else f"x{r:.3g}"


def exact_value(change: FactChange, value: int | float | bool | None) -> str:
    """Every digit, for two values that read the same once rounded (39.1 GiB and 39.1 GiB)."""
    if isinstance(value, bool) or value is None or change.unit in ("flag", "count"):
        return fact_value(change, value)
    if change.unit == "fraction":
        return f"{float(value) * 100:.6g}%"
    unit = {"bytes": " B", "ns": " ns"}.get(change.unit, "")
    return f"{value:,}{unit}" if isinstance(value, int) else f"{value:,.6g}{unit}"


def fact_values(change: FactChange) -> tuple[str, str]:
    """Both sides in words; with every digit when they read the same once rounded."""
    a, b = fact_value(change, change.a), fact_value(change, change.b)
    if a == b:
        a, b = exact_value(change, change.a), exact_value(change, change.b)
    return a, b


def fact_pieces(change: FactChange) -> list[Piece]:
    out: list[Piece] = [(f"{change.label}: ", "")]
    a, b = fact_values(change)
    out += [(a, "old"), (b, "new")]
    if change.ratio is not None and change.ratio != 1:  # 1: a change below a millionth
        out.append((f"  ({ratio(change)})", ""))
    return out


def _where_in_file(change: RowChange) -> str:
    """The line of its first place: a's line, or b's for what only b has."""
    if change.line_a is not None:
        line = f"line {change.line_a}"
    elif change.line_b is not None:
        line = f"line {change.line_b} of b"
    else:
        return ""
    if change.kind in ("group_removed", "group_added"):
        return f", from {line}"
    return f", {line}" if change.rows == 1 else f", first at {line}"


def row_pieces(change: RowChange) -> list[Piece]:
    rows = f" ({plural(change.rows, 'row')}{_where_in_file(change)})"
    name = short(change.name)
    if change.kind == "field":
        label = FIELD_LABELS.get(change.field or "", change.field or "")
        return [
            (f"{label} of {name}: ", ""),
            (short(change.a), "old"),
            (short(change.b), "new"),
            (f" in {change.where}{rows}", ""),
        ]
    if change.kind == "group_removed":
        return [(f"{change.where} removed", "old"), (rows, "")]
    if change.kind == "group_added":
        return [(f"{change.where} added", "new"), (rows, "")]
    if change.kind == "row_removed":
        return [(f"{name} removed", "old"), (f" from {change.where}{rows}", "")]
    if change.kind == "row_added":
        return [(f"{name} added", "new"), (f" to {change.where}{rows}", "")]
    assert change.position_a is not None and change.position_b is not None
    before, after = change.position_a + 1, change.position_b + 1
    if abs(before - after) == 1:
        # moving a row by one place is swapping it with its neighbour
        side = "above" if after < before else "below"
        what = f"{name} swapped with the row {side} it (row {before} -> {after})"
    else:
        what = f"{name} moved from row {before} to row {after}"
    return [(what, ""), (f" in {change.where}{rows}", "")]


def plain(pieces: list[Piece]) -> str:
    """The pieces with word-diff markers: `[-old-]` and `{+new+}`."""
    return "".join(
        f"[-{text}-]" if role == "old" else f"{{+{text}+}}" if role == "new" else text
        for text, role in pieces
    )


def sentence(pieces: list[Piece]) -> str:
    """The pieces as prose: `old -> new` where a value changed."""
    out: list[str] = []
    previous = ""
    for text, role in pieces:
        if role == "new" and previous == "old":
            out.append(" -> ")
        out.append(text)
        previous = role
    return "".join(out)


def us(value: float, digits: int = 2) -> str:
    return f"{value:,.{digits}f} µs"


def _signed(value: float, unit: str, digits: int = 2) -> str:
    return f"{value:+,.{digits}f}{unit}"


def simai_title(change: SimaiChange) -> str:
    a, b = change.options_a, change.options_b
    given = f"{a}, " if a == b else f"a: {a or 'refused'}; b: {b or 'refused'}; "
    return f"SimAI-Analytical Total time ({given}SimAI's default bandwidths)"


def _total(side: SimaiSide) -> str:
    return us(side.total_us) if side.total_us is not None else (side.why or "no total")


def simai_pieces(change: SimaiChange) -> list[Piece]:
    """Total time a -> b and by how much; a side without a total says why instead."""
    a, b, digits = _total(change.a), _total(change.b), 2
    if a == b and change.a.total_us is not None and change.b.total_us is not None:
        digits = 6  # equal once rounded to 0.01 µs: every digit SimAI prints
        a, b = us(change.a.total_us, digits), us(change.b.total_us, digits)
        if a == b:
            return [(_total(change.a), ""), (" (the same: any change is below 0.000001 µs)", "")]
    out: list[Piece] = [(a, "old"), (b, "new")]
    d, pct = change.delta_us, change.percent
    if d is not None:
        share = f", {pct:+.2g}%" if pct is not None and abs(pct) < 0.01 else ""
        share = share or (f", {_signed(pct, '%')}" if pct is not None else "")
        out.append((f" ({_signed(d, ' µs', digits)}{share})", ""))
    elif change.a.total_us is None and change.b.total_us is None:
        out.append((" (no total on either side)", ""))
    else:
        out.append((" (no change in µs: one side has no total)", ""))
    return out


def layer_place(name: str | None, line: int | None) -> str:
    if name is None:
        return "(absent)"
    return f"{short(name)} (line {line})" if line else short(name)


def layer_pieces(change: LayerCostChange) -> list[Piece]:
    """A layer's compute plus exposed comm a -> b, named as each file names it."""
    a = layer_place(change.name_a, change.line_a)
    b = layer_place(change.name_b, change.line_b)
    where = a if a == b else f"{a} / {b}"
    return [
        (f"layer {change.index + 1:,} {where}: ", ""),
        (us(change.a_us), "old"),
        (us(change.b_us), "new"),
        (f" ({_signed(change.delta_us, ' µs')})", ""),
    ]


def simai_notes(change: SimaiChange) -> list[str]:
    """Why a side's total, printed as a number, is no real time."""
    return [
        f"{name}: {side.why}"
        for name, side in (("a", change.a), ("b", change.b))
        if side.total_us is not None and side.why
    ]
