"""UTF-16 and UTF-32 files: told apart from UTF-8 by their first bytes, and converted.

Windows tools write these when asked for "Unicode" text (Notepad's "Unicode", PowerShell 5's
`>` redirection). SimAI reads bytes, so such a file is a NUL between every character to it;
read as UTF-8 it is one invalid byte and then a flood of errors on every line. wkparse
recognises it instead, says so once, and `lint --fix` converts it to UTF-8.
"""

from __future__ import annotations

import re
from dataclasses import replace

from wkparse.i18n import _
from wkparse.record import record

UTF8_BOM = b"\xef\xbb\xbf"
#: bytes sniffed: enough for the pattern, short enough to cost nothing
SNIFF_BYTES = 64
#: bytes read to decide whether a file is text at all (as many as git reads for the same)
TEXT_SNIFF_BYTES = 8192
#: share of those characters that may be unreadable (not UTF-8, control codes) in text, and
#: the fewest characters that share is judged on (a short line with one bad byte is text)
_MAX_UNREADABLE, _MIN_JUDGED = 0.3, 64
_UNREADABLE = re.compile("[\ufffd\x00-\x08\x0e-\x1f\x7f]")
#: the shortest BOM-less prefix trusted to be UTF-16 (four characters)
_MIN_PATTERN = 8


@record
class WideEncoding:
    """A UTF-16 or UTF-32 encoding a file was found in."""

    #: as messages name it, e.g. "UTF-16 LE"
    name: str
    #: Python's codec for it, without the byte order mark
    codec: str
    #: length of the byte order mark the file starts with (0 when it has none)
    bom: int
    #: bytes per code unit
    unit: int = 2


# UTF-32 LE's mark starts with UTF-16 LE's, so it is tried first.
_BOMS: tuple[tuple[bytes, WideEncoding], ...] = (
    (b"\xff\xfe\x00\x00", WideEncoding("UTF-32 LE", "utf-32-le", 4, 4)),
    (b"\x00\x00\xfe\xff", WideEncoding("UTF-32 BE", "utf-32-be", 4, 4)),
    (b"\xff\xfe", WideEncoding("UTF-16 LE", "utf-16-le", 2)),
    (b"\xfe\xff", WideEncoding("UTF-16 BE", "utf-16-be", 2)),
)


def sniff(head: bytes) -> WideEncoding | None:
    """The wide encoding `head` (a file's first bytes) is in, or None for anything else.

    A byte order mark decides. Without one, ASCII text in UTF-16 is a NUL beside every
    character: only a prefix where every other byte is NUL and none between is taken, which
    no UTF-8 text (where NUL is a rare control character) looks like.
    """
    if head.startswith(UTF8_BOM):
        # An editor that added a UTF-8 mark to UTF-16 text: the mark is the first bytes to drop.
        inner = sniff(head[len(UTF8_BOM) :])
        return None if inner is None else replace(inner, bom=inner.bom + len(UTF8_BOM))
    for mark, encoding in _BOMS:
        if head.startswith(mark):
            return encoding
    sample = head[:SNIFF_BYTES]
    sample = sample[: len(sample) // 2 * 2]
    if len(sample) < _MIN_PATTERN:
        return None
    even, odd = sample[0::2], sample[1::2]
    if not odd.strip(b"\x00") and b"\x00" not in even:
        return WideEncoding("UTF-16 LE", "utf-16-le", 0)
    if not even.strip(b"\x00") and b"\x00" not in odd:
        return WideEncoding("UTF-16 BE", "utf-16-be", 0)
    return None


def decode(data: bytes, encoding: WideEncoding) -> str | None:
    """The text of a whole file in `encoding`, its mark dropped; None when it does not
    decode (a cut-off or corrupt file is left for the user to look at, not converted)."""
    try:
        return data[encoding.bom :].decode(encoding.codec)
    except UnicodeDecodeError:
        return None


def first_word(head: bytes, encoding: WideEncoding) -> str:
    """The first word among the first 64 characters of `head` decoded as `encoding` (empty
    when there is none): room for any policy word.

    `head` may end inside a character (a line split at its `\\n` byte leaves the zero byte
    of UTF-16 LE's line end behind), so only whole code units are decoded."""
    body = head[encoding.bom : encoding.bom + 64 * encoding.unit]
    text = body[: len(body) // encoding.unit * encoding.unit].decode(encoding.codec, "replace")
    words = text.split(None, 1)
    return words[0] if words else ""


def not_text(head: bytes) -> str | None:
    """Why a file whose first bytes are `head` is not text at all, or None when it is text.

    Binary data (an archive, an executable, an image saved as `.txt`) must be reported once
    and left alone: read as text it can pass for a file with CR line ends or a flood of bad
    rows, and a "fix" would rewrite it. A NUL byte decides, as it does for git and grep (UTF-16
    text is decoded first, where NUL is no character); otherwise a head that is mostly
    undecodable bytes and control codes is no text in any encoding wkparse reads.
    """
    wide = sniff(head)
    if wide is None:
        body = head[len(UTF8_BOM) :] if head.startswith(UTF8_BOM) else head
        text = body.decode("utf-8", "replace")
    else:
        body = head[wide.bom :]
        text = body[: len(body) // wide.unit * wide.unit].decode(wide.codec, "replace")
    nul = text.find("\x00")
    if nul >= 0:
        return _("NUL byte at character {at}").format(at=f"{nul + 1:,}")
    unreadable = len(_UNREADABLE.findall(text))
    if len(text) >= _MIN_JUDGED and unreadable > len(text) * _MAX_UNREADABLE:
        return _("{bad} of its first {size} characters are not text").format(
            bad=f"{unreadable:,}", size=f"{len(text):,}"
        )
    return None


def binary_text(text: str) -> bool:
    """Whether a line read from a file is binary data, not text: a NUL, or mostly undecodable
    bytes and control codes (the judgement `not_text` makes of a file's head). Such a line is
    never printed: it means nothing as text and can garble a terminal."""
    if "\x00" in text:
        return True
    unreadable = len(_UNREADABLE.findall(text))
    return unreadable > max(len(text), _MIN_JUDGED // 8) * _MAX_UNREADABLE


#: the longest word a message quotes from a file whole
_QUOTED = 60
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def shown(text: str) -> str:
    """A word read from a file, as a message quotes it: in backticks with control characters
    escaped and a long word cut, or "binary data" (never a Python repr)."""
    if binary_text(text):
        return _("binary data")
    cut = text if len(text) <= _QUOTED else text[: _QUOTED - 1] + "…"
    return "`" + _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", cut) + "`"
