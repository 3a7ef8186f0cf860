"""What the language server knows about one version of a document, without pygls.

`Analysis` parses and lints the text exactly as `wkparse lint` does a file (the file's own
configuration, its language, its path for the file-name rules and per-file ignores), and
answers the editor's questions from wkparse's own modules: where a row stands (`body`), what
its collectives are (`explain.structure.row_note`), what SimAI makes of it
(`simai.simulate`), what a header key means (`simai.header`). Nothing here says a fact of its
own; it only words them for a hover. Positions in and out are 1-based lines and columns as
the parser counts them; `wkparse.lsp.server` turns them into LSP's.
"""

from __future__ import annotations

import contextlib
import threading
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from wkparse.ast import PHASE_WORDS, Span
from wkparse.config import Config, ConfigError, Resolver
from wkparse.diagnostics import Diagnostic, Fix
from wkparse.discover import SNIFF_BYTES, looks_like_workload
from wkparse.i18n import english_count, language, resolve
from wkparse.lsp.text import ENCODING, ERRORS, Version
from wkparse.parse import ParseResult, parse_bytes, parse_stream

if TYPE_CHECKING:
    from wkparse.body import Body
    from wkparse.explanation import Explanation, RowNote
    from wkparse.explanation.context import Context as ExplainContext
    from wkparse.models.simai import SimaiRun
    from wkparse.models.simai.analytical import LayerPlan
    from wkparse.models.simai.rows import LayerRead

#: collectives in words
WORDS = {
    "ALLREDUCE": "all-reduce",
    "ALLGATHER": "all-gather",
    "REDUCESCATTER": "reduce-scatter",
    "ALLTOALL": "all-to-all",
}


@dataclass(frozen=True, slots=True)
class Section:
    """One entry of the outline: the prologue, a micro-batch group or the epilogue."""

    name: str
    detail: str
    #: 1-based, inclusive
    first_line: int
    last_line: int


def settings_for(path: Path | None) -> Config:
    """The configuration `wkparse lint PATH` would use; raises ConfigError as it reports."""
    if path is None:
        return Config()
    from wkparse.engine import known_codes

    return Resolver(known=known_codes()).for_path(path)


def attaches(head: bytes, path: Path | None, config: Config) -> bool:
    """Whether the server speaks about this document (`head`: its first SNIFF_BYTES): line 1
    names a SimAI policy (as the folder walk and the pre-commit hooks decide), or the file
    matches an `include` the configuration sets. Never every `.txt`: the default `include`
    alone does not count."""
    if looks_like_workload(head[:SNIFF_BYTES], path.name if path is not None else None):
        return True
    if path is None or config.include == Config().include:
        return False
    relative = path.name
    if config.root is not None:
        with contextlib.suppress(ValueError):
            relative = path.absolute().relative_to(config.root).as_posix()
    return config.included(path.name, relative)


