"""AICB's history: every aliyun/aicb revision that changed what its SimAI generators write.

Read from AICB's own history (git log and diffs of `workload_generator/`, `utils/utils.py` and
`scripts/megatron_workload_with_aiob.sh`, aliyun/aicb 4f33c8e .. 23eec3c). Each `Revision`
names the commit, its date and what changed; its `Era` is the generator's behaviour from that
commit on, as a handful of switches the model (`training`, `layers`, `names`, `aiob`,
`generation`) reads. The current model is the last era; an older one differs only where a
switch says so. Any commit of AICB's master (short or full hash) or a date resolves to the
era in force then (`resolve`).

This is the one place that knows AICB's dates: explain and lint ask it (`header_eras`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from wkparse.models.aicb.errors import AicbError

InferenceGenerator = Literal["", "first", "next", "current"]

#: how the training header ends: no pp_comm; always 2*mbs*seq*h; 0 at PP 1; also / TP with SP
PpComm = Literal["none", "always", "pp", "pp_sp"]


#: the DeepSeek options of the training generator (2025-09-15 on)
_DEEPSEEK_OPTIONS = frozenset(
    {
        "--n_dense_layers",
        "--n_shared_expert",
        "--qk_rope_dim",
        "--qk_nope_dim",
        "--q_lora_rank",
        "--kv_lora_rank",
        "--v_head_dim",
    }
)


@dataclass(frozen=True, slots=True)
class Era:
    """How AICB's generators behave from one revision on (the switches the model reads)."""

    #: the training generator's module (renamed 2025-09-25)
    module: str = "AIOB_simAI_workload_generator"
    #: header carries `vpp:` (layers per stage)
    vpp: bool = False
    pp_comm: PpComm = "none"
    #: file name starts with `{gpu_type}-`
    name_gpu_type: bool = False
    #: the embedding's mocked weight is EMBEDDING_ROWS x (vocab / tp) x hidden
    embedding_rows: int = 2
    #: under AIOB, sizes next to a NONE collective are written as 0
    zero_none_sizes: bool = False
    #: rows per MoE block: 7 (Megatron-Core 0.8 model) or 5 (0.13)
    moe_rows: int = 7
    #: a MoE block is built only with --moe_grouped_gemm (else a dense MLP)
    moe_needs_grouped_gemm: bool = True
    #: the path without --aiob_enable runs (before, it stops on `args.expert_parallel_size`)
    plain_path: bool = False
    #: --recompute_activations counts the flash-attention kernel twice in AIOB times
    recompute_doubles_flash: bool = False
    #: --frame DeepSeek and its options exist
    deepseek: bool = False
    #: what the training script passes as --gpu_type when not given (None: the option is absent)
    script_gpu_type: str | None = None
    #: script presets (`-m`) that do not exist yet
    missing_presets: frozenset[str] = frozenset(
        {"405", "deepseek671", "deepseek236", "deepseek16", "deepseek"}
    )
    #: generator options that do not exist yet (argparse refuses them)
    missing_options: frozenset[str] = frozenset(
        {"--workload_only", "--gpu_type", *_DEEPSEEK_OPTIONS, "--moe_routing_strategy"}
    )
    #: the inference generator: none yet, the first one (2025-09-25, `first_inference`), the
    #: first one with Qwen3-Next (side branch, 2025-10-29), or the current one (options,
    #: phases)
    inference: InferenceGenerator = ""
    #: AICB v1.0's training generator and script (`v1_args`, `v1_training`, `v1_script`)
    first_generator: bool = False
    #: v1.0's check stops every run without --moe_enabled and sequence parallelism
    moe_only: bool = False
    #: the side branch shipped `qwen3_default.json` and the `_aiob` configurations for the
    #: current inference generator until 26b1345 (2025-12-05) deleted them
    early_inference_configs: bool = False


@dataclass(frozen=True, slots=True)
class Revision:
    """One AICB commit that changed what a generator writes, and what changed."""

    commit: str
    date: str
    changes: tuple[str, ...]
    era: Era = field(repr=False)

    @property
    def short(self) -> str:
        return self.commit[:7]

    @property
    def label(self) -> str:
        return f"{self.short} ({self.date})"


