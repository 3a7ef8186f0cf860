"""The model's reading of line 1 placed on the parsed header's tokens.

`wkparse.models.simai.header` reads line 1 as SimAI does, from its tokens; lint and `parse --format
json` need to know where each read stands, so this runs the model over the AST header's tokens
(the grammar splits line 1 where SimAI does) and keeps each read with its key and value token.

`header_value` is the one answer to "what number does SimAI take from this header key": lint,
explain, diff and `parse --format json` all ask it, so `vpp: 4.0`, `vpp: +4`, `vpp: 004` and
`vpp: 4x` read as 4 everywhere, as they do in SimAI.
"""

from __future__ import annotations

import functools

from wkparse.ast import Header, Span
from wkparse.cpp import U32, Stoi, stoi
from wkparse.models.simai.header import HeaderReading, read_header_tokens
from wkparse.record import record


@record
class Token:
    """One whitespace-separated token of line 1; `field` indexes `Header.fields`."""

    text: str
    span: Span
    field: int | None
    #: True for a field's first token (its key), False for values and the policy
    key: bool = False


@record
class Occurrence:
    """One place SimAI reads `key`: the key token and the token it hands to stoi."""

    key: str
    key_token: Token
    index: int
    value_token: Token | None
    #: what stoi made of the value token; None when there is none (SimAI reads past the line)
    result: Stoi | None


@record(slots=False)
class Reading:
    header: Header
    tokens: tuple[Token, ...]
    #: every read of each key SimAI reads for this policy, in line order
    reads: dict[str, tuple[Occurrence, ...]]
    #: the model's reading (values SimAI holds, where it stops)
    model: HeaderReading

    def last(self, key: str) -> Occurrence | None:
        found = self.reads.get(key, ())
        return found[-1] if found else None

    def value(self, key: str) -> int | None:
        """What SimAI ends up with for `key`: the last read's stoi value (`pp_comm` kept in 32
        bits unsigned, as SimAI stores it); None when absent or when stoi throws."""
        last = self.last(key)
        value = last.result.value if last is not None and last.result is not None else None
        return value % U32 if key == "pp_comm" and value is not None else value

    def written(self, key: str) -> bool:
        """Whether the key appears at all: with its colon, without it, or glued to a value."""
        return any(
            t.key and (t.text in (key, f"{key}:") or t.text.startswith(f"{key}:"))
            for t in self.tokens
        )

    @functools.cached_property
    def key_positions(self) -> dict[int, int]:
        """Where each field's key stands among the tokens, by field index: looked up once, as
        a hostile header can hold thousands of fields that each get a fix."""
        return {t.field: i for i, t in enumerate(self.tokens) if t.key and t.field is not None}

    @functools.cached_property
    def consumed(self) -> frozenset[int]:
        """Indexes of tokens SimAI takes as a key's value (so they are not keys themselves)."""
        return frozenset(
            o.index + 1 for occ in self.reads.values() for o in occ if o.value_token is not None
        )

    @functools.cached_property
    def value_fields(self) -> frozenset[int]:
        """Fields (by index) whose key token SimAI takes as a value: `tp: 2abc` parses as a
        key with no value and a field `2abc`, which SimAI reads as tp's 2."""
        tokens = self.tokens
        return frozenset(
            f for i in self.consumed if tokens[i].key and (f := tokens[i].field) is not None
        )


def line_tokens(header: Header) -> tuple[Token, ...]:
    tokens = [Token(header.policy, header.policy_span, None)]
    tokens += [Token(v.text, v.span, None) for v in header.leading]
    for i, f in enumerate(header.fields):
        tokens.append(Token(f"{f.key}:" if f.colon else f.key, f.span, i, key=True))
        tokens += [Token(v.text, v.span, i) for v in f.values]
    return tuple(tokens)


@functools.lru_cache(maxsize=16)
def reading(header: Header) -> Reading:
    """SimAI's reading of the header (`wkparse.models.simai`), each read placed on its tokens."""
    tokens = line_tokens(header)
    model = read_header_tokens(tuple(t.text for t in tokens), through=True)
    reads: dict[str, list[Occurrence]] = {}
    for r in model.reads:
        if r.offset != 1:
            continue
        key_token = tokens[r.index]
        key = key_token.text.removesuffix(":")
        nxt = tokens[r.index + 1] if r.index + 1 < len(tokens) else None
        reads.setdefault(key, []).append(Occurrence(key, key_token, r.index, nxt, r.result))
    return Reading(header, tokens, {k: tuple(v) for k, v in reads.items()}, model)


def header_value(header: Header | None, key: str) -> int | None:
    """The number SimAI takes from `key` (written without its colon) in this header.

    For a key SimAI reads under the header's policy this is the model's reading
    (`Reading.value`: the last occurrence with its colon, stoi's leniency, `pp_comm` in 32
    bits). A key it does not read there (`mode`, the sizes of a DISTRIBUTED_INFERENCE file)
    is read the same way from the field SimAI would look at, so every caller sees one number.
    None when the key is absent, has no value, or stoi throws on it.
    """
    if header is None:
        return None
    read = reading(header)
    if key in read.reads:
        return read.value(key)
    field = header.read(key)
    if field is None or field.value is None:
        return None
    value = stoi(field.value.text).value
    return value % U32 if key == "pp_comm" and value is not None else value
