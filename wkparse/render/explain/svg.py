"""A few SVG elements as strings: enough for the explain pictures, no drawing library.

Every text goes through `esc`, so a row name or a path cannot close a tag. Numbers are
rounded to one decimal so a picture of a huge file stays small.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape


def esc(text: object) -> str:
    return escape(str(text), quote=True)


def num(x: float) -> str:
    """A coordinate: integers without a decimal point, others to one decimal."""
    r = round(x, 1)
    return str(int(r)) if r == int(r) else str(r)


def attrs(**kw: object) -> str:
    """Keyword arguments as attributes: `class_` is `class`, `_` in other names is `-`."""
    parts = []
    for key, value in kw.items():
        if value is None:
            continue
        name = "class" if key == "class_" else key.replace("_", "-")
        text = num(value) if isinstance(value, float) else esc(value)
        parts.append(f' {name}="{text}"')
    return "".join(parts)


def rect(x: float, y: float, w: float, h: float, title: str | None = None, **kw: object) -> str:
    body = f"<title>{esc(title)}</title>" if title else ""
    tag = f"<rect{attrs(x=float(x), y=float(y), width=float(max(w, 0)), height=float(h), **kw)}"
    return f"{tag}>{body}</rect>" if body else f"{tag}/>"


def text(x: float, y: float, content: str, **kw: object) -> str:
    return f"<text{attrs(x=float(x), y=float(y), **kw)}>{esc(content)}</text>"


def line(x1: float, y1: float, x2: float, y2: float, **kw: object) -> str:
    return f"<line{attrs(x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), **kw)}/>"


def group(children: Iterable[str], **kw: object) -> str:
    return f"<g{attrs(**kw)}>{''.join(children)}</g>"


def svg(width: float, height: float, children: Iterable[str], label: str, **kw: object) -> str:
    """A root <svg> sized in pixels, scaling down to its container, named for screen readers."""
    box = f"0 0 {num(width)} {num(height)}"
    head = attrs(
        viewBox=box,
        width=float(width),
        height=float(height),
        role="img",
        aria_label=label,
        **kw,
    )
    return f"<svg{head}>{''.join(children)}</svg>"
