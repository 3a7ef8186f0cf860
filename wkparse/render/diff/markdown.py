"""`wkparse diff --format markdown`: the difference as an answer to paste into an issue.

A table per layer (header as SimAI reads it, facts with their ratio) and the row changes as a
list; long lists are folded into a `<details>` block after the first `SHOWN` lines, and cut
after `FOLDED` more (`--format json` has them all).
"""

from __future__ import annotations

from wkparse.difference.model import Difference
from wkparse.difference.words import (
    fact_values,
    layer_place,
    plural,
    ratio,
    row_pieces,
    sentence,
    short,
    simai_notes,
    simai_pieces,
    simai_title,
    us,
)
from wkparse.parse import shown_path

SHOWN = 30
#: further lines folded into a `<details>` block; past them only a count
FOLDED = 300


def render(d: Difference) -> str:
    a, b = shown_path(d.a_path), shown_path(d.b_path)
    out = [f"### `{_cell(a)}` (a) against `{_cell(b)}` (b)", ""]
    if d.equal:
        out += [
            f"**Equal**: the same header as SimAI reads it, the same facts and the same "
            f"{plural(d.rows.a, 'row')}.",
            "",
        ]
        return "\n".join(out)
    if d.header:
        out += ["#### Header (as SimAI reads it)", ""]
        table = ["| key | a | b | note |", "| --- | --- | --- | --- |"]
        keys = [
            f"| `{_cell(h.key)}` | {_value(h.a)} | {_value(h.b)} | {_cell(h.note or '')} |"
            for h in d.header
        ]
        out += [*_folded(table, keys), ""]
    if d.facts:
        out += ["#### Facts", "", "| fact | a | b | b / a |", "| --- | --- | --- | --- |"]
        for f in d.facts:
            a, b = fact_values(f)
            out.append(f"| {f.label} | {a} | {b} | {ratio(f)} |")
        out.append("")
    r = d.rows
    moved = f", {r.moved:,} moved" if r.moved else ""
    out += [
        "#### Rows",
        "",
        f"{r.a:,} rows in a, {r.b:,} in b: {r.changed:,} changed, {r.added:,} added, "
        f"{r.removed:,} removed{moved}.",
        "",
    ]
    out += _folded([], [f"- {_text(sentence(row_pieces(c)))}" for c in r.changes])
    if d.simai is not None:
        out += ["", f"#### {simai_title(d.simai)}", "", sentence(simai_pieces(d.simai)), ""]
        out += [f"- {_text(note)}" for note in simai_notes(d.simai)]
        if d.simai.layers:
            out += ["| layer (a / b) | a | b | b - a |", "| --- | --- | --- | --- |"]
            for c in d.simai.layers:
                a, b = layer_place(c.name_a, c.line_a), layer_place(c.name_b, c.line_b)
                where = _text(a if a == b else f"{a} / {b}")
                out.append(
                    f"| {c.index + 1:,}: {where} | {us(c.a_us)} | {us(c.b_us)} "
                    f"| {c.delta_us:+,.2f} µs |"
                )
    out += ["", "<sub>Written by `wkparse diff --format markdown`.</sub>", ""]
    return "\n".join(out)


def _folded(head: list[str], lines: list[str]) -> list[str]:
    """The first SHOWN lines, then up to FOLDED more in a `<details>` block (under `head`
    again: a table's header), then how many are left out (an issue comment has a size cap)."""
    out = [*head, *lines[:SHOWN]]
    rest = lines[SHOWN : SHOWN + FOLDED]
    if rest:
        out += ["", f"<details><summary>{len(rest):,} more</summary>", "", *head, *rest]
        out += ["", "</details>"]
    left = len(lines) - SHOWN - len(rest)
    if left > 0:
        out += ["", f"... and {left:,} more (`--format json` lists them all)"]
    return out


def _value(text: str | None) -> str:
    if text is None:
        return "*(absent)*"
    return f"`{_cell(short(text))}`" if text else "*(no value)*"


def _cell(text: str) -> str:
    """Text safe inside a table cell or code span: no pipes, backticks or line breaks."""
    return "".join(" " if ch in "\r\n" else ch for ch in text).replace("|", "\\|").replace("`", "'")


def _text(text: str) -> str:
    """Text from the files outside a code span: `_cell`, and no HTML, so a layer name such as
    `<!--` cannot hide the rest of the issue it is pasted into."""
    return _cell(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
