"""Record what the real AICB generator writes at old revisions, for the tests to compare with.

```sh
python3 -m venv /tmp/aicb-venv && /tmp/aicb-venv/bin/pip install pandas   # AICB needs no torch
python benchmarks/aicb_record.py --aicb-git PATH/TO/aicb/.git --python /tmp/aicb-venv/bin/python
```

For each case below it unpacks aliyun/aicb at the case's commit (only the generator's folders,
with `git archive`) into a temporary folder, runs the command there as a user would (`python`
is the interpreter given, first on PATH for AICB's script, which `sh` runs), and copies every
file AICB wrote under `results/workload/` into `tests/recordings/aicb-<commit>/`, its name
behind the case's number (`03-` + AICB's own name: two cases may give one name); the
configurations in `tests/recordings/inputs/` are copied beside AICB first. `MANIFEST.tsv` there
lists each run: the file (`-` when AICB wrote none), the commit, the command as typed, AICB's
exit status and its last line on standard error, or output when it wrote none there (its
assertion or message, when it refused). The commands
are chosen for small files. Nothing here imports wkparse: the recordings are AICB's own output.
"""

from __future__ import annotations

import argparse
import csv
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "tests" / "recordings"
#: what the training generator imports, and the script and AIOB example it is run with
_PATHS = ("workload_generator", "utils", "log_analyzer", "workload/aiob_inputs", "scripts")

V1 = "python -m workload_generator.AIOB_simAI_workload_generator"
SCRIPT = "sh scripts/megatron_workload_with_aiob.sh"
INFERENCE = "python -m workload_generator.SimAI_inference_workload_generator"
#: configurations some cases read, copied beside AICB (the tests read them from there too)
INPUTS = OUT / "inputs"
EXAMPLE = "--aiob_enable --comp_filepath workload/aiob_inputs/Example.txt"
#: a small Mixtral-like MoE run in the v1.0 options (2 micro-batch groups)
V1_MOE = (
    "--model_name Mixtral_8x7B --num_layers 4 --hidden_size 4096 --num_attention_heads 32 "
    "--ffn_hidden_size 14336 --world_size 16 --tp_num 2 --pp_num 2 --global_batch 8 "
    "--micro_batch 1 --seq_length 4096 --swiglu --use_flash_attn --vocab_size 50257 "
    "--moe_enabled --enable_sequence_parallel --num_moe_experts 8 --moe_router_topk 2 "
    "--expert_parallel_size 4"
)
V1_GPT = (
    "--model_name gpt_7B --num_layers 4 --hidden_size 4096 --num_attention_heads 32 "
    "--world_size 16 --tp_num 4 --pp_num 2 --global_batch 6 --micro_batch 1 --seq_length 2048 "
    "--swiglu --use_flash_attn --vocab_size 50257"
)
#: a small DeepSeek run (MLA attention, one dense layer, shared experts) in the 2025 options
DEEPSEEK = (
    "--frame DeepSeek --model_name DeepSeek_tiny --num_layers 3 --n_dense_layers 1 "
    "--hidden_size 2048 --num_attention_heads 16 --ffn_hidden_size 1408 --q_lora_rank 512 "
    "--kv_lora_rank 512 --qk_nope_dim 128 --qk_rope_dim 64 --v_head_dim 128 --n_shared_expert 2 "
    "--moe_enable --moe_grouped_gemm --num_experts 16 --moe_router_topk 4 --world_size 16 "
    "--pipeline_model_parallel 1 --global_batch 32 --micro_batch 1 --seq_length 2048 "
    "--vocab_size 50257 --enable_sequence_parallel"
)
DEEPSEEK_DEFAULT = "DeepSeek-671B scripts/inference_configs/deepseek_default.json"
EP8 = "--world_size 8 --expert_model_parallel_size 8"
CONFIGS = "scripts/inference_configs"
#: (commit, command as typed); the commit is aliyun/aicb's
CASES: tuple[tuple[str, str], ...] = (
    # 4f33c8e (2024-07-31), AICB v1.0: only MoE runs with sequence parallelism pass its check
    ("4f33c8e", f"{V1} {V1_MOE} --moe_grouped_gemm"),
    ("4f33c8e", f"{V1} {V1_MOE} --moe_grouped_gemm {EXAMPLE}"),
    ("4f33c8e", f"{V1} {V1_MOE} {EXAMPLE}"),
    ("4f33c8e", f"{V1} {V1_MOE.replace('--tp_num 2', '--tp_num 1')} --moe_grouped_gemm"),
    ("4f33c8e", f"{V1} {V1_GPT} {EXAMPLE}"),
    (
        "4f33c8e",
        f"{SCRIPT} -m 7 --world_size 8 --global_batch 4 --moe_enabled --sp "
        f"--num_moe_experts 4 --moe_router_topk 2 --expert_parallel_size 2 --grouped_gemm "
        f"{EXAMPLE}",
    ),
    # d570898 (2024-08-23): the check fixed, runs without MoE write files too
    ("d570898", f"{V1} {V1_GPT}"),
    ("d570898", f"{V1} {V1_GPT} {EXAMPLE}"),
    ("d570898", f"{V1} {V1_GPT} --enable_sequence_parallel {EXAMPLE}"),
    ("d570898", f"{V1} {V1_GPT} --enable_sequence_parallel --add_bias_linear"),
    ("d570898", f"{SCRIPT} -m 7 --world_size 8 --global_batch 4 --use_flash_attn"),
    # 741fbe8 and 475f32b (2025-09-15): DeepSeek in the seven-row MoE block of its time
    *(
        (commit, f"{V1} {DEEPSEEK} {parallel} {aiob}")
        for commit in ("741fbe8", "475f32b")
        for parallel in (
            "--tensor_model_parallel_size 1 --expert_model_parallel_size 4",
            "--tensor_model_parallel_size 2 --expert_model_parallel_size 8",
            "--tensor_model_parallel_size 2 --expert_model_parallel_size 1",
        )
        for aiob in ("", EXAMPLE)
    ),
    ("475f32b", f"{SCRIPT} -m deepseek16 --world_size 8 --global_batch 8 --sp {EXAMPLE}"),
    # b866b12 (2025-09-25): the first inference generator, every setting from its JSON
    ("b866b12", f"{INFERENCE} Qwen3-Moe-235B scripts/inference_configs/qwen3_default.json"),
    ("b866b12", f"{INFERENCE} DeepSeek-671B scripts/inference_configs/deepseek_default.json"),
    ("b866b12", "sh scripts/inference_workload_with_aiob.sh"),
    ("b866b12", f"{INFERENCE} Qwen3-Moe-30B qwen3_small.json --world_size 64"),
    ("b866b12", f"{INFERENCE} DeepSeek-V3 deepseek_small.json"),
    # 6584080 (2025-10-29, side branch): Qwen3-Next on the first generator, times 1
    ("6584080", f"{INFERENCE} Qwen3-Next-80B scripts/inference_configs/qwen3_next_default.json"),
    ("6584080", "sh scripts/inference_workload_with_aiob.sh -m qwen3-235B"),
    ("6584080", f"{INFERENCE} DeepSeek-V3 deepseek_small.json"),
    # 05551a1 (2025-11-04, side branch) has no --moe_routing_strategy; 9d51993 (2025-12-19) has
    ("05551a1", f"{INFERENCE} {DEEPSEEK_DEFAULT} --moe_routing_strategy UniformRandom"),
    ("9d51993", f"{INFERENCE} {DEEPSEEK_DEFAULT} --moe_routing_strategy UniformRandom {EP8}"),
    # until 26b1345 (2025-12-05) the side branch shipped five more configurations
    ("05551a1", f"{INFERENCE} Qwen3-Moe-235B scripts/inference_configs/qwen3_default.json {EP8}"),
    ("94f5cb4", f"{INFERENCE} DeepSeek-V3 {CONFIGS}/deepseek_default_aiob.json {EP8}"),
    (
        "94f5cb4",
        f"{INFERENCE} Qwen3-Next {CONFIGS}/qwen3_next_default_aiob.json {EP8} --phase prefill",
    ),
    ("26b1345", f"{INFERENCE} Qwen3-Moe-235B scripts/inference_configs/qwen3_default.json {EP8}"),
)


