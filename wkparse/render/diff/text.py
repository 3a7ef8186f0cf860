"""`wkparse diff` for the terminal: each layer's differences, coloured like `git diff
--word-diff` (side a's values in red as `[-old-]`, side b's in green as `{+new+}`).

Bounded for huge files: each layer shows at most `SHOWN` lines, then says how many more there
are (`--format json` lists them all). Text taken from the files is stripped of control
characters, so a hostile file cannot drive the terminal.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from wkparse.difference.model import Difference
from wkparse.difference.words import (
    Piece,
    fact_pieces,
    header_pieces,
    layer_pieces,
    plural,
    row_pieces,
    simai_notes,
    simai_pieces,
    simai_title,
)
from wkparse.parse import shown_path
from wkparse.render.lint.text import clean

if TYPE_CHECKING:
    from rich.text import Text

#: lines shown per layer
SHOWN = 30
STYLES = {"": "", "old": "red", "new": "green", "title": "bold", "more": "dim"}


def render(d: Difference) -> Text:
    from rich.text import Text

    out = Text()
    out.append(f"--- a: {clean(shown_path(d.a_path))}\n", style="bold red")
    out.append(f"+++ b: {clean(shown_path(d.b_path))}\n", style="bold green")
    if d.equal:
        out.append(
            f"equal: the same header as SimAI reads it, the same facts and the same "
            f"{plural(d.rows.a, 'row')}\n"
        )
        return out
    if d.header:
        count = plural(len(d.header), "key")
        _layer(out, f"header ({count} read differently by SimAI)", map(header_pieces, d.header))
    if d.facts:
        _layer(out, f"facts ({plural(len(d.facts), 'difference')})", map(fact_pieces, d.facts))
    r = d.rows
    title = f"rows: {r.a:,} -> {r.b:,}; {r.changed:,} changed, {r.added:,} added, "
    title += f"{r.removed:,} removed" + (f", {r.moved:,} moved" if r.moved else "")
    _layer(out, title, map(row_pieces, r.changes))
    if d.simai is not None:
        _layer(out, simai_title(d.simai), [simai_pieces(d.simai)])
        for note in simai_notes(d.simai):
            _line(out, [(note, "")])
        out.append("  biggest layer changes (compute + exposed comm):\n" if d.simai.layers else "")
        for change in d.simai.layers:
            _line(out, [("  ", ""), *layer_pieces(change)])
    return out


def _layer(out: Text, title: str, lines: Iterable[list[Piece]]) -> None:
    out.append("\n" + title + "\n", style=STYLES["title"])
    all_lines = list(lines)
    for pieces in all_lines[:SHOWN]:
        _line(out, pieces)
    hidden = len(all_lines) - SHOWN
    if hidden > 0:
        out.append(f"  ... and {hidden:,} more (--format json lists them all)\n", STYLES["more"])


def _line(out: Text, pieces: list[Piece]) -> None:
    out.append("  ")
    for text, role in pieces:
        shown = clean(text)
        if role == "old":
            shown = f"[-{shown}-]"
        elif role == "new":
            shown = f"{{+{shown}+}}"
        out.append(shown, style=STYLES[role])
    out.append("\n")
