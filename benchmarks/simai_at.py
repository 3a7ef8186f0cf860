"""`wkparse simai --at REV` against the default SimAI on the same 1M-row file, in one run.

    python benchmarks/simai_at.py            # about 2 minutes on 2 cores; exit 1 if missed

Times `wkparse simai FILE --format csv` (the stated options) of the largest repeating file of
`benchmarks/run.py` (999,966 rows, reused from `benchmarks/work/`) at the default SimAI and at
three others, one per model the version switches select: `--at 1.6` (today's model, a version
resolved and consulted), `--at 4e66932a` (the `-busbw` bandwidth model) and `--at 03613a7a`
(the positional reader too). Each command runs once untimed, then `--repeat` times round-robin
(`run.measure`); the ratio of medians to the default's must be at most 1.10 (issue 31).
Writes `results/simai_at.json`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.run import (
    HERE,
    Measurement,
    child_env,
    machine,
    measure,
    synthesize,
)

LIMIT = 1.10
AT = ("1.6", "4e66932a", "03613a7a")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--work", type=Path, default=HERE / "work")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "simai_at.json")
    ns = parser.parse_args(argv)
    ns.work.mkdir(parents=True, exist_ok=True)
    big = synthesize(ns.rows, ns.work)
    wk = [sys.executable, "-m", "wkparse", "simai", str(big.path), "--format", "csv"]
    runs = {"default": Measurement("simai", big.label, wk)}
    for rev in AT:
        runs[rev] = Measurement(f"simai --at {rev}", big.label, [*wk, "--at", rev])
    with tempfile.TemporaryDirectory() as cwd:
        measure(list(runs.values()), ns.repeat, Path(cwd), child_env(ns.work))
    base = runs["default"].median_s
    ratios = {
        rev: (None if m.median_s is None or base is None else round(m.median_s / base, 3))
        for rev, m in runs.items()
        if rev != "default"
    }
    met = all(r is not None and r <= LIMIT for r in ratios.values())
    doc = {
        "file": {"rows": big.rows, "bytes": big.bytes},
        "limit": LIMIT,
        "ratios": ratios,
        "met": met,
        "runs": {k: m.to_json() for k, m in runs.items()},
        "machine": machine(),
    }
    ns.out.parent.mkdir(parents=True, exist_ok=True)
    ns.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"default: {base:.2f} s median ({big.rows:,} rows)" if base else "default: failed")
    for rev, r in ratios.items():
        m = runs[rev]
        shown = f"{m.median_s:.2f} s" if m.median_s else m.error
        print(f"--at {rev}: {shown}, {r}x the default (limit {LIMIT}x)")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
