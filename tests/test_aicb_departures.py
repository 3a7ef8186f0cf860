"""AICB's output against Megatron-LM's per-layer collectives
(`wkparse.models.aicb.reading.departures`, WK901).

Both paths of the same command are generated with the AICB model and read: the AIOB path
without sequence parallelism leaves out the input-gradient TP all-reduce (aliyun/SimAI#292,
#251), the AIOB path with it writes the input-gradient reduce-scatter with 0 bytes, the
non-AIOB path with it writes no backward TP collective and puts the parameter all-gather in
the TP group; Megatron-frame MoE keeps its all-to-all under AIOB, DeepSeek MoE without
sequence parallelism does not.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from wkparse.body import Body
from wkparse.cli import app
from wkparse.config import Config
from wkparse.engine import lint
from wkparse.models.aicb import generate
from wkparse.models.aicb.reading.departures import Departure, Reading, read
from wkparse.models.aicb.training.args import TrainingArgs
from wkparse.models.simai import header_value
from wkparse.parse import parse_bytes

from .conftest import absent, require
from .test_aicb_generate import CORPUS, EXAMPLE, TRAINING, WRITTEN
from .test_aicb_lint import SEED

DENSE = (
    f"{TRAINING} --world_size 16 --tensor_model_parallel_size 4 --num_layers 4 --global_batch 8 "
    "--hidden_size 1024 --num_attention_heads 16"
)
MOE = (
    f"{TRAINING} --world_size 16 --tensor_model_parallel_size 2 --num_layers 2 --global_batch 8 "
    "--hidden_size 1024 --num_attention_heads 16 --moe_enable --num_experts 8 "
    "--moe_router_topk 2 --expert_model_parallel_size 4 --enable_sequence_parallel"
)
DEEPSEEK = (
    f"{TRAINING} --frame DeepSeek --world_size 16 --tensor_model_parallel_size 1 --num_layers 3 "
    "--global_batch 16 --hidden_size 1024 --num_attention_heads 16 --num_experts 16 "
    "--expert_model_parallel_size 8 --n_dense_layers 1 --ffn_hidden_size 512"
)
#: a file of no AICB generator's (no policy, prologue or groups of AICB's)
MICRO = "MICRO\n1\nmicro_test\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tALLREDUCE\t4096\t1\n"
#: 2 * micro_batch * seq_length (AICB's default 2048) * hidden_size
ACTIVATION = 2 * 1 * 2048 * 1024


def _read(command: str, *, told: bool = True) -> Reading:
    made = generate(command)
    w = parse_bytes(made.text().encode()).workload
    assert isinstance(made.args, TrainingArgs)
    reading = read(w, Body(w), made.args if told else None)
    assert reading is not None
    return reading


def _keys(r: Reading) -> set[tuple[str, str, str, str, bool]]:
    return {
        (d.block, d.expected.phase, d.expected.group, d.expected.kind, d.zero) for d in r.departures
    }


def _one(r: Reading, block: str, phase: str, kind: str) -> Departure:
    (d,) = [
        d
        for d in r.departures
        if (d.block, d.expected.phase, d.expected.kind) == (block, phase, kind)
    ]
    return d


def test_aiob_path_leaves_out_the_input_gradient_all_reduce_the_plain_path_writes() -> None:
    aiob, plain = _read(f"{DENSE} {EXAMPLE}"), _read(DENSE)
    assert _keys(aiob) == {
        ("attention", "ig", "TP", "ALLREDUCE", False),
        ("mlp", "ig", "TP", "ALLREDUCE", False),
    }
    d = _one(aiob, "attention", "ig", "ALLREDUCE")
    assert (d.blocks, d.of, d.expected.size) == (4, 4, ACTIVATION)
    assert d.issue == "aliyun/SimAI#292, #251"
    assert d.missing == 4 * ACTIVATION and aiob.per_iteration(d) == 4 * ACTIVATION * 2  # ga 2
    # the non-AIOB path has every TP collective; it misses only the DP parameter all-gather,
    # which it writes in the forward column (SimAI runs that in the TP group)
    assert _keys(plain) == {("gradients", "wg", "DP", "ALLGATHER", False)}
    assert _one(plain, "gradients", "wg", "ALLGATHER").instead == "fwd TP ALLGATHER"


def test_sequence_parallel_paths() -> None:
    aiob, plain = (
        _read(f"{DENSE} --enable_sequence_parallel {EXAMPLE}"),
        _read(f"{DENSE} --enable_sequence_parallel"),
    )
    assert _keys(aiob) == {
        ("attention", "ig", "TP", "REDUCESCATTER", True),
        ("mlp", "ig", "TP", "REDUCESCATTER", True),
    }
    assert _keys(plain) == {
        ("attention", "ig", "TP", "REDUCESCATTER", False),
        ("attention", "ig", "TP", "ALLGATHER", False),
        ("mlp", "ig", "TP", "REDUCESCATTER", False),
        ("mlp", "ig", "TP", "ALLGATHER", False),
        ("gradients", "wg", "DP", "ALLGATHER", False),
    }


def test_megatron_moe_keeps_its_all_to_all_under_aiob() -> None:
    """What AICB really writes (2025-12): the expert all-to-all is there with and without AIOB;
    only the attention blocks' backward TP traffic departs."""
    for command in (MOE, f"{MOE} {EXAMPLE}"):
        assert not [d for d in _read(command).departures if d.block == "moe"]
    assert _keys(_read(f"{MOE} {EXAMPLE}")) == {("attention", "ig", "TP", "REDUCESCATTER", True)}


