# ruff: noqa: RUF001 - Chinese text is written with its own full-width punctuation
"""The artefact reader on tricky text: commands split with `\\`, pasted into Chinese sentences,
after `$` prompts and shell prompts, with full-width punctuation; names said twice; inline
rows; topologies named three ways; outputs in prose; and the three forms an issue comes in."""

from __future__ import annotations

import json

from wkparse.threads import questions
from wkparse.threads.artefacts import PROSE_LONGEST, extract
from wkparse.threads.language import detect
from wkparse.threads.reading import read_thread


def _found(text: str):  # type: ignore[no-untyped-def]
    return extract(read_thread(text))


def _kinds(text: str) -> dict[str, int]:
    return {k: n for k, n in _found(text).counts().items() if n}


def test_continued_command_counts_once() -> None:
    text = (
        "I ran\n\n    sh ./scripts/megatron_workload_with_aiob.sh -m 7 \\\n"
        "    --world_size 128 --tensor_model_parallel_size 4 \\\n    --frame Megatron\n"
    )
    found = _found(text)
    [cmd] = found.of("aicb-command")
    assert cmd.line == 3
    assert cmd.command is not None and cmd.command.option("--world_size") == "128"
    assert cmd.command.lines == [3, 4, 5]


def test_command_in_a_chinese_sentence_stops_at_the_chinese() -> None:
    text = (
        "执行命令：sudo AS_SEND_LAT=3 ./bin/SimAI_simulator -t 16 -w ./a/A100-gpt_13B-world_size64-"
        "tp16-pp1-ep1-gbs128-mbs1-seq64-MOE-False-GEMM-False-flash_attn-True.txt -n ./x "
        "-c SimAI.conf时，报出 double free or corruption (!prev) 已放弃\n"
    )
    found = _found(text)
    [cmd] = found.of("simai-command")
    assert cmd.text.endswith("-c SimAI.conf")
    assert cmd.command is not None and cmd.command.backend == "ns3"
    assert [a.text for a in found.of("log")] == ["double free or corruption (!prev)"]
    assert len(found.of("file-name")) == 1


def test_full_width_punctuation_and_dashes() -> None:
    text = (
        "命令：python -m workload_generator.SimAI_training_workload_generator "
        "—world_size 8 —frame Megatron。\n"
    )
    [cmd] = _found(text).of("aicb-command")
    assert cmd.command is not None and cmd.command.option("--world_size") == "8"
    doubled = "命令：sh scripts/megatron_workload_with_aiob.sh -m 7 ——world_size 16\n"
    [cmd] = _found(doubled).of("aicb-command")
    assert cmd.command is not None and cmd.command.option("--world_size") == "16"


def test_prompts_and_a_program_named_in_prose() -> None:
    text = (
        "$ ./bin/SimAI_analytical -w example/microAllReduce.txt -g 8\n"
        "root@box:/SimAI# ./bin/SimAI_analytical -w example/workload_analytical.txt -g 16\n"
        "Then I ran ./bin/SimAI_simulator etc. and script.sh Invalid parameter.\n"
    )
    found = _found(text)
    assert [a.command.option("-g") for a in found.of("simai-command") if a.command] == ["8", "16"]
    assert {a.text for a in found.of("file-name")} == {
        "example/microAllReduce.txt",
        "example/workload_analytical.txt",
    }


def test_title_repeating_the_command_counts_once() -> None:
    text = (
        "---\ntitle: AS_SEND_LAT=3 ./bin/SimAI_simulator -t 16 -w ./example/microAllReduce.txt "
        "-n ./x coredump\nlanguage: en\n---\n\nAS_SEND_LAT=3 ./bin/SimAI_simulator -t 16 -w "
        "./example/microAllReduce.txt -n ./x\n"
    )
    assert _kinds(text)["simai-command"] == 1


def test_rows_pasted_inline_and_cut() -> None:
    text = (
        "Any layer like `optimizer1  -1  0  ALLREDUCE  4  0  NONE  0  0  NONE  0  100` stops.\n\n"
        "```\nHYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 8 ep: 1 pp: 1 ga: 1 "
        "all_gpus: 8\n"
        "2\nembedding_layer -1 556000 ALLREDUCE 13870912 1 NONE 0 1 NONE 0 100\nmlp -1\n```\n"
    )
    kinds = _kinds(text)
    assert kinds["workload-header"] == 1
    assert kinds["workload-rows"] == 2  # `mlp -1` is cut before its collective: not a row
    assert "log" not in kinds


