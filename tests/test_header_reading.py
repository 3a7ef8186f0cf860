"""One reading of each header key everywhere (issue 22).

SimAI reads every header value with `std::stoi`: `16.0`, `+16`, `0016` and `16abc` are all 16.
`wkparse.models.simai.header_value` says so once; lint, explain, simai, diff and `parse --format
json`
must all see that same number, so a value spelt another way changes no finding and no fact.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import SAMPLES
from wkparse.catalog import summaries
from wkparse.cli import app
from wkparse.models.aicb import generate

runner = CliRunner()
SAMPLE = SAMPLES / "mixtral-world32-tp2-pp2-ep8-sp-moe.txt"
HEADER, REST = SAMPLE.read_text(encoding="utf-8").split("\n", 1)
TOKENS = HEADER.split()


def numbers(tokens: list[str]) -> dict[str, int]:
    """A header's `key: value` pairs after its policy, each value as the number it spells."""
    return {t.removesuffix(":"): int(float(v)) for t, v in zip(tokens[1::2], tokens[2::2])}


#: the keys SimAI reads from this header (every one it has), and their values as SimAI reads
#: them; `pp_comm` is written `67108864.0` by AICB itself
KEYS = numbers(TOKENS)
#: ways to write a number that stoi reads as the same number
SPELLINGS: dict[str, Callable[[int], str]] = {
    "float": lambda n: f"{n}.0",
    "plus": lambda n: f"+{n}",
    "zeros": lambda n: f"00{n}",
    "junk": lambda n: f"{n}abc",
}
#: every rule, the opt-in ones too
ALL_RULES = ",".join(sorted(summaries()))
#: findings about how a value is spelt, which only the spelt file can get
SPELLING_CODES = {"WK216", "WK217"}
#: where each command reports the number it took from a key (None: it does not report it)
EXPLAIN_FIELDS = {"model_parallel_NPU_group": "tp", "pp_comm": None}
SIMAI_FIELDS = {"model_parallel_NPU_group": "tp"}


def header(
    values: dict[str, int], spell: Callable[[int], str] = str, only: str | None = None
) -> str:
    """Line 1 with these values, spelt `spell` (only `only`'s value, when given)."""
    spelt = {k: spell(v) if only in (None, k) else str(v) for k, v in values.items()}
    return " ".join([TOKENS[0], *(f"{k}: {v}" for k, v in spelt.items())])


def write(folder: Path, name: str, line: str) -> Path:
    path = folder / name
    path.write_text(f"{line}\n{REST}", encoding="utf-8")
    return path


