#!/usr/bin/env python3
"""Found ties (`ties: auto`) in the sheet index and the tie editor, checked from the files alone, on
a series made by scripts/make-series whose pipeline has `ties: auto` and `ties_from: ties.csv`.

  found_ties_check.py index SERIES [OUTDIR]
      The sheet index (SERIES/.tegula/series/index.geojson) against the found ties file
      (found-ties.csv) read by Python's csv: per pair, `ties` is the number of its rows, `score` and
      `min_score` their mean and least score (the file keeps 4 decimals); with OUTDIR, `rejected`
      is the number of found ties the edit of OUTDIR/found-edit.json removed or moved (else none).
      The index's tie list holds the hand ties and the found ones not rejected.
  found_ties_check.py edit URL SERIES OUTDIR
      Drives the tie editor (`tegula edit SERIES/series.yml --map A --tie-with B`) in headless
      Chromium: the pair's hand ties (ties.csv) and found ties (found-ties.csv) are listed, the found
      ones with their scores; a found tie is dragged 3 px right and 2 px down on sheet B (within
      the pixel Leaflet rounds a marker's start to), two others are
      removed with their buttons, and `s` saves. ties.csv is then read back: the other rows as they
      were, the pair's hand ties and the moved tie at its new place as ties, the moved and the
      removed found ties at their old places as `rejected` rows; and the page shows what the
      server read back (its GET /api/ties, fetched here): the moved tie a hand tie now, the three
      rejected rows listed as removed with a Restore button. After a reload of the page one of the
      removed ties is restored and saved again: its rejected row is gone from ties.csv (the rest
      as before) and the page lists it as found again with its found-ties.csv score. Writes
      OUTDIR/found-edit.json and OUTDIR/found-ties.png.
  found_ties_check.py after SERIES OUTDIR
      After `tegula run` of the saved pipeline: the tie pins (the `tie-N` rows) of each sheet's
      report.json hold the moved tie at its new place and the restored tie at its found
      place, and neither the moved tie's old place nor the removed tie."""
import csv
import json
import os
import sys
import time
import urllib.request

SERIES_WORK = os.path.join(".tegula", "series")


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def pair_of(row):
    return tuple(sorted((row["map_a"], row["map_b"])))


def check_index(series, out, check):
    work = os.path.join(series, SERIES_WORK)
    found = read_csv(os.path.join(work, "found-ties.csv"))
    index = json.load(open(os.path.join(work, "index.geojson")))
    edit = json.load(open(os.path.join(out, "found-edit.json"))) if out else None
    by_pair = {}
    for r in found:
        by_pair.setdefault((r["map_a"], r["map_b"]), []).append(float(r["score"]))
    pairs = index.get("found_ties", [])
    check(len(pairs) > 0, "the sheet index lists %d pairs under found_ties" % len(pairs))
    rejected_total = 0
    for p in pairs:
        scores = by_pair.get((p["map_a"], p["map_b"]), [])
        check(p["ties"] == len(scores), "%s-%s: the index says %d ties, found-ties.csv has %d rows"
              % (p["map_a"], p["map_b"], p["ties"], len(scores)))
        if scores:
            mean, least = sum(scores) / len(scores), min(scores)
            check(abs(p["score"] - mean) <= 1e-4 and abs(p["min_score"] - least) <= 1e-4,
                  "%s-%s: score %.5f, least %.5f; the file's %.5f, %.5f" % (p["map_a"], p["map_b"], p["score"], p["min_score"], mean, least))
        want = 0
        if edit and {p["map_a"], p["map_b"]} == {edit["a"], edit["b"]}:
            want = 2
        check(p.get("rejected", 0) == want, "%s-%s: %s rejected (want %d)" % (p["map_a"], p["map_b"], p.get("rejected"), want))
        rejected_total += p.get("rejected", 0) or 0
    hand = [r for r in read_csv(os.path.join(series, "ties.csv")) if r.get("kind", "") in ("", "tie")]
    check(len(index["ties"]) == len(hand) + len(found) - rejected_total,
          "the index's tie list: %d ties = %d hand + %d found - %d rejected" % (len(index["ties"]), len(hand), len(found), rejected_total))