def test_topology_named_by_generator_and_by_name_is_one() -> None:
    text = (
        "python3 ./astra-sim-alibabacloud/inputs/topo/gen_Topo_Template.py -topo Spectrum-X -g 32 "
        "-gt H100 -bw 400Gbps\n"
        "AS_SEND_LAT=3 ./bin/SimAI_simulator -t 32 -w ./x.txt "
        "-n ./Spectrum-X_32g_8gps_400Gbps_H100 "
        "-c a.conf\n"
        "python3 gen_Topo_Template.py -topo AlibabaHPN --dp -g 64\n"
        "and HPN_7_0_64_gpus_8_in_one_server_with_single_plane_400Gbps_A100 too\n"
    )
    found = _found(text)
    assert [(t.family, t.gpus) for t in found.topologies] == [
        ("Spectrum-X", 32),
        ("AlibabaHPN", 64),
        ("HPN_7_0", 64),
    ]


def test_pasted_topology_file_gives_its_gpu_count() -> None:
    text = "topo\n```\n1280 8 128 128 2528 A100\n1024 1025 1026\n```\n"
    [t] = _found(text).topologies
    assert t.gpus == 1024 and t.source == "file"


def test_code_is_not_a_log_and_output_is() -> None:
    text = (
        "```\ndef f(x):\n    for i in x:\n        if i:\n            return i\n```\n\n"
        "```\nFile name, Expose DP comm, Total time\ntest-, 53083 (45.42%), 116868\n```\n\n"
        "Output:\ninfo: no weight grad collective for layer: mlp\n"
        "chunk size is: 67108864 , size is: 67108864 , layer_num is: 17 , node: 0\n\n"
        "and `mkdir: cannot create directory '/etc/astra-sim': Permission denied` "
        "then `ImportError`\n"
    )
    logs = _found(text).of("log")
    assert [a.line for a in logs] == [8, 14, 17]


def test_file_names_said_twice_and_outputs_not_named() -> None:
    text = (
        "test_tp_24.txt: workload; flow.txt changes; test_tp_24.txt again; "
        "--merge-file gpt2-merges.txt; workload/aiob_inputs/Example.txt; microAllReduce.txt\n"
    )
    names = [a.text for a in _found(text).of("file-name")]
    assert names == ["microAllReduce.txt", "test_tp_24.txt"] or sorted(names) == [
        "microAllReduce.txt",
        "test_tp_24.txt",
    ]


def test_attachment_links() -> None:
    text = (
        "![Image](https://github.com/user-attachments/assets/abc)\n"
        '<img width="1" src="https://github.com/user-attachments/assets/def" />\n'
        "[log](https://example.org/run.log)\n"
    )
    assert len(_found(text).of("attachment")) == 3


def test_gh_json_issue() -> None:
    issue = {
        "title": "卡死",
        "body": "运行下面的命令后一直卡住：\n./bin/SimAI_analytical -w a_b.txt -g 8\n",
        "createdAt": "2025-06-09T10:00:00Z",
        "url": "https://example.org/1",
        "comments": [
            {"author": {"login": "x"}, "body": "```\ninfo: no weight grad collective\n```"}
        ],
    }
    thread = read_thread(json.dumps(issue, ensure_ascii=False))
    assert (thread.title, thread.created) == ("卡死", "2025-06-09")
    found = extract(thread)
    assert found.counts()["simai-command"] == 1 and found.counts()["log"] == 1
    assert detect(found.prose, thread.language) == "zh"


def test_front_matter_and_plain_text() -> None:
    thread = read_thread("---\ntitle: t\ncreated: 2025-06\nlanguage: zh\n---\nbody\n")
    assert (thread.title, thread.created, thread.language) == ("t", "2025-06", "zh")
    assert thread.numbered()[5] == (6, "body")
    plain = read_thread("just text\n")
    assert plain.title == "" and plain.numbered() == [(1, "just text"), (2, "")]


