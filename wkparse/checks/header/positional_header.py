"""WK230 positional-header: under `--at` (or `simai = "REV"`) a SimAI before b83ea3d4, which
reads line 1 by position, gets no layer count from the file; why and examples in
rules/WK230.toml."""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import header_check
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.positional import read_positional
from wkparse.models.simai.tables import TRANSFORMER_POLICIES
from wkparse.models.simai.tokens import Reading


@header_check("WK230", TRANSFORMER_POLICIES)
def positional_header(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    version = ctx.simai
    if version.has("header_by_name"):
        return
    count = ctx.workload.count
    line1 = " ".join(t.text for t in r.tokens)
    data = f"{line1}\n{count.text if count is not None else ''}\n".encode()
    got = read_positional(data, version)
    if got.stop is not None and got.lines is None:
        yield Diagnostic(
            "WK230",
            _(
                "SimAI {version} reads line 1 by position: the stream fails before the layer "
                "count, which it never writes; the run aborts or hangs"
            ).format(version=version.short),
            r.header.span,
        )
        return
    if got.lines != 0:
        return
    text = got.count_text.decode("utf-8", "replace")
    where = next((t.span for t in r.tokens if text and t.text.endswith(text)), r.header.span)
    yield Diagnostic(
        "WK230",
        _(
            "SimAI {version} reads line 1 by position and takes its layer count from {token!r}: "
            "0 layers, the run aborts (index < SIZE)"
        ).format(version=version.short, token=text),
        where,
    )