def _table() -> tuple[Revision, ...]:
    """The revisions, oldest first, each era built from the one before."""
    steps: list[tuple[str, str, tuple[str, ...], dict[str, object]]] = [
        (
            "4f33c8eabeaa5c9484a1e27e878ff2c2b7360088",
            "2024-07-31",
            (
                "AICB v1.0, the first SimAI generator: options --tp_num/--pp_num/--moe_enabled/"
                "--num_moe_experts/--expert_parallel_size; header `model_parallel_NPU_group` "
                "only, after a tab; every layer in the file (no split by pp); file names "
                "`{model}-world_size-tp-pp-gbs-mbs-seq-flash_attn-..` (no gpu type, ep, MoE, "
                "GEMM)",
                "only runs with --moe_enabled and --enable_sequence_parallel pass its check",
                "under AIOB: gradient sizes written as Python tuples `(all, moe, all, moe)`, "
                "one row per layer (norms, MoE blocks, final linear), `None` for times the "
                "AIOB file lacks",
            ),
            {"first_generator": True, "moe_only": True},
        ),
        (
            "d57089804b245c1ce5eba9a990f3e4f36e28b2df",
            "2024-08-23",
            (
                "v1.0's check fixed (merged from 35e43b9): runs without --moe_enabled write "
                "files, with or without sequence parallelism",
            ),
            {"moe_only": False},
        ),
        (
            "b9d142e5a65d4770cef4cfc25683c6af0ccb5a50",
            "2024-09-11",
            (
                "AICB v1.1 generator: header `ep: pp: ga: all_gpus:`, layers per stage "
                "(num_layers // pp), the AIOB path (grad_gather/grad_param_comm/"
                "grad_param_compute), 7 rows per MoE block; the path without --aiob_enable "
                "stops (AttributeError: expert_parallel_size)",
            ),
            {"first_generator": False},
        ),
        (
            "2678a94c875eed5e6a74b8b3ef80bbd533d91c74",
            "2024-10-16",
            ("option --workload_only accepted",),
            {"missing_options": "-{--workload_only}"},
        ),
        (
            "d9b4f5cd7d9d34a80cfbb0389831a16c7fe3ed7b",
            "2024-10-30",
            ("the path without --aiob_enable writes files (the expert_parallel_size fix)",),
            {"plain_path": True},
        ),
        (
            "e0dab52401108931751bb65f47a09105cfbaac04",
            "2024-11-05",
            (
                "header `vpp:` (layers per stage) after `pp:`",
                "file name starts with `{gpu_type}-`; option --gpu_type",
                "--recompute_activations doubles the AIOB flash-attention time",
                "script: --gpu_type (default empty: `--gpu_type=`), preset `-m 405`",
            ),
            {
                "vpp": True,
                "name_gpu_type": True,
                "recompute_doubles_flash": True,
                "script_gpu_type": "",
                "missing_options": "-{--gpu_type}",
                "missing_presets": "-{405}",
            },
        ),
        (
            "af5cf2b6c5c67580ed946727081cbbe096a60f53",
            "2024-11-06",
            ("embedding weight 4 x vocab/tp x hidden (was 2 x): larger gradient collectives",),
            {"embedding_rows": 4},
        ),
        (
            "cf516c0f8a16e0c521984d1bb496f84356693dec",
            "2024-12-02",
            ("header ends ` pp_comm: 2*mbs*seq*hidden` (also with PP 1)",),
            {"pp_comm": "always"},
        ),
        (
            "f16eafb6632d07f79397f014dfb85b1b658423f3",
            "2024-12-04",
            ("`pp_comm: 0` when PP is 1",),
            {"pp_comm": "pp"},
        ),
        (
            "a076fdb885e50c167e4b988c8d96267141968413",
            "2025-01-02",
            ("with sequence parallel pp_comm is divided by TP, written as a float (`.0`)",),
            {"pp_comm": "pp_sp"},
        ),
        (
            "ed1dee44945429040acd4f9f20233bc21ba640c1",
            "2025-01-02",
            (
                "script passes `--gpu_type=None` by default (file names `None-...`)",
                "MoE blocks built without --moe_grouped_gemm too",
            ),
            {"script_gpu_type": "None", "moe_needs_grouped_gemm": False},
        ),
        (
            "741fbe8cf47abd8b5b7336cefa32087f1fb3ed17",
            "2025-09-15",
            (
                "--frame DeepSeek, its options and presets (-m deepseek671/236/16); "
                "per-layer AIOB times; DeepSeek in the seven-row MoE block of the time, "
                "its forward expert dispatch under AIOB with EP > 1 in FP8, written as a "
                "float (`17301504.0`)",
            ),
            {
                "deepseek": True,
                "missing_options": f"-{{{','.join(sorted(_DEEPSEEK_OPTIONS))}}}",
                "missing_presets": "-{deepseek671,deepseek236,deepseek16,deepseek}",
            },
        ),
        (
            "475f32b0e3241fa70fb7e21248e9693339135a28",
            "2025-09-15",
            ("under AIOB, forward/input-gradient sizes next to NONE are written as 0",),
            {"zero_none_sizes": True},
        ),
        (
            "92a99f8d92db12d02d950532d647d07f3d31fcbe",
            "2025-09-24",
            (
                "MoE communication of Megatron-Core 0.13: 5 rows per MoE block (was 7), "
                "routing all-gather 2*ep*experts*tp; DeepSeek's FP8 dispatch written as an int",
            ),
            {"moe_rows": 5},
        ),
        (
            "b866b126b96172e6a3476fa46c7b3f720b65c9d1",
            "2025-09-25",
            (
                "training module renamed workload_generator.SimAI_training_workload_generator "
                "(was AIOB_simAI_workload_generator)",
                "inference generator added: `SimAI_inference_workload_generator MODEL CONFIG` "
                "(Qwen3-Moe, DeepSeek), every setting from the JSON, later words ignored; "
                "tokens micro_batch x seq_length; compute times 0; file name without phase; "
                "script with -m/-c only",
            ),
            {"module": "SimAI_training_workload_generator", "inference": "first"},
        ),
        (
            "23eec3c48ca2d2d93dd888a4c7b22ab4421e782f",
            "2025-12-27",
            (
                "inference generator of the AICB2.0_Pre/Next branches merged: options "
                "(--phase prefill/decode, parallel sizes, ...) over the JSON, Qwen3-Next, "
                "tokens by phase, compute times 1, `-{phase}` in the file name, a larger "
                "script; training unchanged",
                "side-branch commits (--at takes them): 6584080 (2025-10-29) is the first "
                "generator with Qwen3-Next, its configurations, FP8 for every Qwen3 frame and "
                "compute times 1; 05551a1 .. 3a9e8b1 (2025-11-04 ..) write what 23eec3c writes, "
                "ship qwen3_default.json and four `_aiob` configurations until 26b1345 "
                "(2025-12-05) deletes them, and from 9d51993 (2025-12-19) accept "
                "--moe_routing_strategy (GPU runs only)",
            ),
            {"inference": "current", "missing_options": "-{--moe_routing_strategy}"},
        ),
    ]
    era = Era()
    table = []
    for commit, date, changes, switches in steps:
        era = _switched(era, switches)
        table.append(Revision(commit, date, changes, era))
    return tuple(table)


