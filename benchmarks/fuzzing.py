"""Hostile variants of workload files, and the contract every command must keep on them.

Shared by the bounded suite (`tests/test_fuzz.py`) and the long run (`benchmarks/fuzz_long.py`).
Everything is seeded: case `index` of run `seed` is the same bytes on every machine, so a
failure found once replays exactly (`make_case(seed, index, bases)`).

The contract (issue 8), checked by `check_case` for any bytes:
- `parse` (text, json), `lint` (text, json, sarif, github), `explain` (text, json, markdown),
  `fmt --check`, `simai` (text, json, csv), `diff` (text, json: a sample against the case) and
  `triage` (json, markdown: the file given as an issue) exit 0, 1 or 2, print no traceback,
  print valid JSON where JSON is asked for and a result given (exit 0 or 1: `diff` of a file
  that does not parse gives none, exit 2), report every syntax error the parser finds on the
  lines SimAI reads (`parse` every one; `wkparse.checks.reached`) (so a
  bad byte never hides behind U+FFFD; not `simai`, which reads the file as SimAI does, `diff`,
  which compares, nor `triage`, which reads an issue, not a workload),
  finish before a watchdog fires, and leave the file untouched;
- `fmt` in place keeps every value of a clean file (re-parsing gives the same values) and
  leaves a file with syntax errors byte-identical; `lint --fix --unsafe-fixes` in place
  never turns a clean file into a broken one and never adds or drops a row.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import signal
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from typer.testing import CliRunner

from wkparse import fix
from wkparse.cli import app
from wkparse.parse import ParseResult, parse_bytes

#: the A side of `diff` against each case
DIFF_BASE = Path(__file__).resolve().parents[1] / "samples" / "gpt13b-world8-tp2-pp1-sp.txt"
BOM = b"\xef\xbb\xbf"
#: the issue's absurd count lines
ABSURD_COUNTS: tuple[bytes, ...] = (b"999999999999", b"-5", b"1e9", b"0x10", b"")
#: byte sequences that are not UTF-8: a stray byte, a cut sequence, a lone continuation byte,
#: an overlong encoding, an encoded surrogate, a code point past U+10FFFF
INVALID_UTF8: tuple[bytes, ...] = (
    b"\xff",
    b"\xc3",
    b"\x80",
    b"\xc0\xaf",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xe2\x82",
)
#: characters Python treats as digits or spaces but SimAI does not
UNICODE_TRAPS: tuple[str, ...] = ("\u00a0", "\u2003", "\u0663", "\u00b2", "\u2460", "\ufeff")
#: header keys SimAI reads (and one it does not)
HEADER_KEYS: tuple[str, ...] = (
    "model_parallel_NPU_group",
    "ep",
    "pp",
    "vpp",
    "ga",
    "all_gpus",
    "pp_comm",
    "checkpoints",
    "mode",
)
LONG_LINE = 1_000_000

_NUMBER = re.compile(rb"(?<![^ \t\r\n])[+-]?[0-9]+(?:\.[0-9]*)?(?![^ \t\r\n])")
_TOKEN = re.compile(rb"[^ \t\v\f\r\n]+")
# Every pattern starts at a token boundary (the look-behind): searched from anywhere inside a
# 60,000-character token, the pattern would backtrack quadratically, and hang the fuzzer itself.
_KEY_VALUE = re.compile(rb"(?<![^ \t])([A-Za-z_][A-Za-z0-9_]*:)([ \t]+)([^ \t\r\n]+)")

Mutation = Callable[[random.Random, bytes], bytes]


# ---- mutations ---------------------------------------------------------------------------


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _pick_line(rng: random.Random, lines: list[bytes]) -> int:
    """A line index, often one of the first three (header, count, first row)."""
    if rng.random() < 0.4:
        return rng.randrange(min(3, len(lines)))
    return rng.randrange(len(lines))


def flip_bytes(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(out))
        out[at] = out[at] ^ (1 << rng.randrange(8)) if rng.random() < 0.5 else rng.randrange(256)
    return bytes(out)


def truncate(rng: random.Random, data: bytes) -> bytes:
    """Cut at any byte, including inside a multi-byte sequence or between `\\r` and `\\n`."""
    return data[: rng.randrange(len(data) + 1)]


def shuffle_lines(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    if rng.random() < 0.3:
        rng.shuffle(lines)
    else:
        start = rng.randrange(len(lines))
        window = lines[start : start + rng.randint(2, 40)]
        rng.shuffle(window)
        lines[start : start + len(window)] = window
    return b"\n".join(lines)


def delete_lines(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    for _ in range(rng.randint(1, 5)):
        if len(lines) > 1:
            del lines[_pick_line(rng, lines)]
    return b"\n".join(lines)


def delete_token(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    at = _pick_line(rng, lines)
    tokens = list(_TOKEN.finditer(lines[at]))
    if tokens:
        token = rng.choice(tokens)
        lines[at] = lines[at][: token.start()] + lines[at][token.end() :]
    return b"\n".join(lines)


def huge_number(rng: random.Random, data: bytes) -> bytes:
    """A number between 10^10 and 10^400 (or one past 64 bits) where a number stood."""
    numbers = list(_NUMBER.finditer(data[:200_000]))
    choice = rng.random()
    if choice < 0.1:
        value = b"18446744073709551616"
    elif choice < 0.2:
        value = b"2147483648"
    elif choice < 0.3:
        value = b"1e400"
    else:
        value = str(10 ** rng.randint(10, 400) + rng.randrange(10)).encode()
    if not numbers:
        return data + b" " + value
    number = rng.choice(numbers)
    return data[: number.start()] + value + data[number.end() :]


def absurd_count(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    count = rng.choice(ABSURD_COUNTS)
    if len(lines) < 2:
        lines.append(count)
    else:
        lines[1] = count + (b"\r" if lines[1].endswith(b"\r") else b"")
    return b"\n".join(lines)


def key_without_value(rng: random.Random, data: bytes) -> bytes:
    """Drop a header value, or end the header with a bare key (SimAI segfaults on both)."""
    lines = _lines(data)
    pairs = list(_KEY_VALUE.finditer(lines[0]))
    if pairs and rng.random() < 0.7:
        pair = rng.choice(pairs)
        lines[0] = lines[0][: pair.start(3)] + lines[0][pair.end(3) :]
    else:
        lines[0] = lines[0].rstrip(b"\r") + b" " + rng.choice(HEADER_KEYS).encode() + b":"
    return b"\n".join(lines)


def absurd_header_value(rng: random.Random, data: bytes) -> bytes:
    """`ga: 10^18` and the like: values a reader must not size anything by."""
    key = rng.choice(HEADER_KEYS).encode()
    value = rng.choice(
        [b"1000000000000000000", b"0", b"-1", b"999999999999", b"1e18", str(10**400).encode()]
    )
    return _set_header(data, key, value)


def nul_bytes(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        out.insert(rng.randrange(len(out) + 1), 0)
    return bytes(out)


def invalid_utf8(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(out) + 1)
        out[at:at] = rng.choice(INVALID_UTF8)
    return bytes(out)


def unicode_traps(rng: random.Random, data: bytes) -> bytes:
    """A Unicode space or digit where SimAI expects ASCII (a space, a digit)."""
    lines = _lines(data)
    at = _pick_line(rng, lines)
    trap = rng.choice(UNICODE_TRAPS).encode()
    line = lines[at]
    spaces = [i for i, b in enumerate(line) if b in b" \t0123456789"]
    if spaces:
        i = rng.choice(spaces)
        lines[at] = line[:i] + trap + line[i + 1 :]
    else:
        lines[at] = line + trap
    return b"\n".join(lines)


def add_bom(rng: random.Random, data: bytes) -> bytes:
    choice = rng.random()
    if choice < 0.6:
        return BOM + data
    if choice < 0.8:
        return BOM + BOM + data
    at = rng.randrange(len(data) + 1)
    return data[:at] + BOM + data[at:]


#: what Windows tools write when asked for "Unicode" text, and its rarer relatives
WIDE_CODECS: tuple[str, ...] = ("utf-16", "utf-16-le", "utf-16-be", "utf-32")


def wide_encoding(rng: random.Random, data: bytes) -> bytes:
    """The file re-encoded as UTF-16 or UTF-32, with or without a byte order mark (what
    Notepad's "Unicode" and PowerShell 5's `>` produce)."""
    text = data.decode("utf-8", "surrogateescape")
    return text.encode(rng.choice(WIDE_CODECS), "surrogatepass")


def crlf(rng: random.Random, data: bytes) -> bytes:
    choice = rng.random()
    if choice < 0.5:
        return data.replace(b"\n", b"\r\n")
    if choice < 0.7:
        return data.replace(b"\n", b"\r")
    lines = _lines(data)
    return b"\n".join(line + b"\r" if rng.random() < 0.5 else line for line in lines)


def long_line(rng: random.Random, data: bytes) -> bytes:
    """A 1,000,000-character line: digits, a word, a row with a giant name, or whitespace."""
    kind = rng.randrange(4)
    if kind == 0:
        line = b"9" * LONG_LINE
    elif kind == 1:
        line = b"x" * LONG_LINE
    elif kind == 2:
        row = b"\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tNONE\t0\t1"
        line = b"n" * (LONG_LINE - len(row)) + row
    else:
        line = b" \t" * (LONG_LINE // 2)
    lines = _lines(data)
    lines.insert(rng.randrange(len(lines) + 1), line)
    return b"\n".join(lines)


#: shapes of long tokens: near-numbers and words that make backtracking regexes slow
_LONG_TOKENS: tuple[Callable[[int], bytes], ...] = (
    lambda n: b"9" * n + b"x",
    lambda n: b"9" * (n // 2) + b"." + b"9" * (n // 2) + b"x",
    lambda n: b"9" * n,
    lambda n: b"a" * n,
    lambda n: b"ALLREDUCE_" * (n // 10),
    lambda n: b"_DP_EP" * (n // 6),
    lambda n: b"attention_layer" * (n // 15),
    lambda n: b"ga:" * (n // 3),
    lambda n: b"1e" * (n // 2),
    lambda n: b"9" * n + b".5",
    lambda n: b"9" * n + b"e5",
    lambda n: b"layer" + b"9" * n,
    lambda n: b"layer_" + b"9" * n,
)


def long_token(rng: random.Random, data: bytes) -> bytes:
    """One token of 1,000 to 60,000 characters: under the line cap, so every check sees it."""
    lines = _lines(data)
    at = _pick_line(rng, lines)
    token = rng.choice(_LONG_TOKENS)(rng.choice((1_000, 20_000, 60_000)))
    tokens = list(_TOKEN.finditer(lines[at]))
    if tokens:
        t = rng.choice(tokens)
        lines[at] = lines[at][: t.start()] + token + lines[at][t.end() :]
    else:
        lines[at] = token
    return b"\n".join(lines)


def many_tokens(rng: random.Random, data: bytes) -> bytes:
    """Thousands of tokens on one line (under the line cap)."""
    lines = _lines(data)
    at = _pick_line(rng, lines)
    word = rng.choice([b"1", b"NONE", b"ga: 1", b"-1", b"x:", b"1.5"])
    lines[at] = lines[at].rstrip(b"\r") + (b"\t" + word) * rng.choice((100, 5_000, 20_000))
    return b"\n".join(lines)


def header_only(rng: random.Random, data: bytes) -> bytes:
    first = _lines(data)[0]
    return first + (b"\n" if rng.random() < 0.5 else b"")


def empty(rng: random.Random, data: bytes) -> bytes:
    return rng.choice([b"", b"\n", b"\n\n\n", b" ", b"\r\n", BOM, BOM + b"\n"])


def random_binary(rng: random.Random, data: bytes) -> bytes:
    return rng.randbytes(rng.randint(1, 4096))


def duplicate_lines(rng: random.Random, data: bytes) -> bytes:
    """Repeat a line (a second header, a second count line, a doubled row)."""
    lines = _lines(data)
    at = _pick_line(rng, lines)
    lines[at:at] = [lines[at]] * rng.randint(1, 3)
    return b"\n".join(lines)


#: every mutation by name; a case names the ones applied to it
MUTATIONS: dict[str, Mutation] = {
    "flip_bytes": flip_bytes,
    "truncate": truncate,
    "shuffle_lines": shuffle_lines,
    "delete_lines": delete_lines,
    "delete_token": delete_token,
    "huge_number": huge_number,
    "absurd_count": absurd_count,
    "key_without_value": key_without_value,
    "absurd_header_value": absurd_header_value,
    "nul_bytes": nul_bytes,
    "invalid_utf8": invalid_utf8,
    "unicode_traps": unicode_traps,
    "add_bom": add_bom,
    "crlf": crlf,
    "wide_encoding": wide_encoding,
    "long_line": long_line,
    "header_only": header_only,
    "empty": empty,
    "random_binary": random_binary,
    "duplicate_lines": duplicate_lines,
    "long_token": long_token,
    "many_tokens": many_tokens,
}
#: mutations that throw the base away: applied alone, and rarely
_REPLACING = ("empty", "random_binary")
_STACKING = tuple(name for name in MUTATIONS if name not in _REPLACING)


# ---- cases -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Base:
    """A real file to mutate: its name (kept, so file-name rules run) and its bytes."""

    label: str
    name: str
    data: bytes


@dataclass(frozen=True)
class Case:
    """One fuzzed input: how it was made (enough to replay it), its file name, its bytes."""

    label: str
    name: str
    data: bytes


def load_bases(paths: Sequence[Path], root: Path | None = None) -> list[Base]:
    """Read the files to mutate, labelled by their path under `root`."""
    return [
        Base(str(p.relative_to(root)) if root else p.name, p.name, p.read_bytes()) for p in paths
    ]


def make_case(seed: int, index: int, bases: Sequence[Base]) -> Case:
    """Case `index` of run `seed`: one to three stacked mutations of one base file."""
    rng = random.Random(f"wkparse-fuzz:{seed}:{index}")
    base = bases[rng.randrange(len(bases))]
    if rng.random() < 0.04:
        names = [rng.choice(_REPLACING)]
    else:
        names = rng.sample(_STACKING, rng.choice((1, 1, 1, 2, 2, 3)))
    data = base.data
    for name in names:
        data = MUTATIONS[name](rng, data)
    return Case(f"seed {seed} case {index}: {base.label} + {', '.join(names)}", base.name, data)


def named_cases(bases: Sequence[Base]) -> Iterator[Case]:
    """Each hostile input of the issue, once, on the smallest base with a `ga:` header."""
    transformer = [b for b in bases if b" ga: " in b.data.split(b"\n", 1)[0]]
    base = min(transformer or bases, key=lambda b: len(b.data))
    rng = random.Random("wkparse-fuzz:named")
    lines = _lines(base.data)
    rest = b"\n".join(lines[2:])
    yield Case("empty file", base.name, b"")
    yield Case("header only", base.name, lines[0] + b"\n")
    yield Case("header only, no newline", base.name, lines[0])
    yield Case("UTF-8 BOM", base.name, BOM + base.data)
    yield Case("CRLF", base.name, base.data.replace(b"\n", b"\r\n"))
    yield Case("CR line ends", base.name, base.data.replace(b"\n", b"\r"))
    utf16_cr = base.data.replace(b"\n", b"\r").decode().encode("utf-16")
    yield Case("UTF-16 with CR line ends", base.name, utf16_cr)
    for codec in WIDE_CODECS:
        yield Case(codec, base.name, base.data.decode().encode(codec))
    yield Case("NUL bytes", base.name, base.data.replace(b"\t", b"\x00", 3))
    yield Case("1,000,000-character line", base.name, base.data + b"9" * LONG_LINE + b"\n")
    yield Case("random binary", base.name, rng.randbytes(4096))
    yield Case("invalid UTF-8 in the policy", base.name, base.data.replace(b"_", b"\xff", 1))
    for bad in INVALID_UTF8:
        row = lines[2].replace(b"_", bad, 1) if b"_" in lines[2] else bad + lines[2]
        yield Case(
            f"invalid UTF-8 {bad.hex(' ')} in a row",
            base.name,
            b"\n".join([*lines[:2], row, *lines[3:]]),
        )
    for count in ABSURD_COUNTS:
        yield Case(f"count line {count!r}", base.name, lines[0] + b"\n" + count + b"\n" + rest)
    for exponent in (10, 19, 20, 100, 400):
        huge = str(10**exponent).encode()
        yield Case(f"huge number 10^{exponent}", base.name, _NUMBER.sub(huge, base.data, count=40))
    yield Case("ga: 10^18", base.name, _set_header(base.data, b"ga", b"1000000000000000000"))
    near = b"9" * 60_000 + b"x"
    yield Case("60,000-digit near-number count", base.name, lines[0] + b"\n" + near + b"\n" + rest)
    yield Case("60,000-digit near-number value", base.name, _set_header(base.data, b"ga", near))
    yield Case("10,000-token row", base.name, base.data + b"\t1" * 10_000 + b"\n")
    yield Case("key without value", base.name, lines[0].rstrip(b"\r") + b" ga:\n" + rest)


def _set_header(data: bytes, key: bytes, value: bytes) -> bytes:
    """`key: value` in line 1: the first such field's value replaced, or the field added."""
    lines = _lines(data)
    field = re.compile(rb"(?<![^ \t])" + re.escape(key) + rb":[ \t]+[^ \t\r\n]+")
    replaced, n = field.subn(key + b": " + value, lines[0], count=1)
    lines[0] = replaced if n else lines[0].rstrip(b"\r") + b" " + key + b": " + value
    return b"\n".join(lines)


