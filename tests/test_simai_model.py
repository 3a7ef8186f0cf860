"""The SimAI reader model, one behaviour at a time, on small files written here."""

from __future__ import annotations

import pytest

from tests.conftest import CORPUS, needs
from wkparse.cpp import IStream, float32, scaled
from wkparse.models.simai import read_header, simulate, stoi
from wkparse.models.simai.outcome import FORMAT_MISMATCH, UNKNOWN_POLICY
from wkparse.models.simai.tables import ComType, GroupType, decode_comm

HEADER = (
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 8 ep: 1 pp: 2 vpp: 1 ga: 1 "
    "all_gpus: 32 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 1048576"
)
ROW = "attention_layer\t-1\t1500\tALLREDUCE\t2097152\t2500\tNONE\t0\t3500\tALLGATHER\t4194304\t100"


def workload(*rows: str, header: str = HEADER, count: str | None = None) -> bytes:
    lines = [header, str(len(rows)) if count is None else count, *rows]
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize(
    ("text", "value", "error"),
    [
        ("42", 42, None),
        ("  \t42", 42, None),
        ("+42", 42, None),
        ("-7", -7, None),
        ("8388608.0", 8388608, None),
        ("63abc", 63, None),
        ("2147483647", 2147483647, None),
        ("2147483648", None, "out_of_range"),
        ("-2147483649", None, "out_of_range"),
        ("9" * 100_000, None, "out_of_range"),
        ("", None, "invalid_argument"),
        ("abc", None, "invalid_argument"),
        ("+", None, "invalid_argument"),
        ("\u0663", None, "invalid_argument"),  # an Arabic-Indic three is no digit to strtol
    ],
)
def test_stoi(text: str, value: int | None, error: str | None) -> None:
    result = stoi(text)
    assert (result.value, result.error) == (value, error)


def test_stoi_says_whether_it_read_the_whole_token() -> None:
    assert stoi("8388608").whole and stoi("+4").whole and not stoi("8388608.0").whole


def test_stream_integer_stops_at_the_dot_and_the_rest_is_the_next_field() -> None:
    s = IStream(b"100.5 NONE")
    assert s.uint64() == 100
    assert s.word() == b".5"
    assert s.word() == b"NONE"
    assert s.word() is None and s.failed


def test_stream_word_in_a_number_slot_stores_0_and_fails_for_good() -> None:
    s = IStream(b"abc 5")
    assert s.uint64() == 0 and s.failed
    assert s.uint64() is None  # untouched


def test_stream_negative_unsigned_wraps_and_overflow_fails() -> None:
    assert IStream(b"-5").uint64() == 2**64 - 5
    s = IStream(b"18446744073709551616")
    assert s.uint64() == 2**64 - 1 and s.failed
    s = IStream(b"3000000000")
    assert s.int32() == 2**31 - 1 and s.failed


def test_float32_rounding_and_the_negative_wrap_to_zero() -> None:
    assert float32(201326593) == 201326592
    assert float32(16777217) == 16777216  # tie: to even
    assert float32(16777219) == 16777220
    assert scaled(2**64 - 5) == 0


def test_last_duplicate_key_wins_and_pp_comm_reads_without_colon() -> None:
    h = read_header(b"HYBRID_TRANSFORMER model_parallel_NPU_group: 2 pp: 3 pp: 4 pp_comm 77")
    assert h.value("pp") == 4 and h.value("pp_comm") == 77
    assert h.tp_prints == (2,)


def test_keys_without_colon_and_unknown_keys_are_ignored() -> None:
    h = read_header(b"HYBRID_TRANSFORMER model_parallel_NPU_group: 2 vpp 9 mode: 1 ga: 3")
    assert h.value("vpp") is None and h.value("ga") == 3 and "mode" not in h.values


def test_a_key_as_last_token_crashes_and_one_before_a_key_throws() -> None:
    last = read_header(b"HYBRID_TRANSFORMER model_parallel_NPU_group: 2 ga:")
    assert last.stop is not None and last.stop.exit_code == 139
    middle = read_header(b"HYBRID_TRANSFORMER ga: pp: 2")
    assert middle.stop is not None and middle.stop.exit_code == 134
    assert "std::invalid_argument" in middle.stop.message


def test_pp_comm_over_int32_throws_out_of_range() -> None:
    h = read_header(b"HYBRID_TRANSFORMER pp_comm: 4294967296")
    assert h.stop is not None and "std::out_of_range" in h.stop.message


def test_negative_pp_comm_is_stored_in_32_bits_unsigned() -> None:
    assert read_header(b"HYBRID_TRANSFORMER pp_comm: -1").value("pp_comm") == 2**32 - 1


def test_checkpoint_list_bug_reads_the_first_index_count_times() -> None:
    h = read_header(
        b"HYBRID_TRANSFORMER_FWD_IN_BCKWD checkpoints: 3 4 9 12 checkpoint_initiates: 0"
    )
    assert h.checkpoints == (4, 4, 4)
    # HYBRID_TRANSFORMER does not read them at all
    assert read_header(b"HYBRID_TRANSFORMER checkpoints: 1 4").checkpoints == ()


