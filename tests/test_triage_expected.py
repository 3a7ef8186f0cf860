# ruff: noqa: RUF001 - the answers' Chinese words, with their full-width punctuation
"""The answers to the in-scope triage cases against their `expected.md`: for each case, the
facts a correct answer states (numbered as in `expected.md`, each with words of the answer's
language that only an answer stating it contains) and the claims it must not make.

A fact the answer does not state yet is listed under `gaps`: its test is a strict xfail, so
the day an answer states it the test fails until the fact moves to `says`."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from tests.conftest import TRIAGE, require, triaged


@dataclass(frozen=True)
class Case:
    #: fact number in expected.md -> words each of which the answer must contain
    says: dict[int, tuple[str, ...]]
    #: words a correct answer must not contain
    never: tuple[str, ...]
    #: fact number -> words of a fact not stated yet
    gaps: dict[int, tuple[str, ...]] = field(default_factory=dict)


CASES: dict[str, Case] = {
    "aliyun-SimAI-101": Case(
        says={
            1: ("DP = 8 / (TP x PP) = 2",),
            2: ("`grad_param_comm`（REDUCESCATTER，4 B x 参数量）", "3,244,294,144 B"),
            3: ("已经到了反向传播阶段", "前向阶段（包括文件末尾的小集合通信）已经执行完毕"),
            4: ("每个字节都当作数据包", "只有整个运行结束时才写入"),
            5: ("退出码", "all passes finished"),
        },
        never=(
            "只会增加通信组",
            "可能的原因",
            "`optimizer`",
            "格式错误",
            "不匹配",
            "CC_MODE",
            "HPCC",
            "NVLS",
        ),
    ),
    "aliyun-SimAI-105": Case(
        says={
            1: ("1280 - 128 - 128 = 1024 GPUs in 128 servers",),
            2: ("busbw = algbw x (n-1)/n", "x 2(n-1)/n for an all-reduce", "not measured"),
            3: ("`grad_param_comm` (REDUCESCATTER", "not by itself a contradiction"),
            4: ("attach the workload file", "the EndToEnd.csv row and its header line"),
        },
        never=(
            "only adds groups",
            "malformed",
            "physical bandwidth",
            "simulator bug",
            "Likely cause",
        ),
    ),
    "aliyun-SimAI-110": Case(
        says={
            1: ("`forward_compute_time *= 2` 加倍的是一个随后就被覆盖的值", "不起作用"),
            2: ("`atten_flash` 段计算两次", "前向、输入梯度和权重梯度计算时间中"),
            3: ("选择性重计算", "只重计算核心注意力", "'attention' in name"),
            4: (
                "一层的反向时间就是它的前向时间",
                "`param_time`",
                "`grad_param_compute`",
                "两者之和写在 `grad_param_compute` 行的输入梯度计算时间里",
            ),
        },
        # the fields' `>>` reading (row-compute) answers none of the three questions
        never=(
            "可能的原因",
            "前向时间加倍",
            "重计算被忽略",
            "梯度计算时间缺失",
            "`100.5` 读出 100",
        ),
    ),
    "aliyun-SimAI-140": Case(
        says={
            1: ("`grad_norm` 是 AICB 在不用 AIOB 时写的第一行", "权重梯度（DP）REDUCESCATTER"),
            2: (
                "只有整个运行结束时才写入",
                "几 GB 的集合通信会让它长时间运行而没有任何输出",
                "`grad_norm` 的前向集合通信，约 10.83 GB",
            ),
            3: (
                "正是 SimAI 的 `example/busbw.yaml` 中的值",
                "280: TP allgather",
                "按总线带宽直接算出每个集合通信的时间",
            ),
            4: ("当时进程仍在运行还是已经退出",),
        },
        never=("nodes_num", "gpu_num", "格式错误", "可能的原因"),
    ),
    "aliyun-SimAI-142": Case(
        says={
            1: ("TP 24", "跨越 3 台 8 卡服务器", "TP 8", "位于一台 8 卡服务器之内"),
            2: ("按数据包仿真", "拥塞控制", "同样大小的通信在不同的层可能耗时不同"),
            3: ("前向集合通信以阻塞方式发出", "前向暴露通信等于它的前向总通信", "非阻塞"),
        },
        never=("不支持", "无效", "可能的原因", "文件有错"),
    ),
    "aliyun-SimAI-166": Case(
        says={
            1: (
                "AICB 的一次迭代是 8 个（ga）大小为 1 的微批次，你的是 1 个大小为 8 的",
                "`--micro_batch=8 --global_batch=8` 生成（ga 1）",
            ),
            2: (
                "注意力头数：训练命令中为 8，AICB 中为 16",
                "只有 AICB 使用 SwiGLU",
                "只有你的训练做激活重计算",
                "你的训练为 float16，AICB 为 bfloat16",
            ),
            3: ("计算时间是 AIOB 在运行 AICB 的 GPU 上", "而不是你训练运行的时间"),
        },
        never=(
            "网络流量",
            "可能的原因",
            # of a rebuild at d9b4f5c, whose file name is not the user's `None-None-...`
            "AICB 为 d9b4f5c",
            "为 NaN",
            "Input workload format mismatch",
            # the file the models give no result for is not the run that gave 6042 ms
            "SimAI_analytical：结果为",
        ),
    ),
    "aliyun-SimAI-208": Case(
        says={
            1: ("TP 组中运行，组的大小在任何拓扑上都一样", "一台服务器内经 NVLink", "用时相同"),
            2: ("32 个 GPU，取自拓扑", "64 个 GPU，取自拓扑", "`all_gpus` 不决定规模"),
            3: (
                "`model_parallel_NPU_group` 设为 GPU 总数",
                "TP 设为 1 并把 ALLREDUCE 放在权重梯度列",
            ),
        },
        # the shipped example's rows are not the reporter's file (they follow the Tutorial);
        # nobody asked about an empty CSV or the run's last lines
        never=(
            "只会增加通信组",
            "多线程",
            "可能的原因",
            "没有读取拓扑",
            "16,777,216 B（16 MiB）和 67,108,864 B",
            "ncclFlowModel_EndToEnd.csv",
            "最后几行",
        ),
    ),
    "aliyun-SimAI-209": Case(
        says={
            1: ("26b4574b 之前的版本接受", "exit 255"),
            3: ("(PP-1)/(GA*vpp) = 15/(1*1)", "气泡占 93.75%", "气泡仍占主导"),
            2: (
                "去掉 `-busbw example/busbw.yaml` 后",
                "没有 -n_p_s",
                "不初始化每台服务器的网卡数",
                "正是你看到的全是气泡的结果",
                "-g 12288 -g_p_s 8 -r prefill- -n_p_s 8`",
            ),
            4: ("SimAI 从不读取 mode:", "起带有 vidur-alibabacloud"),
        },
        never=(
            "修改了workload 读取",
            "读取 workload 文件的方式与你的不同",
            "格式错误",
            "-n_p_s busbw.yaml",
        ),
    ),
    "aliyun-SimAI-210": Case(
        says={
            1: (
                "起带有 vidur-alibabacloud：一个推理模拟器",
                "把它当作一次训练迭代来模拟",
                "概念页 `behaviour-inference-vidur`",
            ),
            2: (
                "没有 -n_p_s",
                "不初始化每台服务器的网卡数",
                "正是你看到的全是气泡的结果",
                "-nv 380 -nic 50 -n_p_s 8`",
            ),
            3: ("(PP-1)/(GA*vpp) = 15/(1*1)", "气泡占 93.75%", "气泡仍占主导"),
            4: ("SimAI 从不读取 mode:",),
        },
        # the predicted Total time rests on an uninitialised NIC count: never quoted
        never=(
            "格式错误",
            "生成的大小有误",
            "已经完整",
            "prefill 延迟",
            "EndToEnd.csv 中 Total time 为",
        ),
    ),
    "aliyun-SimAI-245": Case(
        says={
            1: ("只发出第一行的权重梯度集合通信", "不会仿真任何通信"),
            2: ("MICRO 从不设置它们", "Input workload format mismatch", "在 MICRO 下它们不起作用"),
            3: ("SIGFPE", "exit 136"),
            4: (
                "`example/microAllReduce.txt`",
                "`HYBRID_TRANSFORMER_FWD_IN_BCKWD` 文件头",
                "`model_parallel_NPU_group` 设为 GPU 总数",
                "TP 设为 1 并把 ALLREDUCE 放在权重梯度列",
            ),
        },
        # nobody reported a crash: the predicted SIGFPE is no "likely cause"
        never=("30 次", "已验证", "可能的原因", "每行都是 无集合通信"),
        # the excerpt shows 11 of the 30 rows: the count line is not checked against it
        gaps={5: ("30 行",)},
    ),
    "aliyun-SimAI-248": Case(
        says={
            1: ("SimAI_simulator 会读取并模拟这几类行", "会执行其中每一个并正常结束"),
            2: ("WK801", "只有整个运行结束时才写入", "用大于 1 的专家并行度重新生成文件"),
            3: ("ncclFlowModel_detailed_<N>.csv 即使在正常结束的运行中也是空的",),
        },
        # an ns-3 thread: nothing of SimAI_analytical; the plain ALLTOALL rows are not judged
        never=(
            "nullptr",
            "删除",
            "删掉",
            "可能的原因",
            "SimAI_analytical 则不传输",
            "TP 组上的 ALLTOALL",
        ),
    ),
    "aliyun-SimAI-253": Case(
        says={
            1: ("26b4574b 之前的版本接受", "255"),
            2: ("`-nv`, `-nic`, `-n_p_s`", "`-g_p_s`", "`-g_type`", "`-nic_t`"),
            3: ("bus bandwidth file", "每台服务器的网卡数"),
        },
        # the question is about the options: no workload file, run output or command is needed
        never=("从未", "never existed", "请附上 workload 文件", "完整 SimAI 命令行"),
    ),
    "aliyun-SimAI-256": Case(
        says={
            1: ("不记录 GPU 型号", "`a100_compute_cache`", "不是记录"),
            2: ("AIOB 测量这些时间时运行的迭代次数", "不包含任何时间", "不会改变 workload"),
            3: (
                "`-m` 预设",
                "其他任何 `-m` 值都会退回到 gpt_13B",
                "在脚本的预设块里为它加一个分支",
                "直接运行脚本所调用的 Python 生成器",
            ),
            4: ("workload 描述的始终是一次迭代", "SimAI 只运行它一遍", "一步的时间 x 迭代次数"),
        },
        never=("可能的原因", "构建 15B", "设置迭代次数", "在 A100 上测"),
    ),
    "aliyun-SimAI-270": Case(
        says={
            1: ("DP = 32 / (TP x PP) = 4, ga 4",),
            2: ("DP 组有 32 / 4 = 8 个 GPU", "这个 DP 组是文件的 DP 4", "的 2 倍"),
            3: ("单凭文件也定不了原因",),
            5: ("只有整个运行结束时才写入",),
        },
        never=(
            "修改了workload 读取",
            "可能的原因",
            "PP_size = 1 是原因",
            "不支持 PP",
            "总是卡死",
            "只是太慢",
            "会改变 workload",
        ),
        gaps={4: ("send/recv",)},
    ),
    "aliyun-SimAI-39": Case(
        says={
            1: ("no special option is needed", "inside one server when TP is at most"),
            2: ("`grad_gather`", "`grad_param_comm`", "between servers", "runs in the DP group"),
            3: ("DP > 1 needs more GPUs than TP x PP", "`--world_size`"),
        },
        never=("needs a special option", "cross servers", "Likely cause"),
    ),
    "aliyun-SimAI-44": Case(
        never=("Likely cause", "only the count", "never supported"),
        says={
            1: ("yours, b8472449 (2024-12-10), is older than 02532997", "ns-3 assertion aborts"),
            2: ("Updating SimAI to 02532997 or later is the fix", "finishes"),
            3: ("5 of the 6 layers SimAI built (`lines: 6`) have no name", "check both"),
        },
    ),
    "aliyun-SimAI-49": Case(
        says={
            1: ("16,777,216 B (16 MiB) and 67,108,864 B (64 MiB)", "inside one server"),
            3: ("microseconds", "busbw = algbw x (n-1)/n", "x 2(n-1)/n for an all-reduce"),
            2: ("one row per layer", "fwd total comm,algbw,busbw"),
            4: ("ncclFlowModel_detailed_<N>.csv stays empty",),
        },
        # the file is SimAI's own example: no file to ask for
        never=(
            "only adds groups",
            "the column names that follow are those of",
            "detailed CSV holds",
            "exercises DP",
            "crosses servers",
            "attach the workload file",
        ),
    ),
    "aliyun-SimAI-74": Case(
        says={
            1: ("data of the whole collective", "the gathered result", "size / n"),
            2: ("size x (n-1)/n", "flows of size / n / c bytes", "each GPU sends (n-1)/n"),
            3: ("`ALLGATHER` in the weight-gradient columns: DP", "forward columns: TP"),
            4: ("`grad_gather` (ALLGATHER of 2 B x parameters)",),
        },
        never=(
            "should be divided by",
            "per-rank input",
            "Likely cause",
            # the date gives only the month: no one master of it is the user's
            "8c2f1743 (2025-01-27), master on",
        ),
        gaps={5: ("nodes_in_ring",)},
    ),
    "aliyun-SimAI-8": Case(
        says={
            1: ("Probably a known problem", "would confirm it"),
            2: (
                "yours, 16b21a57 (2024-11-01), is older than 7f06c19c",
                "Your row `optimizer1` has a forward ALLREDUCE of 4 B",
                "forward sizes of 1 to 4095 B are raised to 4096 B and finish",
            ),
            3: ("the run has 128 GPUs, the topology's", "128 / 8 = 16"),
            4: ("WK201", "Input workload format mismatch"),
        },
        never=("SimAI still divides the bubble", "Likely cause", "astra-sim#92"),
    ),
    "aliyun-SimAI-83": Case(
        says={
            1: ("`workload_generate_aiob`", "不开 `--aiob_enable` 生成", "与前向列相同的大小"),
            2: ("`grad_gather`（ALLGATHER，2 B x 参数量）", "分布式优化器"),
            3: ("`param_time`", "并不是再算一次梯度", "`Grad_param._apply`"),
            4: ("单个 GPU 上那一份模型分片的参数量", "大小随 TP 变化"),
        },
        never=("可能的原因", "bug", "重新计算权重梯度"),
    ),
    "aliyun-SimAI-88": Case(
        says={
            1: (
                "`ALLTOALL` in the forward columns: TP",
                "`ALLTOALL_EP` in the forward columns: EP",
            ),
            2: ("seven rows for each MoE layer", "`ALLTOALL`, A // TP", "TP 1 they are `NONE`"),
            3: ("`tp_comm_size`", "A x topk // TP", "the sequence-parallel shard"),
        },
        # fact 4 ("may be said") needs the header's ep:, which the thread does not show
        never=("same collective", "Likely cause", "while the header says ep: 1", "generator bug"),
    ),
    "aliyun-SimAI-89": Case(
        says={
            1: ("glibc 发现堆内存已损坏而中止进程", "竞争或越界写入"),
            2: ("a920cdc2", "更新 SimAI", '"[Fix] Double free"', "单线程（`-t 1`）"),
            3: ("DP = 64 / (TP x PP) = 4, ga 32", "40 个 Transformer 层"),
        },
        never=("exit 0 within seconds", "格式错误", "AS_NVLS_ENABLE", "可能的原因"),
        # at the thread's SimAI (b83ea3d4) the model predicts a stall, not a long run
        gaps={4: ("nothing is written until the end",)},
    ),
    "aliyun-SimAI-93": Case(
        says={
            1: ("in microseconds (us)",),
            2: (
                "compute times in a workload's rows are nanoseconds",
                "shipped `workload/aiob_inputs/Example.txt`",
                "not a measurement on your GPU",
            ),
            3: ("collective sizes are bytes",),
        },
        # the question (the unit) needs no file
        never=(
            "results are in n",
            "milliseconds",
            "cycles",
            "measured on your",
            "attach the workload file",
            "Likely cause",
        ),
    ),
    "aliyun-aicb-22": Case(
        says={
            1: ("`WorkloadApplyer._apply_computation`", "sleeps `msg_size / 1e9` seconds"),
            2: ("microsecond measurements by 1000",),
            3: ("`aicb.py`", "the SimAI-format generator"),
        },
        never=("Likely cause", "sends a message", "times are bytes"),
    ),
    "aliyun-aicb-24": Case(
        says={
            1: ("`-m 7`: gpt_7B, tp 4", "`-m 175`: gpt_175B, tp 8", "win over the options"),
            2: ("stops at the first word it does not know", "ignores everything after it"),
            3: ("`model_parallel_NPU_group`", "`-tp<N>-pp<N>-`"),
        },
        never=("Likely cause", "misspelt", "tp 8, pp", "tp 4, pp"),
    ),
    # the threads added on 2026-12-06: the claims their answers must not make
    "aliyun-SimAI-104": Case(
        says={
            1: ("没有任何文件把流量从模拟 NCCL 层传给 ns-3", "`SendFlow`", "按依赖顺序生成"),
            2: ("`FCT_OUTPUT_FILE`", "`(ip >> 8) & 0xffff`", "`SendFlow to`", "`qp finish`"),
            4: ("这些目录必须存在且可写",),
        },
        never=("可能的原因", "流量文件作为", "FLOW_FILE 中", "wkparse traffic", "以及监控文件"),
        # flow and packet sizes are behaviour-ns3-packets', a page the thread's questions
        # do not ask
        gaps={3: ("S / n / c",)},
    ),
    "aliyun-SimAI-114": Case(
        says={
            1: ("the model shard ONE GPU holds", "num_layers // PP", "DP does not enter it"),
            2: (
                "with_aiob.sh -m 7`",
                "has TP 4",
                "sets over any `--tensor_model_parallel_size`",
                "7,730,102,272 B",
            ),
            3: (
                "the whole model, at TP 1 and PP 1",
                "7,676,624,896 parameters",
                "30,706,499,584 B",
            ),
            4: ("fp32 gradients", "distributed optimizer", "leave MoE expert parameters out"),
        },
        never=("Likely cause", "shrinks", "rescales", "4 x the full model", "divided by the DP"),
    ),
    "aliyun-SimAI-121": Case(
        says={
            1: ("not guaranteed to be bit-for-bit reproducible",),
            2: ("`portNumber[src][dst]++`", "ECMP next hops by hashing the ports"),
            3: ("`-t 1` and fixed seeds", "identical output with `-t 1` and `-t 2`"),
            4: ("DP = 512 / (TP x PP) = 128, ga 1",),
        },
        never=(
            "which this size overflows",
            "Likely cause",
            "always exactly reproducible",
            "random seed",
        ),
    ),
    "aliyun-SimAI-154": Case(
        says={
            1: ("ncclFlowModel_detailed_<N>.csv stays empty even in a finished run",),
            2: ("their names start `./ncclFlowModel_`", "not in `results/`"),
            3: ("`(ip >> 8) & 0xffff`", "summing its sizes by source and destination node"),
        },
        never=("Likely cause", "the simulation failed", "wkparse traffic"),
        # the README's example keeps every TP group inside one server: no page says so here
        gaps={4: ("only intra-server pairs",)},
    ),
    "aliyun-SimAI-157": Case(
        says={
            2: (
                "runs the rows once, in file order",
                "from the last row back to row 0",
                "`grad_gather` ALLGATHER 158,859,264 B",
                "after the backward pass of the 2 micro-batches",
            ),
            3: ("(PP - 1) / (ga x vpp)", "`ga` changes nothing in SimAI's result"),
            # the findings of the JSON (the Markdown counts them, not worded: no question asks)
            4: ("ALLGATHER_DP_EP of 0 bytes", "SimAI simulates no traffic for it"),
            5: ("AICB leaves out ig TP ALLREDUCE",),
        },
        # a 1F1B or interleaved schedule claimed (the answer says it is not one)
        never=(
            "Likely cause",
            "simulates a 1F1B",
            "runs a 1F1B",
            "interleaves the micro-batches",
            "DP collectives run once per micro-batch",
        ),
        # the row layout needs the whole file (the thread shows 10 of its 24 rows)
        gaps={1: ("7 + 10 + 7",)},
    ),
    "aliyun-SimAI-160": Case(
        says={
            1: ("the size in a row is the whole collective", "`preferred_dataset_splits`"),
            2: ("S / n / c bytes", "one RDMA message on one queue pair"),
            3: ("packets of at most `PACKET_PAYLOAD_SIZE` bytes", "9000"),
            4: ("DEBUG `SendFlow to` line", "a message's bytes, not a packet's"),
        },
        never=("Likely cause", "16 MB packets", "comes from the workload file", "wkparse traffic"),
    ),
    "aliyun-SimAI-163": Case(
        says={
            1: ("没有 warm-up、1F1B 或 cool-down 阶段", "只包含一个阶段的行", "把层数除以 pp"),
            2: ("(PP - 1) / (ga x vpp)", "由文件头的 `pp_comm` 和 `-pp_o` 算出"),
            3: ("`PP_size = 1`", "真实 DP 的 PP 倍", "同样按公式算出的气泡"),
            4: ("没有模拟流水线本身的选项",),
        },
        never=("可能的原因", "模拟了 1F1B", "支持 1F1B", "不影响", "忽略 PP"),
    ),
    "aliyun-SimAI-180": Case(
        says={
            1: (
                "x 1e9 x (nranks - 1) / nranks ns, twice that for an all-reduce",
                "(2 ranks: 10 us, 4: 12, 8: 15, 16: 66, 32: 135, 64: 200, 128: 320",
            ),
            2: ("inside one server, the NVLink bandwidth", "the group's type (TP, DP, EP, DP_EP)"),
            3: (
                "inputs/ratio/nvlink_ratio.csv`",
                "`ata_ratio.csv` (TP and EP all-to-all)",
                "(all-reduce, DP, DP_EP) gets 1",
                "`Data size out of range`",
            ),
            4: ("nccl-tests' bus-to-algorithm bandwidth factor", "`Layer::compute_busbw`"),
            5: ("SimAI_simulator (ns-3) does not use it", "Before 26b4574b"),
        },
        never=("Likely cause", "from the topology file", "from busbw.yaml"),
    ),
    "aliyun-SimAI-189": Case(
        says={
            1: ("a single `-w` path", "one Sys per GPU", "No option or configuration key"),
            2: ("built once for all GPUs",),
            3: ("needs code changes", "a workload per job"),
            4: ("one file at a time",),
        },
        never=("already supports", "vidur"),
    ),
    "aliyun-SimAI-192": Case(
        says={
            1: (
                "linear in the number of micro-batches by construction",
                "writes the stage's layer rows once per micro-batch",
                "one layer per row",
            ),
            2: ("`AnaSim::Run` advances a 1 ns tick", "1.8 s measured"),
            3: ("no released AICB or SimAI has an option to collapse", "a different workload"),
            4: ("scale the per-micro-batch compute", "once-per-iteration DP collectives"),
        },
        never=("Likely cause", "stuck loop", "a multiplier already"),
    ),
    "aliyun-SimAI-198": Case(
        says={
            1: (
                "Expected, not a fault",
                "`example/microAllReduce.txt`",
                "all its flows stay inside",
            ),
            2: ("every point-to-point send of every simulated collective", "strided across"),
            3: ("run last", "shows TP traffic only"),
        },
        never=("never simulates inter-host", "misses cross-host"),
    ),
    "aliyun-SimAI-199": Case(
        says={
            1: (
                "`grad_gather`（wg ALLGATHER 1,354,760,192 B (DP)）",
                "`grad_param_comm`（wg REDUCESCATTER 2,709,520,384 B (DP)）",
                "剩下的行一个也没有",
            ),
            2: ("删掉这些行不是有效的解决办法",),
            3: (
                "SimAI 最后才发出它们",
                "从最后一行倒序",
                "只有整个运行结束时才写入",
                "秒的包级仿真",
            ),
            4: ("DP 组有 128 / 4 = 32 个 GPU", "这个 DP 组是文件的 DP 8", "的 4 倍"),
            # the log is only a screenshot: its end and the exit status are asked
            5: ("运行输出只以图片形式给出", "文本输出的最后几行", "echo $?"),
            6: ("DP = 128 / (TP x PP) = 8, ga 32", "每阶段 9 层", "pp_comm（67,108,864 B）"),
        },
        never=("包级仿真至少需要", "设计如此", "隐藏在 TP", "删除前几行不影响", "可能的原因"),
    ),
    "aliyun-SimAI-215": Case(
        says={
            1: ("without `--aiob_enable` (`workload_generate`)", "`MegatronColumnLinear.backward`"),
            2: ("does not double count", "in the DP group"),
            3: ("ig / TP exposed communication",),
            4: ("type and size together",),
        },
        never=("is double counted", "ignores the input-gradient"),
    ),
    "aliyun-SimAI-22": Case(
        says={
            1: ("A workload file cannot express overlap", "no field says which communication"),
            2: ("`-dp_o`, `-tp_o` and `-ep_o` default to 0", "fully exposed (no overlap)"),
            3: ("reads none of these ratios", "weight-gradient collectives as non-blocking"),
            4: ("`-pp_o` scales the pipeline bubble with default 0 before 03613a7a",),
        },
        never=("dependency column", "by default overlaps", "reads the `-dp_o`"),
    ),
    "aliyun-SimAI-251": Case(
        says={
            1: ("`workload_generate_aiob`", "`NONE`、大小 0", "只改变计算时间"),
            2: ("`MegatronColumnLinear.backward`",),
            3: ("计入 ig / TP 暴露通信",),
            4: ("与前向列相同的大小",),
        },
        never=("可能的原因", "通信模式本就不同"),
    ),
    "aliyun-SimAI-285": Case(
        says={
            1: ("固定的 1（纳秒）", "`--aiob_enable --comp_filepath FILE`"),
            2: ("只能借用别人的 AIOB 结果文件",),
            3: ("并行策略在生成文件时就已确定", "`-g -g_p_s -nv -nic -n_p_s`"),
            4: ("不直接输出逐操作的时间线", "`ncclFlowModel_detailed_*.csv` 则是空的"),
        },
        never=("只能在目标 GPU", "甘特图"),
    ),
    "aliyun-SimAI-298": Case(
        says={
            1: ("`Sys::break_dimension(1)` 返回 -1", "`ALLTOALL_EP` 的 dispatch 和 combine"),
            2: ("由 TP 组构造 EP 和 DP_EP 组",),
            3: ("修复需要同时改两处",),
            4: ("SimAI_analytical 不使用这些掩码",),
        },
        never=("格式错误", "可以正确仿真"),
    ),
    "aliyun-SimAI-35": Case(
        says={
            1: ("no list of the flows", "`SendFlow to`", "`TRACE_OUTPUT_FILE`", "made at run time"),
            2: ("i / G and j / G", "`grad_gather`"),
            3: ("must exist and be writable",),
        },
        never=(
            "Likely cause",
            "writes a traffic file",
            "flow1.txt contains",
            "wkparse traffic",
            "and the monitors",
        ),
    ),
    "aliyun-SimAI-62": Case(
        says={
            1: ("DP is simulated as traffic", "`grad_gather`, `grad_param_comm`", "`wg`"),
            2: ("SimAI simulates no pipeline schedule", "PP enters only the report, by formula"),
            4: ("its DP group is GPUs / TP, PP times the real DP when pp > 1",),
            5: ("`Workload::decode_involved_dimensions`", "`Sys::mock_nccl_comms_init`"),
        },
        never=("Likely cause", "DP communication is missing", "PP flows"),
        gaps={3: ("SUM",)},
    ),
    "aliyun-SimAI-70": Case(
        says={
            1: ("SimAI models time only", "never a model's accuracy"),
            2: ("exactly one training iteration", "once (one pass)", "no epoch or iteration count"),
            3: ("step time x iterations",),
            4: ("`--aiob_enable` they are measured kernel times", "placeholder"),
        },
        never=("Likely cause", "whole epoch", "`--epoch_num` makes", "predicts the accuracy"),
    ),
    "aliyun-SimAI-84": Case(
        says={
            1: ("梯度以 fp32 交换（每个 4 B）", "参数以 bf16 交换（每个 2 B）"),
            2: ("Megatron 分布式优化器", "而普通数据并行只有一次 DP all-reduce"),
            3: ("SimAI 在 DP 组中按写出的字节数运行这两行",),
            4: ("单个 GPU 上那一份模型分片的参数量",),
        },
        never=("可能的原因", "环形算法系数", "梯度以 bf16", "整个模型的参数量"),
    ),
    "aliyun-SimAI-91": Case(
        says={
            1: ("只有整个运行结束时才写入",),
            2: (
                "你的 SimAI 9ecad45f (2025-02-06) 早于 7f06c19c",
                "`optimizer1 … optimizer4`（4 行），每行是 4 B 的前向 ALLREDUCE",
                "把 SimAI 更新到 7f06c19c 或更新的版本即可解决",
                "在较早的 SimAI 上删掉这些行可以避开停止",
            ),
            3: ("从 7f06c19c 起应保留它们", "总时间不变（实测）"),
            4: (
                "它们不会让运行停止",
                "删掉它们会把 DP 流量从结果中去掉",
                "第 2 行的层数必须改成新的行数",
            ),
        },
        # only forward small rows were run before 7f06c19c: "any pass ... (recorded)" overstated
        never=("格式错误", "必须删除", "没有通信", "任何阶段中 1 到 4095 B"),
    ),
    "aliyun-aicb-12": Case(
        says={
            1: ("Llama 3 paper, not the first LLaMA paper", "FFN 28672", "53248"),
            2: ("FFN 16384 (4 x hidden 4096)", "11008"),
            3: ("feeds no generator", "`--ffn_hidden_size`", "does not depend on it"),
        },
        never=("Likely cause", "typo", "changes the TP all-reduce"),
    ),
    "aliyun-aicb-14": Case(
        says={
            2: (
                "`--ep_num` is no option of `scripts/megatron_workload_with_aiob.sh`",
                "without an error, and ignores that word and every word after it",
            ),
            4: ("`--ep 16` is an option of", "generator as `--expert_model_parallel_size=16`"),
        },
        never=("accepted alias", "stops with an error", "`--ep_num 16` is an option"),
        # 1: the README fix (af5cf2b) is after the thread's date, and wkparse keeps no copy of
        # AICB's README; 3: the README command is only linked, the thread shows no command to run
        gaps={1: ("af5cf2b",), 3: ("tp4",)},
    ),
    "aliyun-aicb-15": Case(
        says={
            1: ("显式的 `isend` 和 `irecv` 项", "确实会阻塞", "等待比训练中短"),
            2: ("从不逐事件模拟", "(PP - 1) / (ga x vpp)", "从 03613a7a 起还有 Expose_PP_comm"),
            3: ("ns-3 构建不建立 PP 组", "不模拟 PP 流量", "同样按公式算出的气泡"),
        },
        never=("send/recv 行", "可能的原因", "模拟了阶段之间的"),
    ),
    "aliyun-aicb-44": Case(
        says={
            1: ("no DeepSpeed (ZeRO) path", "always builds the Megatron model"),
            2: ("compute items hold matrix shapes, not times", "never DeepSpeed"),
            3: ("world size from torch.distributed", "`--workload_only` skips the replay"),
            4: ("no single-host way",),
        },
        never=("fills compute times for", "can write a DeepSpeed"),
    ),
}


def _answer(case: str) -> str:
    """What the JSON for bots states: each question's answer and evidence, the other answers
    and their evidence, the findings' messages and the asks (the Markdown is made from these)."""
    public = triaged(case).public()
    parts: list[str] = []
    for item in [*public["questions"], *public["answers"]]:  # type: ignore[misc]
        parts.append(item["answer"])
        parts.extend(item["evidence"])
    parts.extend(f["message"] for f in public["findings"])  # type: ignore[attr-defined]
    parts.extend(public["missing"])  # type: ignore[arg-type]
    return "\n".join(parts)