def test_language_of_prose_not_of_commands() -> None:
    zh = [
        (1, "我运行了下面的命令，结果一直没有输出，请问是什么原因？"),
        (2, "--replica_config_a 1 --b 2 --c 3"),
    ]
    en = [(1, "The run stops after grad_gather; what is wrong?"), (2, "1.1 运行的命令")]
    assert detect(zh) == "zh" and detect(en) == "en"


def test_commits_the_thread_names() -> None:
    from wkparse.threads.versions import stated_commits

    thread = read_thread(
        "I used https://github.com/aliyun/aicb/tree/d9b4f5cd7d9d34a80cfbb0389831a16c7fe3ed7b\n"
        "and SimAI at commit 9ecad45f.\n"
    )
    assert stated_commits(thread) == {
        "aicb": ("d9b4f5cd7d9d34a80cfbb0389831a16c7fe3ed7b", 1),
        "simai": ("9ecad45f", 2),
    }


def test_odd_gh_json_and_json_that_is_not_an_issue() -> None:
    odd = read_thread('{"title": 5, "body": null, "comments": "x", "createdAt": null}')
    assert odd.title == "5" and odd.lines == [""]
    listing = read_thread('[{"title": "a"}]\n')  # not an issue: read as text
    assert listing.lines[0] == '[{"title": "a"}]'
    broken = read_thread('{"title": "a", "body": ')  # not JSON: read as text
    assert broken.lines[0].startswith("{")


def test_a_paste_that_lost_its_backslashes() -> None:
    text = (
        "我用以下指令\nsh ./scripts/megatron_workload_with_aiob.sh -m 7\n"
        "--world_size 128 --tensor_model_parallel_size 4 --pipeline_model_parallel 4\n"
        "--frame Megatron --global_batch 512\n生成了一个txt文件\n"
    )
    [cmd] = _found(text).of("aicb-command")
    assert cmd.command is not None and cmd.command.lines == [2, 3, 4]
    assert cmd.command.option("--global_batch") == "512"


def test_pasted_link_lines_are_a_topology_excerpt() -> None:
    text = (
        "Two switches share one port:\n\n144 159 400Gbps 0.0005ms 0\n144 160 400Gbps 0.0005ms 0\n"
    )
    [topo] = _found(text).of("topology")
    assert topo.line == 3 and topo.topology is not None and topo.topology.gpus is None


def test_an_unfenced_build_output_with_blank_lines_is_one_log() -> None:
    text = (
        "---\ntitle: 编译报错\n---\n\n-- Configuring done (52.9s)\n"
        "CMake Error in src/x/CMakeLists.txt:\n"
        '  Target "libx" INTERFACE_INCLUDE_DIRECTORIES property contains\n\n'
        '    "/SimAI/src/x"\n\n  which is prefixed in the source directory.\n\n'
        "-- Generating done (0.3s)\n"
        "CMake Generate step failed.  Build files cannot be regenerated.\n"
        "Finished executing the following commands:\nmkdir cmake-cache\n"
        "ninja: error: loading 'build.ninja': No such file or directory\n"
    )
    found = _found(text)
    assert _kinds(text) == {"log": 1}
    assert detect(found.prose) == "zh"


def test_output_named_in_the_title_and_a_log_attached_by_name() -> None:
    text = (
        "---\ntitle: 仿真输出的ncclFlowModel_EndToEnd.csv为空\n---\n\nThe body says nothing more.\n"
        "[SimAI.log](https://github.com/user-attachments/files/1/SimAI.log)\n"
    )
    names = [a.text for a in _found(text).of("file-name")]
    assert names == ["ncclFlowModel_EndToEnd.csv", "SimAI.log"]


def test_a_line_longer_than_prose_is_no_words() -> None:
    """A line of tens of thousands of characters (a mutated or concatenated file) holds no
    question, command or file name; reading its words took seconds."""
    long_line = "Why does ga change? " + "x" * PROSE_LONGEST
    found = extract(read_thread(f"Title\n\n{long_line}\n\nDoes SimAI read vpp?\n"))
    lines = [text for _, text in found.prose]
    assert "Does SimAI read vpp?" in lines
    assert not any(len(text) > PROSE_LONGEST for text in lines)
    assert questions.read("Title", found.prose)[0].text == "Does SimAI read vpp?"