def _switched(era: Era, switches: Mapping[str, object]) -> Era:
    """`era` with its switches set (`"-{a,b}"`: a set switch without a and b)."""
    updates: dict[str, object] = {}
    for key, value in switches.items():
        if isinstance(value, str) and value.startswith("-{"):
            removed = frozenset(value[2:-1].split(","))
            current = getattr(era, key)
            assert isinstance(current, frozenset)
            updates[key] = current - removed
        else:
            updates[key] = value
    return replace(era, **updates)  # type: ignore[arg-type]


REVISIONS: tuple[Revision, ...] = _table()
LATEST = REVISIONS[-1]
_BY_SHORT = {r.short: r for r in REVISIONS}

#: aliyun/aicb's master line (first parents), oldest first: (commit, date)
_MASTER: tuple[tuple[str, str], ...] = (
    ("67e18a7edc16369103f103fb8cff6435d5bf3a32", "2024-07-29"),
    ("4f33c8eabeaa5c9484a1e27e878ff2c2b7360088", "2024-07-31"),
    ("cd91399267252cd8cd18bb185c1980606bf0c014", "2024-07-31"),
    ("d57089804b245c1ce5eba9a990f3e4f36e28b2df", "2024-08-23"),
    ("0877f86479041a1d04ff2803c59413cdc43b93df", "2024-08-27"),
    ("b9d142e5a65d4770cef4cfc25683c6af0ccb5a50", "2024-09-11"),
    ("1cb43042890721c7b9c999b924ad4278c3aa5b60", "2024-09-18"),
    ("d59e03d9e65833d7d7698a8c2daf05b8a293ec7e", "2024-09-18"),
    ("9d97f6511c4c782b30d022b20e2bc15781abec55", "2024-09-23"),
    ("2678a94c875eed5e6a74b8b3ef80bbd533d91c74", "2024-10-16"),
    ("3221f2a1750f6a4d6e64bb33a1db4ddcb8cdcaf8", "2024-10-16"),
    ("d9b4f5cd7d9d34a80cfbb0389831a16c7fe3ed7b", "2024-10-30"),
    ("b1e7bbde4687a37d8bb65b86cf2536f2728423b8", "2024-11-04"),
    ("7a5ac72099de92f6982d783224c2f3ea3a078c4f", "2024-11-04"),
    ("e0dab52401108931751bb65f47a09105cfbaac04", "2024-11-06"),
    ("d9051780c9e49eeda5cada70bbaf830a6afe59cb", "2024-11-06"),
    ("af5cf2b6c5c67580ed946727081cbbe096a60f53", "2024-11-06"),
    ("929fbee5367e2f1d18b22b6a9f490a144476e2bb", "2024-11-14"),
    ("da81712c3bae27b43f96956ce536027ac4a28aa7", "2024-11-14"),
    ("cf516c0f8a16e0c521984d1bb496f84356693dec", "2024-12-02"),
    ("f16eafb6632d07f79397f014dfb85b1b658423f3", "2024-12-04"),
    ("a076fdb885e50c167e4b988c8d96267141968413", "2025-01-02"),
    ("ed1dee44945429040acd4f9f20233bc21ba640c1", "2025-01-02"),
    ("3ccea49b47372f8389ed68be92f530a10f26b713", "2025-05-30"),
    ("9ac2f0ecc233996e8da3f34b2ae4c15f81543134", "2025-05-30"),
    ("741fbe8cf47abd8b5b7336cefa32087f1fb3ed17", "2025-09-15"),
    ("475e77e39fb9b00d1c4df8f3c56ce7571ef11872", "2025-09-15"),
    ("475f32b0e3241fa70fb7e21248e9693339135a28", "2025-09-15"),
    ("92a99f8d92db12d02d950532d647d07f3d31fcbe", "2025-09-24"),
    ("b866b126b96172e6a3476fa46c7b3f720b65c9d1", "2025-09-25"),
    ("dcd285c04f0453cba1925182e2c8f34c4fd2b1df", "2025-09-25"),
    ("fbb35d1644b150839a871930aee2cdc08e164557", "2025-09-25"),
    ("3d58f44827ca817f214a9c68f11ed35e33ec7b03", "2025-09-28"),
    ("23eec3c48ca2d2d93dd888a4c7b22ab4421e782f", "2025-12-27"),
)
#: commits merged into master from side branches: (commit, date, the revision whose behaviour
#: it has, its inference generator where that differs, and the switches where its era differs
#: more): the AICB2.0_Pre/Next branch had Qwen3-Next on the first generator on 2025-10-29, the
#: current one from 2025-11-04 (with configurations 26b1345 deleted on 2025-12-05), and
#: --moe_routing_strategy from 2025-12-19
_ROUTING: Mapping[str, object] = {"missing_options": "-{--moe_routing_strategy}"}
_EARLY: Mapping[str, object] = {"early_inference_configs": True}
_NONE: Mapping[str, object] = {}
_MERGED: tuple[tuple[str, str, str, InferenceGenerator, Mapping[str, object]], ...] = (
    ("35e43b9df35f939b9c5634ff04f4e28d5d759f0a", "2024-08-12", "d570898", "", _NONE),
    ("2c085ffe77f4703c381d829eee9cdbd1cf35de3d", "2024-08-26", "d570898", "", _NONE),
    ("2cfde3dd9fc41247c80a83b60fe575aa294c5730", "2024-08-26", "d570898", "", _NONE),
    ("6a03ecd6155c281bf8e81a72815cd2a8b9ad990a", "2024-10-23", "2678a94", "", _NONE),
    ("34de7951404f1f0a5dcfe1bfb088d71726ffd88c", "2024-11-05", "d9b4f5c", "", _NONE),
    ("c602a73e7688af7d2487101f2a131e64caa15bb4", "2025-09-28", "b866b12", "", _NONE),
    ("6584080f4d1caa631e42a15077abeff8806922a4", "2025-10-29", "b866b12", "next", _NONE),
    ("05551a107d9c5cf3ccbd6ec341e6b69cd9015e9c", "2025-11-04", "b866b12", "current", _EARLY),
    ("ba18e863e853db9a2c082cb3d73f8ff253c6bdb3", "2025-11-13", "b866b12", "current", _EARLY),
    ("7dae7db2d3ec4956b711db07c174d7a78b756b37", "2025-11-13", "b866b12", "current", _EARLY),
    ("47c6205085d5c61b8dabff553c4fdd86145f4556", "2025-11-13", "b866b12", "current", _EARLY),
    ("f182db7825e0e63e2dbfecd26b482418036c2a2b", "2025-11-18", "b866b12", "current", _EARLY),
    ("3d4d33b2d5d24ba7e0c1d5c46198cbc60666e5f3", "2025-11-26", "b866b12", "current", _EARLY),
    ("c8a458815a6dd82df7617a9a47dbbfa10318523f", "2025-11-28", "b866b12", "current", _EARLY),
    ("94f5cb4d50a6087b3a4ef82e88b48eea0860e878", "2025-12-05", "b866b12", "current", _EARLY),
    ("26b13457b0c214311f6a7658a79f6c58001b3549", "2025-12-05", "b866b12", "current", _NONE),
    ("508cd8f95318e434ab5a3b14338335a49506df70", "2025-12-05", "b866b12", "current", _NONE),
    ("9d51993367927fe4e2b1d054a1a257403b4258e2", "2025-12-19", "b866b12", "current", _ROUTING),
    ("3a9e8b1a1c3096bb7085d43452d45a9baf69d18e", "2025-12-26", "b866b12", "current", _ROUTING),
)


