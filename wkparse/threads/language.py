"""The language to answer in: the front matter's when it says, else the prose's.

Only the prose counts (commands, logs and file names are English whatever the user
writes): Chinese when CJK characters outweigh Latin words in it."""

from __future__ import annotations

import re

_CJK = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf]")
_WORD = re.compile(r"[A-Za-z]{2,}")
#: lines of a command or its options, in any tool's syntax
_COMMANDISH = re.compile(r"^\s*(?:-|\$|#|python|cd |\./|sh |bash |sudo |pip |conda |git )")


def detect(prose: list[tuple[int, str]], declared: str = "") -> str:
    if declared in ("zh", "en"):
        return declared
    if declared.startswith("zh"):
        return "zh"
    text = "\n".join(t for _, t in prose if not _COMMANDISH.match(t))
    text = re.sub(r"`[^`\n]*`|https?://\S+", " ", text)
    cjk = len(_CJK.findall(text))
    words = len(_WORD.findall(text))
    # a Chinese word is about two characters
    return "zh" if cjk / 2 > words * 0.5 and cjk >= 4 else "en"
