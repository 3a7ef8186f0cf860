"""What a pasted SimAI log says about where the run was: the last collective it issued (its
layer, kind and size), the passes it finished, and the error it ended on."""

from __future__ import annotations

import re
from dataclasses import dataclass

from wkparse.digits import whole_number

_ISSUED = re.compile(
    r"info: ([\w-]+(?: [\w-]+)*?) collective issued for layer: (\S+?),?\s+involved dimensions"
)
_LAYER = re.compile(r"for layer: (\w+)")
_CHUNK = re.compile(r"chunk size is: (\d+) , size is: (\d+)")
_PASS = re.compile(r"pass: (\d+) finished at time: (\d+)")
#: the layer SimAI built from a row (`id: NAME , depen: ...`) and how many it built (`lines: N`)
_BUILT = re.compile(r"^\s*id: (\S*)\s*, depen:")
_LINES = re.compile(r"\blines: (\d+)")
#: the line a crashed C++ program (SimAI) ends on, as glibc, libstdc++ and the shell print it
CRASH = re.compile(
    r"Segmentation fault(?: \(core dumped\))?|double free or corruption(?: \(!?\w+\))?"
    r"|Aborted \(core dumped\)|Floating point exception(?: \(core dumped\))?"
    r"|terminate called (?:after throwing an instance of '[^']+'|without an active exception)"
    r"|free\(\): invalid \w+|corrupted size vs\. prev_size|Illegal instruction"
)
#: the error a run ended on: SimAI's own `msg="..."`, else a crash
_ERROR = re.compile(r"msg=\"([^\"]+)\"|(" + CRASH.pattern + ")")


@dataclass
class LogReading:
    line: int
    #: the last collective issued: what kind ("all-gather weight grad"), for which layer
    collective: str = ""
    layer: str = ""
    #: its size in bytes, from the `chunk size is:` line before it
    size: int | None = None
    passes: int = 0
    error: str = ""
    #: the layers SimAI says it built (`lines: N`), and those it built without a name
    layers: int = 0
    unnamed: int = 0


def read(line: int, text: str) -> LogReading | None:
    """The reading of one pasted log; None when it holds no SimAI run lines."""
    reading = LogReading(line)
    size = None
    seen = False
    mentioned = ""
    for raw in text.splitlines():
        built = _BUILT.match(raw)
        if built:
            reading.unnamed += not built.group(1)
        counted = _LINES.search(raw)
        if counted:
            reading.layers, seen = int(counted.group(1)), True
        m0 = _LAYER.search(raw)
        if m0:
            mentioned = m0.group(1)
        m = _CHUNK.search(raw)
        if m:
            size, seen = whole_number(m.group(2)), True
            if reading.collective:  # a collective after the last one issued: the run began it
                reading.collective, reading.layer, reading.size = "next", mentioned, size
        m2 = _ISSUED.search(raw)
        if m2:
            reading.collective, reading.layer = m2.group(1), m2.group(2)
            reading.size, seen = size, True
        m3 = _PASS.search(raw)
        if m3:
            passes, seen = whole_number(m3.group(1)), True
            if passes is not None:
                reading.passes = passes + 1
        m4 = _ERROR.search(raw)
        if m4 and not reading.error:
            reading.error = (m4.group(1) or m4.group(2) or "").strip()
    if size is not None and reading.size is None:
        reading.size = size
    return reading if seen or reading.error else None