# ---- the contract ------------------------------------------------------------------------


@dataclass(frozen=True)
class Invocation:
    args: tuple[str, ...]
    #: stdout must be one JSON document
    json: bool = False
    #: which syntax errors must make it exit non-zero: "any" (parse, fmt), "errors" (lint:
    #: those whose catalog severity is error) or "none" (explain describes, it does not judge)
    judges: str = "any"
    #: whether it must report the parser's syntax errors (`triage` reads the file as an issue)
    reports: bool = True


INVOCATIONS: tuple[Invocation, ...] = (
    Invocation(("parse", "--format", "text")),
    Invocation(("parse", "--format", "json"), json=True),
    Invocation(("lint", "--format", "text"), judges="errors"),
    Invocation(("lint", "--format", "json"), json=True, judges="errors"),
    Invocation(("lint", "--format", "sarif"), json=True, judges="errors"),
    Invocation(("lint", "--format", "github"), judges="errors"),
    Invocation(("explain", "--format", "text"), judges="none"),
    Invocation(("explain", "--format", "json"), json=True, judges="none"),
    Invocation(("explain", "--format", "markdown"), judges="none"),
    Invocation(("fmt", "--check")),
    # simai predicts SimAI's run of the file: it judges no syntax and reports none of it
    Invocation(("simai", "--format", "text"), judges="none", reports=False),
    Invocation(("simai", "--format", "json"), json=True, judges="none", reports=False),
    Invocation(("simai", "--format", "csv"), judges="none", reports=False),
    # diff of a bundled sample (its A side) and the case: it compares, it judges no syntax
    Invocation(("diff", "-f", "text", str(DIFF_BASE)), judges="none", reports=False),
    Invocation(("diff", "-f", "json", str(DIFF_BASE)), json=True, judges="none", reports=False),
    Invocation(("triage", "--format", "json"), json=True, judges="none", reports=False),
    Invocation(("triage", "--format", "markdown"), judges="none", reports=False),
)


