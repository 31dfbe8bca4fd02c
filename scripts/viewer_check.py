#!/usr/bin/env python3
"""Drive the viewer in headless Chromium (Debian's chromium + chromedriver, python3-selenium) and
check what a person would see: tiles load without errors, the layer list names a cut tileset and a
layer rendered on demand, no GCP callout is open until a pin is hovered, then exactly one, which
reads as a person writes distances; a click opens one popup. Screenshots go to OUTDIR.
On-demand tiles are counted by their layer's id in the tile URLs (ONDEMAND_ID, default schagen1689).
With TEGULA_SCREENSHOT_DIR set, the fitted view is also saved there as viewer.png (the README's
picture, docs/images/viewer.png); what is checked does not change.
Usage: viewer_check.py URL OUTDIR [ONDEMAND_ID]"""
import os
import re
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

url, out = sys.argv[1], sys.argv[2]
ondemand = sys.argv[3] if len(sys.argv) > 3 else "schagen1689"
shots = os.environ.get("TEGULA_SCREENSHOT_DIR")
opts = webdriver.ChromeOptions()
opts.binary_location = "/usr/bin/chromium"
for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,800"):
    opts.add_argument(flag)
opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def settle(timeout=60):
    """Wait until Leaflet has loaded every tile it asked for (Leaflet #8987: `load` fires early)."""
    end = time.time() + timeout
    while time.time() < end:
        done = driver.execute_script("""
            if (!window.tegulaReady) return false;
            var imgs = Array.from(document.querySelectorAll('img.leaflet-tile'));
            // Loaded, decoded, and done fading in (Leaflet animates each new tile's opacity).
            return imgs.length > 0 && imgs.every(function (i) {
                return i.complete && i.naturalWidth > 0 && getComputedStyle(i).opacity === '1'; });""")
        if done:
            return True
        time.sleep(0.2)
    return False


try:
    driver.get(url)
    driver.execute_script("window.tileErrors = 0; document.addEventListener('error', function (e) {"
                          " if (e.target.classList && e.target.classList.contains('leaflet-tile')) window.tileErrors++; }, true);")
    check(settle(), "every tile of the fitted view loaded")
    rendered = lambda: driver.execute_script("""
        var id = '/' + arguments[0] + '/';
        return Array.from(document.querySelectorAll('img.leaflet-tile')).filter(function (i) {
            return i.src.indexOf(id) >= 0 && i.complete && i.naturalWidth === 256; }).length;""", ondemand)
    n = rendered()
    check(n >= 4, "tiles of the on-demand layer %r loaded, 256 px wide (%d)" % (ondemand, n))
    layers = driver.find_element(By.CSS_SELECTOR, ".leaflet-control-layers").text
    check("rendered on demand" in layers, "the layer list says which layer is rendered on demand: %r" % layers)
    check("cut tileset" in layers, "the layer list says which layer is a cut tileset")
    tips = lambda: [t for t in driver.find_elements(By.CSS_SELECTOR, ".leaflet-tooltip.tegula-gcp") if t.is_displayed()]
    check(len(tips()) == 0, "no GCP callout is open before a pin is hovered (was %d)" % len(tips()))
    driver.save_screenshot(out + "/viewer-fitted.png")
    if shots:
        os.makedirs(shots, exist_ok=True)
        driver.save_screenshot(os.path.join(os.path.abspath(shots), "viewer.png"))
        print("viewer_check: saved %s" % os.path.join(os.path.abspath(shots), "viewer.png"))
    pins = [p for p in driver.find_elements(By.CSS_SELECTOR, "path.leaflet-interactive") if p.get_attribute("fill") == "#e6194b"]
    check(len(pins) >= 3, "GCP pins are drawn (%d)" % len(pins))
    if pins:
        ActionChains(driver).move_to_element(pins[0]).perform()
        time.sleep(0.5)
        shown = tips()
        check(len(shown) == 1, "hovering a pin opens exactly one callout (%d)" % len(shown))
        text = shown[0].text if shown else ""
        check(re.search(r"residual (\d{1,3}(,\d{3})* km|\d+\.\d km|\d+ m|n/a)$", text) is not None,
              "the callout reads as a person writes distances: %r" % text)
        driver.save_screenshot(out + "/viewer-hover.png")
        ActionChains(driver).move_to_element(pins[-1]).click().perform()
        time.sleep(0.5)
        popups = driver.find_elements(By.CSS_SELECTOR, ".leaflet-popup")
        check(len(popups) == 1, "clicking a pin opens one popup (%d)" % len(popups))
    driver.get(url + "?lat=30&lon=0&z=1")
    check(settle(), "every tile of the zoomed-out view loaded")
    driver.save_screenshot(out + "/viewer-zoomed-out.png")
    n = rendered()
    check(n >= 1, "tiles of the on-demand layer loaded in the zoomed-out view (%d)" % n)
    check(driver.execute_script("return window.tileErrors || 0") == 0, "no tile failed to load")
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    check(not errors, "no console errors: %s" % errors[:3])
finally:
    driver.quit()
print("viewer_check: screenshots in %s; %s" % (out, "FAILED: " + "; ".join(failures) if failures else "all checks passed"))
sys.exit(1 if failures else 0)