def master_on(day: str) -> tuple[str, str] | None:
    """(commit, date) of aliyun/aicb's master at the end of `day` (YYYY-MM-DD); None before
    AICB's first commit."""
    known = [m for m in _MASTER if m[1] <= day]
    return known[-1] if known else None


def masters_during(period: str) -> tuple[tuple[str, str], ...]:
    """(commit, date) of every AICB master a user could have had during `period`: for a day
    (YYYY-MM-DD), the one at its end; for a month (YYYY-MM), the one in force when it began
    and each committed in it."""
    if len(period) == 10:
        last = master_on(period)
        return (last,) if last is not None else ()
    begun = [m for m in _MASTER if m[1] < f"{period}-01"]
    return tuple(begun[-1:] + [m for m in _MASTER if m[1][:7] == period])


def _in_force_at(index_in_master: int, rev: str) -> Revision:
    """The last revision at or before master's commit `index_in_master`."""
    best = None
    known = {r.commit: r for r in REVISIONS}
    for commit, _date in _MASTER[: index_in_master + 1]:
        best = known.get(commit, best)
    if best is None:
        first = REVISIONS[0]
        raise AicbError(f"--at {rev}: AICB had no SimAI generator yet (it came with {first.label})")
    return best


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_HASH = re.compile(r"^[0-9a-fA-F]{4,40}$")