def rotation(index: int) -> tuple[Invocation, ...]:
    """One invocation per command for case `index`, the formats taking turns: what the
    bounded suite runs per mutated case (the long run runs all of them on every case)."""
    by_command: dict[str, list[Invocation]] = {}
    for inv in INVOCATIONS:
        by_command.setdefault(inv.args[0], []).append(inv)
    return tuple(invs[index % len(invs)] for invs in by_command.values())


@dataclass(frozen=True)
class Failure:
    case: str
    command: str
    problem: str
    detail: str = ""

    def __str__(self) -> str:
        detail = f"\n{self.detail}" if self.detail else ""
        return f"{self.case}: `wkparse {self.command}`: {self.problem}{detail}"


class CaseTimeout(BaseException):
    """Raised by the watchdog. A BaseException, so an `except Exception` cannot swallow it."""


@contextlib.contextmanager
def watchdog(seconds: float) -> Iterator[None]:
    """Interrupt the block after `seconds` of wall time (main thread, POSIX only)."""
    with interrupted_after(seconds, CaseTimeout(f"still running after {seconds} s")):
        yield


@contextlib.contextmanager
def interrupted_after(seconds: float, error: BaseException, cpu: bool = False) -> Iterator[None]:
    """Raise `error` in the block after `seconds` of wall time, or of this process's CPU time
    with `cpu` (the main thread, POSIX only)."""
    sig, timer = (
        (signal.SIGPROF, signal.ITIMER_PROF) if cpu else (signal.SIGALRM, signal.ITIMER_REAL)
    )

    def fire(signum: int, frame: FrameType | None) -> None:
        raise error

    previous = signal.signal(sig, fire)
    signal.setitimer(timer, seconds)
    try:
        yield
    finally:
        signal.setitimer(timer, 0)
        signal.signal(sig, previous)


