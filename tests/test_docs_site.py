"""The documentation site (issue 39): `mkdocs build --strict` builds it in English and Chinese,
with a search index in each; every link of every page resolves (a file, and the anchor in it);
and pages of every kind, in both languages, open in a real headless Chromium with their article
drawn and no console message. Needs the `docs` extra (mkdocs-material, mkdocs-static-i18n):
without it the tests skip; Chromium as tests/test_explain_html_browser.py needs it.
"""

from __future__ import annotations

import functools
import html
import http.server
import json
import re
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tests.conftest import ROOT
from tests.test_explain_html_browser import _browser, console_messages
from wkparse.concepts import KINDS, concepts

HREF = re.compile(r"""(?:href|src)="([^"]+)\"""")
ID = re.compile(r"""\bid="([^"]+)\"""")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install '.[docs]')")
    pytest.importorskip("mkdocs_static_i18n", reason="the docs extra is not installed")
    out = tmp_path_factory.mktemp("site")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    return out


def _pages(site: Path) -> list[Path]:
    """Every page but 404.html, whose links are absolute (it is served at any path)."""
    return sorted(
        p
        for p in site.rglob("*.html")
        if "assets" not in p.relative_to(site).parts and p.name != "404.html"
    )


def test_every_concept_and_rule_has_a_page_in_both_languages(site: Path) -> None:
    for prefix in ("", "zh/"):
        for page in concepts():
            assert (site / f"{prefix}concepts/{page.id}.html").is_file()
        assert (site / f"{prefix}rules/WK209.html").is_file()
        assert (site / f"{prefix}getting-started.html").is_file()
    chinese = (site / "zh/concepts/bubble.html").read_text(encoding="utf-8")
    assert "流水线气泡" in chinese


def test_search_has_both_languages(site: Path) -> None:
    """One index (mkdocs-static-i18n builds one) that holds both languages' pages."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert set(index["config"]["lang"]) == {"en", "zh"}
    docs = index["docs"]
    assert any("pipeline" in d["text"] and not d["location"].startswith("zh/") for d in docs)
    assert any("气泡" in d["text"] and d["location"].startswith("zh/") for d in docs)


def test_every_link_resolves(site: Path) -> None:
    ids: dict[Path, set[str]] = {}
    broken = []
    for page in _pages(site):
        text = page.read_text(encoding="utf-8")
        for link in HREF.findall(text):
            parts = urlsplit(html.unescape(link))
            if parts.scheme or link.startswith("//") or link.startswith("mailto:"):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                broken.append(f"{page.relative_to(site)}: {link}")
                continue
            if parts.fragment and target.suffix == ".html":
                if target not in ids:
                    ids[target] = set(ID.findall(target.read_text(encoding="utf-8")))
                if unquote(parts.fragment) not in ids[target]:
                    broken.append(f"{page.relative_to(site)}: {link} (no such anchor)")
    assert not broken, broken[:20]


def _hand_written() -> list[str]:
    """The site's hand-written English pages (the manual among them), by file name."""
    return sorted(p.name for p in (ROOT / "docs").glob("*.md") if not p.name.endswith(".zh.md"))


def test_every_hand_written_page_is_in_the_nav_and_linked_from_the_readme() -> None:
    """The manual moved out of the README (issue 39): each page is reachable from the site's
    navigation and from the README, which the manual no longer fills."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:\n", 1)[1]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in _hand_written():
        assert re.search(rf"^\s+- [^:]+: {re.escape(name)}$", nav, re.M), name
        assert name == "index.md" or f"](docs/{name})" in readme, name
    assert len(readme.splitlines()) < 120


def test_a_page_without_its_chinese_text_is_served_in_english_under_zh(site: Path) -> None:
    """mkdocs-static-i18n's fallback: /zh/ has every page, the untranslated ones in English."""
    for name in _hand_written():
        html_name = name.removesuffix(".md") + ".html"
        assert (site / "zh" / html_name).is_file(), name
    commands = (site / "zh/commands.html").read_text(encoding="utf-8")
    assert "Exit codes" in commands and "<title>" in commands
    triage = (site / "zh/triage.html").read_text(encoding="utf-8")
    assert 'href="../triage-workflow.yml"' in triage and (site / "triage-workflow.yml").is_file()


def _sample(site: Path) -> list[Path]:
    """The pages the browser opens: the hand-written ones (in Chinese those written in Chinese
    and one shown in English), both indexes, one concept of every kind and two rules, in each
    language."""
    chosen = ["concepts/index.html", "rules/index.html"]
    chosen += [f"concepts/{concepts(kind)[0].id}.html" for kind in KINDS if concepts(kind)]
    chosen += ["rules/WK105.html", "rules/WK209.html"]
    english = [n.removesuffix(".md") + ".html" for n in _hand_written()]
    translated = (ROOT / "docs").glob("*.zh.md")
    chinese = [p.name.removesuffix(".zh.md") + ".html" for p in translated] + ["commands.html"]
    return [site / name for name in [*english, *chosen]] + [
        site / "zh" / name for name in sorted(chinese) + chosen
    ]


def test_pages_render_in_a_browser_without_a_console_message(site: Path, tmp_path: Path) -> None:
    """Each page on its own (a Chromium run takes half a second): the DOM after its scripts ran
    holds the article and its title, and the console stayed silent."""
    browser = _browser()
    failed = []
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        _open_each(browser, site, base, tmp_path, failed)
    finally:
        server.shutdown()
        server.server_close()
    assert failed == []


def _open_each(browser: str, site: Path, base: str, tmp_path: Path, failed: list[str]) -> None:
    """The site served over HTTP, as a reader gets it (its search index is fetched)."""
    for page in _sample(site):
        command = [
            browser,
            "--no-sandbox",
            "--disable-gpu",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=2000",
            "--dump-dom",
            base + page.relative_to(site).as_posix(),
        ]
        run = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        article = re.search(r"<article\b.*?</article>", run.stdout, re.S)
        name = page.relative_to(site)
        if article is None or "<h1" not in article.group(0):
            failed.append(f"{name}: no article drawn")
        failed += [f"{name}: {line}" for line in console_messages(run.stderr)]
