# ruff: noqa: RUF001 - Chinese threads are written with their own full-width punctuation
"""Triage answers "how do I get the transport matrix" and "why no scale-out traffic" with the
traffic model: the `wkparse traffic` pointer when the thread asks, and with an attached file
the bytes inside and between servers and the dimensions that cross, on the thread's topology."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES, TRIAGE, needs
from wkparse import triage
from wkparse.models.simai.traffic import model_traffic, stated

HEAD = "---\ntitle: {title}\ncreated: 2026-09-01\nlanguage: {lang}\n---\n\n"
SAMPLE = SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"


def _answers(text: str, folder: Path | None = None) -> list[str]:
    return [a.answer for a in triage(text, folder).answers]


def test_a_thread_asking_for_the_matrix_gets_the_command() -> None:
    said = _answers(HEAD.format(title="generate a transport matrix", lang="en") + "How?\n")
    assert any("`wkparse traffic FILE -- -n TOPOLOGY`" in s for s in said)
    zh = _answers(HEAD.format(title="如何得到流量矩阵", lang="zh") + "请问怎么做？\n")
    assert any("`wkparse traffic FILE -- -n TOPOLOGY`" in s and "字节数" in s for s in zh)


def test_a_thread_that_does_not_ask_gets_no_traffic_answer() -> None:
    said = _answers(HEAD.format(title="What is the unit of the results?", lang="en") + "?\n")
    assert not any("wkparse traffic" in s for s in said)


def test_an_attached_file_gets_its_bytes_inside_and_between_servers(tmp_path: Path) -> None:
    (tmp_path / SAMPLE.name).write_bytes(SAMPLE.read_bytes())
    body = (
        f"I run [{SAMPLE.name}](https://example.invalid/{SAMPLE.name}) with SimAI_simulator on "
        "Rail_Opti_SingleToR_128g_8gps_400Gbps_H100. Why is there so little scale-out traffic?\n"
    )
    said = _answers(HEAD.format(title="scale-out traffic", lang="en") + body, tmp_path)
    run = model_traffic(SAMPLE.read_bytes(), stated(128, 8))
    intra, _, inter, _ = run.server_split()
    facts = [s for s in said if s.startswith("Your file on 128 GPUs (8 per server)")]
    assert len(facts) == 1
    assert f"{intra:,} B stay inside servers and {inter:,} B cross" in facts[0]
    assert "the DP collectives are the ones whose groups span servers" in facts[0]


@needs(TRIAGE)
@pytest.mark.parametrize("case", ["aliyun-SimAI-154", "aliyun-SimAI-35", "aliyun-SimAI-39"])
def test_shared_threads_of_an_older_simai_get_no_matrix_command(case: str) -> None:
    # these users ran a SimAI older than the build `wkparse traffic` models
    folder = TRIAGE / case
    attachments = folder / "attachments"
    said = _answers(
        (folder / "issue.md").read_text(), attachments if attachments.is_dir() else None
    )
    assert not any("wkparse traffic" in s for s in said)


def test_the_matrix_command_and_numbers_only_for_the_simai_it_models(tmp_path: Path) -> None:
    """`wkparse traffic` models one SimAI build: a user of an older SimAI (master on an older
    date) gets neither the pointer nor the file's bytes, which speak for that build only."""
    (tmp_path / SAMPLE.name).write_bytes(SAMPLE.read_bytes())
    body = (
        f"I run [{SAMPLE.name}](https://example.invalid/{SAMPLE.name}) with SimAI_simulator on "
        "Rail_Opti_SingleToR_128g_8gps_400Gbps_H100. How do I generate the traffic matrix?\n"
    )
    now = _answers(HEAD.format(title="traffic matrix", lang="en") + body, tmp_path)
    assert any("`wkparse traffic FILE -- -n TOPOLOGY`" in s for s in now)
    assert any(s.startswith("Your file on 128 GPUs") for s in now)
    old = HEAD.replace("2026-09-01", "2025-03-01").format(title="traffic matrix", lang="en")
    before = _answers(old + body, tmp_path)
    assert not any("wkparse traffic" in s for s in before)


def test_traffic_between_hosts_is_asked_as_scale_out() -> None:
    # "between hosts / across servers" asks where traffic leaves a server, as "scale-out" does,
    # also where the prose wraps the phrase over two lines
    lead = "Traffic leaves a server when a collective's group spans servers"
    for words in (
        "no traffic between hosts",
        "nothing goes across the servers",
        "none between\nhosts",
    ):
        body = f"I ran the sample on SimAI_simulator and see {words}. Is that correct?\n"
        said = _answers(HEAD.format(title="traffic", lang="en") + body)
        assert any(s.startswith(lead) for s in said), words
    said = _answers(HEAD.format(title="traffic", lang="en") + "All traffic stays. Why?\n")
    assert not any(s.startswith(lead) for s in said)