def out(*args: str) -> str:
    result = runner.invoke(app, [*args, "--color", "never"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.stdout


def lint(path: Path) -> list[tuple[str, int, str]]:
    found = json.loads(out("lint", "--select", ALL_RULES, "--output-format", "json", str(path)))
    return sorted(
        (d["code"], d["line"], d["message"]) for d in found if d["code"] not in SPELLING_CODES
    )


def readings(path: Path) -> dict[str, dict[str, object]]:
    """What each command says SimAI takes from each key."""
    parsed = json.loads(out("parse", "--format", "json", str(path)))["header"]["simai"]
    explained = json.loads(out("explain", "--format", "json", str(path)))
    simai = json.loads(out("simai", "--format", "json", str(path)))["header"]
    found: dict[str, dict[str, object]] = {}
    for key in KEYS:
        seen: dict[str, object] = {"parse": parsed[key]}
        if key.startswith("checkpoint"):
            seen["simai"] = len(simai[key])  # the layers marked: a count of 0 marks none
        else:
            seen["simai"] = simai[SIMAI_FIELDS.get(key, key)]
            field = EXPLAIN_FIELDS.get(key, key)
            seen["explain"] = (
                explained["header"]["pp_comm_simai"] if field is None else explained[field]
            )
        found[key] = seen
    return found


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("spelt")


class Plain:
    """The files with every value as plain digits, which each spelling is compared with: each
    written, read and linted once for all the spellings."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.file = functools.cache(self._file)
        self.readings = functools.cache(readings)
        self.lint = functools.cache(lint)

    def _file(self, name: str, line: str) -> Path:
        return write(self.folder, name, line)


@pytest.fixture(scope="module")
def plain(folder: Path) -> Plain:
    return Plain(folder)


#: the header as written, and with every size one more (wrong against the body and name)
VALUES = {"as-written": KEYS, "off-by-one": {k: v + (k[0] != "c") for k, v in KEYS.items()}}


@pytest.mark.parametrize("values", VALUES, ids=str)
@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_command_reads_a_spelt_header_as_simai_does(
    folder: Path, plain: Plain, values: str, spelling: str
) -> None:
    unspelt = plain.file(f"plain-{values}.txt", header(VALUES[values]))
    spelt = write(folder, f"{spelling}-{values}.txt", header(VALUES[values], SPELLINGS[spelling]))
    found = plain.readings(unspelt)
    assert readings(spelt) == found
    for key, seen in found.items():
        assert set(seen.values()) == {VALUES[values][key]}, (key, seen)
    diff = json.loads(out("diff", "--format", "json", str(unspelt), str(spelt)))
    assert diff["header"] == [] and diff["facts"] == [] and diff["equal"]

    assert plain.lint(unspelt) == lint(spelt)


@pytest.mark.parametrize("key", [k for k in KEYS if not k.startswith("checkpoint")])
@pytest.mark.parametrize("spelling", SPELLINGS)
def test_lint_reads_each_key_as_simai_does(
    folder: Path, plain: Plain, key: str, spelling: str
) -> None:
    """One key at a time, set wrong (one more than the body and name say): the finding it gets
    is the same however it is spelt."""
    values = {**KEYS, key: KEYS[key] + 1}
    found = plain.lint(plain.file(f"{key}-plain.txt", header(values)))
    spelt = write(folder, f"{key}-{spelling}.txt", header(values, SPELLINGS[spelling], key))
    assert found == lint(spelt)
    # ep 9 does not divide DP 8, but no row of this file runs in `_DP_EP` (WK211 stays quiet)
    assert found or key == "ep", "a wrong value gets a finding"


def test_vpp_written_as_a_float_gets_the_vpp_finding(folder: Path) -> None:
    """The case issue 22 found: `vpp: 4.0` over 16 layers a group got no finding at all."""
    line = header({**KEYS, "vpp": 4}, lambda n: f"{n}.0")
    codes = [code for code, _, _ in lint(write(folder, "vpp-float.txt", line))]
    assert "WK301" in codes


def test_a_key_repeated_with_the_same_number_spelt_twice_is_a_repetition(folder: Path) -> None:
    """`ga: 16 ... ga: 16.0`: SimAI reads 16 both times, so the values are the same (WK206),
    not different (WK205)."""
    line = f"{header(KEYS)} ga: {KEYS['ga']}.0"
    codes = [code for code, _, _ in lint(write(folder, "ga-twice.txt", line))]
    assert "WK206" in codes and "WK205" not in codes


#: a pipelined MoE run with sequence parallelism: AICB writes `pp_comm` as a float itself
AICB_COMMAND = (
    "sh scripts/megatron_workload_with_aiob.sh -m moe --world_size 32 --tp 4 "
    "--pipeline_model_parallel 2 --global_batch 64 --micro_batch 1 --seq_length 2048 --swiglu "
    "--use_flash_attn --sp --experts 8 --topk 2 --ep 4"
)


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_the_aicb_header_check_reads_a_spelt_header_as_simai_does(
    folder: Path, spelling: str
) -> None:
    """`lint --aicb-command` compares the header with what AICB writes by what SimAI reads:
    a value spelt another way is no departure."""
    text = generate(AICB_COMMAND).text()
    line, rest = text.split("\n", 1)
    tokens = line.split()
    values = numbers(tokens)
    spelt = " ".join([tokens[0], *(f"{k}: {SPELLINGS[spelling](v)}" for k, v in values.items())])
    path = folder / f"aicb-{spelling}.txt"
    path.write_text(f"{spelt}\n{rest}", encoding="utf-8")
    found = json.loads(
        out("lint", "--output-format", "json", "--aicb-command", AICB_COMMAND, str(path))
    )
    assert [d["message"] for d in found if d["code"].startswith("WK6")] == []


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_the_dlrm_key_reads_as_simai_does(corpus: Path, folder: Path, spelling: str) -> None:
    """DLRM's one key, on ASTRA-sim 1.0's DLRM example (whose header gives the layer bare)."""
    rest = (corpus / "astra-sim-1.0" / "DLRM_HybridParallel.txt").read_text().split("\n", 1)[1]
    key = "DLRM_LAST_BOTTOM_LAYER"
    plain, spelt = (folder / "dlrm-plain.txt"), (folder / f"dlrm-{spelling}.txt")
    plain.write_text(f"HYBRID_DLRM {key}: 4\n{rest}", encoding="utf-8")
    spelt.write_text(f"HYBRID_DLRM {key}: {SPELLINGS[spelling](4)}\n{rest}", encoding="utf-8")
    assert json.loads(out("parse", "--format", "json", str(spelt)))["header"]["simai"] == {key: 4}
    diff = json.loads(out("diff", "--format", "json", str(plain), str(spelt)))
    assert diff["header"] == [] and diff["equal"]
    assert lint(plain) == lint(spelt)
