#!/usr/bin/env python3
"""How long lint's messages are, and how many findings correct files get (issue 13).

Lints, with the default configuration, every file of `../shared/corpus` and edited copies of
them (the fuzz cases of `benchmarks/fuzzing.py`, seeded, so every run measures the same inputs),
then prints the median, 95th percentile and maximum message length of each set, the
findings on the pristine files of the current AICB generator (`aicb-2025-12/`) and on
SimAI's own examples, and the longest messages by code.

    python benchmarks/message_lengths.py [--cases 400] [--seed 0]

The targets: median <= 120 characters and 95th percentile <= 200 on both sets, and no
finding at all on the pristine generator files.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import fuzzing  # noqa: E402
from wkparse.diagnostics import Diagnostic  # noqa: E402
from wkparse.engine import lint  # noqa: E402
from wkparse.parse import parse_bytes  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
PRISTINE = ("aicb-generated/aicb-2025-12/", "simai-examples/")


def findings(name: str, data: bytes) -> list[Diagnostic]:
    return lint(parse_bytes(data), name)


def percentile(values: Sequence[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0


def describe(label: str, found: Iterable[Diagnostic]) -> None:
    lengths = [len(d.message) for d in found]
    if not lengths:
        print(f"{label}: no findings")
        return
    print(
        f"{label}: {len(lengths)} findings, message length median "
        f"{statistics.median(lengths):.0f}, p95 {percentile(lengths, 0.95)}, max {max(lengths)}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=400, help="edited copies to lint")
    parser.add_argument("--seed", type=int, default=0, help="the fuzz seed of the copies")
    args = parser.parse_args(argv)
    if not CORPUS.is_dir():
        print(f"{CORPUS} is missing", file=sys.stderr)
        return 2
    paths = sorted(CORPUS.rglob("*.txt"))
    corpus: list[Diagnostic] = []
    pristine: dict[str, list[Diagnostic]] = defaultdict(list)
    noisy: Counter[str] = Counter()
    for path in paths:
        found = findings(path.name, path.read_bytes())
        corpus.extend(found)
        relative = path.relative_to(CORPUS).as_posix()
        for prefix in PRISTINE:
            if relative.startswith(prefix):
                pristine[prefix].extend(found)
                noisy[prefix] += bool(found)
    bases = fuzzing.load_bases(paths, CORPUS)
    edited: list[Diagnostic] = []
    for index in range(args.cases):
        case = fuzzing.make_case(args.seed, index, bases)
        edited.extend(findings(case.name, case.data))
    describe(f"corpus ({len(paths)} files)", corpus)
    describe(f"edited copies ({args.cases} cases, seed {args.seed})", edited)
    for prefix in PRISTINE:
        found = pristine[prefix]
        files = sum(1 for p in paths if p.relative_to(CORPUS).as_posix().startswith(prefix))
        codes = Counter(d.code for d in found)
        print(
            f"pristine {prefix}: {len(found)} findings, {noisy[prefix]} of {files} files "
            f"with any {dict(codes)}"
        )
    longest: dict[str, int] = {}
    for d in (*corpus, *edited):
        longest[d.code] = max(longest.get(d.code, 0), len(d.message))
    over = sorted(((n, c) for c, n in longest.items() if n > 200), reverse=True)
    print("codes with a message over 200 characters:", ", ".join(f"{c} {n}" for n, c in over))
    return 0


if __name__ == "__main__":
    sys.exit(main())
