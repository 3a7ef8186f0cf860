"""What of SimAI_simulator's surface the rest of the models do not hold: its command line and
the environment variables SimAI's tree reads (the concept pages are checked against these).

SimAI_simulator parses with getopt (`user_param_prase` in
`astra-sim-alibabacloud/astra-sim/network_frontend/ns3/AstraSimNetwork.cc`, cef83f9): its string
"ht:w:g:s:n:c:" also names `-g` and `-s`, but no case takes them, so they print the help hint
and `main` returns 0 without simulating, as for any unknown option.
"""

from __future__ import annotations

#: SimAI_simulator's options and what each sets
SIMULATOR_OPTIONS: dict[str, str] = {
    "-t": "thread",
    "-w": "workload",
    "-n": "network_topo",
    "-c": "network_conf",
    "-h": "help",
}
#: the environment variables a file of SimAI's own tree reads with getenv, and that file: at
#: f5efb5a9 (SimAI 1.6); from 632e1469 the mock NCCL (MockNcclLog.h, MockNcclGroup.cc) is
#: included from the SimCCL submodule, which wkparse has not read
ENVIRONMENT_READ: dict[str, str] = {
    "AS_LOG_LEVEL": "astra-sim-alibabacloud/astra-sim/system/MockNcclLog.h",
    "AS_SEND_LAT": "astra-sim-alibabacloud/astra-sim/network_frontend/ns3/entry.h",
    "AS_PXN_ENABLE": "astra-sim-alibabacloud/astra-sim/system/MockNcclGroup.cc",
    "AS_NVLS_ENABLE": "astra-sim-alibabacloud/astra-sim/system/MockNcclGroup.cc",
}
#: the variables SimAI's docs name that no file of its tree reads (f5efb5a9 and cef83f9)
ENVIRONMENT_DOCUMENTED_ONLY: tuple[str, ...] = ("AS_NVLSTREE_ENABLE",)
