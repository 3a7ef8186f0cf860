# ruff: noqa: RUF001 - Chinese text is written with its own full-width punctuation
"""The sentences a triage answer is made of, in English and Chinese (one table: a sentence
and its translation sit side by side). Numbers, names, codes and commands stay as written."""

from __future__ import annotations

from wkparse.threads.meaning_phrases import MEANING

PHRASES: dict[str, tuple[str, str]] = {
    "out": (
        "This thread is about {topics}, not about a workload file, so wkparse has no model "
        "that answers it; checked: {checked}.",
        "这个问题涉及{topics}，与 workload 文件本身无关，wkparse 没有能回答它的模型；"
        "已检查：{checked}。",
    ),
    "nothing": ("no command, file or log", "没有命令、文件或日志"),
    "cause-none": (
        "wkparse cannot name the cause from what the thread shows; below is what the models say "
        "about the pieces it does show.",
        "仅凭帖子里给出的内容，wkparse 还无法确定原因；下面是各模型对帖子中已有内容的结论。",
    ),
    "cause-answer": (
        "In short: {answer} The evidence below says what each part rests on.",
        "简要回答：{answer}各部分的依据见下文。",
    ),
    "cause-prediction": (
        "Likely cause: {message} (SimAI {simai} model, {backend}; {basis}).",
        "可能的原因：{message}（SimAI {simai} 模型，{backend}；{basis}）。",
    ),
    "cause-finding": (
        "Likely cause: the workload file itself — {code}: {message} (rule page {page}).",
        "可能的原因在 workload 文件本身 —— {code}：{message}（规则页 {page}）。",
    ),
    "cause-topology": (
        "Likely cause: the topology has {topo} GPUs but the file was written for {all_gpus} "
        "(`all_gpus`); in SimAI-Simulation the GPU count comes from the topology.",
        "可能的原因：拓扑有 {topo} 个 GPU，而文件是按 {all_gpus} 个 GPU（`all_gpus`）生成的；"
        "SimAI-Simulation 的 GPU 数取自拓扑。",
    ),
    "cause-options": (
        "Likely cause: the SimAI command line — {warning} (SimAI {simai} model, {basis}).",
        "可能的原因在 SimAI 命令行：{warning}（SimAI {simai} 模型，{basis}）。",
    ),
    "cause-inference": (
        " The file is an inference workload, which SimAI_analytical runs as one training "
        "iteration (it reads no mode:): {page} (page `{id}`, {source})",
        "这个文件是推理负载，SimAI_analytical 把它当作一次训练迭代来模拟（它不读取 mode:）。"
        "{page}（概念页 `{id}`，{source}）",
    ),
    "q-versions": ("Which SimAI and AICB?", "对应哪个版本的 SimAI 和 AICB？"),
    "a-versions": (
        "SimAI {simai}, {simai_why}; AICB {aicb}, {aicb_why}{aicb_more}.{models}{same}",
        "SimAI 为 {simai}，{simai_why}；AICB 为 {aicb}，{aicb_why}{aicb_more}。{models}{same}",
    ),
    "aicb-pin": (
        "SimAI's aicb submodule then pinned {pin}",
        "SimAI 的 aicb 子模块当时固定为 {pin}",
    ),
    "aicb-writes-as": (
        "wkparse's AICB model writes its files as {revision} does",
        "wkparse 的 AICB 模型按 {revision} 的方式生成文件",
    ),
    "models-run": (" The models below run SimAI {model}.", "下面的模型按 SimAI {model} 运行。"),
    "models-stand-in-same": (
        " The models below run SimAI {model}, the newest modelled before it: SimAI did not "
        "change how it reads, runs or reports a workload file between the two.",
        "下面的模型按 SimAI {model}（在它之前最近的已建模版本）运行：两者之间 SimAI 读取、"
        "运行和报告 workload 文件的方式没有变化。",
    ),
    "models-stand-in-differs": (
        " The models below run SimAI {model}, the newest modelled before it; between the two "
        "SimAI changed {areas}: what is said below of those may not hold for yours.",
        "下面的模型按 SimAI {model}（在它之前最近的已建模版本）运行；两者之间 SimAI 修改了"
        "{areas}：下文涉及这些部分的结论对你的版本可能不成立。",
    ),
    "models-run-current": (
        " The models below run the current SimAI, {model}.",
        "下面的模型按当前的 SimAI {model} 运行。",
    ),
    "models-run-older": (
        " The models below run the current SimAI, {model}: wkparse models no SimAI as old as "
        "yours, whose reader differed, so they may not hold for it.",
        "下面的模型按当前的 SimAI {model} 运行：wkparse 没有为这么早的 SimAI 建模"
        "（当时的读取方式不同），结论对你的版本可能不成立。",
    ),
    "evidence-stand-in": (
        "SimAI changed {areas} between {model} and {simai}: this may not hold for yours",
        "SimAI 在 {model} 与 {simai} 之间修改了{areas}：此结论对你的版本可能不成立",
    ),
    "same-version": ("", ""),
    "unknown": ("unknown", "未知"),
    "why-date": ("master on the issue's date, {date}", "即帖子日期 {date} 时 master 上的版本"),
    "why-period": (
        "any master of {date}, the issue's date, which gives only the month",
        "帖子日期 {date} 只给出月份，即该月 master 上的任一版本",
    ),
    "models-period": (
        " The models below run SimAI {model}, the newest modelled at that period's end.",
        "下面的模型按 SimAI {model}（该时段末最近的已建模版本）运行。",
    ),
    "models-period-same": (
        " SimAI did not change how it reads, runs or reports a workload file between any of "
        "them and {model}.",
        "这些版本与 {model} 之间，SimAI 读取、运行和报告 workload 文件的方式没有变化。",
    ),
    "models-period-differs": (
        " Within that period SimAI changed {changes}: what is said below of those parts "
        "depends on which of them you built.",
        "在该时段内 SimAI 有过修改（{changes}）：下文涉及这些部分的结论取决于你编译的是哪一个。",
    ),
    "models-period-before": (
        " Between {model} and that period SimAI changed {areas}: what is said below of those "
        "may not hold for yours.",
        "{model} 与该时段之间 SimAI 修改了{areas}：下文涉及这些部分的结论对你的版本可能不成立。",
    ),
    "period-change": ("{areas} at {commit}", "{areas}：{commit}"),
    "aicb-period-changed": (
        "what its generators write changed within it at {revisions}; wkparse's AICB model "
        "writes as {revision} does",
        "其生成器写出的内容在该时段内于 {revisions} 有变化；wkparse 的 AICB 模型按 {revision} "
        "的方式生成文件",
    ),
    "why-name": (
        "the one that writes the file name on line {line} ({instead}, which the thread "
        "otherwise suggests, writes `{writes}` for the command)",
        "第 {line} 行的文件名正是它生成的（帖子另外提示的 {instead} 会为这条命令生成 `{writes}`）",
    ),
    "why-stated": ("named in the thread, line {line}", "帖子第 {line} 行给出"),
    "why-before": (
        "{date} is before the first SimAI commit wkparse models",
        "{date} 早于 wkparse 建模的第一个 SimAI 版本",
    ),
    "why-none": ("the issue has no date", "帖子没有日期"),
    "other-version": (
        " The current SimAI is {current}; where it does otherwise with this file, that is "
        "said below.",
        "当前的 SimAI 是 {current}；若它对这个文件的处理不同，下文会单独说明。",
    ),
    "q-update": (
        "What does the current SimAI, {current}, do with it?",
        "当前的 SimAI（{current}）会怎样运行它？",
    ),
    "a-update": (
        "Fix: update SimAI. SimAI {current}, {program}: {outcome}{exit} — {message}{total}",
        "修复办法：更新 SimAI。SimAI {current}，{program}：{outcome}{exit} —— {message}{total}",
    ),
    "a-update-other": (
        "SimAI {current} does otherwise: {program}: {outcome}{exit} — {message}{total}",
        "SimAI {current} 的结果不同：{program}：{outcome}{exit} —— {message}{total}",
    ),
    "update-total": ("; Total time {total} us", "；Total time 为 {total} us"),
    "a-update-same": (
        "The same as SimAI {simai}: updating SimAI to {current} does not change this.",
        "与 SimAI {simai} 相同：更新到 {current} 不会改变结果。",
    ),
    "cause-update": (
        " The current SimAI, {current}, does otherwise ({outcome}): update SimAI.",
        " 当前的 SimAI（{current}）结果不同（{outcome}）：请更新 SimAI。",
    ),
    "a-finding-current": (
        "With the current SimAI {current} (after an update), also: {finding}",
        "若更新到当前的 SimAI {current}，还会有：{finding}",
    ),
    "evidence-ns3-version": (
        "wkparse's ns-3 model: runs recorded at SimAI {recorded}; what SimAI {model} does "
        "otherwise ({commits}): from SimAI's source, not run",
        "wkparse 的 ns-3 模型：基于 SimAI {recorded} 的实测运行；SimAI {model} 的不同之处"
        "（{commits}）：来自 SimAI 源码，未实际运行",
    ),
    "evidence-ns3-near": (
        "wkparse's ns-3 model: runs recorded at SimAI {recorded}; SimAI {model} was not run, "
        "and its source changes nothing wkparse models there",
        "wkparse 的 ns-3 模型：基于 SimAI {recorded} 的实测运行；SimAI {model} 未实际运行，"
        "其源码在 wkparse 所建模之处没有变化",
    ),
    "q-rebuild": ("What file does the AICB command write?", "这条 AICB 命令生成的是什么文件？"),
    "a-rebuild": (
        "AICB {revision} writes `{name}` for it{notes}.",
        "AICB {revision} 会为它生成 `{name}`{notes}。",
    ),
    "a-rebuild-not-yours": (
        "Not the file you ran: no AICB up to the thread's date writes the file name the "
        "thread shows for this command (it writes `{name}`), so the file was made otherwise "
        "(a changed script or command); nothing below is said of that rebuild.",
        "不是你运行的那个文件：直到帖子日期，没有哪个 AICB 会为这条命令生成帖子中的文件名"
        "（它生成的是 `{name}`），所以文件是用别的方式生成的（改过的脚本或命令）；"
        "下文不对这个重建的文件下任何结论。",
    ),
    "a-rebuild-contradicted": (
        "AICB writes `{name}` for it, but that is not what you ran: SimAI {simai}'s model "
        "{outcome} with that file, while you report a result, so your file or your SimAI "
        "differs from it; nothing below is said of that rebuild.",
        "AICB 会为它生成 `{name}`，但那不是你运行的情况：SimAI {simai} 的模型对该文件的预测是"
        "{outcome}，而你得到了一个结果，所以你的文件或你的 SimAI 与它不同；下文不对这个重建的"
        "文件下任何结论。",
    ),
    "a-rebuild-contradicted-layout": (
        "Its layout (`{name}`), with AICB's shipped compute times standing in, is not what you "
        "ran either: SimAI {simai}'s model {outcome} with it, while you report a result, so your "
        "file or your SimAI differs from it; nothing below is said of that rebuild.",
        "以 AICB 自带的计算时间代替后，它的布局（`{name}`）也不是你运行的情况：SimAI {simai} "
        "的模型对它的预测是{outcome}，而你得到了一个结果，所以你的文件或你的 SimAI 与它不同；"
        "下文不对这个重建的文件下任何结论。",
    ),
    "a-rebuild-layout": (
        "Its rows, sizes and ga do not depend on those times: what follows reads the layout "
        "AICB {revision} writes (`{name}`) with the compute times of AICB's shipped "
        "Example.txt standing in{notes}.",
        "但它的行、大小和 ga 与这些时间无关：下文读的是 AICB {revision} 生成的布局（`{name}`），"
        "计算时间以 AICB 自带的 Example.txt 代替{notes}。",
    ),
    "a-rebuild-fail": (
        "wkparse's AICB model writes no file for it: {error}",
        "wkparse 的 AICB 模型无法为它生成文件：{error}",
    ),
    "q-names": ("Do the command and the file name agree?", "命令和文件名是否一致？"),
    "a-names-same": (
        "Yes: the name on line {line} is the one AICB gives this command's file.",
        "一致：第 {line} 行的文件名正是 AICB 为这条命令生成的文件名。",
    ),
    "a-names-differ": (
        "No: AICB names this command's file `{made}`, the thread names `{named}` (line {line}).",
        "不一致：AICB 为这条命令生成的文件名是 `{made}`，而帖子中是 `{named}`（第 {line} 行）。",
    ),
    "q-meaning": ("What does the file describe?", "这个文件描述的是什么？"),
    "a-meaning": (
        "{represents}Header: TP {tp}, PP {pp}, EP {ep}, ga {ga}, all_gpus {all_gpus}; DP {dp}.",
        "{represents}头部：TP {tp}，PP {pp}，EP {ep}，ga {ga}，all_gpus {all_gpus}；DP {dp}。",
    ),
    "q-name": ("What does the file name say?", "文件名说明了什么？"),
    "a-name": (
        "`{model}` on {world} GPUs with TP {tp}, PP {pp}, EP {ep}, sequence length {seq}: "
        "DP = {world} / (TP x PP) = {dp}{ga}.",
        "`{model}`，{world} 个 GPU，TP {tp}、PP {pp}、EP {ep}，序列长度 {seq}："
        "DP = {world} / (TP x PP) = {dp}{ga}。",
    ),
    "evidence-names": (
        "AICB's file-name format (wkparse.models.aicb.names)",
        "AICB 的文件名格式（wkparse.models.aicb.names）",
    ),
    "q-log": ("Where was the run when the log ends?", "日志结束时仿真运行到了哪里？"),
    "a-log": (
        "The last collective your log shows issued is the {collective} collective of layer "
        "`{layer}`, {size}; passes finished before it: {passes}.",
        "日志里最后发出的集合通信是层 `{layer}` 的 {collective} 集合通信，大小 {size}；"
        "此前已完成的 pass 数：{passes}。",
    ),
    "a-log-ns3": (
        "SimAI-Simulation turns every byte into packets, so a collective of {size} keeps it busy "
        "for a long wall time with nothing printed, and it writes ncclFlowModel_EndToEnd.csv only "
        "at the end: silence and an empty CSV are what a run inside such a collective shows.",
        "SimAI-Simulation 把每个字节都当作数据包来模拟，"
        "因此 {size} 的集合通信会让它长时间运行而没有任何输出，"
        "ncclFlowModel_EndToEnd.csv 也只在最后才写出："
        "没有输出、CSV 为空，正是运行停在这样一个集合通信中时的表现。",
    ),
    "a-log-next": (
        "After the last collective it issued, your log shows the next one starting (layer "
        "`{layer}`, {size}) and stops there; passes finished before it: {passes}.",
        "在最后一个已发出的集合通信之后，日志显示下一个集合通信开始（层 `{layer}`，大小 {size}），"
        "随后就停止了；此前已完成的 pass 数：{passes}。",
    ),
    "a-log-unnamed": (
        "{unnamed} of the {layers} layers SimAI built (`lines: {layers}`) have no name "
        "(`id:  ,`): SimAI made them past the rows it could read, with the values its failed "
        "read left. The count on line 2 is larger than the rows SimAI could read, or a row is "
        "broken: check both.",
        "SimAI 建立的 {layers} 层（`lines: {layers}`）中有 {unnamed} 层没有名字（`id:  ,`）："
        "它们是 SimAI 在能读出的行之后凭空建立的，带着读取失败后留下的值。第 2 行的层数大于 "
        "SimAI 能读出的行数，或者有一行已损坏：两者都要检查。",
    ),
    "a-log-error": ("The log ends on: `{error}`.", "日志以此结束：`{error}`。"),
    "evidence-ns3-rate": (
        "wkparse's ns-3 model, from recorded SimAI-Simulation runs (wkparse.models.simai.ns3)",
        "wkparse 的 ns-3 模型，来自 SimAI-Simulation 的实测运行（wkparse.models.simai.ns3）",
    ),
    "q-against": (
        "Is your file the one the AICB command writes?",
        "你的文件就是这条 AICB 命令生成的文件吗？",
    ),
    "a-against-same": (
        "Yes: {given} is what AICB writes for the command (`{made}`).",
        "是：{given} 与 AICB 为这条命令生成的文件（`{made}`）一致。",
    ),
    "a-against-header": (
        "Line 1 you pasted is the one AICB writes for the command (`{made}`); the rows shown "
        "are an excerpt, not compared.",
        "你粘贴的第 1 行与 AICB 为这条命令生成的文件（`{made}`）一致；"
        "粘贴的各行只是节选，未作比较。",
    ),
    "a-against-differ": (
        "No: {given} differs from what AICB writes for the command (`{made}`) in: {what}.",
        "不是：{given} 与 AICB 为这条命令生成的文件（`{made}`）不同，差在：{what}。",
    ),
    "pasted-line-1": ("the line 1 you pasted", "你粘贴的第 1 行"),
    "rows-differ": ("the rows", "各行内容"),
    "evidence-diff": ("`wkparse diff`", "`wkparse diff`"),
    "q-findings": ("What does lint find in the file?", "lint 在文件中发现了什么？"),
    "a-finding": ("{code} (line {line}): {message}", "{code}（第 {line} 行）：{message}"),
    "q-run": ("What does SimAI do with it?", "SimAI 会怎样运行它？"),
    "a-run": (
        "{program}: {outcome}{exit} — {message}",
        "{program}：{outcome}{exit} —— {message}",
    ),
    "a-run-excerpt": (
        "{program}: the rows shown run to the end in the model; the rows left out are not "
        "known, so this says nothing of how the whole file ends.",
        "{program}：在模型中，展示出的这些行能运行到底；未展示的行不得而知，"
        "所以这说明不了整个文件的结果。",
    ),
    "a-total": (
        "Its EndToEnd.csv gives Total time {total}: SimAI-Analytical writes its times in "
        "microseconds (us).",
        "它的 EndToEnd.csv 中 Total time 为 {total}：SimAI-Analytical 的时间单位是微秒（us）。",
    ),
    "q-nics": (
        "What does the missing -n_p_s do, and what does the command give with it?",
        "缺少 -n_p_s 有什么后果，加上它结果如何？",
    ),
    "a-nics-given": (
        "With these options the model reads the unset NIC count as 0 and gives a total that is "
        "{bubble} bubble and {exposed} exposed communication: every collective gets busbw -1, "
        "its time wraps and drops out of the exposed communication, and the bubble term, which "
        "adds the forward and input-gradient communication times x (PP - 1) / (GA x vpp), "
        "holds it instead.",
        "按这些选项，模型把未设置的网卡数当作 0：总时间中气泡占 {bubble}，暴露通信占 {exposed}。"
        "每个集合通信的 busbw 为 -1，其时间溢出回绕，从暴露通信中消失；而气泡项把前向和输入梯度"
        "阶段的通信时间乘以 (PP - 1) / (GA x vpp) 计入，于是这些时间都落在气泡里。",
    ),
    "a-nics-seen": (
        " That is the all-bubble result you report: it comes from the command line, not from "
        "the workload file.",
        "这就是你看到的“全是气泡”的结果：原因在命令行，不在 workload 文件。",
    ),
    "a-nics-tie": (
        "With your options the model gives {bubble} bubble and {exposed} exposed "
        "communication: the all-bubble result you report. ",
        "按你的选项，模型给出气泡占 {bubble}、暴露通信占 {exposed}：正是你看到的全是气泡的结果。",
    ),
    "a-nics-fix": (
        "The fix: {drop}give `-n_p_s` (NICs per server, here {n}, one per GPU of -g_p_s): "
        "`{command}`. With it the model finishes with {bubble} bubble and {exposed} exposed "
        "communication.",
        "解决办法：{drop}加上 `-n_p_s`（每台服务器的网卡数，这里取 {n}，与 -g_p_s 的 GPU 数相同）："
        "`{command}`。加上后模型正常结束，气泡占 {bubble}，暴露通信占 {exposed}。",
    ),
    "a-nics-drop": ("drop `{words}` and ", "去掉 `{words}`，"),
    "a-nics-defaults": (
        " Without -nv and -nic SimAI takes its default bandwidths (from -g_type and -nic_t); "
        "give them for your network.",
        "没有 -nv 和 -nic 时 SimAI 使用默认带宽（取自 -g_type 和 -nic_t）；请按你的网络给出它们。",
    ),
    "a-nics-bubble": (
        " The bubble still dominates: SimAI adds (PP - 1) / (GA x vpp) times a stage's compute "
        "and blocking communication, so this share follows from the file's pp, ga and vpp.",
        "气泡仍占主导：SimAI 把一个阶段的计算与阻塞通信时间乘以 (PP - 1) / (GA x vpp) 计入气泡，"
        "所以这个占比由文件的 pp、ga 和 vpp 决定。",
    ),
    "a-run-warning": ("Also: {warning}", "另外：{warning}"),
    "a-run-prints": ("Also, SimAI prints: `{warning}`", "另外，SimAI 会打印：`{warning}`"),
    "a-run-environment": (
        "{names}: SimAI_analytical reads no environment variable (SimAI's getenv calls are "
        "all in its ns-3 backend, SimAI_simulator), so the run is the same without them.",
        "{names}：SimAI_analytical 不读取任何环境变量（SimAI 的 getenv 调用都在 ns-3 后端 "
        "SimAI_simulator 里），有没有这些变量，运行结果都一样。",
    ),
    "q-gpus": ("Do the GPU counts agree?", "GPU 数量是否一致？"),
    "a-gpus-differ": (
        "No: {what} has {n} GPUs, the file's header says all_gpus {all_gpus}.",
        "不一致：{what} 有 {n} 个 GPU，而文件头部写的是 all_gpus {all_gpus}。",
    ),
    "a-gpus-same": (
        "Yes: {what} has {n} GPUs, as all_gpus says.",
        "一致：{what} 有 {n} 个 GPU，与 all_gpus 相同。",
    ),
    "a-gpus-name-same": (
        "Yes: {what} has {n} GPUs, the world size in the file's name.",
        "一致：{what} 有 {n} 个 GPU，与文件名中的 world_size 相同。",
    ),
    "a-gpus-name-differ": (
        "No: {what} has {n} GPUs, the file's name says world_size {world}; in SimAI-Simulation "
        "the GPU count comes from the topology.",
        "不一致：{what} 有 {n} 个 GPU，而文件名中的 world_size 是 {world}；"
        "SimAI-Simulation 的 GPU 数取自拓扑。",
    ),
    "q-symptom": ("Does the file explain what you saw?", "文件能解释你看到的现象吗？"),
    "a-symptom-match": (
        "Yes: you report {said!r}; the model predicts {outcome} for this file.",
        "能：你描述的是“{said}”；模型对这个文件的预测正是 {outcome}。",
    ),
    "a-symptom-options": (
        "Through the command line: you report {said!r}; the model predicts the file {outcome}, "
        "but with the options you gave: {warning}",
        "问题在命令行：你描述的是“{said}”；模型预测这个文件{outcome}，"
        "但在你给出的选项下：{warning}",
    ),
    "a-symptom-differ": (
        "No: you report {said!r}, but the model predicts {outcome} for this file, which is not "
        "what you saw; so that prediction is no explanation, and the file alone does not name "
        "the cause.",
        "不能：你描述的是“{said}”，而模型对这个文件的预测是 {outcome}，与你看到的不符；"
        "所以这个预测不能解释它，单凭文件也定不了原因。",
    ),
    "missing-file": (
        "attach the workload file (or the AICB command that wrote it)",
        "请附上 workload 文件（或生成它的 AICB 命令）",
    ),
    "missing-file-ran": (
        "attach the workload file you ran (the thread's AICB command does not give it)",
        "请附上你实际运行的 workload 文件（帖子中的 AICB 命令得不到它）",
    ),
    "missing-commit": (
        "which SimAI commit did you build? (`git -C SimAI rev-parse HEAD`)",
        "你编译的是哪个 SimAI commit？（`git -C SimAI rev-parse HEAD`）",
    ),
    "missing-log": (
        "the full output of the run (its last lines)",
        "运行的完整输出（尤其是最后几行）",
    ),
    "missing-command": (
        "the full SimAI command line you ran",
        "你运行的完整 SimAI 命令行",
    ),
    "missing-result": (
        "the lines of the result you read the value from (the EndToEnd.csv row and its header "
        "line)",
        "你读到这个数值的结果行（EndToEnd.csv 中的那一行及其表头）",
    ),
    "missing-topology": (
        "the topology file or the generator command that wrote it",
        "拓扑文件或生成它的命令",
    ),
    "evidence-line": ("your line {line}", "你的第 {line} 行"),
    "evidence-title": ("the title", "标题"),
    "evidence-rule": (
        "rule {code} (`wkparse rule {code}{flag}`)",
        "规则 {code}（`wkparse rule {code}{flag}`）",
    ),
    "evidence-aicb": ("wkparse's AICB model at {revision}", "wkparse 的 AICB 模型（{revision}）"),
    "evidence-simai": (
        "wkparse's SimAI {model} model, checked against recorded runs of SimAI {model}",
        "wkparse 的 SimAI {model} 模型（已用 SimAI {model} 的实测运行校验）",
    ),
    "evidence-explain": ("`wkparse explain`", "`wkparse explain`"),
    "evidence-versions": (
        "wkparse's SimAI and AICB histories",
        "wkparse 记录的 SimAI 与 AICB 历史",
    ),
    "basis-attachment": ("on the attached `{name}`", "基于附件 `{name}`"),
    "basis-deleted": (", its first {n} rows deleted as you say", "，并按你所说删去了前 {n} 行"),
    "a-deleted": (
        "The first {n} rows of that file, which you deleted: {rows}. {left}",
        "这个文件的前 {n} 行（也就是你删掉的行）是：{rows}。{left}",
    ),
    "deleted-row": ("`{name}` ({colls})", "`{name}`（{colls}）"),
    "deleted-none": ("no collective", "无集合通信"),
    "deleted-all-dp": (
        "They hold every data-parallel (DP) collective of the file: the rows left have none, so "
        "SimAI runs no DP communication for it and its results show none. So deleting them is "
        "no valid fix: what is left simulates an iteration without its data-parallel traffic.",
        "文件中所有数据并行（DP）集合通信都在这些行里：剩下的行一个也没有，所以 SimAI 不会模拟"
        "任何 DP 通信，结果里也就没有 DP 通信。因此删掉这些行不是有效的解决办法：剩下的部分模拟的是"
        "一次没有数据并行通信的迭代。",
    ),
    "deleted-dp-last": (
        " In the file as AICB wrote it, SimAI issues them last: it runs the forward pass over "
        "every row, then the gradient passes from the last row back to row 0, so the "
        "weight-gradient collectives of the first rows come after the whole backward pass.",
        "在 AICB 写出的原文件中，SimAI 最后才发出它们：它先对所有行执行前向，再从最后一行倒序"
        "执行到第 0 行的梯度阶段，所以前几行的权重梯度集合通信在整个反向传播之后才执行。",
    ),
    "deleted-dp-wire": (
        " On SimAI_simulator the unedited file's traffic is {gb} GB on the wire: {s} s of "
        "packet-level simulation at the fastest rate a recorded run reached (0.7 GB/s), and "
        "ncclFlowModel_EndToEnd.csv is written only when the whole run ends.",
        "在 SimAI_simulator 上，未修改文件在链路上的流量为 {gb} GB：按实测运行达到的最快速率"
        "（0.7 GB/s）需要 {s} 秒的包级仿真，"
        "而 ncclFlowModel_EndToEnd.csv 只在整个运行结束时才写入。",
    ),
    "deleted-dp-left": (
        "The rows left still hold {n} data-parallel (DP) collectives with data.",
        "剩下的行中仍有 {n} 个带数据量的数据并行（DP）集合通信。",
    ),
    "basis-aicb": (
        "on the file AICB {revision} writes for line {line}",
        "基于 AICB {revision} 按第 {line} 行命令生成的文件",
    ),
    "basis-pasted": (
        "on the rows pasted from line {line}{excerpt}",
        "基于第 {line} 行起粘贴的内容{excerpt}",
    ),
    "list-sep": ("; ", "；"),
    "excerpt": (" ({notes})", "（{notes}）"),
    "excerpt-cut": ("{n} incomplete row(s) left out", "略去了 {n} 个不完整的行"),
    "excerpt-count": (
        "count line {declared} read as {shown}, the rows shown",
        "计数行 {declared} 按粘贴出的 {shown} 行处理",
    ),
    "heading-evidence": ("Evidence", "依据"),
    "a-findings-aside": (
        "{n} warnings of lint do not bear on what you ask; they are listed in `--format json`.",
        "lint 的 {n} 条警告与你的问题无关，未在此列出，见 `--format json`。",
    ),
    "a-findings-aside-1": (
        "1 warning of lint does not bear on what you ask; it is listed in `--format json`.",
        "lint 的 1 条警告与你的问题无关，未在此列出，见 `--format json`。",
    ),
    "a-findings-cut": (
        "{n} more findings of lint are listed in `--format json`.",
        "lint 另有 {n} 条发现未在此列出，见 `--format json`。",
    ),
    "a-findings-cut-1": (
        "1 more finding of lint is listed in `--format json`.",
        "lint 另有 1 条发现未在此列出，见 `--format json`。",
    ),
    "a-finding-stand-in": (
        "At SimAI {model}, which the models run in place of yours and which reads workload "
        "files otherwise than yours: {finding}",
        "按 SimAI {model}（模型用它代替你的版本，它读取 workload 文件的方式与你的不同）：{finding}",
    ),
    "a-findings-more": (
        "{n} findings not worded here (notes and known AICB generator defects) are listed in "
        "`--format json`.",
        "另有 {n} 条发现未在此列出（提示与 AICB 生成器的已知缺陷），见 `--format json`。",
    ),
    "a-findings-more-1": (
        "1 finding not worded here (a note or a known AICB generator defect) is listed in "
        "`--format json`.",
        "另有 1 条发现未在此列出（提示或 AICB 生成器的已知缺陷），见 `--format json`。",
    ),
    "heading-questions": ("Your questions", "你的问题"),
    "evidence-models-below": (
        "the models' results below",
        "见下文各模型的结论",
    ),
    "evidence-concept": (
        "concept page `{id}` (`wkparse concept {id}`); {source}",
        "概念页 `{id}`（`wkparse concept {id}`）；{source}",
    ),
    "q-known": (
        "Is it a known problem of your SimAI?",
        "这是你的 SimAI 版本的已知问题吗？",
    ),
    "q-scale": (
        "Why does a larger topology not change the result?",
        "为什么更大的拓扑不改变结果？",
    ),
    "q-train": (
        "Does the AICB command describe your training run?",
        "AICB 命令描述的是你实际训练的那次运行吗？",
    ),
    "a-train-differs": (
        "No: the workload is of another run than the one you timed, so the two times do not "
        "compare until these agree: {diffs}.",
        "不是：workload 描述的不是你实测的那次运行，在下面这些设置一致之前两个时间没有"
        "可比性：{diffs}。",
    ),
    "train-same-batch": (
        " For a workload of the batch you timed, generate it with `--micro_batch={mbs} "
        "--global_batch={gbs}` (ga {ga}).",
        "要得到与你实测相同批次的 workload，请用 `--micro_batch={mbs} --global_batch={gbs}` "
        "生成（ga {ga}）。",
    ),
    "train-aiob-measured": (
        " With `--aiob_enable` and no `--comp_filepath`, the compute times in the file are "
        "AIOB's own measurements, on the GPU AICB ran on, of the model AICB generated (micro-"
        "batch {mbs}, {dtype}), not times of your training run: check them in the file first.",
        "使用 `--aiob_enable` 而不带 `--comp_filepath` 时，文件中的计算时间是 AIOB 在运行 AICB "
        "的 GPU 上对 AICB 生成的模型（微批次 {mbs}，{dtype}）自己实测的，而不是你训练运行的"
        "时间：请先在文件中核对这些时间。",
    ),
    "train-diff": (
        "{what} {real} in your training command, {aicb} in AICB's",
        "{what}：训练命令中为 {real}，AICB 中为 {aicb}",
    ),
    "train-heads": ("attention heads", "注意力头数"),
    "train-hidden": ("hidden size", "隐藏层大小"),
    "train-layers": ("layers per stage", "每个阶段的层数"),
    "train-seq": ("sequence length", "序列长度"),
    "train-tp": ("TP", "TP"),
    "train-ffn": ("FFN hidden size", "FFN 隐藏层大小"),
    "train-mbs": (
        "micro-batch size {real} in your training command, {aicb} in AICB's: AICB's iteration "
        "is {ga} micro-batches (ga) of size {aicb}, yours {real_ga} of size {real} (Megatron-LM "
        "takes the global batch as micro-batch x DP when none is given)",
        "微批次大小：训练命令中为 {real}，AICB 中为 {aicb}：AICB 的一次迭代是 {ga} 个（ga）大小为 "
        "{aicb} 的微批次，你的是 {real_ga} 个大小为 {real} 的（未给出时 Megatron-LM 取全局批次 = "
        "微批次 x DP）",
    ),
    "train-swiglu-aicb": (
        "SwiGLU in AICB's only (`--swiglu`; your training uses Megatron-LM's default GeLU MLP)",
        "只有 AICB 使用 SwiGLU（`--swiglu`；你的训练使用 Megatron-LM 默认的 GeLU MLP）",
    ),
    "train-swiglu-real": (
        "SwiGLU in your training only (`--swiglu`)",
        "只有你的训练使用 SwiGLU（`--swiglu`）",
    ),
    "train-flash-aicb": ("flash attention in AICB's only", "只有 AICB 使用 flash attention"),
    "train-flash-real": (
        "flash attention in your training only",
        "只有你的训练使用 flash attention",
    ),
    "train-recompute-real": (
        "activation recompute in your training only (AICB's `--recompute_activations` not given)",
        "只有你的训练做激活重计算（AICB 命令没有 `--recompute_activations`）",
    ),
    "train-recompute-aicb": (
        "activation recompute in AICB's only",
        "只有 AICB 做激活重计算",
    ),
    "train-dtype": (
        "dtype {real} in your training, {aicb} in AICB's (its `--dtype` default is bfloat16)",
        "数据类型：你的训练为 {real}，AICB 为 {aicb}（其 `--dtype` 默认为 bfloat16）",
    ),
    "q-unknown-option": ("Does AICB's script know `{option}`?", "AICB 的脚本认识 `{option}` 吗？"),
    "q-option-passed": (
        "What does AICB's script hand its generator for `{option}`?",
        "AICB 的脚本把 `{option}` 怎样传给生成器？",
    ),
    "a-option-passed": (
        "`{given}` is an option of `{script}` at AICB {revision}: the script hands it to the "
        "generator as {passed}.",
        "在 AICB {revision} 中，`{given}` 是 `{script}` 的选项：脚本把它作为 {passed} 传给生成器。",
    ),
    "a-unknown-option": (
        "`{option}` is no option of `{script}` at AICB {revision}. The script's option loop "
        "stops at the first word it does not know, without an error, and ignores that word and "
        "every word after it; the file is still written, from the options before it and the "
        "script's defaults.",
        "在 AICB {revision} 中，`{option}` 不是 `{script}` 的选项。脚本的选项循环遇到第一个"
        "不认识的词就停止读取，不报错，并忽略这个词及其后的所有词；文件仍会生成，只用它之前的选项和"
        "脚本的默认值。",
    ),
    "known-cause": (
        "Probably a known problem of your SimAI, which {since} fixed: yours, {user}, is older "
        "than {since}. {behaviour} {shown} Updating SimAI to {since} or later is the fix; the "
        "same run finishing there would confirm it.",
        "很可能是 {since} 修复的一个已知问题：你的 SimAI {user} 早于 {since}。{behaviour}"
        "{shown}把 SimAI 更新到 {since} 或更新的版本即可解决；同样的运行在那里能跑完即可确认。",
    ),
    "known-alltoall-log": (
        "Your log shows a plain all-to-all issued (layer `{layer}`) just before the run ended.",
        "你的日志显示，运行结束前刚发出了一个普通的全交换（层 `{layer}`）。",
    ),
    "known-alltoall-row": (
        "Your row `{name}` has a plain ALLTOALL.",
        "你的 `{name}` 行有一个普通的 ALLTOALL。",
    ),
    "known-count-line": (
        " Whenever rows are deleted, the count on line 2 must be changed to the new number of "
        "rows: SimAI makes exactly that many layers.",
        "删行之后，第 2 行的层数必须改成新的行数：SimAI 恰好建立这么多层。",
    ),
    "known-small-row": (
        "Your row `{name}` has a forward {coll} of {size} B.",
        "你的 `{name}` 行有一个 {size} B 的前向 {coll}。",
    ),
    "known-small-aicb": (
        "A training file AICB writes ends with such rows: `{rows}` ({n} rows), each a forward "
        "{coll} of {size} B.",
        "AICB 生成的训练文件末尾就有这样的行：`{rows}`（{n} 行），每行是 {size} B 的前向 {coll}。",
    ),
    "evidence-aicb-default": (
        "wkparse's AICB model at {revision}, the training generator with its default options",
        "wkparse 的 AICB 模型（{revision}），训练生成器的默认选项",
    ),
    "evidence-file": ("the workload file", "workload 文件"),
    "concept-unit": (" Unit: {unit}.", "单位：{unit}。"),
    "concept-older": (
        " This is of SimAI {model}: your SimAI, {user}, is older than {since}, which changed "
        "it ({names}; `wkparse concept {id}` gives what came before), so it may not hold for "
        "yours.",
        "以上说的是 SimAI {model}：你的 SimAI {user} 早于改变了这一点的 {since}（{names}；"
        "之前的情况见 `wkparse concept {id}`），所以对你的版本可能不成立。",
    ),
    "concept-maybe-older": (
        " This is of SimAI {model}: your SimAI may be older than {since}, which changed it "
        "({names}; `wkparse concept {id}` gives what came before): the thread's month holds "
        "masters before and after it, so it may not hold for yours.",
        "以上说的是 SimAI {model}：你的 SimAI 可能早于改变了这一点的 {since}（{names}；"
        "之前的情况见 `wkparse concept {id}`）：帖子所在月份的 master 在它前后都有，"
        "所以对你的版本可能不成立。",
    ),
    "concept-bubble-yours": (
        " In your file (PP {pp}, ga {ga}, vpp {vpp}) that factor is ({pp} - 1) / ({ga} x {vpp}) "
        "= {share}.",
        "你的文件中（PP {pp}、ga {ga}、vpp {vpp}）这个系数为 "
        "({pp} - 1) / ({ga} x {vpp}) = {share}。",
    ),
    "asked-same": (
        "wkparse has no answer to this beyond the one to the question above.",
        "除了上一个问题的回答，wkparse 对这个问题没有别的答案。",
    ),
    "asked-above": (
        "The answer above (concept page `{id}`) answers this too.",
        "上面的回答（概念页 `{id}`）也回答了这一点。",
    ),
    "no-answer": (
        "wkparse has no model that answers this. What would settle it: {settle}.",
        "wkparse 没有能回答这一点的模型。能确定它的是：{settle}。",
    ),
    "no-cause": (
        "wkparse cannot name the cause from what the thread shows. What would settle it: {settle}.",
        "仅凭帖子里给出的内容，wkparse 还无法确定原因。能确定它的是：{settle}。",
    ),
    "settle-maintainer": (
        "a maintainer's reading of SimAI's or AICB's source",
        "维护者对 SimAI 或 AICB 源码的解读",
    ),
    "heading-missing": ("To be sure, please give", "为了确认，请补充"),
    "cut": (
        "_The issue is longer than wkparse reads (1,000,000 characters): only its start was read._",
        "_帖子超过 wkparse 读取的上限（1,000,000 个字符）：只读取了开头部分。_",
    ),
    "footer": (
        "_Written by `wkparse triage`: each statement names the model or the line it rests on._",
        "_由 `wkparse triage` 生成：每条结论都注明了所依据的模型或原文行。_",
    ),
    "options-stated": ("wkparse's stated options", "wkparse 的默认选项"),
    "topology-of": ("the topology `{name}`", "拓扑 `{name}`"),
    "gpus-of": ("`-g {n}`", "`-g {n}`"),
}

