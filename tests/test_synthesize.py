"""Tests for benchmarks/synthesize.py: the AICB-shaped workload generator."""

from __future__ import annotations

import importlib.util
import itertools
import shlex
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import (
    GENERATED,
    ROOT,
    SAMPLES,
    SEED,
    absent,
    generator_arguments,
    manifest,
    require,
)


def _load() -> ModuleType:
    name = "wkparse_bench_synthesize"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "synthesize.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look the module up while the class is built
    spec.loader.exec_module(module)
    return module


syn = _load()

SEED_ARGS = {
    "tp": 4, "pp": 4, "world": 128, "gbs": 512, "mbs": 1, "seq": 4096,
    "layers": 36, "hidden": 4096,
}  # fmt: skip

# (sample file, the CLI arguments that produce it; samples/README.md lists the same)
SAMPLE_COMMANDS = [
    (
        "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt",
        "--model gpt_7B --world 128 --tp 4 --pp 4 --gbs 512 --mbs 1 --seq 4096",
    ),
    (
        "gpt13b-world8-tp2-pp1-sp.txt",
        "--model gpt_13B --world 8 --tp 2 --pp 1 --gbs 32 --mbs 1 --seq 4096 --sp",
    ),
    (
        "mixtral-world32-tp2-pp2-ep8-sp-moe.txt",
        "--model Mixtral_8x7B --world 32 --tp 2 --pp 2 --ep 8 --gbs 256 --mbs 2 --seq 8192"
        " --sp --moe",
    ),
]


def _shape(text: str) -> tuple[str, str, list[tuple[str, ...]]]:
    """Header, declared count and each row's (name, comm types, sizes)."""
    lines = text.splitlines()
    rows = [line.split("\t") for line in lines[2:]]
    return lines[0], lines[1], [(r[0], r[3], r[4], r[6], r[7], r[9], r[10]) for r in rows]


def _seed_file() -> Path:
    return require(SEED)


def test_seed_structure_matches_corpus() -> None:
    seed = _seed_file()
    got = syn.synthesize(**SEED_ARGS)
    want = seed.read_text(encoding="utf-8")
    g_head, g_count, g_rows = _shape(got)
    w_head, w_count, w_rows = _shape(want)
    assert g_head == w_head
    assert g_count == w_count == "1230"
    assert len(g_rows) == 1230
    assert g_rows == w_rows
    assert got == want  # compute times too: AICB's Example.txt values


def test_seed_layout_numbers() -> None:
    text = syn.synthesize(**SEED_ARGS)
    lines = text.splitlines()
    assert " vpp: 9 ga: 64 " in lines[0]
    assert lines[0].endswith("pp_comm: 33554432")
    names = [line.split("\t")[0] for line in lines[2:]]
    starts = [i for i, n in enumerate(names) if n == "embedding_layer"]
    assert len(starts) == 64
    assert {b - a for a, b in itertools.pairwise(starts)} == {19}
    assert all(len(line.split("\t")) == 12 for line in lines[2:])


def test_seed_filename() -> None:
    seed = _seed_file()
    name = syn.aicb_filename(model="gpt_7B", world=128, tp=4, pp=4, gbs=512, mbs=1, seq=4096)
    assert name == seed.name


def _manifest_cases() -> list[tuple[str, str]]:
    return [
        (r["file"], r["arguments"])
        for r in manifest()
        if r["generator"] == "aicb-2025-12" and "inference" not in r["file"]
    ]


def _config_from_aicb_args(args: str) -> object:
    opts = generator_arguments(args)
    return syn.WorkloadConfig(
        tp=int(opts["tensor_model_parallel_size"]),
        pp=int(opts["pipeline_model_parallel"]),
        ep=int(opts.get("expert_model_parallel_size", 1)),
        world=int(opts["world_size"]),
        gbs=int(opts["global_batch"]),
        mbs=int(opts["micro_batch"]),
        seq=int(opts["seq_length"]),
        layers=int(opts["num_layers"]),
        hidden=int(opts["hidden_size"]),
        vocab=int(opts.get("vocab_size", 50257)),
        ffn=int(opts["ffn_hidden_size"]) if "ffn_hidden_size" in opts else None,
        sequence_parallel="enable_sequence_parallel" in opts,
        aiob="aiob_enable" in opts,
        moe="moe_enable" in opts,
        experts=int(opts.get("num_experts", 8)),
        topk=int(opts.get("moe_router_topk", 2)),
    )