@pytest.mark.parametrize("aiob", [True, False], ids=["aiob", "plain"])
def test_deepseek_moe_without_sequence_parallelism_has_no_all_to_all(aiob: bool) -> None:
    command = f"{DEEPSEEK} {EXAMPLE}" if aiob else DEEPSEEK
    r = _read(command)
    moe = [d for d in r.departures if d.block == "moe"]
    assert {(d.expected.phase, d.expected.group, d.expected.kind) for d in moe} == {
        ("fwd", "EP", "ALLTOALL"),
        ("ig", "EP", "ALLTOALL"),
    }
    assert len(moe) == 4  # dispatch and combine, forward and backward
    assert all((d.blocks, d.of, d.expected.size) == (2, 2, ACTIVATION) for d in moe)
    # from the file alone the routing (topk) is unknown: the traffic is named, bytes are not
    alone = [d for d in _read(command, told=False).departures if d.block == "moe"]
    assert len(alone) == 4 and all(d.missing is None for d in alone)


def test_file_alone_reads_like_file_with_its_command() -> None:
    for command in (f"{DENSE} {EXAMPLE}", f"{DENSE} --enable_sequence_parallel", MOE):
        told, alone = _read(command), _read(command, told=False)
        assert [(d.block, d.expected, d.blocks, d.zero) for d in alone.departures] == [
            (d.block, d.expected, d.blocks, d.zero) for d in told.departures
        ]


def test_other_files_are_not_read() -> None:
    w = parse_bytes(MICRO.encode()).workload
    assert read(w, Body(w)) is None


def _seed() -> bytes:
    return require(CORPUS / SEED).read_bytes()


def test_lint_is_silent_by_default_and_opt_in_names_the_missing_traffic() -> None:
    data = _seed()
    result = parse_bytes(data)
    assert not [d for d in lint(result, SEED) if d.code == "WK901"]
    found = [d for d in lint(result, SEED, Config(extend_select=("WK9",))) if d.code == "WK901"]
    assert [(d.span.line, d.message) for d in found] == [
        (
            11,
            "AICB leaves out ig TP ALLREDUCE (the column-parallel input-gradient all-reduce) in "
            "9 of 9 attention blocks per micro-batch, 33554432 B each (see aliyun/SimAI#292, #251)",
        ),
        (
            12,
            "AICB leaves out ig TP ALLREDUCE (the column-parallel input-gradient all-reduce) in "
            "9 of 9 MLP blocks per micro-batch, 33554432 B each (see aliyun/SimAI#292, #251)",
        ),
    ]


def test_cli_extend_select_turns_it_on() -> None:
    data = _seed()
    runner = CliRunner()
    quiet = runner.invoke(app, ["lint", "--stdin-filename", SEED, "-"], input=data)
    assert "WK901" not in quiet.output
    loud = runner.invoke(
        app, ["lint", "--extend-select", "WK9", "--stdin-filename", SEED, "-"], input=data
    )
    assert loud.output.count("WK901") == 2 and "aliyun/SimAI#292" in loud.output