def resolve(rev: str) -> Revision:
    """The revision in force at `rev`: an AICB commit (4+ hex digits) or a date (YYYY-MM-DD).

    A date means master as it stood at the end of that day. AicbError when `rev` is neither,
    is ambiguous, or predates AICB.
    """
    text = rev.strip()
    if _DATE.match(text):
        index = -1
        for i, (_commit, date) in enumerate(_MASTER):
            if date <= text:
                index = i
        if index < 0:
            raise AicbError(f"--at {rev}: before AICB's first commit ({_MASTER[0][1]})")
        return _in_force_at(index, rev)
    if not _HASH.match(text):
        raise AicbError(
            f"--at {rev}: give an AICB commit (short or full hash) or a date YYYY-MM-DD"
        )
    low = text.lower()
    master = [i for i, (c, _d) in enumerate(_MASTER) if c.startswith(low)]
    merged = [m for m in _MERGED if m[0].startswith(low)]
    if len(master) + len(merged) > 1:
        raise AicbError(f"--at {rev}: ambiguous AICB commit; give more digits")
    if master:
        return _in_force_at(master[0], rev)
    if merged:
        _commit, _date, era_of, inference, _switches = merged[0]
        return _side_revision(merged[0]) if inference else _BY_SHORT[era_of]
    raise AicbError(
        f"--at {rev}: not a commit of aliyun/aicb's master (known up to {LATEST.label})"
    )