@dataclass(frozen=True)
class Ran:
    exit_code: int
    stdout: str
    stderr: str
    seconds: float


def invoke(args: Sequence[str], seconds: float, stdin: bytes | None = None) -> Ran | str:
    """Run the CLI in-process; the problem as text when it raised or the watchdog fired."""
    runner = CliRunner()
    start = time.perf_counter()
    try:
        with watchdog(seconds):
            result = runner.invoke(app, list(args), input=stdin, catch_exceptions=False)
    except CaseTimeout as exc:
        return f"timed out: {exc}"
    except Exception:
        return "raised\n" + traceback.format_exc(limit=-8)
    return Ran(result.exit_code, result.stdout, result.stderr, time.perf_counter() - start)


def values(result: ParseResult) -> object:
    """Everything a formatter must keep: the BOM, header tokens, declared count, row values."""
    w = result.workload
    header = None
    if w.header is not None:
        header = (
            w.header.policy,
            tuple(v.text for v in w.header.leading),
            tuple((f.key, f.colon, tuple(v.text for v in f.values)) for f in w.header.fields),
        )
    count = w.count.value if w.count is not None else None
    return (w.bom, header, count, [tuple(f.values().values()) for f in w.rows.fields])


def check_case(
    case: Case,
    workdir: Path,
    seconds: float = 10.0,
    invocations: Sequence[Invocation] = INVOCATIONS,
    timings: list[tuple[float, str]] | None = None,
) -> list[Failure]:
    """Every command on one case; the contract's breaches (empty when it holds).

    `timings`, when given, collects (seconds, command) per invocation: reported, never
    asserted (the machines are shared and noisy; the watchdog is what catches a hang).
    """
    failures: list[Failure] = []
    timings = timings if timings is not None else []

    def fail(command: str, problem: str, detail: str = "") -> None:
        failures.append(Failure(case.label, command, problem, detail[:4000]))

    try:
        with watchdog(seconds):
            expected = parse_bytes(case.data)
    except CaseTimeout as exc:
        fail("(library) parse_bytes", f"timed out: {exc}")
        return failures
    except Exception:
        fail("(library) parse_bytes", "raised", traceback.format_exc(limit=-8))
        return failures
    codes = [d.code for d in expected.diagnostics]
    # lint and explain report the parser's findings on the lines SimAI reads (none below the
    # rows it reads, nor after a line 1 it stops at); `parse` reports every one
    from wkparse.checks import reached

    read_codes = [d.code for d in reached(expected.workload, expected.diagnostics)]

    path = _copy(case, workdir)
    lint_exits: set[int] = set()
    for inv in invocations:
        command = " ".join(inv.args)
        ran = _invoke_on(inv.args, path, seconds, fail)
        if ran is None:
            continue
        timings.append((ran.seconds, command))
        problems = _breaches(inv, ran, codes if inv.args[0] == "parse" else read_codes)
        for problem in problems:
            fail(command, problem, f"exit {ran.exit_code}\n{ran.stdout[-1500:]}\n{ran.stderr}")
        if inv.args[0] == "lint":
            lint_exits.add(ran.exit_code)
    if len(lint_exits) > 1:
        fail("lint", f"exit codes differ between formats: {sorted(lint_exits)}")
    if path.read_bytes() != case.data:
        fail("(read-only commands)", "the file was modified")
    if any(inv.args[0] == "fmt" for inv in invocations):
        _check_fmt_in_place(case, workdir / "fmt", expected, seconds, fail)
    if any(inv.args[0] == "lint" for inv in invocations):
        _check_fix_in_place(case, workdir / "fix", expected, seconds, fail)
    return failures


