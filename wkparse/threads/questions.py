# ruff: noqa: RUF001 - Chinese punctuation in the patterns of the thread's words
"""The questions a thread asks, read as questions: each one's line and words, what it asks
(the cause of what the user saw, what something means, how to do something, whether
something is right, which version) and the concepts of the catalog it names.

The answer opens with an answer to each, in turn (`render/triage`); a question wkparse has
no answer to is said to be one, with what would settle it."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

#: what a question asks, tried in this order (the first that matches wins)
_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "version",
        re.compile(
            r"(?i)\bwhich (?:version|commit)|\blatest (?:version|code|simai|build)|no longer"
            r"|最新|不再|哪个版本|新版"
        ),
    ),
    (
        "cause",
        re.compile(
            r"(?i)\bwhy\b|\breason\b|\bcause[sd]?\b|\bwhat(?:'s| is) wrong"
            r"|\bwhat (?:went|goes) wrong"
            r"|how (?:to|do i|can i) (?:fix|solve)|为什么|为何|原因|怎么回事|怎么解决|如何解决"
        ),
    ),
    (
        "meaning",
        re.compile(
            r"(?i)\bwhat (?:is|are|does|do)\b|\bmean(?:s|ing)?\b|\bunits?\b|stand for"
            r"|difference between|\bexplain\b|含义|意思|单位|是什么|代表|表示什么|区别"
        ),
    ),
    (
        "howto",
        re.compile(
            r"(?i)\bhow (?:to|do|can|could|should|would)\b|\bhow\b.*\b(?:configure|set|get)\b"
            r"|\bis there (?:a|any) way|\bwhere (?:can|do) i\b"
            r"|如何|怎么|怎样|有没有办法|办法|方法|怎么配置"
        ),
    ),
    (
        "check",
        re.compile(
            r"(?i)^(?:is|are|does|do|can|could|should|will|would|did)\b|\bwhether\b"
            r"|\b(?:correct|right|intended|recommended)\s*[?？]|吗[？?。]?\s*$|是否|能否|是不是"
            r"|有没有|对吗|正确|合理|推荐|能不能|支持"
        ),
    ),
)
#: a sentence that asks: it ends with a question mark, or opens as a question does
_ASKS = re.compile(
    r"[?？]\s*$|^(?:why|how|what|which|where|is|are|does|do|can|could|should|will|would)\b"
    r"|请问|为什么|如何|怎么|是否|能否|吗[。.]?\s*$|(?i:\bshould (?:be|it be)\b)|应该是"
    r"|(?i:^(?:why|how|what|which|where|is|are|does|do|can|could|should|will|would)\b)"
)
#: a title that reports a failure asks its cause
_FAILURE = re.compile(
    r"(?i)fail|error|crash|abort|\bhang|stuck|segment|core ?dump|terminat|not allowed|invalid"
    r"|incorrect|wrong|empty|missing|失败|报错|错误|崩溃|终止|卡住|卡死|停|异常|没有|为空|不正确"
)
#: a question that points back at what the thread said before it ("this confuses me",
#: "how do you see this problem?"): the pages it asks are read with the prose before it
_REFERS_BACK = re.compile(
    r"(?i)\b(?:this|that|these|those)\b|\bmy (?:calculation|computation|estimate)\b"
    r"|这|此|上述|我的(?:计算|估算)"
)
#: how much of the prose before such a question is read with it (characters)
_CONTEXT = 600
#: a path or a link cut at its `?`: not a question
_NOT_PROSE = re.compile(r"[A-Za-z0-9_./:=&%-]+[?？]")
#: where a sentence ends: after `?` `!` `.` and a blank, or after a full-width mark
_SENTENCE_END = re.compile(r"(?<=[?!.])\s+|(?<=[？！。])")
#: longer than this, a paragraph is pasted output, not a question
_LONGEST = 2_000
#: names too common in prose to stand for their concept unless quoted
_PLAIN = frozenset(
    {"name", "help", "mode", "gpus", "data", "lang", "none", "result", "results", "output"}
    | {"workload", "topology", "threads", "policy", "layer", "layers", "iteration", "bubble"}
    | {"workload file", "topology file", "并行策略", "网络拓扑", "拓扑文件", "负载文件"}
)


@dataclass(frozen=True)
class Question:
    line: int
    text: str
    kind: str
    #: ids of the concept pages it names, the longest names first
    concepts: tuple[str, ...] = field(default=())
    #: for a question that names nothing and points back ("how do you see this problem?"):
    #: the pages whose `asks` the prose before it matches (an answer that gave them answers it)
    refers_to: tuple[str, ...] = field(default=())
    #: the words it is read in: its paragraph up to it, and for a short question ("is that
    #: right?", "what is wrong with my calculation?") the title too
    context: str = ""

    def public(self) -> dict[str, object]:
        return {
            "line": self.line,
            "text": self.text,
            "kind": self.kind,
            "concepts": list(self.concepts),
        }


def read(title: str, prose: list[tuple[int, str]], limit: int = 4) -> list[Question]:
    """The thread's questions, in order (the title's first when it asks), from at most `limit`
    of its paragraphs: a paragraph's follow-ups ("…on which GPU? How was it obtained?") are
    one item of the user's list, not items that push its last ones out; a thread that asks
    nothing in so many words asks what its title says."""
    out: list[Question] = []
    seen: set[str] = set()
    paragraphs = [(0, title), *_paragraphs(prose)]
    aliases = _abbreviations(" ".join(p for _, p in paragraphs))
    before: list[str] = []  # the prose since the last question: what "this" refers to
    for number, paragraph in paragraphs:
        if len(paragraph) > _LONGEST:
            continue
        for piece in _SENTENCE_END.split(paragraph):
            text = piece.strip()
            if len(text) < 6 or not _ASKS.search(text) or _NOT_PROSE.fullmatch(text):
                before.append(text)
                continue
            key = text.lower()
            if key in seen:
                continue
            seen.add(key)
            named = _answering(text, named_concepts(text) or _by_alias(text, aliases))
            back: tuple[str, ...] = ()
            if not named and _REFERS_BACK.search(text):
                back = _answering(" ".join(before)[-_CONTEXT:] + " " + text, ())
            before = []
            context = _context(text, paragraph, title)
            out.append(Question(number, text, kind_of(text), named, back, context))
    failure = bool(_FAILURE.search(title)) and kind_of(title) == "other"
    if out and failure and not any(q.kind == "cause" for q in out) and title.strip():
        # the title reports what went wrong; the body asks only around it
        text = title.strip()
        out.insert(0, Question(0, text, "cause", named_concepts(title, short=True), (), text))
    if not out and title.strip():
        kind = kind_of(title)
        topic = kind if kind != "other" else "cause" if _FAILURE.search(title) else "topic"
        # a title that reports a failure asks its cause: a page it asks answers it only where
        # no model does (asked._answer)
        named = _answering(title, named_concepts(title, short=True))
        out.append(Question(0, title.strip(), topic, named, (), title.strip()))
    return _in_paragraphs(out, limit)


def _in_paragraphs(asked: list[Question], limit: int) -> list[Question]:
    """The questions of the first `limit` paragraphs that ask."""
    lines: list[int] = []
    for q in asked:
        lines += [] if q.line in lines else [q.line]
    return [q for q in asked if q.line in lines[:limit]]


#: at most this long, a question has no subject of its own: the title gives it
_SHORT = 40


def _context(text: str, paragraph: str, title: str) -> str:
    """The words a question is read in: its paragraph up to it (what "the two" or "these
    sizes" are); a short one ("which is right?") with the title too."""
    before = paragraph[: paragraph.find(text)].strip() if text in paragraph else ""
    short = len(text) <= _SHORT
    return " ".join(x for x in (title.strip() if short else "", before, text) if x)


#: a phrase and the abbreviation the thread gives it: "gradient accumulation steps (GAS)"
_ABBREVIATION = re.compile(r"([A-Za-z][\w -]{3,60}?)\s*\(([A-Z][A-Za-z]{1,5})\)")


def _abbreviations(text: str) -> dict[str, tuple[str, ...]]:
    """The abbreviations the thread defines for a phrase that names catalog pages, and the
    pages: a question that writes only the abbreviation names them too."""
    out: dict[str, tuple[str, ...]] = {}
    for m in _ABBREVIATION.finditer(text):
        named = named_concepts(m.group(1))
        if named and m.group(2) not in out:
            out[m.group(2)] = named
    return out


def _by_alias(text: str, aliases: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    for short, named in aliases.items():
        if re.search(rf"(?<![\w-]){re.escape(short)}(?![\w-])", text):
            return named
    return ()


def _paragraphs(prose: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The prose's lines joined where a sentence runs on to the next line (a blank line, or
    a line that ends a sentence, ends a paragraph); each with its first line."""
    parts: list[tuple[int, list[str]]] = []
    last = -1
    for number, text in prose:
        if number == 0:
            continue
        line = text.strip()
        runs_on = (
            parts and number == last + 1 and not re.search(r"[.!?。！？:：]$", parts[-1][1][-1])
        )
        if runs_on and sum(map(len, parts[-1][1])) <= _LONGEST:
            glue = " " if parts[-1][1][-1].isascii() and line.isascii() else ""
            parts[-1][1].append(glue + line)
        else:
            parts.append((number, [line or " "]))
        last = number
    return [(n, "".join(words)) for n, words in parts]


def kind_of(text: str) -> str:
    """`version`, `cause`, `meaning`, `howto` or `check` (whether something is so); `other`
    for a sentence none of them fits."""
    for kind, pattern in _KINDS:
        if pattern.search(text):
            return kind
    return "check" if re.search(r"[?？]\s*$", text) else "other"


def _answering(text: str, named: tuple[str, ...], limit: int = 2) -> tuple[str, ...]:
    """The pages that answer the question as asked ("is it deterministic?"), before the pages
    it names in passing; past `limit`, the named pages the one page asked lists as its parts
    (`related`) are kept too: a question on how one mechanism works that names its parts
    ("explain cal_busbw() and cal_ratio() in compute_time") asks each of them."""
    from wkparse.concepts import answering

    pages = answering(text)
    parts = set(pages[0].related) if len(pages) == 1 else set()
    out = list(dict.fromkeys([*(p.id for p in pages), *named]))
    return tuple(x for i, x in enumerate(out) if i < limit or x in parts)


def named_concepts(text: str, limit: int = 2, short: bool = False) -> tuple[str, ...]:
    """The catalog's pages `text` names: by a name in backticks, or by a distinctive name
    (four characters or more, an option or a key); `short`: a title that names its topic,
    where a short name (`GA`) stands for its page too."""
    found: list[tuple[int, int, str]] = []  # (-length, position, id)
    for name, ident, pattern in _patterns():
        m = pattern.search(text)
        if m is None and short and 2 <= len(name) < 4 and name.isalpha() and name.isascii():
            m = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE)
        if m is not None:
            found.append((-len(name), m.start(), ident))
    words = _words(text)
    for name, ident, parts in _split_names():
        if all(w in words for w in parts):
            found.append((-len(name), len(text), ident))
    ids: list[str] = []
    for _length, _pos, ident in sorted(found):
        if ident not in ids:
            ids.append(ident)
    return tuple(ids[:limit])


def _words(text: str) -> frozenset[str]:
    """The words of `text` as a name's words are compared: a short one (an acronym) as written,
    a longer one in lower case."""
    return frozenset(w if len(w) <= 3 else w.lower() for w in re.findall(r"[\w][\w.-]*\w|\w", text))


@functools.cache
def _split_names() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """The catalog's names of two words or more that the question may name in other words'
    company ("the ns-3 simulator ... DP" names "ns-3 DP"): every word must be in the question,
    and one of them must be an acronym or a hyphenated word, so that two common
    words alone never name a page."""
    from wkparse.concepts import concepts

    out: list[tuple[str, str, tuple[str, ...]]] = []
    for page in concepts():
        for name in page.names:
            parts = tuple(_words(name))
            if len(parts) < 2 or not name.isascii() or name.lower() in _PLAIN:
                continue
            if any(re.search(r"^[A-Z]{2,3}$|[a-z]-\w", w) for w in parts):
                out.append((name, page.id, parts))
    return tuple(out)


@functools.cache
def _patterns() -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    from wkparse.concepts import concepts

    out: list[tuple[str, str, re.Pattern[str]]] = []
    for page in concepts():
        for name in {*page.names, *page.names_zh, page.id}:
            name = name.strip()
            if not name:
                continue
            quoted = re.escape(name)
            if not name.isascii():
                if len(name) >= 4 and name not in _PLAIN:  # shorter ones sit inside words
                    out.append((name, page.id, re.compile(quoted)))
                continue
            plain = len(name) >= 4 and name.lower() not in _PLAIN
            distinctive = plain or (name.startswith("-") and len(name) >= 3) or "_" in name
            body = rf"(?<![\w-]){quoted}(?![\w-])"
            pattern = body if distinctive else rf"`{quoted}`"
            flags = re.IGNORECASE if len(name) >= 6 and not name.startswith("-") else 0
            out.append((name, page.id, re.compile(pattern, flags)))
    return tuple(out)
