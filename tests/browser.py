"""A real headless Chromium for the tests of the HTML replay viewer, driven through Selenium.

Why Selenium with Debian's ``chromium`` and ``chromium-driver`` packages rather than
Playwright: Playwright drives a browser build of its own, which ``playwright install`` downloads
from a CDN at set-up time; a CI machine that reaches only package registries cannot fetch it,
and the distribution's Chromium is not a build Playwright supports. The two Debian packages are
built from one source and always carry matching versions, so the driver never disagrees with
the browser, and apt (already used for bubblewrap) installs both. Selenium itself is a plain
pip package; with the driver's path given it never tries to download a driver either
(Selenium Manager is skipped). Everything a test needs beyond WebDriver (the network log, exact
viewport sizes) comes from the Chrome DevTools Protocol, which Chromium's driver exposes.

One browser serves the whole session (starting Chromium costs a second or more); each test
loads its own page. The browser is started with the performance log on, so the DevTools
``Network`` events of every page load are kept and a test can check that a page made no
request. At the end of the session the driver and every browser process are stopped, and
their absence is checked, as the suite checks for bot processes.

A missing Chromium, driver or ``selenium`` package is a test failure with the command that
installs it, never a skip: these tests are part of the suite.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest

WIDTH, HEIGHT = 1280, 800
"""The desktop window every test page is opened in."""
PHONE = (390, 844)
"""A phone's viewport in CSS pixels (an iPhone 12 to 15)."""
BROWSER_MARKS = ("chromedriver", "chromium", "chrome_crashpad")
"""Command-line marks of the processes the browser starts."""
INSTALL = ("apt-get update && apt-get install -y chromium chromium-driver "
           "(Debian packages), and pip install -e '.[test]' for selenium; .ci/run does both")


