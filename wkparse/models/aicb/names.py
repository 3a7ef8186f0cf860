"""AICB's file names, both ways: the name a run gets, and the run a name records.

AICB names a training workload
`{prefixes}{gpu_type}-{model}-world_size{W}-tp{T}-pp{P}-ep{E}-gbs{G}-mbs{M}-seq{S}-MOE-{b}-GEMM-{b}-flash_attn-{b}.txt`
(the prefixes `aiob-` and `sp-` mark measured compute times and sequence parallelism) and an
inference workload `{model}-world_size{W}-tp{T}-pp{P}-ep{E}-bs{B}-seq{S}-{phase}.txt`. The
name reflects what really ran, so it is evidence to check the header against. AICB v1.0
(2024-07-31 .. 2024-09-11) wrote
`{model}-world_size{W}-tp{T}-pp{P}-gbs{G}-mbs{M}-seq{S}-flash_attn-{b}.txt` (`V1Name`).
"""

from __future__ import annotations

import re
from pathlib import PurePath

from wkparse.models.aicb.formulas import data_parallel, ga
from wkparse.models.aicb.training.presets import PRESETS, Preset
from wkparse.record import record

# Patterns as text, compiled by `re` when a name is first matched against them (its cache
# keeps them): a run that reads one kind of name compiles one, not four (0.1-0.2 ms each).
_TRAINING = (
    r"(?:(?P<prefix>.*)-)?(?P<model>[^-]+)-world_size(?P<world>\d+)-tp(?P<tp>\d+)"
    r"-pp(?P<pp>\d+)-ep(?P<ep>\d+)-gbs(?P<gbs>\d+)-mbs(?P<mbs>\d+)-seq(?P<seq>\d+)"
    r"-MOE-(?P<moe>True|False)-GEMM-(?P<gemm>True|False)-flash_attn-(?P<flash>True|False)"
    r"\.txt"
)
_V1_TRAINING = (
    r"(?:(?P<prefix>.*)-)?(?P<model>[^-]+)-world_size(?P<world>\d+)-tp(?P<tp>\d+)"
    r"-pp(?P<pp>\d+)-gbs(?P<gbs>\d+)-mbs(?P<mbs>\d+)-seq(?P<seq>\d+)"
    r"-flash_attn-(?P<flash>True|False)\.txt"
)
_INFERENCE = (
    r"(?P<model>.+?)-world_size(?P<world>\d+)-tp(?P<tp>\d+)-pp(?P<pp>\d+)-ep(?P<ep>\d+)"
    r"-bs(?P<bs>\d+)-seq(?P<seq>\d+)-(?P<phase>prefill|decode)\.txt"
)


@record
class AicbName:
    """The configuration an AICB file name records."""

    model: str
    world: int
    tp: int
    pp: int
    ep: int
    seq: int
    #: training names carry gbs and mbs; inference names carry the batch size as mbs
    gbs: int | None
    mbs: int
    moe: bool | None
    aiob: bool
    sequence_parallel: bool
    gpu_type: str | None
    inference_phase: str | None = None

    @property
    def dp(self) -> int | None:
        """Data-parallel degree, None when world is not a multiple of tp * pp."""
        return data_parallel(self.world, self.tp, self.pp)

    @property
    def preset(self) -> Preset | None:
        return PRESETS.get(self.model)

    @property
    def batch_per_step(self) -> int | None:
        """mbs * DP: the samples one micro-batch step covers across the data-parallel ranks."""
        dp = self.dp
        return self.mbs * dp if dp is not None and self.gbs is not None else None

    @property
    def ga(self) -> int | None:
        """The `ga` AICB writes for this name: gbs // (mbs * DP), floored as the generator does."""
        dp = self.dp
        return ga(self.gbs, self.mbs, dp) if dp is not None and self.gbs is not None else None

    @property
    def layers_per_stage(self) -> int | None:
        """The `vpp` AICB writes for a preset: its layers // pp, floored (None: no preset)."""
        preset = self.preset
        return preset.layers // self.pp if preset is not None and self.pp > 0 else None


def _run(m: re.Match[str]) -> tuple[str, int, int, int, int, int]:
    """model, world, tp, pp, ep and seq: what both name schemes spell alike.

    In `AicbName`'s field order, so a parse passes them first and adds what its scheme adds.
    """
    return m["model"], int(m["world"]), int(m["tp"]), int(m["pp"]), int(m["ep"]), int(m["seq"])


