"""What the browser checks share (scripts/viewer_check.py, sheet_index_check.py, editor_check.py,
suggest_check.py, ties_check.py): headless Chromium from Debian's chromium and chromium-driver packages, driven by
python3-selenium, and the "ok"/"FAIL" lines whose failures set the exit status."""
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


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


def click_at(driver, check, map_id, point):
    """A real click at a container point of the map #map_id (Selenium offsets are from the
    element's centre); a point out of view fails a check rather than clicking elsewhere."""
    el = driver.find_element(By.ID, map_id)
    inside = 0 <= point["x"] < el.size["width"] and 0 <= point["y"] < el.size["height"]
    if not inside:
        check(inside, "the point to click is in view on #%s: %s in %s" % (map_id, point, el.size))
    ActionChains(driver).move_to_element_with_offset(el, point["x"] - el.size["width"] / 2,
                                                     point["y"] - el.size["height"] / 2).click().perform()


def ctrl(driver, key, shift=False):
    """Ctrl+key (Ctrl+Shift+key when shift), as undo and redo are typed."""
    chain = ActionChains(driver).key_down(Keys.CONTROL)
    if shift:
        chain = chain.key_down(Keys.SHIFT)
    chain = chain.send_keys(key)
    if shift:
        chain = chain.key_up(Keys.SHIFT)
    chain.key_up(Keys.CONTROL).perform()
