"""Line 1 and the count as SimAI read them before b83ea3d4 (`Workload::initialize_workload`
at b1c1eb66 and 03613a7a), from the source of those commits and their recorded runs.

One `std::ifstream` reads the whole file with `>>`, so line ends mean nothing:
- after the policy word, six `key value` pairs in a fixed order (tp, ep, pp, vpp, ga,
  all_gpus): the key words are read and thrown away, whatever they say, so a header without
  `vpp:` shifts every later value by one pair;
- for HYBRID_TRANSFORMER_FWD_IN_BCKWD two `key count ids...` lists (checkpoints, then
  checkpoint_initiates);
- b1c1eb66: the count, `>> int`; an AICB `pp_comm:` key there reads as a count of 0;
- 03613a7a: one word; if it starts with a digit it is the count (`stoi`), else `>> uint32`
  pp_comm then `>> int` the count, so `67108864.0` leaves `.0` for the count (0).
The rows follow in the same stream, from wherever the count ended. An extraction that fails
stores 0; once the stream has failed, later ones leave their variable untouched: a count never
written is whatever the stack held (undefined; the recorded runs aborted or ran forever).
"""

from __future__ import annotations

from wkparse.cpp import U32, IStream, stoi
from wkparse.models.simai import outcome
from wkparse.models.simai.header import HeaderReading
from wkparse.models.simai.outcome import Outcome
from wkparse.models.simai.tables import DLRM_POLICIES, FWD_IN_BCKWD, POLICIES, TRANSFORMER_POLICIES
from wkparse.models.simai.versions import SimaiVersion
from wkparse.record import record

#: the values the positional reader fills, in its order
ORDER = ("tp", "ep", "pp", "vpp", "ga", "all_gpus")


@record(slots=False)
class PositionalReading:
    header: HeaderReading
    #: the count SimAI holds (None: never written, undefined)
    lines: int | None
    #: the token the count came from, as read
    count_text: bytes
    #: where the rows' stream continues
    rows_start: int
    #: how the run ends before any row is read (None: it goes on to the rows)
    stop: Outcome | None = None


def read_positional(data: bytes, version: SimaiVersion) -> PositionalReading:
    """SimAI's reading of line 1 and the count at `version` (before b83ea3d4)."""
    s = IStream(data)
    policy = s.word()
    tokens = tuple(data[: max(data.find(b"\n"), 0)].decode("utf-8", "replace").split())
    if policy is None:
        empty = HeaderReading(tokens, stop=outcome.sigsegv("line 1 has no token"))
        return PositionalReading(empty, None, b"", len(data), empty.stop)
    name = policy.decode("utf-8", "replace")
    if name not in POLICIES:
        h = HeaderReading(tokens, stop=outcome.unknown_policy())
        return PositionalReading(h, None, b"", len(data), h.stop)
    values: dict[str, int] = {}
    checkpoints: list[int] = []
    if name in TRANSFORMER_POLICIES:
        for key in ORDER:
            s.word()
            got = s.int32()
            if got is not None:
                values[key] = got
        if name == FWD_IN_BCKWD:
            for target in (checkpoints, []):
                s.word()
                count = s.int32()
                if count is None:
                    # never written: an uninitialised count (the recorded runs printed
                    # garbage lists or aborted)
                    break
                for _ in range(max(count, 0)):
                    layer = s.int32()
                    if layer is None:
                        break
                    target.append(layer)
    elif name in DLRM_POLICIES:
        got = s.int32()
        if got is not None:
            values["dlrm_last_bottom_layer"] = got
    failed_before = s.failed
    lines: int | None
    text = b""
    if not version.has("pp_comm_key"):
        lines = s.int32()
        text = _token_at(data, s.start) if lines is not None else b""
    else:
        word = s.word()
        text = word or b""
        if word and word[:1].isdigit():
            got_count = stoi(word)
            if got_count.error is not None:
                h = HeaderReading(tokens, (), values, tuple(checkpoints))
                aborts = outcome.exception(got_count.error, "stoi")
                return PositionalReading(h, None, text, s.pos, aborts)
            lines = got_count.value
        else:
            pp_comm = s.uint32()
            values["pp_comm"] = 0 if pp_comm is None else pp_comm % U32
            lines = s.int32()
            text = _token_at(data, s.start) if lines is not None else b""
    header = HeaderReading(tokens, (), values, tuple(checkpoints))
    stop: Outcome | None = None
    if lines is None or failed_before:
        stop = outcome.Outcome(
            134,
            "signal",
            "the stream failed before the count: SimAI runs with a count it never wrote "
            "(undefined; the recorded runs aborted, or printed garbage without end)",
            undefined=True,
        )
    return PositionalReading(header, lines, text, s.pos, stop)


def _token_at(data: bytes, start: int) -> bytes:
    """The whitespace-delimited token at `start` (what an extraction there looked at)."""
    end = start
    while end < len(data) and data[end] not in b" \t\n\v\f\r":
        end += 1
    return data[start:end]
