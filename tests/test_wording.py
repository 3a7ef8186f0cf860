"""What wkparse says about itself is right (issue 32): a count agrees with its noun ("1 row",
not "1 rows") in English and Chinese, and no Python value (`None`, `True`, a repr) reaches a
user. Small files whose counts are 1 go through every command that reports counts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wkparse.cli import app

runner = CliRunner()

ROW = "layer_0\t-1\t100\tNONE\t0\t100\tNONE\t0\t100\tALLREDUCE\t1048576\t100"
HEADER = (
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 1 ep: 1 pp: 1 vpp: 1 ga: {ga} "
    "all_gpus: 1 checkpoints: 0 checkpoint_initiates: 0"
)
#: file name -> text: one row, one GPU, one group, one row too many, one row too few
FILES = {
    "micro.txt": f"MICRO\n1\n{ROW}\n",
    "one.txt": f"{HEADER.format(ga=1)}\n1\n{ROW}\n",
    "ga.txt": f"{HEADER.format(ga=2)}\n1\n{ROW}\n",
    "extra.txt": f"{HEADER.format(ga=1)}\n1\n{ROW}\n{ROW}\n",
    "short.txt": f"{HEADER.format(ga=1)}\n3\n{ROW}\n{ROW}\n",
    "broken.txt": f"{HEADER.format(ga=1)}\n2\n{ROW}\n{ROW.rsplit(chr(9), 1)[0]}\n",
}
COMMANDS = [
    ["lint", "--select", "ALL"],
    ["explain"],
    ["explain", "-f", "markdown"],
    ["simai"],
    ["simai", "--backend", "ns3"],
    ["parse"],
]
#: a 1 before a plural noun ("1 rows", "1 GPUs"); units (us, ns) and keys (all_gpus:) aside
ONE_PLURAL = re.compile(r"(?<![\d.,x/^:=-])\b1 (?!us\b|ns\b|bytes\b)[A-Za-z][A-Za-z-]*s\b(?![_:])")
PYTHON_VALUE = re.compile(r"\b(None|True|False)\b|<[a-z_.]+ object at 0x|\b[A-Z][a-zA-Z]+\(")


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    out = []
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
        out.append(tmp_path / name)
    return out


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_count_of_one_takes_the_singular(command: list[str], files: list[Path]) -> None:
    for path in files:
        result = runner.invoke(app, [*command, str(path)])
        said = result.stdout + result.stderr
        assert not ONE_PLURAL.findall(said), (path.name, ONE_PLURAL.findall(said), said)
        assert not PYTHON_VALUE.search(said), (path.name, PYTHON_VALUE.search(said), said)


@pytest.mark.parametrize("command", [["lint", "--select", "ALL"], ["explain"]], ids=" ".join)
def test_chinese_counts_come_from_the_catalog(command: list[str], files: list[Path]) -> None:
    """Every counted noun is translated: no English plural or singular is left in Chinese."""
    for path in files:
        result = runner.invoke(app, [*command, "--lang", "zh", str(path)])
        said = result.stdout + result.stderr
        assert not re.search(r"\b\d+ (rows?|GPUs?|micro-batch groups?|experts?)\b", said), said


def test_simais_refusals_quote_a_word_without_a_python_repr() -> None:
    """A refused option value is quoted as the file's words are (backticks), not as a repr."""
    from wkparse.models.simai.options import Refusal, parse

    for words, word in ((["-g", "x8"], "`x8`"), (["-g", "8", "-l", "fr"], "`fr`")):
        got = parse(["-w", "a.txt", *words])
        assert isinstance(got, Refusal)
        assert word in got.reason and "'" not in got.reason, got.reason
