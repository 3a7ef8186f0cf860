# ruff: noqa: RUF001 - the answers' Chinese words, with their full-width punctuation
"""The out-of-scope threads: each is declined in one short line that names what it is about,
what was checked and, where the catalog knows one, where to look; and it makes none of the
claims its `expected.md` says a correct answer must not make. The subject is what the thread
asks about, not a word of the setup commands it shows."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.conftest import TRIAGE, require, triaged
from wkparse import triage


@dataclass(frozen=True)
class Declined:
    #: words naming what the thread is about
    subject: tuple[str, ...]
    #: words of the pointer to where to look
    pointer: str
    #: words of the must-not claims of expected.md (and of subjects it is not about)
    never: tuple[str, ...]


_NS3 = "`ReadConf`"  # SimAI.conf is read there, the topology in `SetupNetwork`
_FOLDER = "/etc/astra-sim/simulation/"
_NCCL = "`astra-sim-alibabacloud/astra-sim/system/MockNcclGroup.cc`"
_DOCS = "`docs/Tutorial.md`"

DECLINED: dict[str, Declined] = {
    "aliyun-SimAI-111": Declined(("RDMA 与拥塞控制",), _NS3, ("doorbell", "单个流", "一条流")),
    "aliyun-SimAI-112": Declined(
        ("SimAI 自带示例的崩溃",), _FOLDER, ("格式错误", "必须与", "修复代码", "已知")
    ),
    "aliyun-SimAI-119": Declined(
        ("故障建模",),
        _NS3,
        ("格式错误", "重传", "百分比", "误码率", "AS_NVLS_ENABLE", "AS_SEND_LAT", "/etc/astra-sim"),
    ),
    "aliyun-SimAI-132": Declined(
        ("the collective library",), _NCCL, ("cannot simulate all-to-all", "only needs a flag")
    ),
    "aliyun-SimAI-167": Declined(
        ("ns-3 network setup",), _NS3, ("malformed", "sudo", "fewer threads")
    ),
    "aliyun-SimAI-169": Declined(("topology file",), _NS3, ("causes", "malformed")),
    "aliyun-SimAI-19": Declined(
        ("the collective library", "topology file"), _NCCL, ("is supported", "root cause")
    ),
    "aliyun-SimAI-200": Declined(
        ("building SimAI", "permissions"), _FOLDER, ("can be ignored", "AICB")
    ),
    "aliyun-SimAI-21": Declined(
        ("the collective library",), _NCCL, ("from the workload file", "one NVSwitch per")
    ),
    "aliyun-SimAI-216": Declined(("拓扑与服务器内互联",), _NS3, ("PCIe 模式", "AICB")),
    "aliyun-SimAI-219": Declined(("documentation",), _DOCS, ("workload row", "Total time")),
    "aliyun-SimAI-222": Declined(("the collective library",), _NCCL, ("timings", "changes")),
    "aliyun-SimAI-228": Declined(
        ("vidur",),
        "`all_reduce_bytes: N not allowed by simai`",
        ("power of two", "file is wrong", "building SimAI", "intra-server links"),
    ),
    "aliyun-SimAI-241": Declined(
        ("vidur",), "sklearn", ("白名单", "固定范围", "精度为", "编译构建", "服务器内互联")
    ),
    "aliyun-SimAI-252": Declined(
        ("the collective library", "documentation"), _NCCL, ("enables", "own flow pattern")
    ),
    "aliyun-SimAI-260": Declined(("拓扑与服务器内互联",), _NS3, ("SN5600", "结构不同")),
    "aliyun-SimAI-27": Declined(
        ("RDMA and congestion control", "the environment SimAI runs in"),
        _NS3,
        ("MON_START", "_MON_INTERVAL", "from the workload", "AS_"),
    ),
    "aliyun-SimAI-29": Declined(
        ("the environment SimAI runs in",), _FOLDER, ("caused", "flow1.txt")
    ),
    "aliyun-aicb-38": Declined(
        ("an import that fails inside AICB's own code",),
        "no package installs it",
        ("-m 7", "pip install", "python environment", _DOCS),
    ),
    "aliyun-SimAI-43": Declined(
        ("topology and intra-server links",), _NS3, ("ECMP", "load-balanced", "controls")
    ),
    "aliyun-SimAI-51": Declined(("topology file",), _NS3, ("routing code", "counts only")),
    "aliyun-SimAI-52": Declined(
        ("the collective library",), _NCCL, ("workload-file setting", "every all-reduce")
    ),
    "aliyun-SimAI-59": Declined(("failure modelling",), _NS3, ("drop node", "failure setting")),
    "aliyun-SimAI-68": Declined(
        ("SimAI 的编译构建",), "`scripts/build.sh -c ns3`", ("SimAI.conf", "拓扑", "sudo")
    ),
    "aliyun-SimAI-94": Declined(
        ("SimAI 自带示例的崩溃",), _FOLDER, ("格式错误", "损坏", "格式问题")
    ),
    "aliyun-SimAI-99": Declined(
        ("RDMA 与拥塞控制", "ns-3 内部的崩溃"), _NS3, ("格式错误", "grad_gather", "已确认")
    ),
}


@pytest.mark.parametrize("case", sorted(DECLINED))
def test_declined_in_one_line_naming_subject_checks_and_pointer(case: str) -> None:
    result = triaged(case)
    assert result.scope == "out"
    text = result.markdown
    assert text.count("\n") == 1 and not result.answers and not result.findings
    said = "wkparse 没有能回答它的模型；已检查：" if result.language == "zh" else "checked: "
    assert said in text
    expected = DECLINED[case]
    assert all(w in text for w in expected.subject), text
    assert expected.pointer in text, text


@pytest.mark.parametrize("case", sorted(DECLINED))
def test_declined_makes_no_forbidden_claim(case: str) -> None:
    text = triaged(case).markdown
    made = [w for w in DECLINED[case].never if w in text]
    assert not made, f"{case}: the answer says {made}"


def test_every_out_of_scope_case_is_listed() -> None:
    index = require(TRIAGE / "INDEX.tsv").read_text(encoding="utf-8").splitlines()
    out = {r.split("\t")[0] for r in index[1:] if r.strip() and r.split("\t")[1] == "out"}
    assert set(DECLINED) == out


FRONT = '---\ntitle: "{title}"\ncreated: 2026-03-12\nlanguage: en\n---\n\n'


def test_setup_commands_do_not_name_the_subject() -> None:
    """The build and the topology the user set up on the way (their commands) are not what
    a thread about vidur is about."""
    body = (
        "./scripts/build.sh -c ns3\n"
        "cd SimAI/vidur-alibabacloud\n"
        "python -m vidur.main \\\n  --replica_config_nvlink_bandwidth 1600 \\\n"
        "  --replica_config_tensor_parallel_size 4\n\n"
        "With Llama-2-7B vidur fails in its SimAI backend; Llama-3-8B works.\n"
    )
    result = triage(FRONT.format(title="vidur fails with the SimAI backend") + body)
    assert result.scope == "out" and result.scope_topics == ["vidur"]


def test_a_build_failure_points_at_the_build_script() -> None:
    body = (
        "The build stops:\n\n    CMake Error in src/applications/CMakeLists.txt:\n\n"
        "Running ./scripts/build.sh -c ns3 gives a cmake error. How do I fix it?\n"
    )
    result = triage(FRONT.format(title="build.sh fails") + body)
    assert result.scope == "out" and "`scripts/build.sh -c ns3` copies" in result.markdown


def test_the_build_script_gives_way_to_a_closer_pointer() -> None:
    body = (
        "After ./scripts/build.sh -c ns3, SimAI_simulator stops: mkdir: cannot create "
        "directory '/etc/astra-sim': Permission denied. How do I fix it?\n"
    )
    result = triage(FRONT.format(title="permission denied") + body)
    assert result.scope == "out" and "/etc/astra-sim/simulation/" in result.markdown
    assert "`scripts/build.sh -c ns3` copies" not in result.markdown


def test_an_import_aicb_cannot_make_of_its_own_code_is_no_environment() -> None:
    """A name AICB's own module lacks is that revision's defect: no package installs it."""
    title = "ImportError: cannot import name 'bytes_of' from '{module}'"
    body = "Running `python aicb.py` stops at once. How do I fix it?\n"
    result = triage(FRONT.format(title=title.format(module="utils.utils")) + body)
    assert result.scope_topics == ["an import that fails inside AICB's own code"]
    assert "no package installs it" in result.markdown
    result = triage(FRONT.format(title=title.format(module="transformers")) + body)
    assert result.scope_topics == ["python environment"]


def test_a_command_taken_from_the_documentation_is_no_thread_about_it() -> None:
    body = "I ran this command, taken from the documentation, and got `No module named torch`.\n"
    result = triage(FRONT.format(title="aicb fails") + body)
    assert result.scope == "out" and "documentation" not in result.scope_topics
