#!/usr/bin/env python3
"""Drive `tegula edit` in headless Chromium (Debian's chromium + chromedriver, python3-selenium) as
a person would: place pairs by clicking the scan and the map, watch the residual table fill, drag a
point, undo and redo, type into fields, open the help, draw a mask, switch to the overlay and see
warped tiles load, save. Writes the fit and session the page ended with (fit.json, session.json)
and screenshots (editor-side.png, editor-overlay.png, editor-restored.png) to OUTDIR. With
TEGULA_SCREENSHOT_DIR set, the side-by-side view of the edit phase (eight pairs, residuals, the
table) is also saved there as editor.png (the README's picture, docs/images/editor.png); what is
checked does not change.

The residual table is checked against the API: every figure of every row as the server's
/api/fit gives it for the page's session, to the digits the table shows. In overlay mode, at a whole
zoom with the basemap, markers and controls hidden, the screen under each warped tile is saved with
the tile's z/x/y (OUTDIR/overlay-screen.png, OUTDIR/overlay-tiles.json) for the caller to compare
with `tegula tile`'s tiles of the saved annotation.

In the scan phase the scan pane alone is checked: its tiles come from the editor's IIIF service
(/iiif/{id}/{x},{y},{w},{h}/{W},{H}/0/default.jpg), and at zoom maxzoom (one scan pixel per screen
pixel), centred on scan pixel X, Y with markers and controls hidden, the screen is saved
(OUTDIR/scan-screen.png) with where scan pixel (0, 0) lies on it and the part of the pane the scan
fills (OUTDIR/scan-tiles.json, one placement in screen_compare.py's form) for the caller to
compare with the scan's own pixels.

Usage: editor_check.py URL OUTDIR edit POINTS   (POINTS: a QGIS .points file to take pairs from)
       editor_check.py URL OUTDIR restored      (the page must show OUTDIR/session.json again)
       editor_check.py URL OUTDIR scan X Y      (the scan pane at 1:1 around scan pixel X, Y)"""
import json
import math
import os
import re
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check  # noqa: E402  (beside this script)
from browser_check import Checks, chromium, wait  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

url, out, phase = sys.argv[1], sys.argv[2], sys.argv[3]
shots = os.environ.get("TEGULA_SCREENSHOT_DIR")
driver = chromium(1400, 950)
check = Checks()
failures = check.failures


def js(script, *args):
    return driver.execute_script(script, *args)


def settled():
    """The last fit has come back."""
    return wait(lambda: js("return window.tegulaReady && !tegulaEditor.fitting"))


def click_at(map_id, point):
    browser_check.click_at(driver, check, map_id, point)


def click_scan(pixel):
    click_at("scan", js("return tegulaEditor.scanPoint(arguments[0])", pixel))


def click_ground(lonlat):
    click_at("ground", js("return tegulaEditor.groundPoint(arguments[0])", lonlat))


def rows():
    return driver.find_elements(By.CSS_SELECTOR, "#gcp-table tbody tr")


def cell(gid, cls):
    return js("var r = document.querySelector('#gcp-table tr[data-id=\"' + arguments[0] + '\"] .' + arguments[1]);"
              " return r ? r.textContent : null;", gid, cls)


def press(*keys):
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(*keys)


def ctrl(key, shift=False):
    browser_check.ctrl(driver, key, shift)


def session():
    return js("return tegulaEditor.session")


def tiles_loaded(selector):
    return js("return Array.from(document.querySelectorAll(arguments[0] + ' img.leaflet-tile')).filter(function (i) {"
              " return i.complete && i.naturalWidth > 0; }).length", selector)


