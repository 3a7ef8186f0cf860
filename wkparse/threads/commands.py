# ruff: noqa: RUF001 - Chinese text is written with its own full-width punctuation
"""Command lines in a thread, however pasted: in a fence or in a sentence, after a `$` or a
shell prompt, split over lines with `\\`, with full-width punctuation around them.

Three kinds: an AICB generator command (`aicb`), a SimAI command line (`simai`: either
backend, with its `AS_*` variables) and a topology generator command (`topology`)."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from wkparse.models.simai.options import ENVIRONMENT

#: full-width punctuation users type around commands, and dashes that word processors make
_WIDE = str.maketrans(
    {
        "：": ":",
        "，": ",",
        "（": "(",
        "）": ")",
        "　": " ",
        "“": '"',
        "”": '"',
        "‘": "'",
        "’": "'",
        "＝": "=",
        "－": "-",
        "\u00a0": " ",
    }
)
_DASHES = re.compile(r"(?<!\S)(?:——|[—–])(?=\w)")

#: `NAME=value` before the program: the environment, as SimAI's option model reads it
_ENV = rf"(?:{ENVIRONMENT.pattern}\S*\s+)"
_SIMAI = re.compile(
    rf"(?<![\w./~=-])(?:sudo\s+)?{_ENV}*(?:sudo\s+(?:-E\s+)?{_ENV}*)?(?:[\w./~-]*/)?SimAI_(analytical|simulator)(?![\w.])"
)
_AICB = re.compile(
    r"(?<![\w./~-])(?:(?:sudo\s+)?(?:sh|bash)\s+)?(?:[\w./~-]*/)?"
    r"(?:(?:megatron|deepspeed|inference|coll_comm|aicb)\w*\.sh"
    r"|(?<![\w/])(?:python3?|uv\s+run)\s+(?:-m\s+)?(?:[\w./~-]*/)?(?:workload_generator|aicb)\b[\w./]*)"
)
_TOPO = re.compile(
    r"(?<![\w./~-])(?:python3?\s+)?(?:[\w./~-]*/)?gen_\w*[Tt]opo\w*(?:[\w.-]*)\.py|(?<![\w-])-topo\s+\S"
)
#: where a command pasted into a sentence stops
_STOP = re.compile(r"[`\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]|\s\(|\"\s|\"$|'\s*$|\)\s*$")
_CONTINUED = re.compile(r"\\\s*$")
#: a line that is only options (`--world_size 128 --tensor_model_parallel_size 4`)
_OPTIONS_ONLY = re.compile(
    r"^\s*--?[A-Za-z][\w-]*(?:[= ]\S+)?(?:\s+--?[A-Za-z][\w-]*(?:[= ]\S+)?)*\s*\\?\s*$"
)


@dataclass
class Command:
    """One command line: its kind, the line it starts on, its text as one line, its words."""

    kind: str
    line: int
    text: str
    words: list[str]
    #: the lines it spans (a `\\`-continued command counts once)
    lines: list[int] = field(default_factory=list)

    @property
    def backend(self) -> str:
        """`analytical` or `ns3` for a SimAI command line."""
        return "ns3" if "SimAI_simulator" in self.text else "analytical"

    def option(self, *names: str) -> str | None:
        """The value of the first of `names` given (`-w`, `--world_size`; `--x=v` too)."""
        for i, word in enumerate(self.words):
            for name in names:
                if word == name and i + 1 < len(self.words):
                    return self.words[i + 1]
                if word.startswith(name + "="):
                    return word[len(name) + 1 :]
        return None

    def flag(self, name: str) -> bool:
        return name in self.words


def normalise(text: str) -> str:
    return _DASHES.sub("--", text.translate(_WIDE))


def find(numbered: list[tuple[int, str]]) -> list[Command]:
    """Every command in these consecutive-or-not lines, in order."""
    found: list[Command] = []
    index = 0
    while index < len(numbered):
        number, raw = numbered[index]
        line = normalise(raw)
        consumed = 0
        for kind, pattern in (("simai", _SIMAI), ("aicb", _AICB), ("topology", _TOPO)):
            if kind == "simai" and "SimAI_" not in line:
                continue
            if kind == "topology" and "topo" not in line:
                continue
            if kind == "aicb" and not any(k in line for k in (".sh", "workload_generator", "aicb")):
                continue
            m = pattern.search(line)
            if m is None:
                continue
            command, consumed = _take(numbered, index, m.start(), line)
            words = _words(command)
            if _has_options(kind, words):
                found.append(
                    Command(
                        kind,
                        number,
                        " ".join(words),
                        words,
                        [n for n, _ in numbered[index : index + consumed + 1]],
                    )
                )
            break
        index += consumed + 1
    return found


def _take(numbered: list[tuple[int, str]], index: int, start: int, line: str) -> tuple[str, int]:
    """The command's text from `start`, continued over `\\` line ends (and over following
    lines that are only options, where a paste lost its backslashes); and how many more
    lines it took."""
    before = line[:start]
    text = line[start:]
    quoted = before.rstrip().endswith(('"', "'"))
    parts: list[str] = []
    taken = 0
    while True:
        stop = (
            _STOP.search(text)
            if not quoted
            else re.search(r"[\"'`]|[\u4e00-\u9fff\uff00-\uffef]", text)
        )
        if stop is not None:
            parts.append(text[: stop.start()])
            break
        more = index + taken + 1 < len(numbered)
        if more and _CONTINUED.search(text):
            parts.append(_CONTINUED.sub(" ", text))
            taken += 1
            text = normalise(numbered[index + taken][1])
            continue
        if more and numbered[index + taken + 1][0] == numbered[index + taken][0] + 1:
            following = normalise(numbered[index + taken + 1][1])
            if _OPTIONS_ONLY.match(following):
                parts.append(text)
                taken += 1
                text = following
                continue
        parts.append(text)
        break
    # a sentence goes on after the command: its (full-width) comma is no part of it
    return " ".join(p.strip() for p in parts).rstrip().rstrip(",;"), taken


def _words(command: str) -> list[str]:
    try:
        words = shlex.split(command, posix=True)
    except ValueError:
        words = command.split()
    return [w for w in words if w != "\\"]


def _has_options(kind: str, words: list[str]) -> bool:
    """A command as run, not a program named in a sentence: its first word after the program
    is an option (`SimAI_simulator etc.`, `script.sh Invalid parameter` are prose)."""
    options = [w for w in words if w.startswith("-") and len(w) > 1]
    if kind == "topology":
        return bool(options)
    program = next(
        (
            i
            for i, w in enumerate(words)
            if "SimAI_" in w
            or w.endswith(".sh")
            or "workload_generator" in w
            or w.startswith("aicb")
        ),
        None,
    )
    if program is None or program + 1 >= len(words):
        return False
    return words[program + 1].startswith("-") and any(len(w.strip("-")) > 0 for w in options)
