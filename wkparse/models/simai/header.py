"""Line 1 as SimAI reads it (`Workload::initialize_workload`).

SimAI splits line 1 on C whitespace. The first token must name a policy (else exit 1). For the
transformer policies it then walks the tokens once for each group of keys and hands the token
*after* each matching key to `std::stoi`, whatever that token is:

1. `model_parallel_NPU_group:` `ep:` `pp:` `vpp:` `ga:` `all_gpus:` (colon required); a key
   given twice is read twice, so the last one wins;
2. for HYBRID_TRANSFORMER_FWD_IN_BCKWD, `checkpoints:` and `checkpoint_initiates:`: a count N,
   then N times the token two places after the key (SimAI never advances its index), so only
   the first listed layer is ever marked;
3. for every known policy, `pp_comm:` or bare `pp_comm`, stored in 32 bits unsigned.

A key that is the last token hands stoi a token past the end of the list (undefined; it
crashed with SIGSEGV in every measured case). Everything else on the line (`mode:`, unknown
keys, keys without a colon) is never looked at. Keys it never finds keep 0.
"""

from __future__ import annotations

from dataclasses import field

from wkparse.cpp import U32, Stoi, split_c, stoi
from wkparse.models.simai import outcome
from wkparse.models.simai.outcome import Outcome
from wkparse.models.simai.tables import DLRM_POLICIES, FWD_IN_BCKWD, POLICIES, TRANSFORMER_POLICIES
from wkparse.record import record

#: the transformer keys SimAI reads with stoi, as written, and the name wkparse gives each
SIZE_KEYS: dict[str, str] = {
    "model_parallel_NPU_group:": "tp",
    "ep:": "ep",
    "pp:": "pp",
    "vpp:": "vpp",
    "ga:": "ga",
    "all_gpus:": "all_gpus",
}
CHECKPOINT_KEYS: dict[str, str] = {
    "checkpoints:": "checkpoints",
    "checkpoint_initiates:": "checkpoint_initiates",
}
PP_COMM_KEYS = ("pp_comm:", "pp_comm")
DLRM_KEY = "DLRM_LAST_BOTTOM_LAYER:"
#: what each line-1 key stands for, by its name as written (without the colon); what SimAI
#: reads from the file is `read_header`'s, these say what the number means to it
MEANINGS: dict[str, str] = {
    "model_parallel_NPU_group": "tensor-parallel size: forward and input-gradient collectives "
    "without a suffix run in a TP group of this many GPUs; DP = -g / (TP x PP)",
    "ep": "expert-parallel size: `_EP` collectives run in an EP group of this many GPUs, "
    "`_DP_EP` weight-gradient ones in DP / EP",
    "pp": "pipeline stages: the rows are one representative stage, and SimAI models the "
    "traffic between stages only through pp_comm and the bubble",
    "vpp": "transformer layers per pipeline stage (AICB writes layers / PP, floored), not "
    "Megatron's virtual pipeline stages; the bubble is (PP - 1) / (GA x vpp)",
    "ga": "micro-batches per iteration: the stage's layer list repeats once per micro-batch, "
    "each group starting with embedding_layer",
    "all_gpus": "the world size the file was written for; SimAI takes DP from -g / (TP x PP)",
    "pp_comm": "bytes one stage sends the next per micro-batch, held as an unsigned 32-bit "
    "integer; an iteration sends it 2 x vpp x ga times",
    "checkpoints": "layers recomputed in the backward pass (a count, then layer indexes); "
    "SimAI marks only the first listed, as its index never advances",
    "checkpoint_initiates": "layers that start a recomputation (a count, then layer indexes); "
    "SimAI marks only the first listed, as its index never advances",
    "DLRM_LAST_BOTTOM_LAYER": "the last layer of DLRM's bottom MLP",
    "mode": "AICB's training (0) or inference (1) flag; SimAI never reads it",
}
#: a checkpoint count repeats its print; past this many the model stops listing them
MAX_PRINTS = 10_000


@record
class KeyRead:
    """One place SimAI reads a key: the key's token index and what stoi made of the token
    after it (`result` None when there is no token after it)."""

    name: str
    index: int
    result: Stoi | None
    #: where the token read stands after the key: 1, or 2 for a checkpoint list's index
    offset: int = 1


@record(slots=False)
class HeaderReading:
    """What SimAI holds after line 1, and where it stopped when it did not get through it."""

    tokens: tuple[str, ...]
    #: every key read, in SimAI's order, up to the one it crashed on
    reads: tuple[KeyRead, ...] = ()
    #: the value SimAI stored for each key name it found (last occurrence wins)
    values: dict[str, int] = field(default_factory=dict)
    #: the layer indexes SimAI prints and marks: the list bug reads the first listed index
    #: count times, so later ones are never marked
    checkpoints: tuple[int, ...] = ()
    checkpoint_initiates: tuple[int, ...] = ()
    #: how SimAI ended while reading line 1; None when it went on to line 2
    stop: Outcome | None = None

    @property
    def policy(self) -> str | None:
        return self.tokens[0] if self.tokens else None

    @property
    def known(self) -> bool:
        return self.policy in POLICIES

    @property
    def transformer(self) -> bool:
        return self.policy in TRANSFORMER_POLICIES

    def value(self, name: str) -> int | None:
        """The value SimAI stored for a key name (`tp`, `pp`, `pp_comm`...), None if never set."""
        return self.values.get(name)

    def held(self, name: str) -> int:
        """The value SimAI computes with: a key it never set holds 0."""
        return self.values.get(name, 0)

    def last(self, name: str) -> KeyRead | None:
        found = [r for r in self.reads if r.name == name]
        return found[-1] if found else None

    @property
    def tp_prints(self) -> tuple[int, ...]:
        """SimAI prints `model_parallel_NPU_group is N` at every read of the key."""
        return tuple(
            r.result.value
            for r in self.reads
            if r.name == "tp" and r.result and r.result.value is not None
        )

    @property
    def mismatch(self) -> bool:
        """Whether SimAI prints its format-mismatch warning: a size it holds as 0, or pp_comm
        disagreeing with PP (0 with PP != 1, or non-zero with PP == 1)."""
        if self.stop is not None:
            return False
        sizes = ("tp", "ep", "pp", "vpp", "ga", "all_gpus")
        pp, pp_comm = self.held("pp"), self.held("pp_comm")
        return (
            any(self.held(k) == 0 for k in sizes)
            or (pp != 1 and pp_comm == 0)
            or (pp == 1 and pp_comm != 0)
        )