def _breaches(inv: Invocation, ran: Ran, codes: list[str]) -> list[str]:
    out = []
    if ran.exit_code not in (0, 1, 2):
        out.append(f"exit code {ran.exit_code}")
    if "Traceback" in ran.stdout or "Traceback" in ran.stderr:
        out.append("printed a traceback")
    if inv.json and ran.exit_code in (0, 1):  # a result; exit 2 says its error on stderr
        try:
            json.loads(ran.stdout)
        except ValueError as exc:
            out.append(f"stdout is not JSON ({exc})")
    if codes and inv.reports:
        said = ran.stdout + ran.stderr
        missing = sorted({c for c in codes if c not in said})
        if missing:
            out.append(f"the parser's {', '.join(missing)} is not reported")
        judged = codes if inv.judges == "any" else _errors(codes) if inv.judges == "errors" else []
        if judged and ran.exit_code == 0:
            out.append(f"exit 0 on a file with syntax errors ({', '.join(sorted(set(judged)))})")
    if inv.args[0] == "parse" and not codes and ran.exit_code != 0:
        out.append(f"exit {ran.exit_code} on a file that parses cleanly")
    return out


def _errors(codes: list[str]) -> list[str]:
    """The codes whose catalog severity is error (unknown codes count as errors)."""
    from wkparse.catalog import catalog
    from wkparse.diagnostics import Severity

    pages = catalog()
    return [c for c in codes if c not in pages or pages[c].severity is Severity.ERROR]


