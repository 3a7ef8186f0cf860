"""Where the code sits in a thread: fenced blocks (closed or not, info string or a pasted
first line after the fence) and inline code spans (which may run over a line break)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})(.*)$")
#: an info string is one word (`bash`, `shell`, `python`); anything else is pasted text
_INFO = re.compile(r"^[\w+#.-]*$")
_SPAN = re.compile(r"`([^`\n]+(?:\n[^`\n]+){0,3})`")


@dataclass
class Fence:
    """A fenced block: `lines` are (line number, text) of its content."""

    start: int
    end: int
    info: str
    lines: list[tuple[int, str]]

    def text(self) -> str:
        return "\n".join(t for _, t in self.lines)


@dataclass
class Layout:
    """The thread cut into fenced blocks and the prose between them."""

    fences: list[Fence]
    #: (line number, text) of every line outside a fence
    prose: list[tuple[int, str]]


def layout(numbered: list[tuple[int, str]]) -> Layout:
    fences: list[Fence] = []
    prose: list[tuple[int, str]] = []
    open_fence: Fence | None = None
    marker = ""
    for number, text in numbered:
        m = _FENCE.match(text)
        if open_fence is not None:
            if m and m.group(1)[0] == marker[0] and len(m.group(1)) >= len(marker):
                open_fence.end = number
                fences.append(open_fence)
                open_fence = None
                rest = m.group(2).strip()
                if rest:  # text after a closing fence is prose
                    prose.append((number, rest))
            else:
                open_fence.lines.append((number, text))
            continue
        if m:
            marker = m.group(1)
            after = m.group(2)
            open_fence = Fence(number, number, "", [])
            if _INFO.match(after.strip()):
                open_fence.info = after.strip().lower()
            else:
                open_fence.lines.append((number, after))
            if after.rstrip().endswith(marker) and len(after.strip()) > len(marker):
                # ```one line```
                open_fence.lines = [(number, after.rstrip()[: -len(marker)])]
                fences.append(open_fence)
                open_fence = None
            continue
        prose.append((number, text))
    if open_fence is not None:
        open_fence.end = open_fence.lines[-1][0] if open_fence.lines else open_fence.start
        fences.append(open_fence)
    return Layout(fences, prose)


@dataclass(frozen=True)
class Span:
    """An inline code span: the line it starts on and its text."""

    line: int
    text: str


def spans(prose: list[tuple[int, str]]) -> list[Span]:
    """The inline code spans of the prose, paragraph by paragraph."""
    found: list[Span] = []
    for para in _paragraphs(prose):
        joined = "\n".join(t for _, t in para)
        if "`" not in joined:
            continue
        starts = [0]
        for _, t in para:
            starts.append(starts[-1] + len(t) + 1)
        for m in _SPAN.finditer(joined):
            index = next(i for i in range(len(para)) if starts[i + 1] > m.start())
            found.append(Span(para[index][0], m.group(1)))
    return found


def _paragraphs(prose: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    paras: list[list[tuple[int, str]]] = [[]]
    last = None
    for number, text in prose:
        if not text.strip() or (last is not None and number != last + 1):
            if paras[-1]:
                paras.append([])
            if not text.strip():
                last = number
                continue
        paras[-1].append((number, text))
        last = number
    return [p for p in paras if p]
