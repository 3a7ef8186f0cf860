"""Every rich console the commands print through, so all of them follow one colour rule.

`--color auto|always|never` (every command has it) wins; under `auto`, `NO_COLOR` (any
non-empty value) turns escapes off and `FORCE_COLOR` turns them on even when piped, as
https://no-color.org and https://force-color.org ask; otherwise a terminal gets colour and a
pipe does not. Output that is not a terminal never ends a line in padding spaces (rich pads
table cells and markdown to the console width), so piped output diffs and greps cleanly.
"""

from __future__ import annotations

import os
import re
import sys
from typing import IO, TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console

MODES = ("auto", "always", "never")
_mode = "auto"


def set_color(mode: str) -> None:
    """Use this colour mode for every console made from now on (the `--color` option)."""
    global _mode
    if mode not in MODES:
        raise ValueError(f"color must be one of {', '.join(MODES)}, not {mode!r}")
    _mode = mode


def color_mode() -> str:
    """`always` or `never` once the option and the environment are weighed; `auto` leaves it
    to whether the output is a terminal."""
    if _mode != "auto":
        return _mode
    if os.environ.get("NO_COLOR"):
        return "never"
    if os.environ.get("FORCE_COLOR"):
        return "always"
    return "auto"


#: a word as rich wraps text: a run of non-space characters, but each Chinese character a word
#: of its own, as Chinese lines break between any two; an opening bracket stays with what
#: follows it and closing punctuation with what precedes it
_CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f"
_OPEN = "\uff08\u300a\u300c\u300e\u201c\u2018\u3008\u3010"
_CLOSE = (
    "\uff0c\u3002\uff1b\uff1a\u3001\uff01\uff1f\uff09\u300b\u300d\u300f\u201d\u2019\u3009\u3011"
)
_WORD = re.compile(rf"\s*[{_OPEN}]*(?:[{_CJK}]|[^\s{_CJK}]+)[{_CLOSE}]*\s*")


def _wrap_chinese_between_characters() -> None:
    """rich breaks lines only at spaces: a Chinese sentence is then one long word, moved whole
    to the next line (leaving a Latin word before it alone on its line) and folded there. Let
    it break between Chinese characters as well; text without them wraps as before."""
    import rich._wrap

    if getattr(rich._wrap, "re_word", None) is not None:
        rich._wrap.re_word = _WORD


def console(*, stderr: bool = False, **options: Any) -> Console:
    """A rich Console on stdout (or stderr) that follows the colour rule."""
    from rich.console import Console

    _wrap_chinese_between_characters()

    stream: IO[str] = sys.stderr if stderr else sys.stdout
    mode = color_mode()
    if mode == "never":
        options.update(color_system=None, force_terminal=False)
    elif mode == "always":
        options.update(force_terminal=True)
        if os.environ.get("TERM", "").lower() in ("dumb", "unknown"):
            # rich gives a dumb terminal no colour even when forced; the user asked for it
            options.setdefault("color_system", "standard")
    out: IO[str] = stream
    if mode != "always" and not stream.isatty():
        out = cast(IO[str], _Unpadded(stream))
    return Console(file=out, **options)


def say(out: Console, label: str, message: str, style: str = "bold red") -> None:
    """`label: message` on `out`: the label in `style` (when the console has colour), the
    message exactly as written. The message is never read as rich markup, so a `[` in a path,
    an option or an exception prints as it is and cannot raise rich's MarkupError. One line,
    however long: a path cut in two cannot be copied."""
    from rich.text import Text

    out.print(Text.assemble((f"{label}:", style), " ", message), highlight=False, soft_wrap=True)


def error(out: Console, message: str) -> None:
    """`error: message` (see `say`)."""
    say(out, "error", message)


def reason(exc: OSError) -> str:
    """Why a path could not be read or written, worded alike in every command ("no such file
    or directory", "permission denied")."""
    return (exc.strerror or str(exc)).lower()


def warning(out: Console, message: str) -> None:
    """`warning: message` (see `say`)."""
    say(out, "warning", message, "yellow")


def write_page(page: str, output: Path | None, errors: Console) -> int:
    """A command's page on stdout (`output` None), or atomically to the file `output`, so a
    reader never sees half a page; the exit code: 0, or 2 (with the reason on `errors`)."""
    if output is None:
        sys.stdout.write(page)
        return 0
    from wkparse.atomic import atomic_write

    try:
        atomic_write(output, [page.encode("utf-8")])
    except OSError as exc:
        error(errors, f"{output}: {reason(exc)}")
        return 2
    return 0


def plain(*, stderr: bool = False) -> IO[str] | None:
    """Where text goes when the colour rule gives stdout (or stderr) no colour, without rich:
    the stream as `console` would write to it. None when it may get colour (a terminal under
    `auto`, or `always`): then only a Console knows which colours the terminal takes."""
    stream: IO[str] = sys.stderr if stderr else sys.stdout
    mode = color_mode()
    if mode == "always" or (mode == "auto" and stream.isatty()):
        return None
    return stream if stream.isatty() else cast(IO[str], _Unpadded(stream))


class _Unpadded:
    """A text stream that drops the spaces at the end of every line written through it."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self._pending = ""

    def write(self, text: str) -> int:
        lines = (self._pending + text).split("\n")
        self._pending = lines.pop()
        if lines:
            self._stream.write("".join(line.rstrip(" ") + "\n" for line in lines))
        return len(text)

    def flush(self) -> None:
        if self._pending:
            self._stream.write(self._pending)
            self._pending = ""
        self._stream.flush()

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", None) or "utf-8"