def drive(url, series, out, check):
    from browser_check import chromium, wait
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    ties_path = os.path.join(series, "ties.csv")
    original_rows = read_csv(ties_path)
    found_rows = read_csv(os.path.join(series, SERIES_WORK, "found-ties.csv"))
    driver = chromium(1400, 950)

    def js(script, *args):
        return driver.execute_script(script, *args)

    def settled():
        return wait(lambda: js("return window.tegulaReady && !tegulaTies.busy"))

    def rows():
        return js("return Array.from(document.querySelectorAll('#tie-table tbody tr')).map(function (r) {"
                  " return {id: r.getAttribute('data-id'), kind: r.querySelector('.kind').textContent, cls: r.className,"
                  " restore: !!r.querySelector('button.restore'), pa: r.querySelector('.pa').textContent,"
                  " pb: r.querySelector('.pb').textContent}; })")

    def save():
        js("document.getElementById('status').textContent = ''")
        driver.find_element(By.TAG_NAME, "body").send_keys("s")
        check(wait(lambda: js("return document.getElementById('status').textContent").startswith("saved")),
              "s saves: '%s'" % js("return document.getElementById('status').textContent"))
        settled()

    def shows_server(url, ties, rejected, n_found, when):
        """The page shows the server's answer to GET /api/ties (fetched here) and the files' rows."""
        server = json.load(urllib.request.urlopen(url + "api/ties"))
        page = js("return tegulaTies.session")
        key = lambda t: (t["id"], t["a"], t["b"], t.get("score"))
        check([key(t) for t in page["ties"]] == [key(t) for t in server["ties"]],
              "%s the page's ties are the server's: %s" % (when, [t["id"] for t in page["ties"]]))
        shown = rows()
        kept = [r for r in shown if r["cls"] != "removed"]
        gone = [r for r in shown if r["cls"] == "removed"]
        check([r["id"] for r in kept] == [t["id"] for t in server["ties"]] and [r["id"] for r in gone] == [t["id"] for t in server["removed"]],
              "%s the table lists the server's ties, then its removed found ties: %s" % (when, [(r["id"], r["kind"]) for r in shown]))
        hand_places = sorted(tuple(t["a"] + t["b"]) for t in page["ties"] if "score" not in t)
        check(hand_places == ties and [r["kind"] for r in kept].count("hand") == len(ties),
              "%s the page's hand ties are ties.csv's tie rows (%d): %s" % (when, len(ties), hand_places))
        check(sum(1 for r in kept if r["kind"].startswith("found ")) == n_found, "%s %d found ties are listed as found" % (when, n_found))
        removed_places = sorted(tuple(float(v) for v in (r["pa"] + ", " + r["pb"]).split(", ")) for r in gone)
        check(removed_places == rejected and all(r["restore"] for r in gone),
              "%s the rejected rows are listed as removed, each with Restore: %s" % (when, [(r["id"], r["kind"]) for r in gone]))

    def show(side, pixel):
        js("var t = tegulaTies, p = arguments[1]; t.maps[arguments[0]].setView(t.panes[arguments[0]].toLL(p),"
           " JSON.parse(document.getElementById('config').textContent)[arguments[0]].maxzoom, {animate: false});", side, pixel)

    try:
        driver.get(url)
        check(bool(wait(lambda: js("return window.tegulaReady === true"))), "the tie editor page loaded")
        settled()
        cfg = js("return JSON.parse(document.getElementById('config').textContent)")
        A, B = cfg["a"]["name"], cfg["b"]["name"]
        hand = [r for r in original_rows if {r["map_a"], r["map_b"]} == {A, B}]
        found = [r for r in found_rows if (r["map_a"], r["map_b"]) == (A, B)]
        session = js("return tegulaTies.session")["ties"]
        listed = rows()
        shown_found = [t for t in session if "score" in t]
        check(len(listed) == len(hand) + len(found) and len(found) >= 4 and len(hand) >= 1,
              "the page lists the %d hand ties and %d found ties of %s-%s (%d rows)" % (len(hand), len(found), A, B, len(listed)))
        want = sorted((float(r["x_a"]), float(r["y_a"]), float(r["x_b"]), float(r["y_b"]), float(r["score"])) for r in found)
        got = sorted((t["a"][0], t["a"][1], t["b"][0], t["b"][1], t["score"]) for t in shown_found)
        check(len(got) == len(want) and all(max(abs(u - v) for u, v in zip(g, w)) <= 1e-9 for g, w in zip(got, want)),
              "the found ties on the page are found-ties.csv's rows, with their scores")
        kinds = {r["id"]: r["kind"] for r in listed}
        check(all(kinds[t["id"]] == "found %.2f" % t["score"] for t in shown_found)
              and all(kinds[t["id"]] == "hand" for t in session if "score" not in t),
              "the table marks each tie hand or found with its score: %s" % sorted(set(kinds.values()))[:4])

        # Drag a found tie on sheet B by (3, 2) screen pixels: one screen pixel a scan pixel at the max zoom.
        moved, removed, back = shown_found[1], shown_found[-1], shown_found[-2]
        show("b", moved["b"])
        time.sleep(0.3)
        marker = driver.find_element(By.CSS_SELECTOR, '#b .leaflet-marker-icon[data-id="%s"]' % moved["id"])
        # Leaflet starts a drag once the pointer is 3 px away and moves the marker from there, by
        # whole screen pixels (the marker's start is its place on the screen, rounded): a first step
        # of 4 px starts it, the second is the move. Each a frame apart (it moves in animation frames).
        ActionChains(driver).move_to_element(marker).click_and_hold().pause(0.2).move_by_offset(4, 0).pause(0.2) \
            .move_by_offset(3, 2).pause(0.3).release().perform()
        check(wait(lambda: js("var id = arguments[0]; return tegulaTies.session.ties.filter(function (t) { return t.id === id; })[0].b", moved["id"])
                   != moved["b"]), "dragging %s on %s moves it" % (moved["id"], B))
        new = [t for t in js("return tegulaTies.session.ties") if t["id"] == moved["id"]][0]
        dx, dy = new["b"][0] - moved["b"][0], new["b"][1] - moved["b"][1]
        check(abs(dx - 3) <= 1 and abs(dy - 2) <= 1 and new["a"] == moved["a"],
              "%s moved by (%.2f, %.2f) px on %s, as dragged; its pixel on %s kept" % (moved["id"], dx, dy, B, A))
        check(wait(lambda: {r["id"]: r["kind"] for r in rows()}.get(moved["id"]) == "found, moved"), "its row says found, moved")
        for gone in (removed, back):
            settled()
            click(driver, '#tie-table tr[data-id="%s"] button.del' % gone["id"])
            check(wait(lambda: gone["id"] not in [r["id"] for r in rows() if r["cls"] != "removed"]), "✕ removes found tie %s" % gone["id"])
        settled()
        save()

        # The ties file read back by Python's csv, and the page against it and the server's answer.
        as_ties, rejected = pair_rows(ties_path, A, B, original_rows, check)
        want_ties = sorted([place(r) for r in hand] + [tuple(new["a"] + new["b"])])
        check(as_ties == want_ties, "the pair's ties in ties.csv: its hand ties and the moved one at its new place: %s" % as_ties)
        check(rejected == sorted(tuple(t["a"] + t["b"]) for t in (moved, removed, back)),
              "the moved and the two removed found ties are rejected rows at their old places: %s" % rejected)
        shows_server(url, as_ties, rejected, len(found) - 3, "after Save")
        driver.save_screenshot(os.path.join(out, "found-ties.png"))

        # Reload, restore one removed found tie, save again.
        driver.refresh()
        check(bool(wait(lambda: js("return window.tegulaReady === true"))), "the tie editor page loaded again")
        settled()
        shows_server(url, as_ties, rejected, len(found) - 3, "after a reload")
        listed = js("var t = tegulaTies; return t.originals.filter(function (id) { return !t.session.ties.some(function (x) { return x.id === id; }); })"
                    ".map(function (id) { return {id: id, a: t.found[id].a, b: t.found[id].b}; })")
        back_id = [t["id"] for t in listed if t["a"] == back["a"] and t["b"] == back["b"]]
        check(len(back_id) == 1, "removed found tie %s is listed after the reload: %s" % (back["id"], listed))
        click(driver, '#tie-table tr[data-id="%s"] button.restore' % back_id[0])
        check(wait(lambda: {r["id"]: r["kind"] for r in rows()}.get(back_id[0]) == "found %.2f" % back["score"]),
              "Restore puts %s back as found %.2f: %s" % (back_id[0], back["score"], rows()))
        settled()
        save()
        as_ties2, rejected2 = pair_rows(ties_path, A, B, original_rows, check)
        check(as_ties2 == as_ties, "the pair's ties in ties.csv are as before the restore")
        check(rejected2 == sorted(tuple(t["a"] + t["b"]) for t in (moved, removed)),
              "the restored tie's rejected row is gone; the moved and the removed one stay: %s" % rejected2)
        shows_server(url, as_ties, rejected2, len(found) - 2, "after the second Save")
        back_row = [t for t in js("return tegulaTies.session.ties") if t["a"] == back["a"] and t["b"] == back["b"]]
        check(len(back_row) == 1 and abs(back_row[0].get("score", -1) - back["score"]) <= 1e-9,
              "the restored tie is a found tie again with its found-ties.csv score %.4f: %s" % (back["score"], back_row))
    finally:
        driver.quit()
    json.dump({"a": A, "b": B, "moved": {"from": moved, "to": new}, "removed": removed, "restored": back},
              open(os.path.join(out, "found-edit.json"), "w"), indent=1)


