"""The explain page as a person sees it: opened from disk in a real headless Chromium.

Each page must load without a console message (no error, no blocked fetch), paint a
screenshot that is not blank and shows the pictures' colours (the marked GPU's red, the
forward blue, the backward orange), and keep the promised SVG elements once the browser has
parsed it. Needs Debian's `chromium-headless-shell` (`.ci/run` installs it on CI); outside CI
the tests skip when no Chromium is installed, on CI they fail.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from .test_explain_html import FILES, page, svgs

BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser")
#: colours of the page's stylesheet the screenshot must show (RGB)
MARKED_GPU, FORWARD, BACKWARD = (0xD6, 0x27, 0x28), (0x4C, 0x78, 0xA8), (0xF5, 0x85, 0x18)


def _browser() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI") == "true":
        pytest.fail("no headless Chromium on CI: .ci/run installs chromium-headless-shell")
    pytest.skip("no headless Chromium installed (apt-get install chromium-headless-shell)")


def _run(html: Path, tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [
        _browser(),
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        f"--user-data-dir={tmp / 'profile'}",
        "--enable-logging=stderr",
        "--v=0",
        *args,
        html.as_uri(),
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def console_messages(stderr: str) -> list[str]:
    """What the page wrote to the console (errors, failed loads), from Chromium's log."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def pixels(png: bytes) -> list[tuple[int, int, int]]:
    """The RGB pixels of an 8-bit RGB or RGBA PNG (what Chromium writes), unfiltered."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, data, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind, body = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            data += body
        pos += 12 + length
    raw = zlib.decompress(data)
    stride = width * channels
    previous = bytearray(stride)
    out: list[tuple[int, int, int]] = []
    for y in range(height):
        start = y * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        if kind == 0:
            pass
        elif kind == 2:
            row = bytearray((a + b) & 0xFF for a, b in zip(row, previous))
        else:
            _unfilter(kind, row, previous, channels)
        out += [tuple(row[i : i + 3]) for i in range(0, stride, channels)]  # type: ignore[misc]
        previous = row
    return out


def _unfilter(kind: int, row: bytearray, previous: bytearray, channels: int) -> None:
    """PNG filters 1 (sub), 3 (average) and 4 (Paeth), undone in place."""
    for i in range(len(row)):
        left = row[i - channels] if i >= channels else 0
        up = previous[i]
        if kind == 1:
            row[i] = (row[i] + left) & 0xFF
        elif kind == 3:
            row[i] = (row[i] + (left + up) // 2) & 0xFF
        else:
            corner = previous[i - channels] if i >= channels else 0
            p = left + up - corner
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
            guess = left if pa <= pb and pa <= pc else up if pb <= pc else corner
            row[i] = (row[i] + guess) & 0xFF


#: each file's English page, and the seed's Chinese one (its text in CJK fallback fonts)
PAGES = {name: (FILES[name],) for name in FILES} | {"seed-zh": (FILES["seed"], "--lang", "zh")}


@pytest.fixture(scope="module", params=sorted(PAGES))
def opened(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, str, str, bytes]:
    """(name, console log, DOM as Chromium parsed it, screenshot) of one page."""
    _browser()
    tmp = tmp_path_factory.mktemp(request.param)
    html = tmp / "report.html"
    path, *args = PAGES[request.param]
    html.write_text(page(path, *args), encoding="utf-8")
    shot = tmp / "shot.png"
    # Half scale: a quarter of the pixels to decode; large shapes keep their exact colours.
    painted = _run(
        html,
        tmp,
        "--window-size=1200,1600",
        "--force-device-scale-factor=0.5",
        f"--screenshot={shot}",
    )
    dom = _run(html, tmp, "--dump-dom")
    assert shot.is_file(), painted.stderr[-2000:]
    return request.param, painted.stderr + dom.stderr, dom.stdout, shot.read_bytes()


def test_page_renders_without_console_messages(opened: tuple[str, str, str, bytes]) -> None:
    _, log, _, _ = opened
    assert console_messages(log) == []


def test_screenshot_shows_the_pictures(opened: tuple[str, str, str, bytes]) -> None:
    _, _, _, png = opened
    seen = pixels(png)
    inked = sum(1 for p in seen if p != (255, 255, 255))
    assert inked > len(seen) // 20  # not a blank page
    colours = set(seen)
    for colour in (MARKED_GPU, FORWARD, BACKWARD):
        assert colour in colours


def test_browser_keeps_the_promised_svg_elements(opened: tuple[str, str, str, bytes]) -> None:
    name, _, dom, _ = opened
    # every picture the page was written with: four, and SimAI's bar chart when it has one
    path, *args = PAGES[name]
    written = svgs(page(path, *args))
    assert svgs(dom) == written
    assert {"layout", "schedule", "layers"} <= set(written) and written["bars"] >= 2
    assert dom.count('class="gpu this"') == 1
    assert len(re.findall(r'<rect [^>]*class="(?:fwd|bwd)"', dom)) >= 2
    if name.startswith("seed"):
        assert dom.count('class="gpu"') == 127
        assert len(re.findall(r'<rect [^>]*class="bubble"', dom)) == 7


def test_console_check_catches_a_failing_page(tmp_path: Path) -> None:
    """The harness itself: a page that logs an error is caught, so a silent pass means clean."""
    html = tmp_path / "broken.html"
    html.write_text("<!DOCTYPE html><p>x</p><script>missing()</script>", encoding="utf-8")
    log = _run(html, tmp_path, "--dump-dom").stderr
    assert any("missing is not defined" in m for m in console_messages(log))
