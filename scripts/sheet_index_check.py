#!/usr/bin/env python3
"""Drive the viewer in headless Chromium (Debian's chromium + chromedriver, python3-selenium) over a
composite served with its sheet index beside it, and check what a person would see: one outline per
sheet of the index that has a footprint, no sheet popup open until an outline is clicked, then
exactly one popup naming the clicked sheet, whose figures (title, date, transform, GCPs, ties, RMSE,
leave-one-out RMSE, worst residual, scale distortion, seam errors before and after, ties from a
sheet with GCPs and standard error of place where the index has them, quality) are
the index's values as viewer.js writes them (distances as a person writes them: 1,041 km; 12.4 km;
688 m); no console error. The index is read from the file the pipeline wrote (INDEX), not from the
server, so what the page shows is checked against the run's own figures. The screenshot goes to
OUTDIR/sheet-index.png.
Usage: sheet_index_check.py URL INDEX.geojson OUTDIR"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from viewer_distance import person_distance  # noqa: E402  (beside this script)
from browser_check import Checks, chromium  # noqa: E402  (beside this script)
from selenium.webdriver.common.by import By

url, index_path, out = sys.argv[1], sys.argv[2], sys.argv[3]
with open(index_path) as f:
    index = json.load(f)
sheets = [f for f in index["features"] if f["geometry"]]
driver = chromium()
check = Checks()
failures = check.failures


def expected_rows(p):
    """The popup's rows viewer.js must write for a sheet's properties."""
    rows = {"transform": p.get("transform") or p["georeference"], "GCPs": str(p["gcps"]), "ties": str(p["ties"]),
            "RMSE": person_distance(p["rmse_m"]), "leave-one-out RMSE": person_distance(p["loo_m"]),
            "worst residual": person_distance(p["worst_residual_m"]) + " (%s)" % p["worst_gcp"],
            "scale distortion": "%.3f" % p["scale_distortion"], "quality": p["quality"]}
    for key in ("title", "date", "source"):
        if p.get(key):
            rows[key] = p[key]
    if p.get("seam_before_m") is not None:
        rows["seam error before → after"] = person_distance(p["seam_before_m"]) + " → " + person_distance(p["seam_after_m"])
    if p.get("place_se_m") is not None:
        rows["standard error of place"] = person_distance(p["place_se_m"])
    if p.get("hops") is not None:
        rows["ties from a sheet with GCPs"] = str(p["hops"])
    return rows


try:
    driver.get(url)
    outlines = []
    for _ in range(100):
        outlines = driver.find_elements(By.CSS_SELECTOR, "path.tegula-sheet-outline")
        if len(outlines) >= len(sheets):
            break
        time.sleep(0.1)
    check(len(sheets) > 0, f"the index has {len(sheets)} sheets with a footprint")
    check(len(outlines) == len(sheets), f"{len(outlines)} sheet outlines drawn for {len(sheets)} sheets with a footprint")
    check(not driver.find_elements(By.CSS_SELECTOR, ".tegula-sheet"), "no sheet popup open before a click")
    # Click the middle of one outline, as a person would (Selenium clicks an element's centre).
    if outlines:
        outlines[len(outlines) // 2].click()
    time.sleep(0.5)
    popups = driver.find_elements(By.CSS_SELECTOR, ".tegula-sheet")
    check(len(popups) == 1, f"one sheet popup after the click (found {len(popups)})")
    if popups:
        name = popups[0].find_element(By.CSS_SELECTOR, "b").text
        hit = [f for f in sheets if f["properties"]["name"] == name]
        check(len(hit) == 1, f"the popup names one sheet of the index: '{name}'")
        shown = {r.find_element(By.CSS_SELECTOR, "th").text: r.find_element(By.CSS_SELECTOR, "td").text
                 for r in popups[0].find_elements(By.CSS_SELECTOR, "tr")}
        if hit:
            for label, value in expected_rows(hit[0]["properties"]).items():
                check(shown.get(label) == value, f"{name}: {label} '{value}' (shown: '{shown.get(label)}')")
    driver.save_screenshot(os.path.join(out, "sheet-index.png"))
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
    check(not errors, f"no console error ({errors[:2]})")
finally:
    driver.quit()
sys.exit(1 if failures else 0)