def place(r):
    return (float(r["x_a"]), float(r["y_a"]), float(r["x_b"]), float(r["y_b"]))


def pair_rows(ties_path, A, B, original_rows, check):
    """The pair's ties and rejected rows in ties.csv (Python's csv), sorted; the other pairs' rows checked unchanged."""
    saved = read_csv(ties_path)
    keys = ("map_a", "x_a", "y_a", "map_b", "x_b", "y_b")
    others = [{k: r[k] for k in keys} for r in saved if {r["map_a"], r["map_b"]} != {A, B}]
    check(others == [{k: r[k] for k in keys} for r in original_rows if {r["map_a"], r["map_b"]} != {A, B}],
          "the other pairs' %d rows are as they were" % len(others))
    mine = [r for r in saved if {r["map_a"], r["map_b"]} == {A, B}]
    check(all(r["map_a"] == A for r in mine), "the pair's rows are written %s first" % A)
    return (sorted(place(r) for r in mine if r.get("kind", "") in ("", "tie")),
            sorted(place(r) for r in mine if r.get("kind") == "rejected"))


def click(driver, selector):
    """Click an element of the table, which is drawn again when a refit's figures arrive."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    for _ in range(50):
        try:
            driver.find_element("css selector", selector).click()
            return
        except (StaleElementReferenceException, NoSuchElementException):
            time.sleep(0.1)
    raise RuntimeError("no element %s to click" % selector)


def check_pins(series, out, check):
    edit = json.load(open(os.path.join(out, "found-edit.json")))
    work = os.path.join(series, SERIES_WORK)

    def pins(name):
        # A helmert or affine sheet's georef.vrt carries points of its fit, not its pins
        # (WrittenPins); the pins the joint fit used are the `tie-N` rows of its report.json.
        report = json.load(open(os.path.join(work, name, "report.json")))
        return [tuple(g["pixel"]) for g in report["gcps"] if g["id"].startswith("tie-")]

    def has(points, p):
        return any(abs(x - p[0]) <= 1e-3 and abs(y - p[1]) <= 1e-3 for x, y in points)

    on_a, on_b = pins(edit["a"]), pins(edit["b"])
    moved, removed = edit["moved"], edit["removed"]
    check(has(on_b, moved["to"]["b"]) and has(on_a, moved["to"]["a"]),
          "%s's pins hold the moved tie at its new place %s" % (edit["b"], moved["to"]["b"]))
    check(not has(on_b, moved["from"]["b"]), "and not at its old place %s" % moved["from"]["b"])
    check(not has(on_a, removed["a"]) and not has(on_b, removed["b"]),
          "neither sheet holds the removed found tie (%s, %s)" % (removed["a"], removed["b"]))
    back = edit["restored"]
    check(has(on_a, back["a"]) and has(on_b, back["b"]), "both sheets hold the restored found tie (%s, %s)" % (back["a"], back["b"]))


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from browser_check import Checks
    check = Checks()
    mode = sys.argv[1]
    if mode == "index":
        check_index(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None, check)
    elif mode == "edit":
        drive(sys.argv[2], sys.argv[3], sys.argv[4], check)
    elif mode == "after":
        check_pins(sys.argv[2], sys.argv[3], check)
    print("%d failures" % len(check.failures))
    sys.exit(1 if check.failures else 0)


main()
