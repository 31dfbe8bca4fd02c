"""What the browser checks share (scripts/viewer_check.py, sheet_index_check.py, editor_check.py,
ties_check.py): headless Chromium from Debian's chromium and chromium-driver packages, driven by
python3-selenium, and the "ok"/"FAIL" lines whose failures set the exit status."""
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def chromium(width=1200, height=800):
    """Headless Chromium at a window of width×height, keeping the page's console log."""
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=%d,%d" % (width, height)):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


class Checks:
    """`check(ok, what)` prints one line per check; `check.failures` lists the failed ones."""

    def __init__(self):
        self.failures = []

    def __call__(self, ok, what):
        print(("ok   " if ok else "FAIL ") + what, flush=True)
        if not ok:
            self.failures.append(what)


def wait(cond, timeout=30):
    """cond()'s first true value within timeout seconds, polled every 0.1 s; else its last."""
    end = time.time() + timeout
    while time.time() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.1)
    return cond()