def _copy(case: Case, workdir: Path) -> Path:
    """The case written to `workdir` under its own name (file-name rules see it)."""
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / case.name
    path.write_bytes(case.data)
    return path


def _invoke_on(
    args: Sequence[str], path: Path, seconds: float, fail: Callable[[str, str, str], None]
) -> Ran | None:
    """`wkparse ARGS PATH` in-process; None, the problem reported, when it raised or hung."""
    ran = invoke([*args, str(path)], seconds)
    if isinstance(ran, str):
        problem, _, detail = ran.partition("\n")
        fail(" ".join(args), problem, detail)
        return None
    return ran


def _rewrite(
    args: list[str],
    case: Case,
    workdir: Path,
    seconds: float,
    fail: Callable[[str, str, str], None],
) -> bytes | None:
    """Run a rewriting command on a copy of the case; the file's bytes after it."""
    path = _copy(case, workdir)
    command = " ".join(args)
    ran = _invoke_on(args, path, seconds, fail)
    if ran is None:
        return None
    if ran.exit_code not in (0, 1, 2) or "Traceback" in ran.stdout + ran.stderr:
        fail(command, f"exit {ran.exit_code} or a traceback", ran.stdout + ran.stderr)
    return path.read_bytes()


def _check_fix_in_place(
    case: Case,
    workdir: Path,
    before: ParseResult,
    seconds: float,
    fail: Callable[[str, str, str], None],
) -> None:
    """`lint --fix --unsafe-fixes` may change values, but never breaks a row or loses one."""
    after = _rewrite(["lint", "--fix", "--unsafe-fixes"], case, workdir, seconds, fail)
    if after is None or after == case.data:
        return
    before = _converted(case.data, before) or before
    reparsed = parse_bytes(after)
    if reparsed.diagnostics and not before.diagnostics:
        fail("lint --fix", "its output has syntax errors", str(reparsed.diagnostics[:3]))
    if len(reparsed.workload.rows) != len(before.workload.rows):
        fail("lint --fix", "the number of rows changed", "")


def _converted(data: bytes, before: ParseResult) -> ParseResult | None:
    """The parse of what `lint --fix`'s whole-file conversions make of `data` (UTF-16 to
    UTF-8, CR line ends to LF, a blank line 1 above the policy line deleted), applied one
    after the other as `lint --fix` applies them, or None when none applies."""
    result, diagnostics = None, before.diagnostics
    for _ in range(3):
        text = fix.whole_file_converted(data, diagnostics)
        if text is None:
            break
        data = text.encode("utf-8", "surrogateescape")
        result = parse_bytes(data)
        diagnostics = result.diagnostics
    return result


def _check_fmt_in_place(
    case: Case,
    workdir: Path,
    before: ParseResult,
    seconds: float,
    fail: Callable[[str, str, str], None],
) -> None:
    after = _rewrite(["fmt"], case, workdir, seconds, fail)
    if after is None:
        return
    if before.diagnostics:
        if after != case.data:
            fail("fmt", "rewrote a file with syntax errors", "")
        return
    reparsed = parse_bytes(after)
    if reparsed.diagnostics:
        fail("fmt", "its output has syntax errors", str(reparsed.diagnostics[:3]))
    elif values(reparsed) != values(before):
        fail("fmt", "its output parses to different values", "")
