"""The built site in a real browser: headless Chromium follows every link.

Runs when Chromium and its driver are installed (``apt-get install chromium
chromium-driver`` on Debian) and skips otherwise; it installs nothing. It
serves the site on 127.0.0.1, opens the home page, follows the navigation and
every link of every page of the site (the rule links inside the railroad
diagrams included), and fails on a page that does not load, an anchor that is
not on its page, or an image that does not show. Screenshots of the home page,
one grammar page and the API page are saved in ``build/site-screenshots/``.
"""

from __future__ import annotations

import shutil
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urlsplit

import pytest

from tests.site.sitebuild import ROOT, serve

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SCREENSHOTS = ROOT / "build" / "site-screenshots"
#: Pages to photograph, by path on the site.
SHOTS = {"home": "", "grammar-http": "reference/grammar/http/", "api": "reference/api/"}
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
)

#: Every link of the page, resolved: HTML ``href`` and SVG ``xlink:href`` alike.
LINKS_JS = """
return Array.from(document.querySelectorAll('a')).map(a => {
  const raw = a.getAttribute('href') ?? a.getAttributeNS('http://www.w3.org/1999/xlink', 'href');
  return raw === null ? null : new URL(raw, document.baseURI).href;
}).filter(href => href !== null);
"""
BROKEN_IMAGES_JS = """
return Array.from(document.images)
  .filter(img => !(img.complete && img.naturalWidth > 0)).map(img => img.src);
"""
IDS_JS = "return Array.from(document.querySelectorAll('[id]')).map(e => e.id);"
LOADED_JS = "return [document.readyState, location.href];"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium through Selenium and the distribution's chromedriver."""
    for program in (CHROMIUM, CHROMEDRIVER):
        if not Path(program).exists():
            pytest.skip(f"{program} not installed (apt-get install chromium chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium not installed")
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def is_page(url: str) -> bool:
    """Whether a URL of the site is an HTML page (rather than a picture or a download)."""
    path = urlsplit(url).path
    return path.endswith(("/", ".html"))


def http_status(url: str) -> int:
    """The HTTP status the local server answers ``url`` with."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def page_ids(browser: Any, page: str) -> set[str]:
    """Open ``page`` and read the ids of its elements, once it is loaded and is that page."""
    browser.get(page)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        state, url = browser.execute_script(LOADED_JS)
        if state == "complete" and urldefrag(url)[0] == page:
            break
        time.sleep(0.05)
    return set(browser.execute_script(IDS_JS))


def test_site_in_chromium(browser: Any, built_site: Path) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    ids: dict[str, set[str]] = {}
    anchors: list[tuple[str, str, str]] = []  # (page, fragment, linked from)
    started = time.monotonic()
    with serve(built_site) as base:
        todo = [base]
        while todo:
            page = todo.pop()
            if page in ids:
                continue
            if http_status(page) != 200:
                problems.append(f"{page}: HTTP {http_status(page)}")
                ids[page] = set()
                continue
            ids[page] = page_ids(browser, page)
            problems += [
                f"{page}: image not shown: {src}"
                for src in browser.execute_script(BROKEN_IMAGES_JS)
            ]
            for href in browser.execute_script(LINKS_JS):
                target, fragment = urldefrag(href)
                if not target.startswith(base):
                    continue  # another site: not reachable from here, not checked
                if is_page(target):
                    todo.append(target)
                    if fragment:
                        anchors.append((target, unquote(fragment), page))
                elif http_status(target) != 200:
                    problems.append(f"{page}: broken link {href}")
        # A page whose anchors seem missing is read once more before they count
        # as missing: under load Chromium has, rarely, given the ids of a page
        # that was not the one asked for (three pages at once, in one run of the
        # whole suite); an anchor that is really missing is missing again.
        for target in sorted(
            {target for target, fragment, _ in anchors if fragment not in ids[target]}
        ):
            ids[target] = page_ids(browser, target)
        for name, path in SHOTS.items():
            browser.get(base + path)
            browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))
        http_page = base + SHOTS["grammar-http"]
        # Read up to three times, as the anchors above: under load (the whole
        # suite beside the other interpreters' runs) Chromium has, once, given
        # no diagrams for a page that has them.
        diagrams: list[float] = []
        for _ in range(3):
            browser.get(http_page)
            diagrams = browser.execute_script(
                "return Array.from(document.querySelectorAll('svg.railroad-diagram'))"
                ".map(svg => svg.getBoundingClientRect().width);"
            )
            if diagrams:
                break
    problems += [
        f"{source}: link to {target}#{fragment}: no such anchor"
        for target, fragment, source in anchors
        if fragment not in ids[target]
    ]
    assert not problems, "\n".join(sorted(set(problems)))
    grammar_pages = [page for page in ids if "/reference/grammar/" in page]
    assert len(grammar_pages) == len(list((ROOT / "grammar").glob("*.lark"))) + 1
    assert any(fragment.startswith("rule-") for _, fragment, _ in anchors)
    assert diagrams and all(width > 0 for width in diagrams)
    assert time.monotonic() - started < 60


#: docs/security.md: what a WHATWG parser makes of hosts with leading zeros.
WHATWG_HOSTS = {
    "http://1.2.3.08/": None,
    "http://09.2.3.4/": None,
    "http://0177.0.0.1/": "127.0.0.1",
}
URL_HOST_JS = """
return arguments[0].map(u => { try { return new URL(u).host; } catch (e) { return null; } });
"""


def test_chromium_reads_a_leading_zero_as_octal(browser: Any) -> None:
    hosts = browser.execute_script(URL_HOST_JS, list(WHATWG_HOSTS))
    assert dict(zip(WHATWG_HOSTS, hosts, strict=True)) == WHATWG_HOSTS
