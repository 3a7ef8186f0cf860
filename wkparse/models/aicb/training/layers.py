"""The layer list of AICB's mocked training models, with each layer's parameter count.

AICB builds a mock of the Megatron (or DeepSeek) model and walks it depth first. With sequence
parallelism it lists the sharded linears themselves (`attention_column`, `mlp_row`, ...), the
fused layer norms and the MoE blocks; without it, whole attention and MLP blocks. The walk gives
the order of the rows in every micro-batch group, and the parameter counts (of the listed
layers, so some weights count twice and some not at all, exactly as AICB sums them) give the
sizes of the gradient collectives. Layers named `fused` write no row but still count.

Every `divide` AICB's linears assert is checked here: a shape that does not split over the
tensor-parallel ranks stops AICB, so it is an AicbError.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from wkparse.models.aicb.errors import AicbError
from wkparse.models.aicb.training.args import TrainingArgs


@dataclass(frozen=True, slots=True)
class Layer:
    name: str
    params: int


def _divide(numerator: int, denominator: int) -> int:
    if denominator == 0 or numerator % denominator != 0:
        raise AicbError(
            f"AICB stops: AssertionError: {numerator} is not divisible by {denominator}"
        )
    return numerator // denominator


class _Shapes:
    """Parameter counts of AICB's mocked building blocks for one configuration."""

    def __init__(self, a: TrainingArgs, embedding_rows: int = 4) -> None:
        self.a = a
        self.embedding_rows = embedding_rows

    def column(self, inp: int, out: int) -> int:
        part = _divide(out, self.a.tp)
        return inp * part + (part if self.a.add_bias_linear else 0)

    def row(self, inp: int, out: int) -> int:
        return _divide(inp, self.a.tp) * out + (out if self.a.add_bias_linear else 0)

    def linear(self, inp: int, out: int) -> int:
        """DeepSeek's unsharded linear."""
        return inp * out + (out if self.a.add_bias_linear else 0)

    @staticmethod
    def norm(width: int) -> int:
        return 2 * width

    def embedding(self) -> Layer:
        a = self.a
        words = self.embedding_rows * _divide(a.padded_vocab_size, a.tp) * a.hidden_size
        return Layer("embedding_layer", words + a.seq_length * a.hidden_size)

    def final(self) -> Layer:
        return Layer("final_column", self.column(self.a.hidden_size, self.a.padded_vocab_size))

    def local_ffn(self) -> int:
        """One expert block's FFN width on this rank: ffn * local experts / tp."""
        a = self.a
        if a.ep == 0:
            raise AicbError("AICB stops: ZeroDivisionError: expert_model_parallel_size is 0")
        return _divide(a.ffn_hidden_size * (a.num_experts // a.ep), a.tp)


def _mlp(s: _Shapes, sp: bool) -> list[Layer]:
    h, f = s.a.hidden_size, s.a.ffn_hidden_size
    column, row = Layer("mlp_column", s.column(h, f)), Layer("mlp_row", s.row(f, h))
    return [column, row] if sp else [Layer("mlp_layer", column.params + row.params)]


def _megatron_layer(
    s: _Shapes, sp: bool, moe_needs_gemm: bool = False, moe_name: str = "mlp_moelayer"
) -> list[Layer]:
    a = s.a
    h = a.hidden_size
    if a.num_attention_heads == 0:
        raise AicbError("AICB stops: ZeroDivisionError: num_attention_heads is 0")
    query = (h // a.num_attention_heads) * a.num_attention_heads
    qkv, dense = s.column(h, 3 * query), s.row(query, h)
    built = a.moe_enable and (a.grouped_gemm or not moe_needs_gemm)
    moe = Layer(moe_name, 2 * h * s.local_ffn()) if built else None
    if not sp:
        # a MoE block is not listed without sequence parallelism (AICB requires SP for MoE)
        return [Layer("attention_layer", qkv + dense), *([] if moe else _mlp(s, sp))]
    listed = [Layer("attention_column", qkv), Layer("attention_row", dense)]
    listed.append(Layer("fused", s.norm(h)))
    return [*listed, *([moe] if moe else _mlp(s, sp))]


def _deepseek_layer(s: _Shapes, sp: bool, dense: bool) -> list[Layer]:
    a = s.a
    h, heads = a.hidden_size, a.num_attention_heads
    qr, kvr = a.q_lora_rank, a.kv_lora_rank
    attention = [
        Layer("attention_linear_q_lora", s.linear(h, qr)),
        Layer("fused", s.norm(qr)),
        Layer("attention_q_column", s.column(qr, heads * (a.qk_nope_dim + a.qk_rope_dim))),
        Layer("attention_linear_kv_lora", s.linear(h, kvr + a.qk_rope_dim)),
        Layer("fused", s.norm(kvr)),
        Layer("attention_kv_column", s.column(kvr, heads * (a.qk_nope_dim + a.v_head_dim))),
        Layer("attention_o_row", s.row(heads * a.v_head_dim, h)),
    ]
    if dense:
        mlp = _mlp(s, sp)
    else:
        shared = _mlp(s, sp) if a.n_shared_expert > 0 else []
        experts = 3 * h * s.local_ffn() + sum(layer.params for layer in shared)
        mlp = [Layer("mlp_moelayer", experts), *shared]
    if not sp:
        return [Layer("attention_layer_mla", sum(x.params for x in attention)), *mlp]
    return [*attention, Layer("fused", s.norm(h)), *mlp]


def layers(
    a: TrainingArgs,
    embedding_rows: int = 4,
    moe_needs_gemm: bool = False,
    moe_name: str = "mlp_moelayer",
) -> list[Layer]:
    """Every layer AICB's walk lists for one pipeline stage, in its order.

    Before 2024-11-06 the embedding weight had 2 rows a token (`embedding_rows`); before
    2025-01-02 a MoE block was built only with --moe_grouped_gemm (`moe_needs_gemm`); the
    v1.0 generator (2024-07-31) named it `moelayer` (`moe_name`).
    """
    s = _Shapes(a, embedding_rows)
    sp = a.sequence_parallel

    def blocks() -> Iterator[Layer]:
        yield s.embedding()
        for i in range(a.num_layers):
            if a.deepseek:
                yield from _deepseek_layer(s, sp, dense=i < a.n_dense_layers)
            else:
                yield from _megatron_layer(s, sp, moe_needs_gemm, moe_name)
        final = s.final()  # built (and its split checked) with or without SP
        if sp:
            yield final

    return list(blocks())


def parameter_totals(listed: list[Layer]) -> tuple[int, int]:
    """(all counted parameters, those of layers named `moe`): what AICB's grad rows carry."""
    total = sum(layer.params for layer in listed)
    return total, sum(layer.params for layer in listed if "moe" in layer.name)