def _side_revision(
    entry: tuple[str, str, str, InferenceGenerator, Mapping[str, object]],
) -> Revision:
    commit, date, era_of, inference, switches = entry
    like = _BY_SHORT[era_of].era
    era = _switched(replace(like, inference=inference or like.inference), switches)
    return Revision(commit, date, (), era)


def dated(commit: str) -> str:
    """An AICB commit (a short hash of master or of a merged side branch) with its date:
    `d9b4f5c (2024-10-30)`; as given when it is neither."""
    low = commit.lower()
    found = [d for c, d in _MASTER if c.startswith(low)] + [
        m[1] for m in _MERGED if m[0].startswith(low)
    ]
    return f"{commit} ({found[0]})" if len(found) == 1 else commit


def side_branch() -> tuple[Revision, ...]:
    """Every side-branch commit `--at` takes, as a revision of its own (oldest first):
    `--infer` names those that write a file too."""
    return tuple(map(_side_revision, _MERGED))


def after(rev: Revision) -> Revision | None:
    """The next revision in the table (None after the last)."""
    i = REVISIONS.index(rev)
    return REVISIONS[i + 1] if i + 1 < len(REVISIONS) else None


def since(first: Revision) -> Iterator[Revision]:
    """`first` and every later revision."""
    yield from REVISIONS[REVISIONS.index(first) :]


def version_lines() -> list[str]:
    """`wkparse aicb --versions`: each revision, its date and what changed."""
    lines = []
    for r in REVISIONS:
        lines.append(f"{r.short}  {r.date}")
        lines += [f"  - {change}" for change in r.changes]
    return lines


#: the dated changes a file itself shows, by the revision that made them (explain dates a file
#: by them, lint says since when AICB writes a key)
_SHOWN = {
    "header_ep_pp_ga": "b9d142e",
    "vpp": "e0dab52",
    "pp_comm": "cf516c0",
    "pp_comm_zero_at_pp_1": "f16eafb",
    "pp_comm_divided_under_sp": "a076fdb",
    "none_sizes_zeroed": "475f32b",
    "moe_five_rows": "92a99f8",
}


def introduced(change: str) -> Revision:
    """The revision that made `change` (a key of `_SHOWN`: "vpp", "pp_comm", ...)."""
    return _BY_SHORT[_SHOWN[change]]