def find_programs() -> tuple[str, str]:
    """The paths of Chromium and its driver, or a test failure that says how to install them."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    missing = [name for name, path in (("chromium", browser), ("chromedriver", driver)) if path is None]
    if missing:
        pytest.fail(f"the viewer's browser tests need {' and '.join(missing)} on PATH: {INSTALL}", pytrace=False)
    assert browser is not None and driver is not None
    return browser, driver


class Browser:
    """One headless Chromium, with what the viewer's tests ask of it."""

    def __init__(self, driver: Any, profile: str) -> None:
        self.driver = driver
        self.profile = profile

    # -- pages ----------------------------------------------------------------------------------

    def open(self, page: Path | str, fragment: str = "") -> str:
        """Load a page (a file, or a URL) afresh, with ``fragment`` (``#m=0&s=3``) if given,
        and return its URL. The network and console logs start empty for it."""
        url = page.resolve().as_uri() if isinstance(page, Path) else page
        self.driver.get("about:blank")  # a new document even when only the fragment differs
        self.drain()
        self.driver.get(url + fragment)
        return url

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def keys(self, *keys: str) -> None:
        """Press keys as a user does, with nothing focused (so they go to the page itself)."""
        from selenium.webdriver.common.action_chains import ActionChains

        self.js("if (document.activeElement) document.activeElement.blur()")
        chain = ActionChains(self.driver)
        for key in keys:
            chain.send_keys(key)
        chain.perform()

    # -- logs -----------------------------------------------------------------------------------

    def drain(self) -> None:
        """Forget what the logs hold so far."""
        self.driver.get_log("performance")
        self.driver.get_log("browser")

    def requests(self) -> list[str]:
        """The URLs the pages asked for since the last :meth:`open` (DevTools
        ``Network.requestWillBeSent`` events, the page itself included)."""
        urls = []
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Network.requestWillBeSent":
                urls.append(message["params"]["request"]["url"])
        return urls

    def console_errors(self) -> list[str]:
        """Errors the page wrote to the console or threw since the last :meth:`open`."""
        return [e["message"] for e in self.driver.get_log("browser") if e.get("level") == "SEVERE"]

    # -- sizes and pictures ----------------------------------------------------------------------

    def viewport(self, width: int, height: int, mobile: bool = False) -> None:
        """Lay the page out for exactly this viewport (CSS pixels at a device pixel ratio of 1)."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile,
        })

    def desktop(self) -> None:
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        self.viewport(WIDTH, HEIGHT)

    def screenshot(self, path: Path) -> None:
        """What the viewport shows, as a PNG."""
        path.write_bytes(self.driver.get_screenshot_as_png())

    def sticking_out(self, width: int = PHONE[0]) -> list[str]:
        """What reaches past ``width`` (a phone's) outside the tables' own scrolling boxes
        (``.scroll``), named so that a failure says which element widened the page. One
        definition for every page's width test, so that they all hold the pages to one rule."""
        return list(self.js(
            "return Array.from(document.querySelectorAll('body *'))"
            ".filter(e => e.getBoundingClientRect().right > arguments[0] && !e.closest('.scroll'))"
            ".slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)"
            " + 'px: ' + (e.textContent || '').slice(0, 60))", width))

    def docs_screenshot(self, name: str) -> None:
        """Write ``arena-<name>.png`` into the folder ``CARDCLI_ARENA_SCREENSHOTS`` names (relative
        to the repository: ``docs`` for the screenshots of docs/arena.md), and nothing when it is
        unset, so that the tests that open the pages also take their pictures."""
        from conftest import ROOT

        folder = os.environ.get("CARDCLI_ARENA_SCREENSHOTS")
        if folder:
            self.screenshot((ROOT / folder if not Path(folder).is_absolute() else Path(folder)) / f"arena-{name}.png")


def start(*extra: str) -> Browser:
    """Start headless Chromium through its driver, with the performance log on (and the
    command-line switches ``extra``)."""
    browser_path, driver_path = find_programs()
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.fail(f"the viewer's browser tests need the selenium package: {INSTALL}", pytrace=False)
    profile = tempfile.mkdtemp(prefix="cardcli-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser_path
    for arg in (
        "--headless=new",
        f"--window-size={WIDTH},{HEIGHT}",
        f"--user-data-dir={profile}",
        "--disable-dev-shm-usage",  # containers give /dev/shm 64 MB, too little for a renderer
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-background-networking",  # no update or safe-browsing traffic in the network log
        "--disable-component-update",
        "--disable-sync",
        "--disable-breakpad",
        "--hide-scrollbars",
        "--force-color-profile=srgb",
        "--font-render-hinting=none",
        *extra,
    ):
        options.add_argument(arg)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses to start its sandbox as root
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True, "enablePage": False})
    try:
        driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    except Exception as err:
        shutil.rmtree(profile, ignore_errors=True)
        pytest.fail(f"Chromium did not start ({browser_path}, {driver_path}): {err}", pytrace=False)
    driver.set_script_timeout(60)
    driver.set_page_load_timeout(120)
    browser = Browser(driver, profile)
    browser.viewport(WIDTH, HEIGHT)
    return browser


def stop(browser: Browser, before: set[str]) -> list[str]:
    """Stop the driver and the browser; return (after killing them) the browser processes
    that were still alive a few seconds later."""
    from conftest import wait_until_gone

    try:
        browser.driver.quit()
    finally:
        left = wait_until_gone(before, BROWSER_MARKS, seconds=10)
        for line in left:
            try:
                os.kill(int(line.split(":", 1)[0]), signal.SIGKILL)
            except (ProcessLookupError, ValueError):
                pass
        shutil.rmtree(browser.profile, ignore_errors=True)
    return left


def session() -> Iterator[Browser]:
    """The body of a session fixture: one headless Chromium at 1280×800 for the whole session,
    stopped at its end, and checked gone (with every process it started)."""
    from conftest import live_processes

    before = set(live_processes(BROWSER_MARKS))
    chromium = start()
    yield chromium
    left = stop(chromium, before)
    assert not left, f"browser processes left running after the driver quit (killed now): {left}"
