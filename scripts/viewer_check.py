#!/usr/bin/env python3
"""Drive the viewer in headless Chromium (Debian's chromium + chromedriver, python3-selenium) and
check what a person would see: tiles load without errors, the layer list names a cut tileset and a
layer rendered on demand, no GCP callout is open until a pin is hovered, then exactly one, which
reads as a person writes distances; a click opens one popup. Screenshots go to OUTDIR.
On-demand tiles are counted by their layer's id in the tile URLs (ONDEMAND_ID, default schagen1689).
Each callout's residual is the distance the server's TileJSON gives that GCP (`residual_m`), as a
person writes it; "n/a" is a failure. Each ID=FOLDER,OFF,PSNR names a tile folder the layer ID must show:
in a view at a whole zoom (2), with the other layers, the pins and the controls hidden, the
screenshot where a tile of layer ID lies is compared with FOLDER's tile of the same z/x/y, over the
pixels opaque in FOLDER's tile (GDAL reads both PNGs): at most the share OFF of them may be more
than 2 levels off in a channel, and their PSNR must be at least PSNR dB.
With TEGULA_SCREENSHOT_DIR set, the fitted view is also saved there as viewer.png (the README's
picture, docs/images/viewer.png); what is checked does not change.
Usage: viewer_check.py URL OUTDIR [ONDEMAND_ID [ID=FOLDER,OFF,PSNR ...]]"""
import json
import math
import os
import re
import sys
import time
import urllib.request


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from screen_compare import compare, rgba  # noqa: E402  (beside this script)
from viewer_distance import person_distance  # noqa: E402  (beside this script)
from browser_check import Checks, chromium  # noqa: E402  (beside this script)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

url, out = sys.argv[1], sys.argv[2]
ondemand = sys.argv[3] if len(sys.argv) > 3 else "schagen1689"
pyramids = {a.split("=", 1)[0]: a.split("=", 1)[1].rsplit(",", 2) for a in sys.argv[4:]}
shots = os.environ.get("TEGULA_SCREENSHOT_DIR")
driver = chromium()
check = Checks()
failures = check.failures


# Shows only the tiles of layer arguments[0] (all layers when null): the other tile layers, the
# footprint, sheet outlines, pins, callouts and controls hidden, so the screen under a tile is that tile alone.
SHOW_ONLY = """
    var id = arguments[0] === null ? null : '/' + arguments[0] + '/', hide = id === null ? '' : 'hidden';
    document.querySelectorAll('img.leaflet-tile').forEach(function (i) {
        i.style.visibility = id === null || i.src.indexOf(id) >= 0 ? '' : 'hidden'; });
    ['.leaflet-overlay-pane', '.leaflet-tegulaSheets-pane', '.leaflet-marker-pane', '.leaflet-shadow-pane', '.leaflet-tooltip-pane',
     '.leaflet-popup-pane', '.leaflet-control-container'].forEach(function (s) {
        document.querySelectorAll(s).forEach(function (e) { e.style.visibility = hide; }); });
    return window.devicePixelRatio;"""


def compare_with_pyramid(layer, folder):
    """The screenshot against FOLDER's tiles where layer LAYER's tiles lie: (tiles, pixels, off, psnr)."""
    ratio = driver.execute_script(SHOW_ONLY, layer)
    time.sleep(0.3)
    placed = driver.execute_script("""
        var id = '/' + arguments[0] + '/';
        return Array.from(document.querySelectorAll('img.leaflet-tile')).filter(function (i) {
            return i.src.indexOf(id) >= 0 && i.complete && i.naturalWidth === 256; }).map(function (i) {
            var r = i.getBoundingClientRect(); return [i.src, r.left, r.top, r.width, r.height]; });""", layer)
    shot = os.path.join(out, "viewer-pixels-%s.png" % layer)
    driver.save_screenshot(shot)
    screen = rgba(shot)
    placements = []
    for src, left, top, width, height in placed:
        z, x, y = re.search(r"/(\d+)/(\d+)/(\d+)\.png", src).groups()
        check(ratio == 1 and width == 256 and height == 256 and left == int(left) and top == int(top),
              "tile %s/%s/%s of %s is drawn 1:1 on whole pixels (ratio %s, %s × %s at %s, %s)" % (z, x, y, layer, ratio, width, height, left, top))
        left, top = int(left), int(top)
        if left < 0 or top < 0 or left + 256 > screen.shape[1] or top + 256 > screen.shape[0]:
            continue
        placements.append({"z": int(z), "x": int(x), "y": int(y), "left": left, "top": top,
                           "seen": [left, top, left + 256, top + 256]})
    c = compare(screen, placements, folder)
    driver.execute_script(SHOW_ONLY, None)
    return c["tiles"], c["pixels"], c["off"], c["psnr"]


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
        driver.save_screenshot(out + "/viewer-hover.png")
        # Every pin's callout against the server's TileJSON: the GCP's residual, written as a person
        # writes distances (never "n/a": each pin of a fitted scan has one).
        tilejson = json.load(urllib.request.urlopen(url.rstrip("/") + "/" + ondemand + ".json", timeout=30))
        residual = {g["name"]: g.get("residual_m") for g in tilejson.get("gcps", [])}
        wrong = []
        for pin in pins:
            ActionChains(driver).move_to_element(pin).perform()
            time.sleep(0.15)
            shown = tips()
            lines = shown[0].text.split("\n") if len(shown) == 1 else ["?", "?"]
            m = residual.get(lines[0])
            want = "residual " + person_distance(m) if isinstance(m, (int, float)) and math.isfinite(m) else "a residual in the TileJSON"
            if lines[-1] != want:
                wrong.append("%s: %r, want %r" % (lines[0], lines[-1], want))
        check(len(pins) == len(residual) and not wrong,
              "each of the %d callouts reads the TileJSON's residual as a person writes distances (%d GCPs there): %s"
              % (len(pins), len(residual), wrong[:3]))
        ActionChains(driver).move_to_element(pins[-1]).click().perform()
        time.sleep(0.5)
        popups = driver.find_elements(By.CSS_SELECTOR, ".leaflet-popup")
        check(len(popups) == 1, "clicking a pin opens one popup (%d)" % len(popups))
    driver.get(url + "?lat=30&lon=0&z=1")
    check(settle(), "every tile of the zoomed-out view loaded")
    driver.save_screenshot(out + "/viewer-zoomed-out.png")
    n = rendered()
    check(n >= 1, "tiles of the on-demand layer loaded in the zoomed-out view (%d)" % n)
    for layer, (folder, max_off, min_psnr) in sorted(pyramids.items()):
        driver.get(url + "?lat=0&lon=0&z=2")
        check(settle(), "every tile of the zoom-2 view loaded")
        tiles, pixels, off, psnr = compare_with_pyramid(layer, folder)
        check(tiles >= 2 and pixels >= 20000 and off <= float(max_off) * pixels and psnr >= float(min_psnr),
              "the screen shows %s's pyramid tiles: %d tiles, %d opaque px, %d off by more than 2 levels (%.5f, at most %s), "
              "PSNR %.2f dB (at least %s)" % (layer, tiles, pixels, off, off / max(1, pixels), max_off, psnr, min_psnr))
    check(driver.execute_script("return window.tileErrors || 0") == 0, "no tile failed to load")
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    check(not errors, "no console errors: %s" % errors[:3])
finally:
    driver.quit()
print("viewer_check: screenshots in %s; %s" % (out, "FAILED: " + "; ".join(failures) if failures else "all checks passed"))
sys.exit(1 if failures else 0)
