"""What SimAI's option parsers leave behind (`SimaiOptions`) or stop with (`Refusal`), and
how they read one value (`std::stoi`, `std::stof`, the numbers in the workload's file name):
shared by the parser of 26b4574b on (`options`) and the one before it (`legacy_options`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from wkparse.cpp import c_div, stoi
from wkparse.encoding import shown
from wkparse.models.simai.ieee import stof

if TYPE_CHECKING:
    from wkparse.models.simai.busbw_file import YamlBusbw

#: the option words of SimAI_analytical's parser from 26b4574b on, and the field each sets
#: (the parser before it: `legacy_options.NAMES`, a difference from this table)
OPTION_NAMES = {
    "-w": "workload",
    "--workload": "workload",
    "-g": "gpus",
    "--gpus": "gpus",
    "-r": "result",
    "--result": "result",
    "-r_f": "result_folder",
    "--result_folder": "result_folder",
    "-g_p_s": "gpus_per_server",
    "--gpus-per-server": "gpus_per_server",
    "-nv": "nvlink",
    "--nvlink": "nvlink",
    "-nic": "nic",
    "--nic_busbw": "nic",
    "-n_p_s": "nics_per_server",
    "--nic_per_server": "nics_per_server",
    "-nic_t": "nic_type",
    "--nic_type": "nic_type",
    "-g_type": "gpu_type",
    "--gpu_type": "gpu_type",
    "-v": "visual",
    "--visual": "visual",
    "-dp_o": "dp_overlap",
    "--dp_overlap": "dp_overlap",
    "-tp_o": "tp_overlap",
    "--tp_overlap": "tp_overlap",
    "-ep_o": "ep_overlap",
    "--ep_overlap": "ep_overlap",
    "-pp_o": "pp_overlap",
    "--pp_overlap": "pp_overlap",
    "-l": "lang",
    "--lang": "lang",
}


@dataclass(frozen=True)
class SimaiOptions:
    """The values SimAI's parser leaves for one command line (None: not given)."""

    workload: str | None = None
    gpus: int | None = None
    gpus_per_server: int | None = None
    nics_per_server: int | None = None
    #: -nv and -nic in GB/s as `float`s; -1 when absent (then from -g_type / -nic_t)
    nvlink: float = -1.0
    nic: float = -1.0
    nic_type: str = "cx7"
    #: the GPUType enum value (0 = A100 when -g_type is absent: uninitialised, read as 0)
    gpu_type: int | None = None
    dp_overlap: float = 0.0
    tp_overlap: float = 0.0
    ep_overlap: float = 0.0
    pp_overlap: float = 1.0
    result: str | None = None
    result_folder: str | None = None
    visual: int = 0
    lang: str = "en"
    #: the options as given, for printing
    given: tuple[str, ...] = field(default=())
    #: the `NAME=value` variables the command line sets for SimAI's process, as given
    environment: tuple[str, ...] = field(default=())
    #: wkparse's stated set (`stated`), not the user's
    stated: bool = False
    #: the `-busbw` file's bandwidths (SimAI before 26b4574b; None from 26b4574b on)
    busbw: YamlBusbw | None = None
    busbw_file: str | None = None

    @property
    def gpu_type_value(self) -> int:
        return 0 if self.gpu_type is None else self.gpu_type

    @property
    def g_p_s(self) -> int:
        """-g_p_s as SimAI holds it (uint32; absent reads 0)."""
        return (self.gpus_per_server or 0) % 2**32

    @property
    def n_p_s(self) -> int:
        return (self.nics_per_server or 0) % 2**32


@dataclass(frozen=True)
class Refusal:
    """SimAI stops in its option parser: what it prints and its exit code."""

    exit_code: int
    stdout: str
    stderr: str
    reason: str


def _int(name: str, value: str) -> int | Refusal:
    got = stoi(value)
    if got.error is not None or got.value is None:
        return Refusal(
            134,
            "",
            f"terminate called after throwing an instance of 'std::{got.error}'\n  what():  stoi",
            f"{name} {shown(value)} is no integer: std::stoi throws",
        )
    return got.value


def _float(name: str, value: str) -> float | Refusal:
    got = stof(value)
    if got is None:
        return Refusal(
            134,
            "",
            "terminate called after throwing an instance of 'std::invalid_argument'\n"
            "  what():  stof",
            f"{name} {shown(value)} is no number: std::stof throws",
        )
    return got


def name_numbers(opts: SimaiOptions) -> tuple[str, dict[str, int]] | Refusal:
    """The model name and the `world_size`/`tp`/`pp`/... numbers SimAI finds in the
    workload's file name (to name the result when `-r` is absent)."""
    name = PurePosixPath(opts.workload or "").name
    model = ""
    pos = name.find("world_size")
    if pos >= 0:
        model = name[: pos - 1] if pos > 0 else name
    found = {"world_size": 0, "tp": 0, "pp": 0, "ep": 0, "gbs": 0, "mbs": 0, "seq": 0}
    for m in re.finditer(r"(world_size|tp|pp|ep|gbs|mbs|seq)(\d+)", name):
        got = stoi(m.group(2))
        if got.value is None:
            return Refusal(
                134,
                "",
                "terminate called after throwing an instance of 'std::out_of_range'\n"
                "  what():  stoi",
                f"the file name's {shown(m.group(0))} is out of int range",
            )
        found[m.group(1)] = got.value
    return model, found


def result_name_start(opts: SimaiOptions) -> str | Refusal:
    """What every SimAI version's result name (`-r` absent) starts with:
    `<model>-tp..-pp..-dp..-ga..-ep..-NVL<g_p_s>-`, from the numbers in the workload's file
    name. A name without `tp` and `pp` numbers divides by zero."""
    got = name_numbers(opts)
    if isinstance(got, Refusal):
        return got
    model, found = got
    tp_pp = found["tp"] * found["pp"]
    if tp_pp == 0:
        return Refusal(
            136, "", "", "no -r and the file name has no tp/pp numbers: SIGFPE naming the result"
        )
    dp = c_div(found["world_size"], tp_pp)
    denominator = dp * found["mbs"]
    ga_float = found["gbs"] / denominator if denominator else float("inf")
    ga = int(ga_float) if abs(ga_float) < 2**31 else -(2**31)
    return f"{model}-tp{found['tp']}-pp{found['pp']}-dp{dp}-ga{ga}-ep{found['ep']}-NVL{opts.g_p_s}-"
