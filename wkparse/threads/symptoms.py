"""What the user reports SimAI did, in the outcome words predictions use: the log's last
lines and the prose ("hangs", "empty CSV", "NaN", "segfault", "卡死", "为空" ...)."""

from __future__ import annotations

import re

#: outcome -> what a thread says when it saw it (prose or log)
_SIGNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "refuse",
        re.compile(
            r"-h,\s+--help|不认|not recogni[sz]ed|unknown option|unrecognized option"
            r"|不支持\S*参数|no longer accept"
        ),
    ),
    (
        "crash",
        re.compile(
            r"(?i)segmentation fault|sigsegv|double free|corruption|floating point exception"
            r"|core ?dump|段错误"
        ),
    ),
    ("abort", re.compile(r"(?i)assert(ion)? failed|aborted|terminate called|已放弃")),
    ("hang", re.compile(r"(?i)\bhangs?\b|\bstuck\b|no progress|卡死|卡住|不动|没有结果|一个小时")),
    (
        "silent-stop",
        re.compile(
            r"(?i)stops? (unexpectedly|printing)|停下来|就停了|不再输出|不正常结束|异常结束"
            r"|unexpected(ly)? (execution )?termination"
        ),
    ),
    (
        "empty",
        re.compile(
            r"(?i)empty (csv|output|file)|(csv|文件|输出)[^\n。]{0,12}(是)?空|为空|内容是空"
        ),
    ),
    ("nan", re.compile(r"(?<![A-Za-z-])[Nn]a[Nn](?![A-Za-z])")),
    ("no-result", re.compile(r"(?i)bubble time[^\n]{0,20}100%|全是 ?bubble|占了 ?100%|all bubble")),
    # a result the user got and doubts: the run finished
    (
        "finish",
        re.compile(
            r"(?i)order of magnitude|\b\d+x (?:gap|slower|faster)|数量级"
            r"|identical results|结果(?:完全)?(?:一样|相同)"
            # a result that did not move when the user changed something
            r"|(?:结果|时间)[^。\uff01\uff1f\n]{0,8}(?:没有|没|无|一点|毫无)[^。\uff01\uff1f\n]{0,6}变化"
            r"|(?:结果|时间)[^。\uff01\uff1f\n]{0,8}(?:不变|没变)"
            r"|\b(?:results?|times?|numbers?)\b[^.?!\n]{0,30}"
            r"\b(?:unchanged|(?:did not|didn't|does not|doesn't|never) change)"
        ),
    ),
)


def reported(
    prose: list[tuple[int, str]], logs: list[str], title: str = ""
) -> list[tuple[str, str]]:
    """(outcome, the words that say so) for each symptom the thread reports, in order."""
    text = "\n".join([title] + [t for _, t in prose] + logs)
    found: list[tuple[str, str]] = []
    for outcome, pattern in _SIGNS:
        m = pattern.search(text)
        if m:
            found.append((outcome, m.group(0)))
    return found