def _facts(field_name: str) -> list[object]:
    out: list[object] = []
    for case, expected in CASES.items():
        facts = getattr(expected, field_name)
        for number, words in facts.items():
            marks = (
                [pytest.mark.xfail(strict=True, reason="not stated yet")]
                if field_name == "gaps"
                else []
            )
            out.append(pytest.param(case, words, id=f"{case}-{number}", marks=marks))
    return out


@pytest.mark.parametrize(("case", "words"), _facts("says"))
def test_states_the_fact(case: str, words: tuple[str, ...]) -> None:
    answer = _answer(case)
    missing = [w for w in words if w not in answer]
    assert not missing, f"{case}: the answer does not say {missing}"


@pytest.mark.parametrize(("case", "words"), _facts("gaps"))
def test_fact_not_stated_yet(case: str, words: tuple[str, ...]) -> None:
    answer = _answer(case)
    assert all(w in answer for w in words)


@pytest.mark.parametrize("case", sorted(CASES))
def test_makes_no_forbidden_claim(case: str) -> None:
    # the questions the answer quotes (`> ...`) are the user's words, not its claims
    markdown = triaged(case).markdown
    answer = "\n".join(line for line in markdown.splitlines() if not line.startswith("> "))
    made = [w for w in CASES[case].never if w in answer or w in _answer(case)]
    assert not made, f"{case}: the answer says {made}"


def test_every_in_scope_case_is_listed() -> None:
    index = require(TRIAGE / "INDEX.tsv").read_text(encoding="utf-8").splitlines()
    rows = [line.split("\t") for line in index[1:] if line.strip()]
    in_scope = {r[0]: int(r[5]) for r in rows if r[1] == "in"}
    assert set(CASES) == set(in_scope)
    for case, total in in_scope.items():
        numbers = set(CASES[case].says) | set(CASES[case].gaps)
        assert numbers <= set(range(1, total + 1)), case