try:
    driver.get(url)
    check(bool(wait(lambda: js("return window.tegulaReady === true"))), "the editor page loaded")
    check(wait(lambda: tiles_loaded(".scan-tiles") > 0), "scan tiles load (%d)" % tiles_loaded(".scan-tiles"))
    if phase != "scan":
        check(wait(lambda: tiles_loaded(".basemap-tiles") > 0), "local basemap tiles load (%d)" % tiles_loaded(".basemap-tiles"))

    if phase == "scan":
        cfg = js("return JSON.parse(document.getElementById('config').textContent)")
        js("tegulaEditor.maps.scan.setView(tegulaEditor.scanLatLng([arguments[0], arguments[1]]), arguments[2], { animate: false })",
           float(sys.argv[4]), float(sys.argv[5]), cfg["maxzoom"])
        # Every tile on the pane is a full-resolution one (its IIIF size equals its region), loaded and faded in.
        full = """var imgs = Array.from(document.querySelectorAll('.scan-tiles img.leaflet-tile'));
            return imgs.length > 0 && imgs.every(function (i) {
                var m = /\\/(\\d+),(\\d+),(\\d+),(\\d+)\\/(\\d+),(\\d+)\\/0\\/default\\.jpg$/.exec(i.src);
                return m && m[3] === m[5] && m[4] === m[6] && i.complete && i.naturalWidth > 0 && getComputedStyle(i).opacity === '1'; });"""
        check(bool(wait(lambda: js(full), 60)), "the pane shows full-resolution IIIF tiles only at zoom %d" % cfg["maxzoom"])
        srcs = js("return Array.from(document.querySelectorAll('.scan-tiles img.leaflet-tile')).map(function (i) { return i.src; })")
        service = url.rstrip("/") + cfg["iiif"] + "/"
        check(len(srcs) >= 4 and all(s.startswith(service) for s in srcs),
              "every scan tile is read from the editor's IIIF service %s (%d tiles): %s" % (service, len(srcs), srcs[:2]))
        time.sleep(0.5)
        placed = js("""
            ['.leaflet-overlay-pane', '.leaflet-marker-pane', '.leaflet-shadow-pane', '.leaflet-tooltip-pane',
             '.leaflet-popup-pane', '.leaflet-control-container'].forEach(function (s) {
                document.querySelectorAll('#scan ' + s).forEach(function (e) { e.style.visibility = 'hidden'; }); });
            var el = document.getElementById('scan'), r = el.getBoundingClientRect(), c = JSON.parse(document.getElementById('config').textContent);
            var o = tegulaEditor.scanPoint([0, 0]), left = r.left + el.clientLeft + o.x, top = r.top + el.clientTop + o.y;
            var x0 = r.left + el.clientLeft, y0 = r.top + el.clientTop;
            return { ratio: window.devicePixelRatio, left: left, top: top,
                     seen: [Math.max(x0, left), Math.max(y0, top), Math.min(x0 + el.clientWidth, left + c.width, window.innerWidth),
                            Math.min(y0 + el.clientHeight, top + c.height, window.innerHeight)] };""")
        driver.save_screenshot(out + "/scan-screen.png")
        left, top = int(round(placed["left"])), int(round(placed["top"]))
        seen = [max(left, int(math.ceil(placed["seen"][0]))), max(top, int(math.ceil(placed["seen"][1]))),
                int(placed["seen"][2]), int(placed["seen"][3])]
        json.dump({"ratio": placed["ratio"], "tiles": [{"z": 0, "x": 0, "y": 0, "left": left, "top": top, "seen": seen,
                                                        "offset": [placed["left"] - left, placed["top"] - top]}]},
                  open(out + "/scan-tiles.json", "w"), indent=1)
        check(placed["ratio"] == 1 and seen[2] - seen[0] >= 256 and seen[3] - seen[1] >= 256,
              "the scan fills at least 256 × 256 px of the pane at 1:1 (%s, ratio %s)" % (seen, placed["ratio"]))
    elif phase == "edit":
        pairs = []
        for line in open(sys.argv[4]):
            f = line.strip().split(",")
            if len(f) >= 9 and f[0][:1] in "-0123456789":
                pairs.append(([float(f[2]), -float(f[3])], [float(f[0]), float(f[1])], f[8]))
        wanted = ["Cape of Good Hope", "Cape Horn", "Cape Farewell", "Cabo San Lucas", "Cape Comorin",
                  "Strait of Gibraltar", "Cabo Branco", "Cape Race"]
        chosen = [p for name in wanted for p in pairs if p[2] == name]
        check(len(rows()) == 0, "a new session starts with no points")
        for i, (pixel, ground, name) in enumerate(chosen[:7]):
            if i == 3:  # either side first
                click_ground(ground)
                check(wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#ground .gcp.pending")), "a half-placed point is highlighted")
                click_scan(pixel)
            else:
                click_scan(pixel)
                click_ground(ground)
            settled()
        check(len(rows()) == 7, "seven pairs placed by clicks (%d rows)" % len(rows()))
        filled = [cell(r.get_attribute("data-id"), "rpx") for r in rows()]
        check(all(t not in (None, "", "–") for t in filled), "the residual table is filled: %s" % filled)
        check(js("return tegulaEditor.fit && tegulaEditor.fit.gcps.length") == 7, "the fit covers the seven points")
        # A predicted twin: click the scan only, accept with Enter.
        pixel, ground, name = chosen[7]
        click_scan(pixel)
        check(wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#ground .gcp.predicted")), "the twin of a half-placed point is predicted")
        press(Keys.ENTER)
        settled()
        check(len(rows()) == 8, "Enter accepts the predicted twin (%d rows)" % len(rows()))

        # The table against the API: the page's session fitted by /api/fit, each figure to the
        # digits the table shows (dx, dy 1 decimal; residual px 2; residual and leave-one-out m 0).
        request = urllib.request.Request(url.rstrip("/") + "/api/fit", data=json.dumps(session()).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        api = json.load(urllib.request.urlopen(request, timeout=60))
        shown = js("""return Array.from(document.querySelectorAll('#gcp-table tbody tr')).map(function (tr) {
            var t = function (c) { return tr.querySelector('.' + c).textContent; };
            return [tr.getAttribute('data-id'), t('dx'), t('dy'), t('rpx'), t('rm'), t('loo')]; });""")

        def digits(v, d):
            return "–" if v is None else "%.*f" % (d, v)
        want = [[g["id"], digits(g.get("dx_px"), 1), digits(g.get("dy_px"), 1), digits(g.get("residual_px"), 2),
                 digits(g.get("residual_m"), 0), digits(g.get("loo_m"), 0)] for g in api["gcps"]]
        check(len(want) == 8 and sorted(shown) == sorted(want) and all(v != "–" for r in want for v in r[1:5]),
              "the residual table shows /api/fit's figures for its session: %s vs %s"
              % ([r for r in shown if r not in want][:2], [r for r in want if r not in shown][:2]))

        # Drag a point on the scan: its residual changes; undo and redo.
        gid = "p2"
        before_px = session()["gcps"][1]["pixel"]
        before_r = cell(gid, "rpx")
        marker = driver.find_element(By.CSS_SELECTOR, "#scan .gcp[data-id='%s']" % gid)
        ActionChains(driver).click_and_hold(marker).move_by_offset(10, 5).move_by_offset(20, 10).release().perform()
        settled()
        after_px = session()["gcps"][1]["pixel"]
        after_r = cell(gid, "rpx")
        check(after_px != before_px, "dragging moved the point: %s -> %s" % (before_px, after_px))
        check(after_r != before_r, "its residual changed: %s -> %s px" % (before_r, after_r))
        press(Keys.ESCAPE)
        ctrl("z")
        settled()
        check(session()["gcps"][1]["pixel"] == before_px and cell(gid, "rpx") == before_r,
              "Ctrl+Z undid the move (%s, %s px)" % (session()["gcps"][1]["pixel"], cell(gid, "rpx")))
        ctrl("z", shift=True)
        settled()
        check(session()["gcps"][1]["pixel"] == after_px and cell(gid, "rpx") == after_r, "Ctrl+Shift+Z redid it")

        # Enable/disable with e; remove by right-click and by Delete; change the transform; undo each.
        def ids():
            return [g["id"] for g in session()["gcps"]]

        def fig(gid):
            return js("var id = arguments[0]; return (tegulaEditor.fit.gcps.filter(function (g) { return g.id === id; })[0] || {})", gid)

        driver.find_element(By.CSS_SELECTOR, "#scan .gcp[data-id='p4']").click()
        press("e")
        settled()
        check(session()["gcps"][3]["enabled"] is False and fig("p4").get("enabled") is False
              and "disabled" in driver.find_element(By.CSS_SELECTOR, "#gcp-table tr[data-id='p4']").get_attribute("class"),
              "e disabled the selected point: the fit leaves it out and the table greys it (selected %s, enabled %s, fit %s)"
              % (js("return tegulaEditor.selected"), session()["gcps"][3]["enabled"], fig("p4")))
        ctrl("z")
        settled()
        check(session()["gcps"][3]["enabled"] is True and fig("p4").get("enabled") is True, "undo enabled it again")
        ActionChains(driver).context_click(driver.find_element(By.CSS_SELECTOR, "#ground .gcp[data-id='p6']")).perform()
        settled()
        check("p6" not in ids() and len(rows()) == 7, "a right-click removed p6")
        driver.find_element(By.CSS_SELECTOR, "#scan .gcp[data-id='p7']").click()
        press(Keys.DELETE)
        settled()
        check("p7" not in ids() and len(rows()) == 6, "Delete removed the selected p7")
        ctrl("z")
        ctrl("z")
        settled()
        check(ids() == ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"], "two undos brought both back in place: %s" % ids())
        Select(driver.find_element(By.ID, "transform")).select_by_value("tps")
        settled()
        codes = [li.get_attribute("data-code") for li in driver.find_elements(By.CSS_SELECTOR, "#warnings li")]
        check(js("return tegulaEditor.fit.transform") == "tps" and "tps_interpolates" in codes,
              "choosing tps refits with tps and says its residuals are zero by construction: %s" % codes)
        check(cell("p1", "rpx") == "0.00" and cell("p1", "loo") not in ("", "–"), "tps: residual 0, a real leave-one-out error (%s m)" % cell("p1", "loo"))
        ctrl("z")
        settled()
        check(session()["transform"] == "auto" and driver.find_element(By.ID, "transform").get_attribute("value") == "auto",
              "undo went back to auto")

        # Linked views: with l, the map follows the scan's centre through the fit.
        press("l")
        js("tegulaEditor.maps.scan.panTo(tegulaEditor.scanLatLng([1530, 923]))")
        want = js("var f = tegulaEditor.fit; return fetch('/api/predict?v=' + f.version + '&x=1530&y=923').then(function (r) { return r.json(); })")
        centre = wait(lambda: (lambda c: c if abs(c[0] - want["ground"][0]) < 1 and abs(c[1] - want["ground"][1]) < 1 else None)(
            js("var c = tegulaEditor.maps.ground.getCenter(); return [c.lng, c.lat]")), 10)
        check(centre is not None, "linked: the map centre follows the scan's centre through the fit (%s vs %s)" % (
            js("var c = tegulaEditor.maps.ground.getCenter(); return [c.lng, c.lat]"), want["ground"]))
        press("l")
        js("tegulaEditor.maps.scan.fitBounds(L.latLngBounds(tegulaEditor.scanLatLng([0, 1350]), tegulaEditor.scanLatLng([2700, 0])))")
        time.sleep(0.5)

        # Typing: keys do nothing in a field; a note is an edit; a bad pixel is refused at its field.
        note = driver.find_element(By.CSS_SELECTOR, "#gcp-table tr[data-id='p1'] input.note")
        note.click()
        note.send_keys("Good Hope o?")
        note.send_keys(Keys.ENTER)
        settled()
        check(js("return tegulaEditor.mode") == "side" and "help" not in driver.find_element(By.TAG_NAME, "body").get_attribute("class"),
              "keys typed into a field do not act")
        check(session()["gcps"][0]["note"] == "Good Hope o?", "the note was saved in the session")
        field = driver.find_element(By.CSS_SELECTOR, "#gcp-table tr[data-id='p3'] input.pixel")
        before = session()["gcps"][2]["pixel"]
        field.clear()
        field.send_keys("99999, 5")
        field.send_keys(Keys.TAB)
        err = js("return document.querySelector('#gcp-table tr[data-id=\"p3\"] .field-error').textContent")
        check("outside the scan" in err and "invalid" in field.get_attribute("class") and session()["gcps"][2]["pixel"] == before,
              "an out-of-scan pixel is refused at its field: %r" % err)
        # A ground position typed in a projected CRS (p8's own, in EPSG:3857) is converted by the server.
        import math
        lon, lat = session()["gcps"][7]["ground"]
        x, y = 6378137 * math.radians(lon), 6378137 * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))
        field = driver.find_element(By.CSS_SELECTOR, "#gcp-table tr[data-id='p8'] input.ground")
        field.clear()
        field.send_keys("%.6f %.6f EPSG:3857" % (x, y))
        field.send_keys(Keys.ENTER)
        # The conversion is a request of its own: wait for the edit it makes.
        wait(lambda: js("var u = tegulaEditor.undo; return u.length && u[u.length - 1].op === 'move p8'"))
        settled()
        g = session()["gcps"][7]["ground"]
        check(abs(g[0] - lon) < 1e-7 and abs(g[1] - lat) < 1e-7 and len(js("return tegulaEditor.undo")) > 0
              and js("return tegulaEditor.undo[tegulaEditor.undo.length - 1].op") == "move p8",
              "easting northing EPSG:3857 typed at p8 became its lon/lat again: %s vs %s" % (g, [lon, lat]))
        js("document.activeElement && document.activeElement.blur()")
        press("?")
        check(driver.find_element(By.ID, "help").is_displayed(), "? opens the keymap")
        press(Keys.ESCAPE)
        check(not driver.find_element(By.ID, "help").is_displayed(), "Esc closes it")
        settled()
        driver.save_screenshot(out + "/editor-side.png")
        if shots:
            os.makedirs(shots, exist_ok=True)
            driver.save_screenshot(os.path.join(os.path.abspath(shots), "editor.png"))
            print("editor_check: saved %s" % os.path.join(os.path.abspath(shots), "editor.png"), flush=True)

        # The mask: four clicks on the scan in mask mode.
        press("m")
        for p in ([150, 60], [2560, 60], [2560, 1290], [150, 1290]):
            click_scan(p)
            settled()
        vertex = driver.find_elements(By.CSS_SELECTOR, "#scan .mask-vertex")
        check(len(vertex) == 4, "the mask's vertices can be edited (%d)" % len(vertex))
        first = session()["mask"][0]
        ActionChains(driver).click_and_hold(vertex[0]).move_by_offset(5, 5).move_by_offset(10, 10).release().perform()
        settled()
        check(session()["mask"][0] != first and len(session()["mask"]) == 4, "dragging a vertex moved it: %s -> %s" % (first, session()["mask"][0]))
        ActionChains(driver).context_click(driver.find_elements(By.CSS_SELECTOR, "#scan .mask-vertex")[3]).perform()
        settled()
        check(len(session()["mask"]) == 3, "a right-click deleted a vertex")
        ctrl("z")
        ctrl("z")
        settled()
        check(session()["mask"][0] == first and len(session()["mask"]) == 4, "undo restored both vertex edits")
        press("m")
        driver.find_element(By.ID, "mask-delete").click()
        settled()
        check(session()["mask"] is None and not driver.find_elements(By.CSS_SELECTOR, "#scan path.mask-polygon"), "Delete mask removed it")
        ctrl("z")
        settled()
        mask = session()["mask"]
        check(mask is not None and len(mask) == 4, "a four-vertex mask was drawn: %s" % mask)
        check(len(driver.find_elements(By.CSS_SELECTOR, "#scan path.mask-polygon")) == 1, "the mask is drawn on the scan")
        check(len(rows()) == 8, "mask clicks added no points")

        # Overlay: warped tiles of this fit's version load over the basemap.
        press("o")
        version = js("return tegulaEditor.fit.version")
        check(wait(lambda: tiles_loaded(".overlay-tiles") > 0, 90), "warped overlay tiles load (%d)" % tiles_loaded(".overlay-tiles"))
        srcs = js("return Array.from(document.querySelectorAll('.overlay-tiles img.leaflet-tile')).map(function (i) { return i.src; })")
        check(srcs and all(("/overlay/%s/" % version) in s for s in srcs), "overlay tile URLs carry the fit's version %s" % version)
        drawn_js = """var n = 0; document.querySelectorAll('.overlay-tiles img.leaflet-tile').forEach(function (img) {
            if (!img.complete || !img.naturalWidth) return;
            var c = document.createElement('canvas'); c.width = c.height = 64; var x = c.getContext('2d');
            x.drawImage(img, 0, 0, 64, 64); var d = x.getImageData(0, 0, 64, 64).data;
            for (var i = 3; i < d.length; i += 4) if (d[i] > 0) { n++; break; } }); return n;"""
        # Tiles outside the mask are transparent: wait until one with pixels has loaded (a busy
        # machine renders them one by one).
        drawn = wait(lambda: js(drawn_js), 90)
        check(drawn > 0, "%d overlay tiles hold warped pixels" % drawn)
        check(not driver.find_element(By.ID, "scan").is_displayed(), "overlay mode shows the map alone")
        time.sleep(1)
        driver.save_screenshot(out + "/editor-overlay.png")
        # The overlay's pixels as the screen shows them: a whole zoom (tiles drawn 1:1), opacity
        # 1, everything but the overlay's tiles hidden; each fully visible tile's place is kept.
        js("var o = document.getElementById('opacity'); o.value = 1; o.dispatchEvent(new Event('input'));"
           "tegulaEditor.maps.ground.setView([0, 0], 2, { animate: false });")
        wait(lambda: js("""var imgs = Array.from(document.querySelectorAll('.overlay-tiles img.leaflet-tile'));
            return imgs.length > 0 && imgs.every(function (i) { return i.complete && i.naturalWidth > 0
                && getComputedStyle(i).opacity === '1' && i.src.indexOf('/2/') >= 0; });"""), 90)
        time.sleep(0.5)
        placed = js("""
            document.querySelectorAll('#ground img.leaflet-tile').forEach(function (i) {
                if (!i.classList.contains('leaflet-tile') || !i.closest('.overlay-tiles')) i.style.visibility = 'hidden'; });
            ['.leaflet-overlay-pane', '.leaflet-marker-pane', '.leaflet-shadow-pane', '.leaflet-tooltip-pane',
             '.leaflet-popup-pane', '.leaflet-control-container'].forEach(function (s) {
                document.querySelectorAll('#ground ' + s).forEach(function (e) { e.style.visibility = 'hidden'; }); });
            var g = document.getElementById('ground').getBoundingClientRect();
            var right = Math.min(g.right, window.innerWidth), bottom = Math.min(g.bottom, window.innerHeight);
            return { ratio: window.devicePixelRatio, tiles: Array.from(document.querySelectorAll('.overlay-tiles img.leaflet-tile')).map(function (i) {
                var r = i.getBoundingClientRect();
                return { src: i.src, left: r.left, top: r.top, width: r.width, height: r.height,
                         seen: [Math.max(r.left, g.left, 0), Math.max(r.top, g.top, 0), Math.min(r.right, right), Math.min(r.bottom, bottom)] }; }) };""")
        driver.save_screenshot(out + "/overlay-screen.png")
        tiles = []
        for t in placed["tiles"]:
            m = re.search(r"/overlay/[0-9a-f]+/(\d+)/(\d+)/(\d+)\.png", t["src"])
            # The part in view, on whole pixels inside the tile (a tile on a half pixel is
            # compared at the nearest whole one; the caller's bound says how close that is).
            left, top = int(round(t["left"])), int(round(t["top"]))
            seen = [max(left, int(math.ceil(t["seen"][0]))), max(top, int(math.ceil(t["seen"][1]))),
                    min(left + 256, int(t["seen"][2])), min(top + 256, int(t["seen"][3]))]
            if m and abs(t["width"] - 256) < 0.01 and seen[2] - seen[0] >= 64 and seen[3] - seen[1] >= 64:
                tiles.append({"z": int(m.group(1)), "x": int(m.group(2)), "y": int(m.group(3)), "left": left, "top": top,
                              "seen": seen, "offset": [t["left"] - left, t["top"] - top]})
        json.dump({"ratio": placed["ratio"], "tiles": tiles}, open(out + "/overlay-tiles.json", "w"), indent=1)
        check(placed["ratio"] == 1 and len(tiles) >= 2, "overlay tiles are drawn 1:1 at zoom 2, at least 64 × 64 px of each in view (%d of %d, ratio %s): %s"
              % (len(tiles), len(placed["tiles"]), placed["ratio"], [(t["src"][-20:], t["left"], t["top"], t["width"], t["seen"]) for t in placed["tiles"][:3]]))
        js("""document.querySelectorAll('#ground img.leaflet-tile, #ground .leaflet-pane, #ground .leaflet-control-container').forEach(
            function (e) { e.style.visibility = ''; });""")
        press("o")

        # Save, and keep what the page showed for the caller to compare with `tegula georef`.
        driver.find_element(By.ID, "save").click()
        check(wait(lambda: "saved to" in driver.find_element(By.ID, "status").text), "Save answered: %r" % driver.find_element(By.ID, "status").text)
        json.dump(js("return tegulaEditor.saved"), open(out + "/fit.json", "w"), indent=1)
        json.dump(session(), open(out + "/session.json", "w"), indent=1)
    else:
        want = json.load(open(out + "/session.json"))
        settled()
        got = session()
        check(got["gcps"] == want["gcps"] and got["mask"] == want["mask"] and got["transform"] == want["transform"],
              "the restarted editor shows the session again (%d points, mask %s)" % (len(got["gcps"]), got["mask"] is not None))
        check(len(rows()) == len(want["gcps"]), "its table lists every point (%d)" % len(rows()))
        check(len(driver.find_elements(By.CSS_SELECTOR, "#scan path.mask-polygon")) == 1, "and the mask")
        driver.save_screenshot(out + "/editor-restored.png")
finally:
    driver.quit()

print("editor_check %s: %s" % (phase, "FAILED: " + "; ".join(failures) if failures else "all checks passed"))
sys.exit(1 if failures else 0)
