"""`wkparse traffic` on the bundled 1,230-row, 128-GPU sample: under 2 s, memory that follows
GPU pairs, time linear in collectives x ranks.

    python benchmarks/traffic.py            # about 30 s on 2 cores; exit 1 if a target is missed

1. Times `wkparse traffic samples/gpt7b-world128-...txt -g 128 --format json` (one untimed
   run, then `--repeat` timed ones, `run.measure`): the median must be under 2 s.
2. In one process (after one untimed model run), models the same rows on 128 to 1,024 GPUs
   and the rows repeated 1 to 4 times (128 GPUs): seconds and the peak of Python allocations
   (`tracemalloc`, the file's reading included) for each. Per series, the time per
   (collective x rank) of the largest input may be at most 3 times the smallest's, and so may
   the peak bytes per GPU pair over the GPU series (a superlinear cost would grow).
Writes `results/traffic.json`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.run import HERE, Measurement, child_env, machine, measure

SAMPLE = HERE.parent / "samples" / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"
LIMIT_S = 2.0
#: the most the per-unit cost may grow from the smallest to the largest input
GROWTH = 3.0


def repeated(data: bytes, times: int) -> bytes:
    """The file with its rows `times` over (the count line says so)."""
    lines = data.decode().splitlines()
    rows = lines[2:] * times
    return ("\n".join([lines[0], str(len(rows)), *rows]) + "\n").encode()


def model_cost(data: bytes, gpus: int) -> dict[str, float | int]:
    from wkparse.models.simai.traffic import model_traffic, stated

    tracemalloc.start()
    started = time.perf_counter()
    run = model_traffic(data, stated(gpus))
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    collectives = sum(x.collectives for x in run.by_layer)
    return {
        "gpus": gpus,
        "collectives": collectives,
        "pairs": len(run.pairs),
        "seconds": round(seconds, 4),
        "peak_bytes": peak,
        "us_per_collective_rank": round(seconds * 1e6 / max(collectives * gpus, 1), 3),
        "bytes_per_pair": round(peak / max(len(run.pairs), 1), 1),
    }


def growth(series: list[dict[str, float | int]], key: str) -> float:
    """The largest input's cost per unit over the smallest's."""
    first, last = float(series[0][key]), float(series[-1][key])
    return last / first if first > 0 else float("inf")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--work", type=Path, default=HERE / "work")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "traffic.json")
    parser.add_argument("--quick", action="store_true", help="two sizes per series (tests)")
    ns = parser.parse_args(argv)
    gpu_sizes, row_times = ((128, 256), (1, 2)) if ns.quick else ((128, 256, 512, 1024), (1, 2, 4))
    ns.work.mkdir(parents=True, exist_ok=True)
    argv_wk = [sys.executable, "-m", "wkparse", "traffic", str(SAMPLE), "-g", "128"]
    cli = Measurement("traffic", "1,230 rows, 128 GPUs", [*argv_wk, "--format", "json"])
    with tempfile.TemporaryDirectory() as cwd:
        measure([cli], ns.repeat, Path(cwd), child_env(ns.work))
    data = SAMPLE.read_bytes()
    model_cost(data, 128)  # imports and caches, untimed
    by_gpus = [model_cost(data, g) for g in gpu_sizes]
    by_rows = [model_cost(repeated(data, k), 128) for k in row_times]
    unit = "us_per_collective_rank"
    time_growth = max(growth(by_gpus, unit), growth(by_rows, unit))
    memory_growth = growth(by_gpus, "bytes_per_pair")
    median = cli.median_s
    met = median is not None and median < LIMIT_S and time_growth < GROWTH
    met = met and memory_growth < GROWTH
    doc = {
        "sample": SAMPLE.name,
        "limit_s": LIMIT_S,
        "cli": cli.to_json(),
        "by_gpus": by_gpus,
        "by_rows": by_rows,
        "time_growth": round(time_growth, 3),
        "memory_growth": round(memory_growth, 3),
        "met": met,
        "machine": machine(),
    }
    ns.out.parent.mkdir(parents=True, exist_ok=True)
    ns.out.write_text(json.dumps(doc, indent=1) + "\n")
    shown = f"{median:.2f} s median" if median is not None else f"failed: {cli.error}"
    print(f"wkparse traffic, {SAMPLE.name} on 128 GPUs: {shown} (limit {LIMIT_S} s)")
    for x in by_gpus + by_rows:
        print(
            f"  {x['gpus']:>5} GPUs, {x['collectives']:>6} collectives: {x['seconds']:.3f} s, "
            f"{x['us_per_collective_rank']} us per collective x rank, "
            f"{x['bytes_per_pair']} B per pair"
        )
    print(f"growth of time per unit {time_growth:.2f}, of memory per pair {memory_growth:.2f}")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
