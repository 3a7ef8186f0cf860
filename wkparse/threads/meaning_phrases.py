# ruff: noqa: RUF001 - Chinese text is written with its own full-width punctuation
"""The sentences of `meaning`'s answers (what a result, a size, a group or a topology line
means), in English and Chinese side by side; `phrases.PHRASES` takes them in."""

from __future__ import annotations

MEANING: dict[str, tuple[str, str]] = {
    "q-concepts": ("What do the terms you ask about mean?", "你问到的这些内容是什么意思？"),
    "q-groups": (
        "How does SimAI_simulator lay the groups on your topology?",
        "SimAI_simulator 如何在你的拓扑上划分通信组？",
    ),
    "m-unit": (
        "SimAI writes the times of its results (every column of EndToEnd.csv and the summary "
        "line, Total time included) in microseconds (us); the compute times in a workload's "
        "rows are nanoseconds (SimAI divides them by 1000), and collective sizes are bytes.",
        "SimAI 结果中的时间（EndToEnd.csv 的每一列和汇总行，包括 Total time）单位是微秒"
        "（us）；workload 各行中的计算时间单位是纳秒（SimAI 将其除以 1000），集合通信大小的单位"
        "是字节。",
    ),
    "m-older": ("Your SimAI is older than {since}", "你的 SimAI 早于 {since}"),
    "m-maybe-older": (
        "Your SimAI may be older than {since} (the thread's month holds masters before and "
        "after it); if it is",
        "你的 SimAI 可能早于 {since}（帖子所在月份的 master 在它前后都有）；若是如此",
    ),
    "m-columns-before": (
        "{whose}: its SimAI_simulator writes the per-layer rows below, their SUM row and the "
        "`total exposed comm, ..., total time` line, but not the summary line at the top of "
        "the file, which came with {since}. {later}",
        "{whose}：它的 SimAI_simulator 写出下面这些逐层的行、SUM 行和 "
        "`total exposed comm, ..., total time` 行，但没有文件开头的汇总行（它从 {since} 起才有）。"
        "{later}",
    ),
    "m-columns": (
        "The results are in ncclFlowModel_EndToEnd.csv (EndToEnd.csv for SimAI_analytical): one "
        "row per layer of the workload, with the columns `{columns}` (the second column holds "
        "the run's name; then each phase's compute, its exposed communication, then its whole "
        "communication with algbw and busbw; SimAI_simulator adds a last column, `workload "
        "finished at`), and a summary line `{summary}`.",
        "结果在 ncclFlowModel_EndToEnd.csv 中（SimAI_analytical 为 EndToEnd.csv）：workload 的"
        "每一层一行，列为 `{columns}`（第二列是这次运行的名字；然后是各阶段的计算时间、暴露的通信"
        "时间，以及整段通信时间及其 algbw 和 busbw；SimAI_simulator 还多一列 "
        "`workload finished at`），以及汇总行 `{summary}`。",
    ),
    "m-busbw": (
        "The algbw and busbw SimAI prints for a collective are computed from the row, not "
        "measured on a link: algbw = size / simulated time (GB = 2^30 B), busbw = algbw x "
        "(n-1)/n for an all-gather, reduce-scatter or all-to-all and algbw x 2(n-1)/n for an "
        "all-reduce, n being the size of the collective's group. So a busbw above a NIC's rate "
        "is not by itself a contradiction: it follows the row's size and its group.",
        "SimAI 为集合通信打印的 algbw 和 busbw 是由该行计算出来的，并不是在链路上测得的："
        "algbw = 大小 / 模拟时间（GB = 2^30 B）；all-gather、reduce-scatter 和 all-to-all 的 "
        "busbw = algbw x (n-1)/n，all-reduce 的 busbw = algbw x 2(n-1)/n，n 为该集合通信所在"
        "通信组的大小。因此 busbw 超过网卡速率本身并不矛盾：它取决于该行的大小和通信组。",
    ),
    "m-size-flows": (
        "SimAI_simulator (ns-3) sends the same amount (read in its own mock NCCL layer, up to "
        "SimAI 1.6): that layer cuts an all-gather or reduce-scatter of that size into flows of "
        "size / n / c bytes (c ring channels), n - 1 from each GPU on each channel, so each GPU "
        "sends (n-1)/n of the size.",
        "SimAI_simulator（ns-3）发送的数据量相同（依据其自带的模拟 NCCL 层，至 SimAI 1.6）："
        "该层把该大小的 all-gather 或 reduce-scatter 切成 size / n / c 字节的流（c 为环通道数），"
        "每个 GPU 在每个通道上发出 n - 1 个，所以每个 GPU 发出该大小的 (n-1)/n。",
    ),
    "m-size": (
        "A collective's size in a row is the data of the whole collective (for ALLGATHER, the "
        "gathered result); each of the n ranks of its group contributes size / n, and SimAI "
        "times an all-gather or reduce-scatter as size x (n-1)/n over the bus bandwidth (twice "
        "that for an all-reduce). The size is not to be divided by the number of ranks.",
        "workload 行中集合通信的大小是整个集合通信的数据量（ALLGATHER 即收集后的结果）；"
        "通信组的 n 个 rank 各贡献 size / n，SimAI 按 size x (n-1)/n 除以总线带宽来计算 "
        "all-gather 或 reduce-scatter 的时间（all-reduce 为其两倍）。这个大小不应再除以 rank 数。",
    ),
    "m-groups": (
        "SimAI runs each collective in the group its column and suffix name: {pairs}; n is "
        "that group's size (the DP group has GPUs / (TP x PP) ranks).",
        "SimAI 按所在列和后缀决定集合通信在哪个通信组中执行：{pairs}；n 为该组的大小"
        "（DP 组有 GPU 数 / (TP x PP) 个 rank）。",
    ),
    "m-group-pair": ("`{token}` in the {column}: {group}", "{column}中的 `{token}`：{group}"),
    "m-column-fwd": ("forward columns", "前向列"),
    "m-column-wg": ("weight-gradient columns", "权重梯度列"),
    "m-phase-fwd": ("forward", "前向"),
    "m-phase-wg": ("weight-gradient", "权重梯度"),
    "m-phase-ig": ("input-gradient", "输入梯度"),
    "m-dp": (
        "`grad_gather` (ALLGATHER of 2 B x parameters) and `grad_param_comm` (REDUCESCATTER of "
        "4 B x parameters) are the data-parallel collectives AICB writes once per iteration, "
        "in the weight-gradient columns of the first rows; the parameters are those of one "
        "GPU's shard of the model, so the sizes change with TP.",
        "`grad_gather`（ALLGATHER，2 B x 参数量）和 `grad_param_comm`（REDUCESCATTER，"
        "4 B x 参数量）是 AICB 每次迭代写一次的数据并行集合通信，位于开头几行的权重梯度列；"
        "这里的参数量是单个 GPU 上那一份模型分片的参数量，所以大小随 TP 变化。",
    ),
    "m-norm": (
        "`grad_norm` is the first row AICB writes without AIOB: a forward (TP) ALLGATHER of "
        "2 B x parameters and a weight-gradient (DP) REDUCESCATTER of 4 B x parameters, then "
        "`layernorm`'s input-gradient ALLREDUCE of 2 B x parameters (without sequence "
        "parallelism), all once per iteration; the parameters are one GPU's shard, so for a "
        "large model these are multi-GB collectives.",
        "`grad_norm` 是 AICB 在不用 AIOB 时写的第一行：前向（TP）ALLGATHER，2 B x 参数量；"
        "权重梯度（DP）REDUCESCATTER，4 B x 参数量；随后是 `layernorm` 的输入梯度 ALLREDUCE，"
        "2 B x 参数量（不开序列并行时），都是每次迭代一次；参数量是单个 GPU 上的模型分片，"
        "所以大模型的这些集合通信有数 GB。",
    ),
    "m-dp-file": (
        "In this file: `grad_gather` {gather:,} B and `grad_param_comm` {comm:,} B, i.e. about "
        "{params:,} parameters on one GPU.",
        "在这个文件中：`grad_gather` 为 {gather:,} B，`grad_param_comm` 为 {comm:,} B，"
        "即单个 GPU 上约 {params:,} 个参数。",
    ),
    "m-backward": (
        "Your log reached the backward pass (a gradient collective of `{layer}`): SimAI issues "
        "every row's forward pass first, then the backward pass from the last row down to row "
        "0, so the forward pass, small collectives at the end of the file included, is behind "
        "the run.",
        "你的日志已经到了反向传播阶段（`{layer}` 的梯度集合通信）：SimAI 先按顺序执行所有行的"
        "前向，再从最后一行倒序执行到第 0 行的反向，所以前向阶段（包括文件末尾的小集合通信）"
        "已经执行完毕。",
    ),
    "m-ns3-where": (
        "SimAI_simulator writes these CSVs in the directory it is run from (their names start "
        "`./ncclFlowModel_`), not in `results/`: that folder is where SimAI_analytical writes "
        "its `results/<name>EndToEnd.csv`.",
        "SimAI_simulator 把这些 CSV 写在运行它时所在的目录（文件名以 `./ncclFlowModel_` 开头），"
        "而不是 `results/`：那个目录是 SimAI_analytical 写 `results/<name>EndToEnd.csv` 的地方。",
    ),
    "m-stall": (
        "SimAI_simulator turns every byte of a collective into packets, so a collective of "
        "several GB keeps it busy for a long wall time with nothing printed (recorded with SimAI "
        "cef83f9d on 16 GPUs: a 4.9 GB all-gather took about 90 s, 12.9 GB and 25.8 GB DP "
        "collectives over 300 s). Your analytical result shows such collectives: {shown}. "
        "SimAI_analytical computes each collective's time from a bus bandwidth instead of "
        "simulating it, so it finishes the same file at once, and its finishing says nothing "
        "of the ns-3 run's wall time; whether the process is still running tells a slow run "
        "from a stopped one.",
        "SimAI_simulator 把集合通信的每个字节都当作数据包来模拟，所以几 GB 的集合通信会让它"
        "长时间运行而没有任何输出（SimAI cef83f9d 在 16 个 GPU 上的实测：一个 4.9 GB 的 "
        "all-gather 约用 90 s，12.9 GB 和 25.8 GB 的 DP 集合通信超过 300 s）。"
        "你的解析结果中就有这样的集合通信：{shown}。"
        "SimAI_analytical 按总线带宽直接算出每个集合通信的时间，而不是模拟它，"
        "所以同一个文件很快就能跑完，它跑完并不说明 ns-3 运行需要多长时间；"
        "进程是否仍在运行，可以区分是运行得慢还是已经停止。",
    ),
    "m-stall-collective": (
        "`{layer}`'s {phase} collective, about {gb} GB (algbw {algbw} GB/s x {us} us)",
        "`{layer}` 的{phase}集合通信，约 {gb} GB（algbw {algbw} GB/s x {us} us）",
    ),
    "m-busbw-example": (
        "The busbw values of your analytical result are those of SimAI's `example/busbw.yaml` "
        "({pairs}): before 26b4574b SimAI_analytical takes each collective's bandwidth from the "
        "`-busbw` file, so that run used this file (or one with its values).",
        "你的解析结果中的 busbw 值正是 SimAI 的 `example/busbw.yaml` 中的值（{pairs}）："
        "26b4574b 之前 SimAI_analytical 从 `-busbw` 文件读取每个集合通信的带宽，所以那次运行"
        "用的就是这个文件（或值与它相同的文件）。",
    ),
    "m-ns3-out": (
        "SimAI_simulator creates ncclFlowModel_EndToEnd.csv empty at the start and writes it "
        "only when the whole run ends, so a run stopped or killed early leaves it empty; "
        "ncclFlowModel_detailed_<N>.csv stays empty even in a finished run.",
        "SimAI_simulator 在开始时创建空的 ncclFlowModel_EndToEnd.csv，只有整个运行结束时才写入，"
        "因此提前停止或被终止的运行会留下空文件；ncclFlowModel_detailed_<N>.csv 即使在正常结束"
        "的运行中也是空的。",
    ),
    "m-scale-out": (
        "Traffic leaves a server when a collective's group spans servers: a TP group is TP "
        "consecutive GPUs (inside one server when TP is at most the GPUs per server), a DP "
        "group has GPUs / TP members spread over the servers, so any workload with DP > 1 "
        "on more than one server sends its data-parallel collectives (AICB's `grad_gather` "
        "and `grad_param_comm`, in the weight-gradient column, where a plain collective runs "
        "in the DP group; in the forward and input-gradient columns it runs in the TP group) "
        "between servers; no special option is needed. DP = GPUs / "
        "(TP x PP), so DP > 1 needs more GPUs than TP x PP (AICB's `--world_size`), and on "
        "SimAI_simulator a topology with that many GPUs.",
        "集合通信所在的组跨服务器时，流量才会离开服务器：TP 组是连续的 TP 个 GPU（TP 不超过每台"
        "服务器的 GPU 数时位于一台服务器之内），DP 组有 GPU 数 / TP 个成员、分布在各服务器上，"
        "因此任何 DP > 1 且跨多台服务器的 workload 都会在服务器之间发送数据并行集合通信"
        "（AICB 的 `grad_gather` 和 `grad_param_comm`，在权重梯度列中；"
        "不带后缀的集合通信在权重梯度列中于 DP 组内运行，在前向和输入梯度列中于 TP 组内运行），"
        "不需要特别的选项。DP = GPU 数 / "
        "(TP x PP)，所以 DP > 1 需要比 TP x PP 更多的 GPU（AICB 的 `--world_size`），在 "
        "SimAI_simulator 上还需要有这么多 GPU 的拓扑。",
    ),
    "m-matrix": (
        "`wkparse traffic FILE -- -n TOPOLOGY` (or `-g N --gpus-per-server G` for the topology) "
        "gives, without running ns-3, every GPU pair's bytes and flows as SimAI_simulator's "
        "flow model (the mock NCCL layer) issues them for one run of the file, with the "
        "GPU-NVSwitch pairs under NVLS, intra- against inter-server bytes, each GPU's sent and "
        "received bytes and the rings; `--format csv` writes `src,dst,bytes,flows`, `--format "
        "html` a heat map. It models SimAI cef83f9 with SimAI 1.6's mock and matches the flows "
        "recorded from that build pair by pair. SimAI itself writes no matrix: its flow "
        "completion file (`FCT_OUTPUT_FILE`) has one line per finished flow, IPs in hex.",
        "`wkparse traffic FILE -- -n TOPOLOGY`（或用 `-g N --gpus-per-server G` 代替拓扑）不必"
        "运行 ns-3，就能给出 SimAI_simulator 的流模型（mock NCCL 层）为该文件的一次运行发出的"
        "每一对 GPU 之间的字节数和流数，包括 NVLS 下 GPU 与 NVSwitch 之间的流、服务器内与服务器"
        "间的字节数、每个 GPU 发送和接收的字节数以及各组的环；`--format csv` 输出 "
        "`src,dst,bytes,flows`，`--format html` 输出热力图。它描述的是 SimAI cef83f9 配 SimAI "
        "1.6 的 mock，与该版本记录的流逐对一致。SimAI 本身不写矩阵：它的流完成文件"
        "（`FCT_OUTPUT_FILE`）每个完成的流一行，IP 为十六进制。",
    ),
    "m-traffic-file": (
        "Your file on {gpus} GPUs ({per} per server), in SimAI_simulator's flow model "
        "(`wkparse traffic`): {intra:,} B stay inside servers and {inter:,} B cross between "
        "them{nvls}; {crossing}.",
        "你的文件在 {gpus} 个 GPU（每台服务器 {per} 个）上，按 SimAI_simulator 的流模型"
        "（`wkparse traffic`）：{intra:,} B 留在服务器内，{inter:,} B 跨服务器{nvls}；{crossing}。",
    ),
    "m-traffic-nvls": (
        ", {nvls:,} B go through the NVSwitches (NVLS)",
        "，{nvls:,} B 经过 NVSwitch（NVLS）",
    ),
    "m-traffic-crossing": (
        "the {dims} collectives are the ones whose groups span servers",
        "跨服务器的是 {dims} 的集合通信",
    ),
    "m-traffic-none": (
        "no collective of the file has a group that spans servers, so no flow leaves a server",
        "文件中没有哪个集合通信的组跨服务器，所以没有流离开服务器",
    ),
    "m-ns3-groups": (
        "In SimAI_simulator the run has {gpus} GPUs, the topology's (`all_gpus` does not size "
        "it); with TP {tp} each TP group is {tp} consecutive GPUs, {place}; the DP groups have "
        "{gpus} / {tp} = {dp} GPUs.",
        "在 SimAI_simulator 中，这次运行有 {gpus} 个 GPU，取自拓扑（`all_gpus` 不决定规模）；"
        "TP {tp} 时每个 TP 组是连续的 {tp} 个 GPU，{place}；DP 组有 {gpus} / {tp} = {dp} 个 GPU。",
    ),
    "m-shipped-times": (
        "The forward compute times of the attention rows ({attention} ns) and the MLP rows "
        "({mlp} ns) are the ones AICB writes from its shipped `workload/aiob_inputs/Example.txt` "
        "(its microseconds x 1000): that file's measurements, not a measurement on your GPU.",
        "注意力行（{attention} ns）和 MLP 行（{mlp} ns）的前向计算时间，正是 AICB 按其自带的 "
        "`workload/aiob_inputs/Example.txt` 写出的值（其中的微秒数乘以 1000）："
        "那是该文件里的测量值，不是在你的 GPU 上测得的。",
    ),
    "m-ns3-pp-one": (
        " It builds its groups with PP taken as 1, so with the file's PP {pp} this DP group is "
        "{times} times the file's DP {real} (GPUs / (TP x PP)).",
        "它建组时把 PP 当作 1，所以文件的 PP 为 {pp} 时，这个 DP 组是文件的 DP {real}"
        "（GPU 数 / (TP x PP)）的 {times} 倍。",
    ),
    "m-presets": (
        "At AICB {revision}, `scripts/megatron_workload_with_aiob.sh` knows these `-m` "
        "presets: {sizes}. It sets "
        "a preset's values after reading the options, so they win over the options given for "
        "the same settings ({forced}); any other `-m` value falls back to {fallback}. Its "
        "option loop stops at the first word it does not know (`--opt=value` spellings "
        "included) and ignores everything after it without a message; the header "
        "(`model_parallel_NPU_group`, `pp`) and the file name (`-tp<N>-pp<N>-`) show the "
        "values used.",
        "在 AICB {revision} 中，`scripts/megatron_workload_with_aiob.sh` 只认识这些 `-m` "
        "预设：{sizes}。它在读完选项"
        "之后才设置预设的值，所以预设会覆盖你为同一设置给出的选项（{forced}）；其他任何 `-m` "
        "值都会退回到 {fallback}。它的选项循环遇到第一个不认识的词（包括 `--opt=value` 写法）"
        "就停止，之后的所有选项都被静默忽略；实际使用的值可以在文件头（`model_parallel_NPU_group`、"
        "`pp`）和文件名（`-tp<N>-pp<N>-`）中看到。",
    ),
    "m-aiob": (
        "AICB reads an AIOB file's sections (`atten_qkv:` ...) and their time_gpu_avg in "
        "microseconds, x 1000 into nanoseconds: the attention sections (and `layernorm`) sum "
        "into one attention time, the MLP sections (and `layernorm2`) into one MLP time, and a "
        "layer's backward time is its forward time, written both as its input-gradient and "
        "its weight-gradient compute; `param_time` (its minimum and average) is the gradient "
        "step, written once per iteration as the input-gradient compute of "
        "`grad_param_compute`.",
        "AICB 读取 AIOB 文件的各个段（`atten_qkv:` 等）及其 time_gpu_avg（微秒，乘以 1000 变成"
        "纳秒）：注意力相关的段（以及 `layernorm`）相加为一个注意力时间，MLP 相关的段（以及 "
        "`layernorm2`）相加为一个 MLP 时间；一层的反向时间就是它的前向时间，同时写作输入梯度和"
        "权重梯度的计算时间；`param_time`（取其最小值和平均值）是梯度步骤，每次迭代写一次，作为 "
        "`grad_param_compute` 行的输入梯度计算时间。",
    ),
    "m-recompute": (
        "With --recompute_activations AICB counts the `atten_flash` section twice when it "
        "reads the AIOB file, so the doubled attention time is in the attention row's forward, "
        "input-gradient and weight-gradient compute alike; without sequence parallelism the "
        "row's `forward_compute_time *= 2` doubles a value that is overwritten right after, "
        "so that line has no effect there.",
        "使用 --recompute_activations 时，AICB 在读取 AIOB 文件时把 `atten_flash` 段计算两次，"
        "所以加倍后的注意力时间同时出现在注意力行的前向、输入梯度和权重梯度计算时间中；不开序列"
        "并行时，该行的 `forward_compute_time *= 2` 加倍的是一个随后就被覆盖的值，因此这一行"
        "在那里不起作用。",
    ),
    "m-train-iter": (
        "`train_iter:N` at the top of an AIOB file is how many iterations AIOB ran while it "
        "measured the times (AICB writes its `--epoch_num` there) and holds no times: AICB's "
        "reading skips it, so it changes nothing in the workload, which always describes one "
        "iteration.",
        "AIOB 文件开头的 `train_iter:N` 是 AIOB 测量这些时间时运行的迭代次数（AICB 在这里写入它的 "
        "`--epoch_num`），不包含任何时间：AICB 读取时会跳过它，因此它不会改变 workload；workload "
        "描述的始终是一次迭代。",
    ),
    "m-ns3-gpus": (
        "In SimAI_simulator the run has {gpus} GPUs, the topology's: the header's `all_gpus` "
        "does not size it. A larger topology makes more TP groups of the header's size "
        "(`model_parallel_NPU_group`) and larger data-parallel groups (GPUs / TP).",
        "在 SimAI_simulator 中，这次运行有 {gpus} 个 GPU，取自拓扑：文件头的 `all_gpus` 不决定"
        "规模。更大的拓扑会产生更多大小由文件头决定的 TP 组（`model_parallel_NPU_group`），"
        "数据并行组也随之变大（GPU 数 / TP）。",
    ),
    "m-in-server": (
        "inside one server of {per} GPUs (NVLink/NVSwitch, no NIC)",
        "位于一台 {per} 卡服务器之内（走 NVLink/NVSwitch，不经过网卡）",
    ),
    "m-across": (
        "spanning {servers} servers of {per} GPUs (its traffic crosses NICs and switches)",
        "跨越 {servers} 台 {per} 卡服务器（其流量经过网卡和交换机）",
    ),
    "m-topo-line": (
        "The topology file's first line `{text}` reads: {nodes} nodes, {per} GPUs per server, "
        "{nvs} NVSwitches, {switches} switches, {links} links, GPU type {gpu}; so {nodes} - "
        "{nvs} - {switches} = {gpus} GPUs in {servers} servers, a consistent header.",
        "拓扑文件第一行 `{text}` 的含义：{nodes} 个节点，每台服务器 {per} 个 GPU，{nvs} 个 "
        "NVSwitch，{switches} 个交换机，{links} 条链路，GPU 型号 {gpu}；因此 {nodes} - {nvs} - "
        "{switches} = {gpus} 个 GPU，分布在 {servers} 台服务器中，头部是自洽的。",
    ),
    "m-option": (
        "{reason}; SimAI_analytical then prints `{usage}` and exits 255 before it reads the "
        "workload. Its automatic bandwidth options are {options}; `-n_p_s` is a number (NICs "
        "per server) although the help text calls it a bus bandwidth file.{models}",
        "{reason}；SimAI_analytical 随即打印 `{usage}` 并以 255 退出，根本不读 workload。"
        "它的自动带宽选项是 {options}；`-n_p_s` 是一个数字（每台服务器的网卡数），"
        "尽管帮助文本把它写成 bus bandwidth file。{models}",
    ),
    "m-option-models": (
        " `-g_p_s` (GPUs per server) goes with them; without `-nv` and `-nic` it takes the "
        "NVLink and NIC bandwidths from the GPU model `-g_type` and the NIC model `-nic_t`.",
        "还要配合 `-g_p_s`（每台服务器的 GPU 数）；不给 `-nv` 和 `-nic` 时，它按 GPU 型号 "
        "`-g_type` 和网卡型号 `-nic_t` 取 NVLink 和网卡带宽。",
    ),
    "a-without": (
        "Without `{dropped}` the same command {outcome}{exit}: {message}",
        "去掉 `{dropped}` 后，同一条命令{outcome}{exit}：{message}",
    ),
    "m-expert-unknown": (
        "The thread does not show line 1 of the file, so its `ep:` is not known. If it says "
        "`ep: 1`, the `{token}` of {size} B on this row runs in an expert group of one rank: "
        "SimAI_simulator crashes there (SIGSEGV, exit 139; WK801) and SimAI_analytical moves "
        "none of its bytes (WK407); with `ep:` above 1 the row is run as written.",
        "帖子没有给出文件的第 1 行，所以不知道它的 `ep:`。如果是 `ep: 1`，这一行 {size} B 的 "
        "`{token}` 在只有一个 rank 的专家组里执行：SimAI_simulator 会在这里崩溃（SIGSEGV，"
        "exit 139；WK801），SimAI_analytical 则不传输其中的任何字节（WK407）；`ep:` 大于 1 时"
        "这一行按原样执行。",
    ),
    "m-expert-unknown-ns3": (
        "The thread does not show line 1 of the file, so its `ep:` is not known. These kinds of "
        "rows are read and simulated by SimAI_simulator: the forward and input-gradient "
        "ALLGATHER / REDUCESCATTER on the TP group and `{token}` on the expert group; an AICB "
        "MoE file with them (TP 4, EP 2) runs each of them and finishes (WK801). What decides "
        "is the header: with `ep: 1` the `{token}` of {size} B on this row runs in an expert "
        "group of one rank and SimAI_simulator crashes there (SIGSEGV, exit 139), writing "
        "nothing; the fix is to regenerate the file with an expert-parallel size above 1 "
        "(`ep:` above 1), and then the run can finish.",
        "帖子没有给出文件的第 1 行，所以不知道它的 `ep:`。SimAI_simulator 会读取并模拟这几类行："
        "TP 组上前向和输入梯度的 ALLGATHER / REDUCESCATTER，以及专家组上的 `{token}`；"
        "带有这些行的 AICB MoE 文件（TP 4，EP 2）会执行其中每一个并正常结束（WK801）。"
        "起决定作用的是文件头：如果是 `ep: 1`，这一行 {size} B 的 `{token}` 在只有一个 rank "
        "的专家组里执行，SimAI_simulator 会在这里崩溃（SIGSEGV，exit 139），什么也不写出；"
        "解决办法是用大于 1 的专家并行度重新生成文件（`ep:` 大于 1），这样运行才能跑完。",
    ),
    "evidence-model": ("wkparse's model `{module}`", "wkparse 的模型 `{module}`"),
    "missing-end-picture": (
        "the run's output is shown only as a picture, so why it exited cannot be read from the "
        "thread: paste the last lines of its text output (did it print `all passes finished`?) "
        "and its exit status (`echo $?`)",
        "运行输出只以图片形式给出，所以从帖子里看不出它为什么退出：请贴出文本输出的最后几行"
        "（是否打印了 `all passes finished`？）以及退出码（`echo $?`）",
    ),
    "missing-end": (
        "the end of the run's output: did it print `all passes finished`, and what was its exit "
        "status (`echo $?`)? Was it still running or did it exit?",
        "运行输出的结尾：是否打印了 `all passes finished`，退出码是多少（`echo $?`）？"
        "当时进程仍在运行还是已经退出？",
    ),
    # the user's numbers under a page that answers a question (`threads.particulars`)
    "p-ga-no-effect": (
        "Your file has `ga: {ga}` with `pp: {pp}` and `pp_comm: {pp_comm}`, the case where "
        "`ga` changes nothing in SimAI's result.",
        "你的文件是 `ga: {ga}`、`pp: {pp}`、`pp_comm: {pp_comm}`，正是 `ga` 不改变 SimAI 结果的"
        "情形。",
    ),
    "p-dp-row": ("`{name}` {comm} {size:,} B", "`{name}` {comm} {size:,} B"),
    "p-ga-dp": (
        "Your file's data-parallel collectives ({rows}) run over the DP group of {dp} GPUs "
        "(all_gpus / (TP x PP)) once per iteration, after the backward pass of the {ga} "
        "micro-batches.",
        "你的文件的数据并行集合通信（{rows}）在 {dp} 个 GPU 的 DP 组（all_gpus / (TP x PP)）中"
        "每次迭代执行一次，在这 {ga} 个微批次的反向传播之后。",
    ),
    "p-dp-file": (
        "In your file (TP {tp}, PP {pp}) `{name}` carries REDUCESCATTER {size:,} B = 4 B x "
        "{params:,} parameters, the parameters of one GPU's shard.",
        "你的文件（TP {tp}，PP {pp}）中 `{name}` 的 REDUCESCATTER 为 {size:,} B = 4 B x "
        "{params:,} 个参数，即单个 GPU 上那一份分片的参数量。",
    ),
    "p-dp-preset": (
        "The thread shows no command: a {model} file made with `megatron_workload_with_aiob.sh "
        "-m {size}` has TP {tp}, which the preset sets over any `--tensor_model_parallel_size` "
        "given, and PP {pp}; {at}.",
        "帖子里没有命令：用 `megatron_workload_with_aiob.sh -m {size}` 生成的 {model} 文件 TP 为 "
        "{tp}（预设会覆盖命令行给出的 `--tensor_model_parallel_size`），PP 为 {pp}；{at}。",
    ),
    "p-dp-preset-at": (
        "at AICB {revision} one GPU holds {params:,} parameters, so `{name}` carries "
        "REDUCESCATTER {rs:,} B (and ALLGATHER {ag:,} B); the whole model, at TP 1 and PP 1 "
        "(only by calling the generator itself), has {whole:,} parameters, REDUCESCATTER "
        "{whole_rs:,} B",
        "在 AICB {revision}，单个 GPU 持有 {params:,} 个参数，所以 `{name}` 的 REDUCESCATTER "
        "为 {rs:,} B（ALLGATHER 为 {ag:,} B）；整个模型（TP 1、PP 1，只能直接调用生成器得到）有 "
        "{whole:,} 个参数，REDUCESCATTER 为 {whole_rs:,} B",
    ),
    "p-dp-preset-at-shard": (
        "at AICB {revision} one GPU holds {params:,} parameters, so `{name}` carries "
        "REDUCESCATTER {rs:,} B (and ALLGATHER {ag:,} B)",
        "在 AICB {revision}，单个 GPU 持有 {params:,} 个参数，所以 `{name}` 的 REDUCESCATTER "
        "为 {rs:,} B（ALLGATHER 为 {ag:,} B）",
    ),
}
