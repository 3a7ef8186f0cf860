"""The issue as a tool receives it: a Markdown or plain-text file, `gh issue view --json ...`
output, or a file with front matter (`title`, `url`, `created`, `language`).

Every later step works on `Thread.lines`, numbered as the user's input is (front matter and
all), so an answer can point at the line a fragment came from; the title is line 0.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

#: what is read of an issue at most (GitHub keeps 65,536 characters a body or comment): a
#: thread longer than this is cut, and says so
MAX_CHARS = 1_000_000

_FRONT_KEY = re.compile(r"^([A-Za-z_]+):\s*(.*?)\s*$")


@dataclass
class Thread:
    """One issue: its metadata and its lines (line 1 is the input's first line)."""

    title: str = ""
    url: str = ""
    created: str = ""
    language: str = ""
    lines: list[str] = field(default_factory=list)
    #: the line numbers of `lines[0]`: 1, unless a JSON issue was laid out as a document
    first_line: int = 1
    cut: bool = False

    def numbered(self) -> list[tuple[int, str]]:
        return [(self.first_line + i, text) for i, text in enumerate(self.lines)]


def decode(data: bytes | str) -> str:
    """Text from whatever was given: UTF-8 (BOM dropped), else Latin-1 so nothing fails;
    NUL and other control bytes become spaces (a binary file gives no artefacts)."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("utf-8", "replace")
    else:
        text = data
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", " ", text)


def read_thread(data: bytes | str) -> Thread:
    """The thread in `data`, whichever of the three forms it is."""
    text = decode(data)
    cut = len(text) > MAX_CHARS
    text = text[:MAX_CHARS]
    stripped = text.lstrip()
    if stripped.startswith("{"):
        thread = _from_json(stripped)
        if thread is not None:
            thread.cut = cut
            return thread
    thread = _from_markdown(text)
    thread.cut = cut
    return thread


def _from_markdown(text: str) -> Thread:
    lines = text.split("\n")
    thread = Thread(lines=lines)
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, min(len(lines), 60)) if lines[i].strip() == "---"), None)
        if end is not None:
            for raw in lines[1:end]:
                m = _FRONT_KEY.match(raw)
                if m:
                    _set_meta(thread, m.group(1).lower(), _unquote(m.group(2)))
            thread.lines = [""] * (end + 1) + lines[end + 1 :]
    if not thread.title:
        # a Markdown file's first heading stands for the title
        for raw in thread.lines[:5]:
            if raw.startswith("# "):
                thread.title = raw[2:].strip()
                break
    return thread


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _set_meta(thread: Thread, key: str, value: str) -> None:
    if key == "title":
        thread.title = value
    elif key == "url":
        thread.url = value
    elif key in ("created", "createdat", "date"):
        thread.created = value[:10]
    elif key in ("language", "lang"):
        thread.language = value.lower()


def _from_json(text: str) -> Thread | None:
    """`gh issue view N --json title,body,createdAt,url,comments`: title, body, then each
    comment under a rule, laid out as one document."""
    try:
        issue = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested past Python's stack: text
        return None
    if not isinstance(issue, dict) or not ({"body", "title"} & set(issue)):
        return None
    thread = Thread()
    _set_meta(thread, "title", str(issue.get("title") or ""))
    _set_meta(thread, "url", str(issue.get("url") or ""))
    _set_meta(thread, "created", str(issue.get("createdAt") or ""))
    lines = decode(str(issue.get("body") or "")).split("\n")
    comments = issue.get("comments")
    if isinstance(comments, list):
        for comment in comments:
            if not isinstance(comment, dict):
                continue
            author = comment.get("author")
            login = author.get("login", "") if isinstance(author, dict) else ""
            lines += ["", "---", f"comment by {login}:" if login else "comment:", ""]
            lines += decode(str(comment.get("body") or "")).split("\n")
    thread.lines = lines
    return thread