class Analysis:
    """One version of one document: parsed, linted, and the facts hovers need (on demand)."""

    def __init__(self, text: Version, path: Path | None, version: int | None = None) -> None:
        #: the text as the parser reads it (the editor's text in UTF-8)
        self.text = text
        self.revision = text.revision
        self.path = path
        self.version = version
        #: how lint names the file (its rules read the name); None for an unsaved buffer
        self.display = None if path is None else str(path)
        self.config_error: str | None = None
        try:
            self.config = settings_for(path)
        except ConfigError as exc:
            self.config_error = str(exc)
            self.config = Config()
        self.attached = attaches(text.read(0, SNIFF_BYTES), path, self.config)
        self.lang = resolve(self.config.lang)
        self.diagnostics: list[Diagnostic] = []
        self.result: ParseResult | None = None
        self._lock = threading.Lock()
        if self.attached and self.config_error is None:
            self._lint()

    def _lint(self) -> None:
        from wkparse.engine import lint

        with language(self.lang):
            stream = self.text.stream()
            self.result = parse_stream(stream, len(self.text), limits=self.config.limits)
            self.diagnostics = lint(self.result, self.display, self.config)

    @property
    def data(self) -> bytes:
        """The whole text in one buffer (joined on first use: most questions read a line)."""
        return self.text.data

    @cached_property
    def source(self) -> str:
        return self.data.decode(ENCODING, ERRORS)

    @property
    def ascii(self) -> bool:
        """Whether columns are plain byte offsets (no line needs converting)."""
        return self.text.ascii

    @cached_property
    def bom(self) -> bool:
        return self.text.read(0, 3) == b"\xef\xbb\xbf"

    @cached_property
    def by_line(self) -> dict[int, list[Diagnostic]]:
        found: dict[int, list[Diagnostic]] = {}
        for d in self.diagnostics:
            found.setdefault(d.span.line, []).append(d)
        return found

    # ---- the facts, computed once per version when first asked for -----------------------

    def prepare(self) -> None:
        """Compute what every hover reads (the body's structure, explain's facts), once."""
        if self.result is None:
            return
        import wkparse.models.simai.run  # noqa: F401  (loaded before the first hover needs it)

        with self._lock:
            _ = self.body, self.explanation, self.context, self.text.starts

    @cached_property
    def body(self) -> Body:
        from wkparse.body import Body
        from wkparse.models.simai.reach import read_view

        assert self.result is not None
        return Body(read_view(self.result.workload))

    @cached_property
    def explanation(self) -> Explanation:
        from wkparse.explanation import explain

        assert self.result is not None
        with language(self.lang):
            return explain(self.result, self.display, self.diagnostics, self.body)

    @cached_property
    def context(self) -> ExplainContext:
        """What explain's sections read (group sizes, routes), for rows explain does not show."""
        from wkparse.explanation.context import Context
        from wkparse.models.simai.reach import read_view

        assert self.result is not None
        return Context(read_view(self.result.workload), self.display, self.diagnostics, self.body)

    @cached_property
    def simai(self) -> SimaiRun:
        """SimAI's reading of the whole file, at the SimAI the configuration names, as lint's
        (seconds on a million rows: asked for only when a row cannot be read on its own, see
        `layer_plan`)."""
        from wkparse.models.simai import simulate

        return simulate(self.data, version=self.config.simai_version)

    def layer_plan(self, line: int, index: int) -> tuple[LayerRead, LayerPlan] | None:
        """What SimAI reads from the row on `line` (the `index`-th) and makes of it; None when
        it reads no layer there.

        SimAI reads the rows as one stream of fields, so a row is read as it stands only when
        every row before it was read whole: then the row is read alone, after the same line 1
        (milliseconds, however long the file). Otherwise the whole file is read.
        """
        from wkparse.models.simai import simulate
        from wkparse.models.simai.header import first_line

        assert self.result is not None
        count = self.result.workload.count
        if count is None or count.value is None or index >= count.value or self._unaligned(line):
            run = self.simai
            if run.rows is None:
                return None
            table = run.rows.layers
            i = bisect_left(table.lines, line)
            if i >= len(table.lines) or table.lines[i] != line:
                return None
            return table[i], run.plan(table[i])
        row = self.text.line_bytes(line - 1)
        alone = first_line(self.text.head(1)) + b"\n1\n" + row + b"\n"
        run = simulate(alone, version=self.config.simai_version)
        if run.rows is None or not len(run.rows.layers):
            return None
        layer = run.rows.layers[0]
        return layer, run.plan(layer)

    def _unaligned(self, line: int) -> bool:
        """Whether the parser found a broken row before `line` (SimAI's stream may be off)."""
        assert self.result is not None
        return any(2 < d.span.line <= line for d in self.result.diagnostics)

    @property
    def line_count(self) -> int:
        return self.text.line_count

    def line_text(self, line: int) -> str:
        """Line `line` (1-based) of this version, without its line end."""
        return self.text.line(line - 1) if line >= 1 else ""

    # ---- the outline ----------------------------------------------------------------------

    def sections(self) -> list[Section]:
        """Prologue, each micro-batch group, epilogue (a body without groups is one section)."""
        if self.result is None:
            return []
        body = self.body
        rows = body.workload.rows  # the rows SimAI reads: none past line 2's count
        if not len(rows):
            return []
        lines = rows.lines
        out: list[Section] = []

        def add(name: str, start: int, end: int) -> None:
            if end > start:
                n = end - start
                detail = f"{n:,} row{'s' if n != 1 else ''}"
                out.append(Section(name, detail, lines[start], lines[end - 1]))

        if not body.has_groups:
            add("body", 0, body.epilogue_start)
        else:
            add("prologue", 0, body.prologue_end)
            count = len(body.groups)
            for k, g in enumerate(body.groups, 1):
                add(f"micro-batch group {k:,} of {count:,}", g.start, g.end)
        add("epilogue", body.epilogue_start, len(rows))
        return out

    # ---- hovers -------------------------------------------------------------------------

    def hover(self, line: int, column: int) -> tuple[str, Span] | None:
        """Markdown about what stands at (line, column), and the span it speaks of."""
        if self.result is None:
            return None
        workload = self.result.workload
        if workload.header is not None and workload.header.span.line == line:
            return self._header_hover(column)
        if workload.count is not None and workload.count.span.line == line:
            return self._count_hover()
        lines = workload.rows.lines
        index = bisect_left(lines, line)
        if index < len(lines) and lines[index] == line:
            return self._row_hover(index)
        return None

    def _header_hover(self, column: int) -> tuple[str, Span] | None:
        from wkparse.models.simai.header import MEANINGS
        from wkparse.models.simai.tokens import reading

        assert self.result is not None and self.result.workload.header is not None
        header = self.result.workload.header
        tokens = reading(header)
        token = next(
            (t for t in tokens.tokens if t.span.column <= column < t.span.end_column), None
        )
        if token is None:
            return None
        if token.field is None:
            if token.text != header.policy:
                return None
            text = f"**policy `{header.policy}`**\n\n{self.explanation.represents}"
            return text, token.span
        field = header.fields[token.field]
        key = field.key
        key_token = next(t for t in tokens.tokens if t.key and t.field == token.field)
        parts = []
        reads = tokens.reads.get(key, ())
        mine = next((o for o in reads if o.key_token.span == key_token.span), None)
        if mine is None:
            if key in tokens.reads or (not field.colon and key != "pp_comm"):
                said = "SimAI never reads it here (it reads keys with their colon)"
            else:
                said = "SimAI never reads it"
            parts.append(f"**{key_token.text}** {said}")
        elif mine.result is None:
            parts.append(f"**{key_token.text}** has no value after it: SimAI reads past the line")
        else:
            stoi = mine.result
            written = mine.value_token.text if mine.value_token is not None else ""
            if stoi.value is None:
                parts.append(f"**{key_token.text}** SimAI's stoi throws on `{written}`")
            elif stoi.whole:
                parts.append(f"**{key_token.text} {stoi.value:,}**")
            else:
                parts.append(f"**{key_token.text} {stoi.value:,}** (SimAI's stoi of `{written}`)")
            if mine is not reads[-1]:
                parts.append("SimAI reads this key again later on the line: the last one wins.")
        meaning = MEANINGS.get(key)
        if meaning:
            parts.append(meaning[:1].upper() + meaning[1:] + ".")
        counted = self._counted(key)
        if counted:
            parts.append(counted)
        parts += self._findings(header.span.line, key_token.span, field.span)
        return "\n\n".join(parts), field.span

    def _counted(self, key: str) -> str | None:
        """What the body shows beside a key's declared value."""
        e = self.explanation
        if key == "vpp" and e.layers_per_stage is not None:
            layers = english_count(e.layers_per_stage, "transformer layer")
            return f"The body holds {layers} per group."
        if key == "ga" and e.dialect == "transformer":
            return f"The body holds {english_count(e.groups, 'micro-batch group')}."
        if key == "all_gpus" and e.dp is not None:
            return f"DP {e.dp:,} = all_gpus / (TP {e.tp} x PP {e.pp})."
        return None

    def _count_hover(self) -> tuple[str, Span]:
        assert self.result is not None and self.result.workload.count is not None
        count = self.result.workload.count
        present = len(self.result.workload.rows)
        declared = f"{count.value:,}" if count.value is not None else f"`{count.text.strip()}`"
        rows = "row" if count.value == 1 else "rows"
        parts = [f"**{declared} {rows} declared, {present:,} present**"]
        from wkparse.models.simai.run import read_count

        read = read_count(self.text.head(2)).result.value
        if count.value is None or read != count.value:
            parts.append(
                f"SimAI reads {english_count(read, 'layer')} from this line."
                if read is not None
                else "SimAI cannot read a number from this line."
            )
        if count.value is not None and count.value != present:
            more = count.value > present
            parts.append(
                "SimAI makes layers the file does not hold."
                if more
                else f"SimAI never reads the last {english_count(present - count.value, 'row')}."
            )
        parts += self._findings(count.span.line)
        return "\n\n".join(parts), count.span

    def _row_hover(self, index: int) -> tuple[str, Span]:
        from wkparse.explanation.structure import row_note

        assert self.result is not None
        rows = self.result.workload.rows
        row = rows[index]
        with language(self.lang):
            note = row_note(self.context, row.line, row.fields)
        title = f"**line {row.line:,}: `{row.name}`** ({self._where(index)})"
        parts = [title]
        parts.append("\n".join(self._phase_lines(row.line, index, note)))
        parts += self._findings(row.line)
        return "\n\n".join(parts), row.whole

    def _where(self, index: int) -> str:
        """Which part of the file a row is, and which layer of the stage."""
        from wkparse.body import count_layers

        body = self.body
        e = self.explanation
        if index >= len(body.workload.rows):
            return "a line SimAI never reads"
        if not body.has_groups:
            return "the body" if index < body.epilogue_start else "epilogue, once per iteration"
        if index < body.prologue_end:
            return "prologue, once per iteration"
        if index >= body.epilogue_start:
            return "epilogue, once per iteration"
        k = bisect_right(body.group_starts, index)
        group = body.groups[k - 1]
        of = f"of ga {e.ga:,}" if e.ga is not None else f"of {len(body.groups):,}"
        layer = count_layers(body.names_between(group.start, index + 1))
        total = body.layers_per_group
        if layer == 0:
            stage = "before the stage's first layer"
        else:
            stage = f"layer {layer:,} of the stage's {total:,}" if total else f"layer {layer:,}"
        return f"micro-batch group {k:,} {of}, {stage}"

    def _phase_lines(self, line: int, index: int, note: RowNote) -> list[str]:
        from wkparse.explanation import human_bytes
        from wkparse.models.simai.analytical import SMALL_MESSAGE

        found = self.layer_plan(line, index)
        layer, plan = found if found is not None else (None, None)
        out = []
        if layer is None:
            out.append("- SimAI reads no layer from this line.")
        elif layer.name != note.name:
            out.append(f"- SimAI reads this line as layer `{layer.name}`.")
        for ph in note.phases:
            label = PHASE_WORDS[ph.phase]
            comm = ph.comm if ph.comm not in (None, "NONE") else None
            if comm is None:
                what = "no collective" + (f" ({human_bytes(ph.size)} written)" if ph.size else "")
            else:
                word = next((w for k, w in WORDS.items() if comm.startswith(k)), comm)
                what = f"{word} (`{comm}`)"
                if ph.group is not None:
                    size = f" of {ph.group_size:,} GPUs" if ph.group_size is not None else ""
                    what += f" in the {ph.group} group{size}"
                elif ph.note:
                    what += f", {ph.note}"
                if ph.size is not None:
                    what += f", {human_bytes(ph.size)}"
                if ph.share is not None:
                    what += f", {human_bytes(ph.share)} per rank"
            simai = ""
            if plan is not None:
                p = plan.phase(ph.phase)
                if comm is not None:
                    if p.scheduled:
                        simai = "SimAI schedules it"
                    elif p.scheduled is None:
                        simai = "SimAI schedules it depending on -g"
                    elif p.group_size is not None and p.group_size <= 1:
                        simai = "SimAI does not schedule it (a group of one GPU)"
                    elif p.size is not None and SMALL_MESSAGE[0] < p.size < SMALL_MESSAGE[1]:
                        simai = "SimAI does not schedule it (under 1 MiB: a fixed latency)"
                    else:
                        simai = "SimAI does not schedule it"
                us = f"{p.compute_us:,} µs" if p.compute_us is not None else "unknown"
                simai += ("; " if simai else "") + f"compute {us}"
            out.append(f"- **{label}**: {what}" + (f"; {simai}" if simai else ""))
        return out

    def _findings(self, line: int, *spans: Span) -> list[str]:
        found = self.by_line.get(line, [])
        if spans:
            found = [d for d in found if any(_overlaps(d.span, s) for s in spans)]
        return [f"{_mark(d)} **{d.code}** {d.message}" for d in found]

    # ---- fixes ----------------------------------------------------------------------------

    def fixes_between(self, first: int, last: int) -> list[tuple[Diagnostic, Fix]]:
        """The diagnostics on lines first..last that carry a fix made of edits."""
        found = []
        by_line = self.by_line
        lines = range(first, last + 1) if last - first < len(by_line) else sorted(by_line)
        for line in lines:
            if first <= line <= last:
                for d in by_line.get(line, []):
                    if d.fix is not None and d.fix.edits:
                        found.append((d, d.fix))
        return found

    def fix_all(self) -> str | None:
        """The text with every safe fix applied (as `lint --fix`), None when none applies."""
        from wkparse.engine import lint
        from wkparse.fix import fix_text

        if self.result is None or not any(d.fix and d.fix.safe for d in self.diagnostics):
            return None

        def relint(text: str) -> list[Diagnostic]:
            with language(self.lang):
                result = parse_bytes(text.encode(ENCODING, ERRORS), limits=self.config.limits)
                return lint(result, self.display, self.config)

        fixed = fix_text(self.source, self.diagnostics, unsafe=False, relint=relint)
        return fixed.text if fixed.applied and fixed.text != self.source else None

    def formatted(self) -> str | None:
        """`wkparse fmt`'s text for this one, None when it has no canonical form."""
        from wkparse.format import Unformattable, format_result

        if self.result is None:
            return None
        try:
            return format_result(self.result)
        except Unformattable:
            return None


def _overlaps(a: Span, b: Span) -> bool:
    return (
        a.line == b.line
        and a.column < max(b.end_column, b.column + 1)
        and (b.column < max(a.end_column, a.column + 1))
    )


def _mark(d: Diagnostic) -> str:
    return {3: "error", 2: "warning", 1: "info"}.get(int(d.severity or 3), "error") + ":"
