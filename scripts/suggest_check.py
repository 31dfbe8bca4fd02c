#!/usr/bin/env python3
"""Drive `tegula edit SCAN --reference REF` in headless Chromium (Debian's chromium + chromedriver,
python3-selenium) as a person would: see the reference as a layer on the map, press Suggest, keep
one proposed pair and drop another, undo and redo both, place a point by hand a few pixels off and
snap it to its twin, place a point on the scan alone and complete it by snapping. Screenshots go
to OUTDIR (suggest.png: the proposals on both maps; snapped.png; unrelated.png).

The oracle is the transform the scan was made with: an affine map from scan pixels to reference
pixels (AFFINE: a b c d e f, u = a x + b y + c, v = d x + e y + f), and the reference's own grid,
EPSG:3857 with its top-left corner at LEFT, TOP and square pixels of RES metres (longitude and
latitude carried into it by the spherical Mercator formulas, not by Tegula). Errors are in scan
pixels (reference pixels times SCALE, the scan's pixels per reference pixel).

Usage: suggest_check.py URL OUTDIR matched LEFT TOP RES SCALE a b c d e f
       suggest_check.py URL OUTDIR unrelated
REFERENCE_TILES: when set, the reference layer's tiles must come from there (a tileset on a server,
shown from that server: `tegula edit --reference` with a TileJSON URL or an XYZ template)."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check  # noqa: E402  (beside this script)
from browser_check import Checks, chromium, wait  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

url, out, phase = sys.argv[1], sys.argv[2], sys.argv[3]
driver = chromium(1400, 950)
check = Checks()


def js(script, *args):
    return driver.execute_script(script, *args)


def settled():
    return wait(lambda: js("return window.tegulaReady && !tegulaEditor.fitting && !tegulaEditor.suggesting && !tegulaEditor.snapping"))


def click_at(map_id, point):
    browser_check.click_at(driver, check, map_id, point)


def ctrl(key, shift=False):
    browser_check.ctrl(driver, key, shift)


def state(name):
    return js("return tegulaEditor[arguments[0]]", name)


def ids(things):
    return [t["id"] for t in things]


def last_op():
    return js("var u = tegulaEditor.undo; return u.length ? u[u.length - 1].op : null")


try:
    driver.get(url)
    check(bool(wait(lambda: js("return window.tegulaReady === true"))), "the editor page loaded")

    if phase == "matched":
        left, top, res, scale = (float(v) for v in sys.argv[4:8])
        a, b, c, d, e, f = (float(v) for v in sys.argv[8:14])

        def truth(p):  # scan pixel -> reference pixel, by the transform the scan was made with
            return (a * p[0] + b * p[1] + c, d * p[0] + e * p[1] + f)

        def reference_pixel(lonlat):  # longitude, latitude -> reference pixel, spherical Mercator
            r = 6378137.0
            x = r * math.radians(lonlat[0])
            y = r * math.log(math.tan(math.pi / 4 + math.radians(lonlat[1]) / 2))
            return ((x - left) / res, (top - y) / res)

        def miss(pixel, lonlat):  # how far a pair's ground is from its scan pixel's true twin, in scan pixels
            t, g = truth(pixel), reference_pixel(lonlat)
            return math.hypot(t[0] - g[0], t[1] - g[1]) * scale

        loaded = "return Array.from(document.querySelectorAll('.reference-tiles img.leaflet-tile')).filter(function (i) { return i.complete && i.naturalWidth > 0; }).length"
        check(bool(wait(lambda: js(loaded) > 0, 60)), "the reference is a tile layer on the map (%d tiles loaded)" % js(loaded))
        if os.environ.get("REFERENCE_TILES"):
            sources = js("return Array.from(document.querySelectorAll('.reference-tiles img.leaflet-tile')).map(function (i) { return i.src; })")
            check(sources and all(u.startswith(os.environ["REFERENCE_TILES"]) for u in sources),
                  "the reference's tiles come from its server %s: %s" % (os.environ["REFERENCE_TILES"], sources[:2]))
        check(driver.find_element(By.ID, "suggest").is_displayed() and driver.find_element(By.ID, "snap").is_displayed(),
              "Suggest and Snap are on the toolbar")

        # Suggest: pairs within 1 scan pixel of the truth, drawn on both maps and listed.
        driver.find_element(By.ID, "suggest").click()
        wait(lambda: len(state("proposals")) > 0, 90)
        settled()
        proposals = state("proposals")
        misses = [miss(q["pixel"], q["ground"]) for q in proposals]
        check(12 <= len(proposals) <= 40, "Suggest proposed %d pairs" % len(proposals))
        check(misses and max(misses) <= 1.0, "every proposed pair is within 1 scan px of the truth: worst %.3f px, mean %.3f px"
              % (max(misses or [0]), sum(misses) / max(1, len(misses))))
        markers = js("return [document.querySelectorAll('#scan .gcp.proposed').length, document.querySelectorAll('#ground .gcp.proposed').length]")
        rows = len(driver.find_elements(By.CSS_SELECTOR, "#proposal-table tbody tr"))
        check(markers == [len(proposals)] * 2 and rows == len(proposals), "drawn on both maps %s and listed in %d rows" % (markers, rows))
        message = driver.find_element(By.ID, "suggest-message").text
        check("pairs proposed" in message, "the page says what was proposed: %r" % message)
        check(state("session")["gcps"] == [], "nothing is a point until it is kept")
        driver.save_screenshot(out + "/suggest.png")

        # Keep s1, drop s2; undo both, redo both.
        n = len(proposals)
        first, second = proposals[0], proposals[1]
        driver.find_element(By.CSS_SELECTOR, '#proposal-table tr[data-id="s1"] button.keep').click()
        settled()
        gcps = state("session")["gcps"]
        check(len(gcps) == 1 and gcps[0]["id"] == "p1" and gcps[0]["ground"] == first["ground"]
              and max(abs(gcps[0]["pixel"][i] - first["pixel"][i]) for i in (0, 1)) <= 0.005
              and "s1" not in ids(state("proposals")) and len(state("proposals")) == n - 1,
              "Keep made s1 the point p1 (%s) and took it off the list" % gcps)
        driver.find_element(By.CSS_SELECTOR, '#proposal-table tr[data-id="s2"] button.drop').click()
        settled()
        check("s2" not in ids(state("proposals")) and len(state("proposals")) == n - 2 and len(state("session")["gcps"]) == 1,
              "Drop took s2 off the list and added no point")
        ctrl("z")
        settled()
        check("s2" in ids(state("proposals")) and len(state("session")["gcps"]) == 1, "undo brought s2 back to the list")
        ctrl("z")
        settled()
        check(state("session")["gcps"] == [] and len(state("proposals")) == n and ids(state("proposals"))[0] == "s1",
              "undo took p1 away and put s1 back")
        ctrl("z", shift=True)
        settled()
        check(ids(state("session")["gcps"]) == ["p1"] and "s1" not in ids(state("proposals")), "redo kept s1 again")
        ctrl("y")
        settled()
        check(len(state("proposals")) == n - 2 and "s2" not in ids(state("proposals")), "redo dropped s2 again")
        check(state("fit") is None or "gcps" in state("fit"), "the page still fits")

        # Snap: a pair placed by hand, its ground 3 reference pixels east of the truth.
        p = [second["pixel"][0] + 6.3, second["pixel"][1] - 4.7]
        t = truth(p)
        r = 6378137.0
        off = [left + (t[0] + 3) * res, top - t[1] * res]
        lonlat = [math.degrees(off[0] / r), math.degrees(2 * math.atan(math.exp(off[1] / r)) - math.pi / 2)]
        js("tegulaEditor.maps.scan.setView(tegulaEditor.scanLatLng(arguments[0]), 7, { animate: false })", p)
        js("tegulaEditor.maps.ground.setView([arguments[0][1], arguments[0][0]], 15, { animate: false })", lonlat)
        click_at("scan", js("return tegulaEditor.scanPoint(arguments[0])", p))
        click_at("ground", js("return tegulaEditor.groundPoint(arguments[0])", lonlat))
        settled()
        placed = [g for g in state("session")["gcps"] if g["id"] == "p2"]
        check(len(placed) == 1, "a pair placed by hand: %s" % placed)
        before = miss(placed[0]["pixel"], placed[0]["ground"])
        check(2.5 <= before <= 5, "its ground is %.2f scan px (3 reference px) off the truth" % before)
        ActionChains(driver).send_keys("t").perform()
        wait(lambda: last_op() == "snap p2", 60)
        settled()
        snapped = [g for g in state("session")["gcps"] if g["id"] == "p2"][0]
        after = miss(snapped["pixel"], snapped["ground"])
        check(last_op() == "snap p2" and after <= 0.5 and snapped["pixel"] == placed[0]["pixel"],
              "t snapped it onto its twin: %.3f scan px from the truth (was %.2f), its scan pixel kept" % (after, before))
        driver.save_screenshot(out + "/snapped.png")
        ctrl("z")
        settled()
        check([g for g in state("session")["gcps"] if g["id"] == "p2"][0]["ground"] == placed[0]["ground"], "undo put the hand-placed ground back")
        ctrl("y")
        settled()
        check([g for g in state("session")["gcps"] if g["id"] == "p2"][0]["ground"] == snapped["ground"], "redo snapped it again")

        # A point placed on the scan alone, completed by its twin.
        q = [second["pixel"][0] - 5.2, second["pixel"][1] + 3.9]
        js("tegulaEditor.maps.scan.setView(tegulaEditor.scanLatLng(arguments[0]), 7, { animate: false })", q)
        click_at("scan", js("return tegulaEditor.scanPoint(arguments[0])", q))
        wait(lambda: js("return !!(tegulaEditor.pending && tegulaEditor.pending.pixel)"))
        ActionChains(driver).send_keys("t").perform()
        wait(lambda: "p3" in ids(state("session")["gcps"]), 60)
        settled()
        done = [g for g in state("session")["gcps"] if g["id"] == "p3"]
        check(len(done) == 1 and miss(done[0]["pixel"], done[0]["ground"]) <= 0.5,
              "t completed a point placed on the scan alone with its twin: %.3f scan px from the truth"
              % (miss(done[0]["pixel"], done[0]["ground"]) if done else -1))
    else:
        driver.find_element(By.ID, "suggest").click()
        wait(lambda: driver.find_element(By.ID, "suggest-message").text, 90)
        settled()
        message = driver.find_element(By.ID, "suggest-message")
        check(message.is_displayed() and message.text.startswith("no suggestion") and "do not show the same map" in message.text,
              "an unrelated reference proposes nothing and the page says so: %r" % message.text)
        check(state("proposals") == [] and state("session")["gcps"] == [] and state("undo") == [],
              "no pair proposed, no point added, nothing to undo")
        js("tegulaEditor.maps.scan.setView(tegulaEditor.scanLatLng([600, 400]), 5, { animate: false })")
        click_at("scan", js("return tegulaEditor.scanPoint([600, 400])"))
        ActionChains(driver).send_keys("t").perform()
        wait(lambda: "no twin" in driver.find_element(By.ID, "status").text, 30)
        status = driver.find_element(By.ID, "status").text
        check("no twin" in status and state("session")["gcps"] == [], "snap finds no twin and says so: %r" % status)
        driver.save_screenshot(out + "/unrelated.png")
except Exception as e:  # noqa: BLE001  (a failure of the page is a failed check, with its log)
    check(False, "the page raised: %r" % e)
finally:
    for entry in driver.get_log("browser"):
        # The basemap that answers nothing, and the fit refused while there are too few points (422), are expected.
        expected = "favicon" in entry["message"] or "127.0.0.1:9/" in entry["message"] or ("/api/fit" in entry["message"] and "422" in entry["message"])
        # A tileset on a server has no tile where its map has no pixel (404), as tegula tile leaves them out.
        expected = expected or (os.environ.get("REFERENCE_TILES", "\0") in entry["message"] and "404" in entry["message"])
        if entry["level"] == "SEVERE" and not expected:
            check(False, "console: %s" % entry["message"])
    driver.quit()

sys.exit(1 if check.failures else 0)