def test_unknown_policy_and_bom_exit_1_and_empty_line_1_crashes() -> None:
    for line in (b"HYBRID_TRANSFORMER_X pp: 1", b"\xef\xbb\xbfHYBRID_TRANSFORMER pp: 1"):
        h = read_header(line)
        assert h.stop is not None and (h.stop.exit_code, h.stop.message) == (1, UNKNOWN_POLICY)
    stop = read_header(b"   ").stop
    assert stop is not None and stop.exit_code == 139


def test_format_mismatch_warning_follows_simai_condition() -> None:
    assert simulate(workload(ROW)).warnings == ()
    no_vpp = HEADER.replace("vpp: 1 ", "")
    assert simulate(workload(ROW, header=no_vpp)).warnings == (FORMAT_MISMATCH,)
    pp1_with_comm = HEADER.replace("pp: 2", "pp: 1")
    assert simulate(workload(ROW, header=pp1_with_comm)).warnings == (FORMAT_MISMATCH,)


@pytest.mark.parametrize(
    ("token", "phase", "expected"),
    [
        ("ALLREDUCE", "fwd", (ComType.ALLREDUCE, GroupType.TP)),
        ("ALLREDUCE", "wg", (ComType.ALLREDUCE, GroupType.DP)),
        ("ALLGATHER_EP", "ig", (ComType.ALLGATHER, GroupType.EP)),
        ("REDUCESCATTER_DP_EP", "wg", (ComType.REDUCESCATTER, GroupType.DP_EP)),
        ("ALLREDUCE_TP", "fwd", (ComType.ALLREDUCE, GroupType.NONE)),
        ("ALLREDUCEALLTOALL", "wg", (ComType.ALLREDUCE, GroupType.NONE)),
        ("ALLTOALLX", "fwd", (ComType.ALLTOALL, GroupType.NONE)),
        ("BROADCAST", "fwd", (ComType.NONE, GroupType.NONE)),
        ("NONE", "wg", (ComType.NONE, GroupType.NONE)),
    ],
)
def test_comm_types_match_by_prefix(
    token: str, phase: str, expected: tuple[ComType, GroupType]
) -> None:
    assert decode_comm(token, phase) == expected


def test_a_clean_row_schedules_its_collectives_with_group_sizes_from_g() -> None:
    run = simulate(workload(ROW), gpus=64)
    assert run.outcome.exit_code == 0 and run.dp == 4
    plan = run.plan(run.rows.layers[0]) if run.rows else None
    assert plan is not None
    assert [(n, p.type, p.group, p.group_size, p.size) for n, p in plan.scheduled()] == [
        ("fwd", ComType.ALLREDUCE, GroupType.TP, 8, 2097152),
        ("wg", ComType.ALLGATHER, GroupType.DP, 4, 4194304),
    ]
    # 1.5 us and 2.5 us round half to even; total comp adds the unrounded values
    assert (plan.fwd.compute_us, plan.ig.compute_us, plan.wg.compute_us) == (2, 2, 4)
    assert run.total_compute_us == 8  # 7.5 rounds to even


def test_small_messages_get_a_fixed_latency_and_tiny_forward_sizes_are_raised() -> None:
    row = ROW.replace("2097152", "100").replace("4194304", "1048575")
    run = simulate(workload(row))
    assert run.rows is not None
    plan = run.plan(run.rows.layers[0])
    assert plan.fwd.size == 4096 and not plan.fwd.scheduled
    assert not plan.wg.scheduled
    plain = simulate(workload(row, header=HEADER.replace("_FWD_IN_BCKWD", "")))
    assert plain.rows is not None and plain.plan(plain.rows.layers[0]).fwd.size == 100


def test_a_dp_group_of_one_rank_is_not_scheduled() -> None:
    run = simulate(workload(ROW), gpus=16)
    assert run.dp == 1 and run.rows is not None
    assert [n for n, _ in run.plan(run.rows.layers[0]).scheduled()] == ["fwd"]


def test_dp_ep_weight_gradient_with_ep_0_divides_by_zero() -> None:
    row = ROW.replace("ALLGATHER", "ALLGATHER_DP_EP")
    run = simulate(workload(row, header=HEADER.replace("ep: 1", "ep: 0")))
    assert run.outcome.exit_code == 136