def parse_filename(path: str | PurePath) -> AicbName | None:
    """The configuration in an AICB-style file name, or None when the name is not one."""
    name = PurePath(path).name
    m = re.fullmatch(_TRAINING, name)
    if m:
        prefixes = (m["prefix"] or "").split("-") if m["prefix"] else []
        gpu = prefixes[-1] if prefixes and prefixes[-1] not in ("aiob", "sp") else None
        return AicbName(
            *_run(m),
            gbs=int(m["gbs"]),
            mbs=int(m["mbs"]),
            moe=m["moe"] == "True",
            aiob="aiob" in prefixes,
            sequence_parallel="sp" in prefixes,
            gpu_type=gpu,
        )
    m = re.fullmatch(_INFERENCE, name)
    if m:
        return AicbName(
            *_run(m),
            gbs=None,
            mbs=int(m["bs"]),
            moe=None,
            aiob=False,
            sequence_parallel=False,
            gpu_type=None,
            inference_phase=m["phase"],
        )
    return None


def training_name(
    *,
    gpu_type: str | None,
    model: str | None,
    world: int,
    tp: int,
    pp: int,
    ep: int,
    gbs: int,
    mbs: int,
    seq: int,
    moe: bool,
    gemm: bool,
    flash: bool,
    with_gpu_type: bool = True,
) -> str:
    """The name AICB's training generator gives its file (`None` where an option was unset).

    `with_gpu_type` False (AICB before 2024-11-05) leaves the `{gpu_type}-` part out.
    """
    prefix = f"{gpu_type}-" if with_gpu_type else ""
    return (
        f"{prefix}{model}-world_size{world}-tp{tp}-pp{pp}-ep{ep}-gbs{gbs}-mbs{mbs}"
        f"-seq{seq}-MOE-{moe}-GEMM-{gemm}-flash_attn-{flash}.txt"
    )


def inference_name(
    *, model: str, world: int, tp: int, pp: int, ep: int, bs: int, seq: int, phase: str
) -> str:
    """The name AICB's inference generator gives its file (the first one, of 2025-09-25, had
    no phase: `phase` empty)."""
    tail = f"-{phase}" if phase else ""
    return f"{model}-world_size{world}-tp{tp}-pp{pp}-ep{ep}-bs{bs}-seq{seq}{tail}.txt"


_FIRST_INFERENCE = (
    r"(?P<model>.+?)-world_size(?P<world>\d+)-tp(?P<tp>\d+)-pp(?P<pp>\d+)-ep(?P<ep>\d+)"
    r"-bs(?P<bs>\d+)-seq(?P<seq>\d+)\.txt"
)


def parse_first_inference_filename(path: str | PurePath) -> AicbName | None:
    """The configuration in a name of AICB's first inference generator (no phase: its
    `inference_phase` is empty), or None."""
    m = re.fullmatch(_FIRST_INFERENCE, PurePath(path).name)
    if m is None:
        return None
    return AicbName(
        *_run(m),
        gbs=None,
        mbs=int(m["bs"]),
        moe=None,
        aiob=False,
        sequence_parallel=False,
        gpu_type=None,
        inference_phase="",
    )


@record
class V1Name:
    """The configuration an AICB v1.0 training file name records (no ep, MoE or GPU part)."""

    model: str
    world: int
    tp: int
    pp: int
    gbs: int
    mbs: int
    seq: int
    flash: bool


def parse_v1_filename(path: str | PurePath) -> V1Name | None:
    """The configuration in an AICB v1.0 file name (after any `prefix-`), or None."""
    m = re.fullmatch(_V1_TRAINING, PurePath(path).name)
    if m is None:
        return None
    world, tp, pp, gbs, mbs, seq = (int(m[k]) for k in ("world", "tp", "pp", "gbs", "mbs", "seq"))
    return V1Name(m["model"], world, tp, pp, gbs, mbs, seq, m["flash"] == "True")


def v1_training_name(name: V1Name) -> str:
    """The name AICB v1.0's training generator gives its file (`None`: no --model_name)."""
    return (
        f"{name.model}-world_size{name.world}-tp{name.tp}-pp{name.pp}-gbs{name.gbs}"
        f"-mbs{name.mbs}-seq{name.seq}-flash_attn-{name.flash}.txt"
    )