PHRASES.update(MEANING)

#: the parts of SimAI a commit changes (`models.simai.master.AREAS`), as the answer names them
AREA_WORDS: dict[str, tuple[str, str]] = {
    "workload": ("its workload reader", "workload 读取"),
    "system": ("its collectives and groups", "集合通信与通信组"),
    "analytical": ("SimAI-Analytical", "SimAI-Analytical"),
    "ns3": ("SimAI-Simulation (ns-3)", "SimAI-Simulation（ns-3）"),
}


def areas_said(areas: list[str], lang: str) -> str:
    words = [AREA_WORDS[a][lang == "zh"] for a in areas if a in AREA_WORDS]
    if lang == "zh":
        return "、".join(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


#: the topics that put a thread out of scope (`scope.py` names them in English)
TOPIC_WORDS: dict[str, str] = {
    "vidur": "vidur",
    "building SimAI": "SimAI 的编译构建",
    "permissions": "文件权限",
    "python environment": "Python 运行环境",
    "an import that fails inside AICB's own code": "AICB 自身代码中失败的导入",
    "SimAI.conf, RDMA and congestion control": "SimAI.conf、RDMA 与拥塞控制",
    "failure modelling": "故障建模",
    "topology file": "拓扑文件",
    "crash on SimAI's own example": "SimAI 自带示例的崩溃",
    "crash inside ns-3": "ns-3 内部的崩溃",
    "the collective library (MockNcclGroup, SimCCL, NVLS, flow models)": (
        "集合通信库（MockNcclGroup、SimCCL、NVLS、flow model）"
    ),
    "ns-3 network setup": "ns-3 网络的搭建",
    "the environment SimAI runs in": "SimAI 的运行环境",
    "documentation": "文档",
    "topology and intra-server links": "拓扑与服务器内互联",
}

#: where to look, for a topic wkparse has no model of (paths in SimAI's own tree)
_NS3_SETUP = (
    "SimAI's ns-3 frontend reads SimAI.conf (`ReadConf`) and the topology file "
    "(`SetupNetwork`) in `astra-sim-alibabacloud/astra-sim/network_frontend/ns3/common.h`",
    "SimAI 的 ns-3 前端在 `astra-sim-alibabacloud/astra-sim/network_frontend/ns3/common.h` 中"
    "读取 SimAI.conf（`ReadConf`）和拓扑文件（`SetupNetwork`）",
)
_OUTPUT_FOLDER = (
    "SimAI_simulator writes its outputs under `/etc/astra-sim/simulation/` (the paths in "
    "SimAI.conf) and its log to `/etc/astra-sim/`: the folder must exist and be writable by "
    "the user who runs it (`build.sh` creates it with `mkdir -p`)",
    "SimAI_simulator 把输出写到 `/etc/astra-sim/simulation/`（路径见 SimAI.conf），日志写到 "
    "`/etc/astra-sim/`：该目录必须存在且运行者有写权限（`build.sh` 用 `mkdir -p` 创建它）",
)
TOPIC_POINTERS: dict[str, tuple[str, str]] = {
    "the collective library (MockNcclGroup, SimCCL, NVLS, flow models)": (
        "SimAI's mock NCCL (groups, algorithm choice, flow models) is "
        "`astra-sim-alibabacloud/astra-sim/system/MockNcclGroup.cc`",
        "SimAI 的 mock NCCL（通信组、算法选择、flow model）在 "
        "`astra-sim-alibabacloud/astra-sim/system/MockNcclGroup.cc`",
    ),
    "ns-3 network setup": _NS3_SETUP,
    "failure modelling": _NS3_SETUP,
    "topology file": _NS3_SETUP,
    "topology and intra-server links": _NS3_SETUP,
    "SimAI.conf, RDMA and congestion control": _NS3_SETUP,
    "the environment SimAI runs in": _OUTPUT_FOLDER,
    "permissions": _OUTPUT_FOLDER,
    "crash on SimAI's own example": _OUTPUT_FOLDER,
    "building SimAI": (
        "SimAI's `scripts/build.sh -c ns3` copies the `ns-3-alibabacloud` tree into "
        "`astra-sim-alibabacloud/extern/network_backend/ns3-interface/` and builds it there with "
        "CMake; `scripts/build.sh -l ns3` removes that copy and its build",
        "SimAI 的 `scripts/build.sh -c ns3` 把 `ns-3-alibabacloud` 复制到 "
        "`astra-sim-alibabacloud/extern/network_backend/ns3-interface/` 并在那里用 CMake 编译；"
        "`scripts/build.sh -l ns3` 删除这份副本及其编译结果",
    ),
    "vidur": (
        "vidur's SimAI backend is `vidur-alibabacloud/` in SimAI's tree (since b5ff47c9): its "
        "`vidur/execution_time_predictor/communication_time_predictor.py` runs SimAI_simulator "
        "on a one-row all-reduce workload it writes, and prints `all_reduce_bytes: N not allowed "
        "by simai` (then falls back to its sklearn predictor) when that run leaves no "
        "ncclFlowModel_EndToEnd.csv",
        "vidur 的 SimAI 后端在 SimAI 仓库的 `vidur-alibabacloud/` 中（自 b5ff47c9 起）：其 "
        "`vidur/execution_time_predictor/communication_time_predictor.py` 用自己写出的单行 "
        "all-reduce workload 运行 SimAI_simulator，若该次运行没有留下 ncclFlowModel_EndToEnd.csv，"
        "就打印 `all_reduce_bytes: N not allowed by simai` 并退回到它的 sklearn 预测器",
    ),
    "an import that fails inside AICB's own code": (
        "A name one of AICB's own modules imports from another and cannot find is missing from "
        "that AICB revision itself, not from the Python environment: no package installs it; "
        "AICB's history gives the revisions before the import was added and any later one "
        "that defines the name",
        "AICB 自身的一个模块从另一个模块导入却找不到的名字，是该 AICB 版本本身缺少的，"
        "而不是 Python 环境缺少的：任何包都装不出它；"
        "AICB 的提交历史给出加入这条导入之前的版本，以及之后定义了它的版本",
    ),
    "documentation": (
        "SimAI's documentation is `docs/` in its repository (`docs/Tutorial.md`)",
        "SimAI 的文档在其仓库的 `docs/`（`docs/Tutorial.md`）",
    ),
}

#: what an out-of-scope answer says it checked: (singular, plural, Chinese) per artefact kind
KIND_WORDS: dict[str, tuple[str, str, str]] = {
    "aicb-command": ("AICB command", "AICB commands", "条 AICB 命令"),
    "simai-command": ("SimAI command", "SimAI commands", "条 SimAI 命令"),
    "workload-header": ("workload header", "workload headers", "个 workload 表头"),
    "workload-rows": ("workload row", "workload rows", "行 workload"),
    "file-name": ("file name", "file names", "个文件名"),
    "topology": ("topology", "topologies", "个拓扑"),
    "log": ("log", "logs", "段日志"),
    "attachment": ("attachment", "attachments", "个附件"),
}


def counted(kind: str, n: int, lang: str) -> str:
    """`n` artefacts of `kind`, the noun agreeing with the number."""
    one, many, zh = KIND_WORDS.get(kind, (kind, kind, kind))
    if lang == "zh":
        return f"{n} {zh}"
    return f"{n} {one if n == 1 else many}"


#: topics whose pointer gives way to any other topic's
_LAST_POINTED = frozenset({"building SimAI"})


def pointer(topics: list[str], lang: str) -> str:
    """Where to look, for the first topic that has a known place; empty where none has. The
    build script is named last: a build step is often only how the user got to the topic."""
    for t in sorted(topics, key=lambda x: x in _LAST_POINTED):
        if t in TOPIC_POINTERS:
            en, zh = TOPIC_POINTERS[t]
            return zh + "。" if lang == "zh" else en + "."
    return ""


def topic_word(topic: str, lang: str) -> str:
    return TOPIC_WORDS.get(topic, topic) if lang == "zh" else topic


OUTCOME_WORDS: dict[str, tuple[str, str]] = {
    "finish": ("finishes", "正常结束"),
    "crash": ("crashes", "崩溃"),
    "abort": ("aborts", "异常中止"),
    "hang": ("never ends", "卡住不结束"),
    "silent-stop": ("stops silently", "无提示地停止"),
    "empty": ("ends at once with empty results", "立即结束且结果为空"),
    "refuse": ("refuses the command line", "拒绝该命令行"),
    "no-result": ("gives no usable result", "没有可用结果"),
    "nan": ("reports NaN", "结果为 NaN"),
    "infinite": ("reports an infinite time", "结果为无穷大"),
}


def gap(lang: str) -> str:
    """What stands between two sentences: a space, none in Chinese (full-width stops)."""
    return "" if lang == "zh" else " "


def say(key: str, lang: str, **values: object) -> str:
    en, zh = PHRASES[key]
    return (zh if lang == "zh" else en).format(**values)


def outcome_word(outcome: str, lang: str) -> str:
    en, zh = OUTCOME_WORDS.get(outcome, (outcome, outcome))
    return zh if lang == "zh" else en
