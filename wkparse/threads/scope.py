"""Whether a thread is about a workload (in scope) or about something wkparse has no model
of: building SimAI, permissions, RDMA and congestion control, topology files and their
generator, vidur (out).

The two sides are weighed on the prose (logs and commands excluded) and on the artefacts:
a thread is out when what it is about outweighs what it says about a workload."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from wkparse.threads.artefacts import Found

#: a name AICB's own modules import and do not define: that revision's defect, which no
#: package of the Python environment mends
OWN_CODE = "an import that fails inside AICB's own code"

#: (weight, topic, pattern): what a thread is about when it is not a workload
_OUT: tuple[tuple[int, str, re.Pattern[str]], ...] = (
    (5, "vidur", re.compile(r"(?i)vidur")),
    (
        4,
        "building SimAI",
        re.compile(r"(?i)build\.sh|cmake|\bmake\b.*error|compil(e|ation) error|编译(失败|报错)"),
    ),
    (4, "permissions", re.compile(r"(?i)permission denied|没有权限|权限不足|mkdir: cannot")),
    (
        4,
        OWN_CODE,
        re.compile(
            r"cannot import name\s+'?\w+'?\s+from\s+'?(?:utils|workload_generator|log_analyzer"
            r"|training|aicb)\b|(?i:missing\s+'\w+'\s+function)"
        ),
    ),
    (4, "python environment", re.compile(r"ImportError|ModuleNotFoundError|No module named")),
    (
        2,
        "SimAI.conf, RDMA and congestion control",
        re.compile(
            r"(?i)CC_MODE|MON_FILE|LINK_DOWN|\b(QLEN|BW|RATE|CNP)_MON|\bRDMA\b|\bHPCC\b|\bDCQCN\b"
            r"|拥塞控制"
        ),
    ),
    (
        4,
        "failure modelling",
        re.compile(
            r"(?i)\b(node|link|GPU|NIC|switch)s?\b[^\n.]{0,30}\bfail|\bfailures?\b|故障|失效"
        ),
    ),
    (
        4,
        "failure modelling",
        re.compile(r"(?i)error ?rate|丢包"),
    ),
    (
        4,
        "the collective library (MockNcclGroup, SimCCL, NVLS, flow models)",
        re.compile(
            r"(?i)MockNcclGroup|SimCCL|\bNVLS|gen\w*FlowModels?\b|ncclSend|ncclRecv|NCCLCHECK"
        ),
    ),
    (
        4,
        "ns-3 network setup",
        re.compile(r"(?i)Address Collision|Ipv4AddressGenerator"),
    ),
    (4, "the environment SimAI runs in", re.compile(r"/etc/astra-sim")),
    (
        3,
        "documentation",
        # the documentation as the thread's subject, not as where a command was taken from
        re.compile(
            r"(?i)user manual|(?<!from the )(?<!in the )\bdocumentation\b|使用手册|说明文档"
        ),
    ),
    (
        2,
        "topology and intra-server links",
        re.compile(
            r"(?i)switch(es)?\b[^\n.?]{0,60}\bports?\b|\bports?\b[^\n.?]{0,60}\bswitch"
            r"|pcie|nvlink"
            r"|(拓扑|topolog\w*)[^\n。.]{0,40}(带宽|时延|bandwidth|latenc)"
            r"|Spectrum-X[^\n。.]{0,20}(拓扑|topolog)"
        ),
    ),
    (
        2,
        "topology file",
        re.compile(
            r"(?i)(topolog\w*|topo|拓扑)[^\n.。]{0,40}(by hand|hand-?written|edited|手写|手动|修改)"
            r"|(by hand|hand-?written|edited|手写|手动)[^\n.。]{0,40}(topolog\w*|topo\b|拓扑)"
            r"|nvswitch_num|link num|routing entr|DataRate"
        ),
    ),
)
#: what a thread says about a workload
_IN = re.compile(
    r"(?i)workload|负载|\bAICB\b|AIOB|grad_gather|grad_param|(?<![A-Za-z])(ALL_?GATHER|ALL_?REDUCE|REDUCE_?SCATTER)"
    r"|ALLTOALL|all_gpus|model_parallel|\btp\s*=|\bpp\s*=|busbw|msg_size|comm(unication)? size"
    r"|通信量|compute[_ ]time|\bga\b|train_iter|iteration|迭代|layer|replaced|替换|改成"
    r"|(?<![A-Za-z])grad(?![A-Za-z])|(?<![A-Za-z])(TP|PP)(?![A-Za-z])"
    r"|\bflows?\b|traffic|流量|packet size|flow size"
)
#: a crash on SimAI's own example files, unmodified: the environment, not the workload
_CRASH = re.compile(r"(?i)segmentation fault|core ?dump|段错误|崩溃")
#: an assertion or a signal inside ns-3's own sources
_NS3_CRASH = re.compile(
    r"(?s)(assert failed|Aborted|Segmentation).*file=\S*ns3|file=\S*ns3.*(assert|Abort)"
)
_EXAMPLE = re.compile(r"(?:^|/)example/[\w.]+\.txt$|^(?:\./)?microAllReduce\.txt$")


@dataclass
class Scope:
    value: str  # "in" or "out"
    #: the topics that put it out of scope (empty when in)
    topics: list[str] = field(default_factory=list)


#: a line of setup steps the user ran (a shell command or its continued options): a word
#: there says what they ran, not what the thread is about
_SHELL_LINE = re.compile(r"^\s*(?:\$\s*)?(?:\./|python3?\s|sh\s|bash\s|cd\s|sudo\s|--?\w)")


def _subjects(prose: str, found: list[tuple[int, str, re.Pattern[str]]]) -> list[str]:
    """The topics to name: those the thread raises outside its setup commands; where every
    one is raised only in commands, the weightiest."""
    typed = "\n".join(x for x in prose.splitlines() if not _SHELL_LINE.match(x))
    named = [topic for _, topic, pattern in found if pattern.search(typed)]
    if named:
        return named
    most = max(weight for weight, _, _ in found)
    return [topic for weight, topic, _ in found if weight == most]


def judge(found: Found, title: str = "") -> Scope:
    prose = "\n".join([title] + [t for _, t in found.prose])
    out = 0
    topics: list[str] = []
    raised: list[tuple[int, str, re.Pattern[str]]] = []
    for weight, topic, pattern in _OUT:
        if pattern.search(prose):
            out += weight
            if topic not in topics:
                raised.append((weight, topic, pattern))
            topics.append(topic)
    inside = min(4, len({m.group(0).lower() for m in _IN.finditer(prose)}))
    # the title says what the thread is about: its workload words count once more
    inside += min(2, len({m.group(0).lower() for m in _IN.finditer(title)}))
    counts = found.counts()
    inside += 2 * bool(counts["aicb-command"]) + 2 * bool(
        counts["workload-header"] or counts["workload-rows"]
    )
    inside += any("-world_size" in a.text for a in found.of("file-name"))
    names = [a.text for a in found.of("file-name")]
    if names and all(_EXAMPLE.search(n) for n in names) and _CRASH.search(prose):
        out += 2
        topics.append("crash on SimAI's own example")
    if any(_NS3_CRASH.search(a.text) for a in found.of("log")):
        out += 1
        topics.append("crash inside ns-3")
    if OWN_CODE in topics:  # the import fails inside AICB, whatever is installed
        topics = [x for x in topics if x != "python environment"]
        raised = [r for r in raised if r[1] != "python environment"]
    if out > inside:
        # the two crash topics are read from logs and file names, not from words
        named = _subjects(prose, raised) if raised else []
        named += [x for x in topics if x not in [r[1] for r in raised]]
        return Scope("out", list(dict.fromkeys(named)))
    return Scope("in")