@pytest.mark.parametrize(
    ("fwd", "size", "tp", "dies"),
    [
        ("ALLREDUCE_DP_EP", "2097152", "8", True),  # GPUs per server / (TP x EP): SIGFPE
        ("ALLREDUCE_DP_EP", "4096", "8", False),  # a small message: a fixed latency, no division
        ("ALLREDUCE_DP_EP", "2097152", "1", False),  # one rank: nothing is placed
        ("NONE_DP_EP", "2097152", "8", False),  # no collective
    ],
)
def test_dp_ep_forward_with_ep_0_divides_by_zero_where_simai_places_it(
    fwd: str, size: str, tp: str, dies: bool
) -> None:
    """SimAI's compute_time places a _DP_EP collective of more than one rank that is no small
    message by dividing GPUs per server by TP x EP: SIGFPE at EP 0 (the model divided too, and
    raised ZeroDivisionError: found by the long fuzz run, seed 39 case 376)."""
    header = HEADER.replace("ep: 1", "ep: 0").replace("NPU_group: 8", f"NPU_group: {tp}")
    row = ROW.replace("ALLGATHER", "NONE").replace("ALLREDUCE\t2097152", f"{fwd}\t{size}")
    run = simulate(workload(row, row, header=header))
    assert run.outcome.exit_code == (136 if dies else 0), run.outcome.message
    if dies:
        assert "placing a _DP_EP forward collective, EP 0" in run.outcome.message


def test_missing_pp_is_sigfpe_after_reading_every_row() -> None:
    run = simulate(workload(ROW, ROW, header=HEADER.replace("pp: 2 ", "")))
    assert run.outcome.exit_code == 136 and run.layer_count == 2


def test_count_line_outcomes() -> None:
    assert simulate(workload(ROW, count="1abc")).layer_count == 1
    assert simulate(workload(ROW, count="")).outcome.exit_code == 134
    zero = simulate(workload(ROW, count="0")).outcome
    assert (zero.exit_code, zero.kind) == (134, "signal")
    assert "bad_array_new_length" in simulate(workload(ROW, count="-1")).outcome.message


def test_phantom_layers_are_nameless_and_carry_the_previous_numbers() -> None:
    run = simulate(workload(ROW, count="4"))
    assert run.rows is not None and run.layer_count == 4 and run.first_undefined == 1
    phantom = run.rows.layers[3]
    assert phantom.name == "" and phantom.fwd.compute == 1500 and phantom.fwd.comm == ""
    assert not run.plan(phantom).scheduled()


def test_a_float_shifts_the_stream_and_a_word_then_fails_it() -> None:
    bad = ROW.replace("\t1500\t", "\t1500.5\t")
    run = simulate(workload(ROW, bad, ROW))
    assert run.rows is not None and run.first_undefined == 1
    second = run.rows.layers[1]
    # ".5" became the forward comm type, "ALLREDUCE" failed the size slot (0)
    assert second.fwd.comm == ".5" and second.fwd.size == 0
    assert second.ig.compute == 2500  # untouched: the first row's value
    assert run.rows.failed_at == (4, 27)  # where ALLREDUCE stands


def test_line_ends_mean_nothing_to_the_stream() -> None:
    split = ROW.replace("\t2500\t", "\n2500\n")
    run = simulate(workload(split, ROW))
    assert run.rows is not None and run.first_undefined is None
    assert run.rows.layers[0] == run.rows.layers[1]


def test_garbage_in_the_first_row_makes_the_run_undefined() -> None:
    run = simulate(workload(ROW.replace("1500", "x")))
    assert run.first_undefined == 0 and run.outcome.undefined
    assert run.total_compute_us is None or run.outcome.undefined


def test_identical_rows_share_one_reading() -> None:
    run = simulate(workload(*[ROW] * 1000))
    assert run.rows is not None
    assert len({id(x) for x in run.rows.layers}) == 1 and list(run.rows.layers.lines[:2]) == [3, 4]


@needs(CORPUS)
def test_current_aicb_output_runs_clean_in_the_model() -> None:
    files = sorted((CORPUS / "aicb-generated" / "aicb-2025-12").glob("*.txt"))
    assert files
    for path in files:
        run = simulate(path.read_bytes())
        assert (run.outcome.exit_code, run.warnings, run.first_undefined) == (0, (), None), path
        assert run.layer_count == run.lines and run.total_compute_us is not None


@needs(CORPUS)
def test_a_count_of_839_over_33_rows_fails_the_stream_after_the_rows() -> None:
    path = next(CORPUS.rglob("L65B-M1-C05_Llama65B_megatron_tp8_pp1_mbs1_A100.txt"))
    run = simulate(path.read_bytes())
    assert run.lines == 839 and run.layer_count == 839 and run.first_undefined == 33
    assert run.rows is not None and run.rows.layers.tail_count == 839 - 33


@pytest.mark.parametrize("text", ["99999999999abc", "2147483648", "63abc", "-5", "abc", "1291.0"])
def test_the_count_line_diagnostic_agrees_with_the_model(text: str) -> None:
    """The parser's line-2 message, lint's WK105 and the model read the count with one stoi."""
    from wkparse.parse import parse_text

    data = workload(ROW, count=text)
    run = simulate(data)
    messages = [d.message for d in parse_text(data.decode()).diagnostics if d.span.line == 2]
    if run.lines is None or run.lines < 0:
        assert run.outcome.exit_code == 134
        assert not any("SimAI reads" in m for m in messages)
    else:
        assert run.outcome.exit_code == 0
        assert all(f"SimAI reads {run.lines} " in m for m in messages)
