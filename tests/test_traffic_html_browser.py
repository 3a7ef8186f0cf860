"""The traffic heat map page as a person sees it, in headless Chromium (as
test_explain_html_browser.py does for explain): no console message, a painted heat map in the
page's colours, and every cell kept once the browser parsed the SVG."""

from __future__ import annotations

from pathlib import Path

from tests.test_explain_html_browser import _browser, _run, console_messages, pixels
from tests.test_traffic_html import moe
from wkparse.render.traffic import html

#: the server outline's stroke (#246) and the most-bytes cell's colour, hsl(5,90%,30%)
SERVER = (0x22, 0x44, 0x66)
HOTTEST = (145, 20, 8)


def test_heat_map_in_chromium(tmp_path: Path) -> None:
    _browser()
    run = moe()
    page = tmp_path / "traffic.html"
    page.write_text(html.render(run, "moe.txt"), encoding="utf-8")
    shot = tmp_path / "shot.png"
    painted = _run(page, tmp_path, "--window-size=1200,2400", f"--screenshot={shot}")
    dom = _run(page, tmp_path, "--dump-dom")
    assert console_messages(painted.stderr + dom.stderr) == []
    assert shot.is_file(), painted.stderr[-2000:]
    seen = pixels(shot.read_bytes())
    colours = set(seen)
    assert sum(1 for p in seen if p != (255, 255, 255)) > len(seen) // 50
    assert SERVER in colours
    assert any(abs(r - HOTTEST[0]) < 8 and g < 40 and b < 30 for r, g, b in colours)
    cells = page.read_text().count("class='cell'")
    assert dom.stdout.count('class="cell"') == cells > 0
