"""SimAI's own example workloads: the files its tree ships under `example/` (aliyun/SimAI
history up to cef83f9d; `microAllReduce.txt` and `workload_analytical.txt` since b1151087,
2024-10-18, the others added from 4ae659a0, 2026-02-02, to 120db6a2, 2026-06-10). A thread
that runs one of them has no file of its own to attach."""

from __future__ import annotations

from pathlib import PurePosixPath

EXAMPLE_WORKLOADS = frozenset(
    {
        "microAllReduce.txt",
        "microAllReduce_16g.txt",
        "microAllReduce_32g.txt",
        "microAllReduce_128g.txt",
        "microAllReduce_dp.txt",
        "workload_analytical.txt",
        "workload_ep_test.txt",
        "workload_gpt13b_128g.txt",
        "workload_gpt7b_64g.txt",
        "workload_micro_allreduce.txt",
        "workload_oxc_32g.txt",
        "workload_oxc_crossrack_32g.txt",
        "workload_oxc_trigger.txt",
    }
)


def is_example(path: str) -> bool:
    """Whether `path` (as a `-w` gives it) names one of SimAI's example workloads."""
    return PurePosixPath(path.replace("\\", "/")).name in EXAMPLE_WORKLOADS