@pytest.mark.parametrize(("file", "args"), _manifest_cases() or [("-", "")])
def test_current_era_corpus_files_reproduced(file: str, args: str) -> None:
    if file == "-" or not (GENERATED / file).is_file():
        pytest.skip(absent(GENERATED))
    cfg = _config_from_aicb_args(args)
    assert syn.render(cfg) == (GENERATED / file).read_text(encoding="utf-8")


@pytest.mark.parametrize(("sample", "command"), SAMPLE_COMMANDS)
def test_samples_do_not_drift(sample: str, command: str, tmp_path: Path) -> None:
    path = SAMPLES / sample
    assert path.is_file(), f"{path} missing; regenerate it with: {command}"
    out = tmp_path / sample
    assert syn.main([*shlex.split(command), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    readme = (SAMPLES / "README.md").read_text(encoding="utf-8")
    assert f"python benchmarks/synthesize.py {command} -o samples/{sample}" in readme


def test_samples_are_small() -> None:
    for sample, _ in SAMPLE_COMMANDS:
        count = int((SAMPLES / sample).read_text(encoding="utf-8").splitlines()[1])
        assert count < 3000


def test_declared_count_matches_rows() -> None:
    for sp, moe, aiob in [(False, False, True), (True, False, False), (True, True, True)]:
        text = syn.synthesize(
            tp=2, pp=2, ep=2, world=16, gbs=8, mbs=1, seq=1024, layers=4, hidden=1024,
            sequence_parallel=sp, moe=moe, aiob=aiob,
        )  # fmt: skip
        lines = text.splitlines()
        assert int(lines[1]) == len(lines) - 2


def test_rows_option_million() -> None:
    cfg, _, _ = syn.config_from_args(
        ["--model", "gpt_7B", "--world", "8", "--tp", "8", "--pp", "1", "--rows", "1000000"]
    )
    assert cfg.pp == 1 and cfg.vpp == 36
    assert abs(syn.row_count(cfg) - 1_000_000) <= 10_000
    assert 13_000 <= cfg.ga <= 15_000


def test_sp_pp_comm_is_float_and_pp1_is_zero() -> None:
    text = syn.synthesize(
        tp=4, pp=4, world=64, gbs=4, mbs=1, seq=4096, layers=36, hidden=4096,
        sequence_parallel=True,
    )  # fmt: skip
    assert text.splitlines()[0].endswith("pp_comm: 8388608.0")
    text = syn.synthesize(tp=2, pp=1, world=8, gbs=32, mbs=1, seq=4096, layers=40, hidden=5120)
    assert text.splitlines()[0].endswith("pp_comm: 0")


def test_no_aiob_placeholder_times_and_embedding_norm() -> None:
    text = syn.synthesize(
        tp=4, pp=4, world=32, gbs=128, mbs=1, seq=2048, layers=36, hidden=4096, aiob=False
    )
    rows = [line.split("\t") for line in text.splitlines()[2:]]
    once = ("grad_norm", "layernorm", "moe_grad_norm", "cross_entropy", "optimizer")
    groups = [r for r in rows if not r[0].startswith(once)]
    assert {r[2] for r in groups} == {"1"}
    assert sum(r[0] == "embedding_norm" for r in rows) == 64


def test_moe_requires_sequence_parallel() -> None:
    with pytest.raises(ValueError):
        syn.synthesize(tp=2, pp=1, world=8, gbs=8, mbs=1, seq=1024, layers=2, hidden=1024, moe=True)