class _Stopped(Exception):
    def __init__(self, result: Outcome) -> None:
        self.result = result


class _Reader:
    def __init__(self, tokens: tuple[str, ...], through: bool) -> None:
        self.tokens = tokens
        self.through = through
        self.reads: list[KeyRead] = []
        self.values: dict[str, int] = {}
        self.stop: Outcome | None = None

    def stoi_at(self, name: str, key_index: int, offset: int = 1) -> int:
        i = key_index + offset
        if i >= len(self.tokens):
            self.reads.append(KeyRead(name, key_index, None, offset))
            return self.stopped(
                outcome.sigsegv(f"`{self.tokens[key_index]}` has no value after it")
            )
        result = stoi(self.tokens[i])
        self.reads.append(KeyRead(name, key_index, result, offset))
        if result.value is None:
            return self.stopped(outcome.exception(result.error or "", "stoi"))
        return result.value

    def stopped(self, result: Outcome) -> int:
        """SimAI ends here; reading `through` goes on (a crash reads as 0) to find them all."""
        self.stop = self.stop or result
        if not self.through:
            raise _Stopped(result)
        return 0

    def keys(self, wanted: dict[str, str]) -> None:
        for i, token in enumerate(self.tokens[1:], start=1):
            name = wanted.get(token)
            if name is not None:
                self.values[name] = self.stoi_at(name, i)

    def marked(self) -> dict[str, tuple[int, ...]]:
        """The checkpoint lists as SimAI prints them, read in one pass over the tokens."""
        printed: dict[str, list[int]] = {name: [] for name in CHECKPOINT_KEYS.values()}
        for i, token in enumerate(self.tokens[1:], start=1):
            name = CHECKPOINT_KEYS.get(token)
            if name is None:
                continue
            count = self.stoi_at(name, i)
            if count > 0:
                # SimAI reads the same token (two after the key) count times
                layer = self.stoi_at(name, i, 2)
                printed[name] += [layer] * min(count, MAX_PRINTS)
        return {name: tuple(layers) for name, layers in printed.items()}


def keys_read(policy: str | None) -> tuple[str, ...]:
    """The keys SimAI reads for a policy, without their colons, in its reading order."""
    if policy in TRANSFORMER_POLICIES:
        checkpoints = tuple(CHECKPOINT_KEYS) if policy == FWD_IN_BCKWD else ()
        keys: tuple[str, ...] = (*SIZE_KEYS, *checkpoints)
    elif policy in DLRM_POLICIES:
        keys = (DLRM_KEY,)
    else:
        keys = ()
    return (*(k.removesuffix(":") for k in keys), "pp_comm")


def read_header(line: bytes) -> HeaderReading:
    """SimAI's reading of line 1 (the bytes before the first newline)."""
    return read_header_tokens(tuple(t.decode("utf-8", "replace") for t in split_c(line)))


def read_header_tokens(tokens: tuple[str, ...], through: bool = False) -> HeaderReading:
    """SimAI's reading of line 1 from its tokens. With `through`, every key is read even past
    the one SimAI crashes on (`stop` is still that first crash): lint reports them all."""
    if not tokens:
        # the policy stays unset and SimAI then takes tokens[0] of an empty list
        return HeaderReading(tokens, stop=outcome.sigsegv("line 1 has no token"))
    if tokens[0] not in POLICIES:
        return HeaderReading(tokens, stop=outcome.unknown_policy())
    r = _Reader(tokens, through)
    checkpoints: tuple[int, ...] = ()
    initiates: tuple[int, ...] = ()
    try:
        if tokens[0] in TRANSFORMER_POLICIES:
            r.keys(SIZE_KEYS)
            if tokens[0] == FWD_IN_BCKWD:
                marked = r.marked()
                checkpoints = marked["checkpoints"]
                initiates = marked["checkpoint_initiates"]
        elif tokens[0] in DLRM_POLICIES:
            r.keys({DLRM_KEY: "dlrm_last_bottom_layer"})
        r.keys(dict.fromkeys(PP_COMM_KEYS, "pp_comm"))
    except _Stopped:
        pass
    if "pp_comm" in r.values:
        r.values["pp_comm"] %= U32
    return HeaderReading(tokens, tuple(r.reads), r.values, checkpoints, initiates, r.stop)


def first_line(data: bytes) -> bytes:
    """Line 1 as `std::getline` returns it: up to the first newline (a CR stays, and is then
    whitespace to the split)."""
    end = data.find(b"\n")
    return data if end < 0 else data[:end]