def _explained(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(app, ["explain", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)["missing_traffic"]
    assert isinstance(found, dict)
    return found


def test_explain_says_which_traffic_is_missing_by_phase_and_group_with_bytes() -> None:
    """The same command with and without AIOB: explain names what the AIOB file lacks."""
    aiob = _explained("--aicb-command", f"{DENSE} {EXAMPLE}")
    assert aiob["basis"] == "command"
    rows = aiob["collectives"]
    assert isinstance(rows, list)
    assert [(m["block"], m["phase"], m["group"], m["collective"]) for m in rows] == [
        ("attention", "ig", "TP", "ALLREDUCE"),
        ("mlp", "ig", "TP", "ALLREDUCE"),
    ]
    first = rows[0]
    assert (first["bytes_each"], first["missing_bytes_per_group"]) == (ACTIVATION, 4 * ACTIVATION)
    assert first["missing_bytes_per_iteration"] == 8 * ACTIVATION  # ga 2
    assert first["issue"] == "aliyun/SimAI#292, #251"
    assert "RowParallelLinear" in str(rows) or "layers.py" in str(first["source"])
    plain = _explained("--aicb-command", DENSE)
    assert [(m["block"], m["group"]) for m in plain["collectives"]] == [  # type: ignore[union-attr]
        ("gradients", "DP")
    ]


def test_explain_text_has_the_section_only_for_files_that_lack_traffic() -> None:
    runner = CliRunner()
    aiob = runner.invoke(app, ["explain", "--aicb-command", f"{DENSE} {EXAMPLE}"])
    assert "What AICB leaves out" in aiob.stdout
    assert "missing in 4 of 4 attention blocks" in " ".join(aiob.stdout.split())
    moe = _explained("--aicb-command", f"{MOE} {EXAMPLE}")
    assert all(m["block"] != "moe" for m in moe["collectives"])  # type: ignore[union-attr,index]
    micro = runner.invoke(
        app,
        ["explain", "-"],
        input=MICRO,
    )
    assert micro.exit_code == 0 and "What AICB leaves out" not in micro.stdout


def test_explain_of_the_seed_file_alone_reads_it_from_its_own_rows() -> None:
    _seed()
    found = _explained(str(CORPUS / SEED))
    assert found["basis"] == "file"
    assert {m["missing_bytes_per_iteration"] for m in found["collectives"]} == {  # type: ignore[union-attr,index]
        9 * 33554432 * 64
    }


TRAINING_FILES = [(f, a) for f, e, a in WRITTEN if "inference" not in e]


@pytest.mark.skipif(not TRAINING_FILES, reason=absent(CORPUS))
@pytest.mark.parametrize(("file", "args"), TRAINING_FILES, ids=[f for f, _ in TRAINING_FILES])
def test_every_current_corpus_file_departs_as_its_path_does(file: str, args: str) -> None:
    """Real AICB output (2025-12), read from the file alone: which path made it decides what
    is missing, and reading it with its command gives the same departures."""
    w = parse_bytes((CORPUS / file).read_bytes()).workload
    r = read(w, Body(w))
    if r is None:  # ga 0: no micro-batch group to read
        assert header_value(w.header, "ga") == 0
        return
    words = args.split()
    tp = int(words[words.index("--tensor_model_parallel_size") + 1])
    aiob, sp = "--aiob_enable" in words, "--enable_sequence_parallel" in words
    tp_missing = {
        (d.expected.phase, d.expected.kind, d.zero)
        for d in r.departures
        if d.block in ("attention", "mlp")
    }
    if tp == 1:
        assert tp_missing == set()
    elif aiob and not sp:
        assert tp_missing == {("ig", "ALLREDUCE", False)}
    elif aiob:
        assert tp_missing == {("ig", "REDUCESCATTER", True)}
    elif sp:
        assert tp_missing == {("ig", "REDUCESCATTER", False), ("ig", "ALLGATHER", False)}
    else:
        assert tp_missing == set()
    assert not [d for d in r.departures if d.block == "moe"]
    told = _read(f"{TRAINING} {args}")
    assert _keys(told) == _keys(r)