def _unpack(git_dir: Path, commit: str, into: Path) -> None:
    archive = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", commit, *_PATHS],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def _argv(command: str, python: str) -> list[str]:
    words = shlex.split(command)
    return [python, *words[1:]] if words[0] == "python" else words


def record(git_dir: Path, python: str) -> list[dict[str, str]]:
    """Run every case; the MANIFEST rows."""
    rows = []
    env = {**os.environ, "PATH": f"{Path(python).parent}{os.pathsep}{os.environ['PATH']}"}
    for commit in dict.fromkeys(c for c, _ in CASES):
        folder = OUT / f"aicb-{commit}"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for number, (case_commit, command) in enumerate(CASES, 1):
            if case_commit != commit:
                continue
            with tempfile.TemporaryDirectory() as tmp:
                work = Path(tmp)
                _unpack(git_dir, commit, work)
                for extra in INPUTS.glob("*.json"):
                    shutil.copyfile(extra, work / extra.name)
                done = subprocess.run(
                    _argv(command, python),
                    cwd=work,
                    env=env,
                    capture_output=True,
                    text=True,
                    check=False,
                )
                written = []
                for path in sorted((work / "results" / "workload").glob("*.txt")):
                    written.append(folder / f"{number:02}-{path.name}")
                    shutil.copyfile(path, written[-1])
                said = done.stderr.strip() or done.stdout.strip()  # some refusals print
                last = (said.splitlines() or [""])[-1]
                rows.append(
                    {
                        "file": " ".join(f"{p.parent.name}/{p.name}" for p in written) or "-",
                        "commit": commit,
                        "command": command,
                        "exit": str(done.returncode),
                        "stderr": last if done.returncode else "",
                    }
                )
                print(f"{commit} exit {done.returncode}: {rows[-1]['file']}", file=sys.stderr)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--aicb-git", type=Path, required=True, help="aliyun/aicb's git folder")
    parser.add_argument("--python", default=sys.executable, help="interpreter with pandas")
    args = parser.parse_args()
    rows = record(args.aicb_git, args.python)
    with (OUT / "MANIFEST.tsv").open("w", newline="") as f:
        out = csv.DictWriter(f, ["file", "commit", "command", "exit", "stderr"], delimiter="\t")
        out.writeheader()
        out.writerows(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
