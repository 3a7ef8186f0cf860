#!/usr/bin/env python3
"""`wkparse simai --format csv` against the real SimAI_analytical: the same bytes, and the time.

    SIMAI_ANALYTICAL=/path/to/bin/SimAI_analytical SIMAI_ROOT=/path/to/SimAI \\
        python benchmarks/vs_simai.py [FILE ...] [-- SimAI options]

SimAI_analytical reads its bandwidth ratio tables from `astra-sim-alibabacloud/inputs/ratio/`
under its working directory and appends to `./results/<-r value>EndToEnd.csv`, so each run gets
a fresh directory holding `results/` and a link to `$SIMAI_ROOT/astra-sim-alibabacloud`. Both
programs get the same options (default: `-g` = the header's `all_gpus`, `-g_p_s 8 -n_p_s 8
-nv 360 -nic 48.5`, and `-r vs-`); the script prints, per file, whether the CSVs are equal byte
for byte and the ratio of their wall times (processes, start-up included). Without
`SIMAI_ANALYTICAL` it says so and exits 0: no binary, nothing to compare. Exit 1 when any pair of
CSVs differs (or SimAI wrote none), 0 otherwise. The default file is the bundled GPT-7B sample.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILE = ROOT / "samples" / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"
STATED = ("-g_p_s", "8", "-n_p_s", "8", "-nv", "360", "-nic", "48.5")
RESULT = ("-r", "vs-")
RATIOS = Path("astra-sim-alibabacloud")
ALL_GPUS = re.compile(rb"all_gpus:\s*(\d+)")


@dataclass(frozen=True)
class Comparison:
    """One file run by both programs."""

    file: Path
    same_bytes: bool
    simai_seconds: float
    wkparse_seconds: float
    why: str = ""

    @property
    def ratio(self) -> float:
        """SimAI's wall time over wkparse's."""
        return self.simai_seconds / self.wkparse_seconds if self.wkparse_seconds else float("inf")


def options_for(file: Path, given: list[str]) -> list[str]:
    """The given SimAI options, or the stated set with `-g` read from the header."""
    if given:
        return [*given, *RESULT] if "-r" not in given else given
    found = ALL_GPUS.search(file.read_bytes().split(b"\n", 1)[0])
    gpus = ["-g", found.group(1).decode()] if found else []
    return [*gpus, *STATED, *RESULT]


def run_simai(
    binary: Path, simai_root: Path | None, file: Path, options: list[str]
) -> tuple[bytes | None, float, str]:
    """SimAI_analytical in a fresh directory: the EndToEnd.csv it wrote, its wall time, why none."""
    with tempfile.TemporaryDirectory(prefix="vs-simai-") as tmp:
        work = Path(tmp)
        (work / "results").mkdir()
        if simai_root is not None:
            (work / RATIOS).symlink_to(simai_root / RATIOS)
        start = time.perf_counter()
        done = subprocess.run(
            [str(binary), "-w", str(file.resolve()), *options],
            cwd=work,
            capture_output=True,
            check=False,
        )
        seconds = time.perf_counter() - start
        written = sorted((work / "results").glob("*EndToEnd.csv"))
        if not written:
            return None, seconds, f"SimAI_analytical wrote no EndToEnd.csv (exit {done.returncode})"
        return written[0].read_bytes(), seconds, ""


def run_wkparse(file: Path, options: list[str]) -> tuple[bytes, float]:
    """`wkparse simai --format csv` with the same options, and its wall time."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "wkparse", "simai", str(file), "--format", "csv", "--", *options],
        capture_output=True,
        check=False,
    )
    return done.stdout, time.perf_counter() - start


def compare(binary: Path, simai_root: Path | None, file: Path, given: list[str]) -> Comparison:
    """Both programs on one file, with one set of options."""
    options = options_for(file, given)
    expected, simai_seconds, why = run_simai(binary, simai_root, file, options)
    predicted, wkparse_seconds = run_wkparse(file, options)
    same = expected is not None and expected == predicted
    if expected is not None and not same:
        why = "the CSVs differ"
    return Comparison(file, same, simai_seconds, wkparse_seconds, why)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    files, given = (
        (args[: args.index("--")], args[args.index("--") + 1 :]) if "--" in args else (args, [])
    )
    binary = os.environ.get("SIMAI_ANALYTICAL")
    if not binary:
        print("skipped: set SIMAI_ANALYTICAL to a SimAI_analytical binary (SIMAI_ROOT: its tree)")
        return 0
    root = os.environ.get("SIMAI_ROOT")
    results = [
        compare(Path(binary), Path(root) if root else None, Path(f), given)
        for f in (files or [str(DEFAULT_FILE)])
    ]
    print("| file | same bytes | SimAI_analytical s | wkparse simai s | ratio |")
    print("| --- | --- | --- | --- | --- |")
    for r in results:
        same = "yes" if r.same_bytes else f"no: {r.why}"
        times = f"{r.simai_seconds:.2f} | {r.wkparse_seconds:.2f} | {r.ratio:.1f}x"
        print(f"| {r.file.name} | {same} | {times} |")
    return 0 if all(r.same_bytes for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
