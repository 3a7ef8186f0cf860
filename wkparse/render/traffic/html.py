"""`wkparse traffic --format html`: one self-contained page (no script, no fetched resource)
with a GPU x GPU heat map of bytes per dimension and in all, servers outlined, NVSwitches
(under NVLS) after the GPUs; each cell's title gives its pair, bytes and flows."""

from __future__ import annotations

import math

from wkparse.models.simai.traffic import MODEL, TrafficRun
from wkparse.render.explain.svg import esc
from wkparse.render.traffic.words import notes, stop_line, switches

CSS = (
    "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}"
    "table{border-collapse:collapse}td,th{padding:2px 10px;border-bottom:1px solid #ddd}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "figure{margin:1em 0}figcaption{color:#555;font-size:.9em}"
    ".stop{color:#a40}.fine{color:#270}"
)
#: the heat map's side in pixels, at most
SIDE = 720


def render(run: TrafficRun, path: str) -> str:
    t = run.topology
    intra, intra_flows, inter, inter_flows = run.server_split()
    title = f"GPU traffic of {path}"
    status = "fine" if run.finished else "stop"
    out = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        f"<p>{esc(MODEL)}.</p>",
        f"<p>Topology: {t.gpus} GPUs, {t.gpus_per_server} per server, "
        f"{switches(t.nvswitches)}, {esc(t.gpu_type or '(no GPU type)')} "
        f"({esc(t.source)}).</p>",
        f"<p class='{status}'>{esc(stop_line(run))}</p>",
        *(f"<p>Note: {esc(n)}</p>" for n in notes(run)),
        "<h2 id='totals'>Totals</h2><table>",
        "<tr><th></th><th>bytes</th><th>flows</th></tr>",
        _row("all flows", run.total_bytes, run.total_flows),
        _row("GPU to GPU inside a server", intra, intra_flows),
        _row("GPU to GPU between servers", inter, inter_flows),
        *(_row(kind, b, f) for kind, (b, f) in run.by_dimension.items()),
        "</table>",
    ]
    maps = [("all dimensions", run.pairs), *list(run.pairs_by_dimension.items())]
    for name, pairs in maps:
        out.append(f"<h2 id='map-{esc(name.replace(' ', '-'))}'>Heat map: {esc(name)}</h2>")
        out.append(_figure(run, pairs, name))
    out.append("</body></html>\n")
    return "\n".join(out)


def _row(label: str, b: int, f: int) -> str:
    return f"<tr><td>{esc(label)}</td><td class='n'>{b:,}</td><td class='n'>{f:,}</td></tr>"


def _figure(run: TrafficRun, pairs: dict[tuple[int, int], list[int]], name: str) -> str:
    t = run.topology
    nodes = t.gpus
    if any(max(pair) >= t.gpus for pair, v in pairs.items() if v[1]):
        nodes = t.gpus + t.nvswitches
    cell = max(2, min(24, SIDE // max(nodes, 1)))
    side = cell * nodes
    top = max((v[0] for v in pairs.values()), default=0)
    least = min((v[0] for v in pairs.values() if v[1]), default=0)
    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{side + 2}' height='{side + 2}' "
        f"viewBox='-1 -1 {side + 2} {side + 2}' role='img' "
        f"aria-label='bytes from row node to column node, {esc(name)}'>",
        f"<rect x='0' y='0' width='{side}' height='{side}' fill='#fafafa'/>",
    ]
    for (s, d), (b, f) in sorted(pairs.items()):
        if not f:
            continue
        shade = _shade(b, least, top)
        label = f"{_node(run, s)} -> {_node(run, d)}: {b:,} B in {f:,} flows"
        parts.append(
            f"<rect class='cell' x='{d * cell}' y='{s * cell}' width='{cell}' height='{cell}' "
            f"fill='{shade}'><title>{esc(label)}</title></rect>"
        )
    per = t.gpus_per_server * cell
    for server in range(t.servers):
        at = server * per
        parts.append(
            f"<rect class='server' x='{at}' y='{at}' width='{per}' height='{per}' fill='none' "
            "stroke='#246' stroke-width='2'/>"
        )
    if nodes > t.gpus:
        edge = t.gpus * cell
        parts.append(
            f"<path d='M{edge} 0V{side}M0 {edge}H{side}' stroke='#888' stroke-dasharray='3 2'/>"
        )
    parts.append("</svg>")
    caption = (
        f"Rows send, columns receive ({nodes} nodes"
        + (", NVSwitches after the GPUs" if nodes > t.gpus else "")
        + f"); darker is more bytes (log scale from {least:,} B to {top:,} B); "
        + "blue squares are servers."
    )
    return f"<figure>{''.join(parts)}<figcaption>{esc(caption)}</figcaption></figure>"


def _node(run: TrafficRun, node: int) -> str:
    t = run.topology
    if node < t.gpus:
        return f"GPU {node} (server {t.server(node)})"
    return f"NVSwitch {node} (server {node - t.gpus})"


def _shade(value: int, least: int, top: int) -> str:
    """A colour from pale yellow (the map's least bytes) to dark red (its most), on a log
    scale between the two."""
    low, high = math.log(max(least, 1)), math.log(max(top, 1))
    share = 1.0 if high <= low else (math.log(max(value, 1)) - low) / (high - low)
    lightness = 88 - 58 * share
    hue = 50 - 45 * share
    return f"hsl({hue:.0f},90%,{lightness:.0f}%)"
