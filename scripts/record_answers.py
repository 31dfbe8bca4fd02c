#!/usr/bin/env python3
"""The body of scripts/record-answers (read its header first): runs TEGULA over fixed inputs in
WORK and writes into OUT what it answered, as text whose bytes should not change with a refactor.

    record_answers.py TEGULA OUT WORK ROOT      (called by scripts/record-answers)

What is written, per folder of OUT:
  environment.txt  what the answers depend on besides Tegula: cores (the --help texts' defaults),
                   the Debian packages of the libraries, Leaflet and the scans (not a diff of Tegula)
  inputs.txt       the MD5 of every input made or copied into WORK before Tegula ran
  cli/             NN-name.txt: each command, its exit status, stdout and stderr
  files/           what the commands wrote: JSON, VRT, GCP files and SVG pictures as text (a picture's
                   embedded images by their MD5), rasters by file MD5 plus `gdalinfo -checksum`,
                   tile folders, MBTiles and PMTiles as one line per tile (z x y bytes MD5) plus their
                   metadata (TileJSON, the MBTiles schema and metadata table, the PMTiles header,
                   metadata and directory)
  serve.txt, edit-points.txt, edit-json.txt, edit-vrt.txt, tie-edit.txt
                   each request to `tegula serve`/`tegula edit` in order: method, target and request
                   headers; the status line, the headers sorted by name, the body's length and MD5,
                   and the body itself when it is JSON or plain text (up to 64 KiB)

Normalised everywhere (so two runs are byte-identical, and before/after compare):
  - WORK is one fixed folder (scripts/record-answers: $TMPDIR/tegula-record-answers), since
    Tegula hashes a scan's path into a fit's version; where it is printed it is written @WORK@,
    TEGULA's path @TEGULA@, a server's port (bound to port 0, announced) 127.0.0.1:@PORT@; every
    request says `Host: 127.0.0.1:8080`, so what a server builds from the Host header is fixed;
  - every file in WORK gets one modification time (2000-01-01) before the servers start, since
    tiles on demand hash their sources' sizes and times into their version (?v=, ETags);
  - a tile folder's `.tegula-tileset` marker is recorded parsed with its keys sorted, not by MD5:
    Tegula writes its keys in a different order on every run (a Swift dictionary);
  - an MBTiles file has no file MD5, only its schema, metadata table and every tile's MD5: the
    rows go in in the order the worker threads finish, so the file's pages differ run to run.
Left out, with the reason:
  - the Date header (the clock); Server-Timing's value (a render's duration) is written <varies>;
  - the servers' own log output (timestamps, timings of the background warm-up of tiles on
    demand, which is waited for before the first request);
  - `tegula run`'s work folders' manifest.json (bookkeeping of stage inputs: file identities with
    inodes; not an answer; the reports, VRTs and outputs are recorded);
  - `tegula tile`/`warp`/`run` progress lines: they run with --quiet (the summaries of `run` are
    kept);
  - /metrics (counters and latency histograms): only its 404 without --metrics is recorded.
"""
import hashlib
import http.client
import json
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import time

TEGULA, OUT, WORK, ROOT = (os.path.abspath(a) for a in sys.argv[1:5])
HOST = "127.0.0.1:8080"
SCHAGEN = "/usr/share/marble/data/maps/earth/schagen1689/schagen1689.jpg"
BLUEMARBLE = "/usr/share/marble/data/maps/earth/bluemarble/bluemarble.jpg"
TEXT_LIMIT = 64 << 10

ENV = {k: v for k, v in os.environ.items() if not k.startswith("TEGULA_")}
ENV.update({"TZ": "UTC", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "HOME": os.path.join(WORK, "home"),
            "NO_PROXY": "*", "no_proxy": "*"})
for k in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"):
    ENV.pop(k, None)

substitutions = [(WORK.encode(), b"@WORK@"), (TEGULA.encode(), b"@TEGULA@")]


def norm(data):
    """Bytes or text with the per-run paths and port replaced."""
    text = isinstance(data, str)
    b = data.encode() if text else data
    for old, new in substitutions:
        b = b.replace(old, new)
    return b.decode("utf-8", "replace") if text else b


def md5(b):
    return hashlib.md5(b).hexdigest()


def write(rel, text):
    path = os.path.join(OUT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(norm(text))


def w(*parts):
    return os.path.join(WORK, *parts)


# ---------------------------------------------------------------- commands

step = [0]


def cli(name, args, cwd=WORK, stdin=None, timeout=300):
    """Run TEGULA ARGS in cwd; write cli/NN-name.txt; return the CompletedProcess."""
    step[0] += 1
    p = subprocess.run([TEGULA] + args, cwd=cwd, input=stdin.encode() if stdin else None, capture_output=True,
                       env=ENV, timeout=timeout)
    where = os.path.relpath(cwd, WORK)
    text = f"$ (cd {where} && tegula {shlex.join(args)})\n"
    if stdin:
        text += "stdin:\n" + stdin
    text += f"exit status {p.returncode}\n--- stdout\n{p.stdout.decode('utf-8', 'replace')}--- stderr\n{p.stderr.decode('utf-8', 'replace')}"
    write(f"cli/{step[0]:02d}-{name}.txt", text)
    return p


def tool(args, cwd=WORK):
    """Another program (GDAL, make-series); its failure ends the recording."""
    return subprocess.run(args, cwd=cwd, check=True, capture_output=True, env=ENV).stdout.decode()


# ---------------------------------------------------------------- what the commands wrote

def text_file(path):
    """A text output as it is, with embedded base64 images (SVG pictures) replaced by their MD5."""
    with open(path, "rb") as f:
        b = f.read()
    b = re.sub(rb"data:([a-z/+]+);base64,([A-Za-z0-9+/=\s]+)",
               lambda m: b"data:" + m.group(1) + b";md5=" + md5(m.group(2)).encode(), b)
    return b.decode("utf-8", "replace")


def record_text(rel_in_work, name=None):
    write("files/" + (name or rel_in_work), text_file(w(rel_in_work)))


def file_md5(path):
    with open(path, "rb") as f:
        return md5(f.read())


def record_raster(rel_in_work):
    """File MD5, and gdalinfo -checksum (per band checksums of the pixels) run beside it."""
    d, base = os.path.split(w(rel_in_work))
    info = tool(["gdalinfo", "-checksum", base], cwd=d)
    write("files/" + rel_in_work + ".txt", f"file md5 {file_md5(w(rel_in_work))}\n--- gdalinfo -checksum\n{info}")


def record_folder(rel_in_work):
    """A tile folder: every file's size and MD5; its JSON files as they are."""
    root = w(rel_in_work)
    lines = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(d, f)
            if f == ".tegula-tileset":
                continue  # its keys come in a different order each run: recorded parsed, below
            with open(p, "rb") as fh:
                b = fh.read()
            lines.append(f"{os.path.relpath(p, root)} {len(b)} {md5(b)}")
    lines.sort(key=tile_key)
    text = f"# {len(lines)} files: path bytes md5\n" + "\n".join(lines) + "\n"
    if os.path.exists(os.path.join(root, "tiles.json")):
        text += "--- tiles.json\n" + text_file(os.path.join(root, "tiles.json")) + "\n"
    marker = os.path.join(root, ".tegula-tileset")
    if os.path.exists(marker):
        with open(marker) as fh:
            text += "--- .tegula-tileset, parsed, keys sorted\n" + json.dumps(json.load(fh), sort_keys=True) + "\n"
    write("files/" + rel_in_work + ".folder.txt", text)


def tile_key(line):
    path = line.split(" ")[0]
    nums = re.findall(r"\d+", path)
    return (len(nums) != 3, [int(n) for n in nums] if len(nums) == 3 else [], path)


def record_mbtiles(rel_in_work):
    path = w(rel_in_work)
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    text = ""  # no file MD5: the tiles' rows are written in the order the workers finish them
    for t, n, sql in db.execute("SELECT type, name, sql FROM sqlite_master ORDER BY type, name"):
        text += f"schema {t} {n} {sql}\n"
    for n, v in db.execute("SELECT name, value FROM metadata ORDER BY name"):
        text += f"metadata {n} {v}\n"
    rows = db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY 1, 2, 3").fetchall()
    text += f"# {len(rows)} tiles: z x tms-row bytes md5\n"
    text += "".join(f"{z} {x} {y} {len(b)} {md5(b)}\n" for z, x, y, b in rows)
    db.close()
    write("files/" + rel_in_work + ".txt", text)


def record_pmtiles(rel_in_work):
    from pmtiles.reader import MmapSource, Reader, all_tiles
    from pmtiles.tile import deserialize_directory
    path = w(rel_in_work)
    text = f"file md5 {file_md5(path)}\n"
    with open(path, "rb") as f:
        get = MmapSource(f)
        reader = Reader(get)
        h = reader.header()
        for k in sorted(h):
            text += f"header {k} {getattr(h[k], 'name', h[k])}\n"
        text += "metadata " + json.dumps(reader.metadata(), sort_keys=True) + "\n"

        def walk(name, offset, length):
            out = ""
            for e in deserialize_directory(get(offset, length)):
                out += f"{name} {e.tile_id} {e.offset} {e.length} {e.run_length}\n"
                if e.run_length == 0:
                    out += walk("leaf@%d" % e.offset, h["leaf_directory_offset"] + e.offset, e.length)
            return out
        text += walk("root", h["root_offset"], h["root_length"])
        tiles = sorted(((z, x, y), b) for (z, x, y), b in all_tiles(get))
        text += f"# {len(tiles)} tiles: z x y bytes md5\n"
        text += "".join(f"{z} {x} {y} {len(b)} {md5(b)}\n" for (z, x, y), b in tiles)
    write("files/" + rel_in_work + ".txt", text)


# ---------------------------------------------------------------- servers

class Server:
    """`tegula serve|edit ARGS --port 0` in cwd: the port from the line it prints once listening."""

    def __init__(self, args, cwd, record, ready=None, ready_count=0):
        self.log_path = os.path.join(WORK, "logs", record.replace("/", "-") + ".log")
        os.makedirs(os.path.dirname(self.log_path), exist_ok=True)
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen([TEGULA] + args + ["--port", "0"], cwd=cwd, stdout=self.log, stderr=self.log, env=ENV)
        self.record = record
        self.text = f"# (cd {os.path.relpath(cwd, WORK)} && tegula {shlex.join(args)} --port 0)\n"
        self.answers = {}
        deadline = time.time() + 60
        self.port = None
        while self.port is None:
            m = re.search(r"(?:listening on|open) http://127\.0\.0\.1:(\d+)", self.said())
            if m:
                self.port = int(m.group(1))
            elif self.proc.poll() is not None or time.time() > deadline:
                self.stop()
                sys.exit(f"record-answers: tegula {' '.join(args)} did not listen:\n{self.said()}")
            else:
                time.sleep(0.05)
        substitutions.append((f"127.0.0.1:{self.port}".encode(), b"127.0.0.1:@PORT@"))
        substitutions.append((f"localhost:{self.port}".encode(), b"localhost:@PORT@"))
        # Scans rendered on demand warp their lower zooms in the background after listening; a
        # tile asked before that is rendered alone. Wait for them, so the answers do not depend on
        # the race (a recording where they did not come within the minute says so).
        if ready:
            deadline = time.time() + 60
            while len(re.findall(ready, self.said())) < ready_count and time.time() < deadline:
                time.sleep(0.1)
            if len(re.findall(ready, self.said())) < ready_count:
                print(f"record-answers: {record}: fewer than {ready_count} lines matching {ready!r} within 60 s; "
                      "went on (not recorded: the wait is only there to let the warm-up finish)", file=sys.stderr)

    def said(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def ask(self, method, target, body=None, headers=(), label=None):
        """One request on a connection of its own; the answer is recorded and returned."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        head = f"=== {method} {target}" + (f"   ({label})" if label else "") + "\n"
        for k, v in headers:
            head += f"> {k}: {v}\n"
        try:
            c.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
            c.putheader("Host", HOST)
            for k, v in headers:
                c.putheader(k, v)
            data = None
            if body is not None:
                data = body if isinstance(body, bytes) else json.dumps(body, sort_keys=True).encode()
                c.putheader("Content-Type", "application/json")
                c.putheader("Content-Length", str(len(data)))
                head += f"> body: {len(data)} bytes, md5 {md5(data)}\n"
            c.putheader("Connection", "close")
            c.endheaders(data)
            r = c.getresponse()
            payload = r.read()
        except (OSError, http.client.HTTPException) as e:
            self.text += head + f"no answer: {type(e).__name__}\n\n"
            return None
        finally:
            c.close()
        payload = norm(payload)
        text = head + f"HTTP/{r.version // 10}.{r.version % 10} {r.status} {r.reason}\n"
        fields = sorted(((k.lower(), v) for k, v in r.getheaders()), key=lambda kv: kv[0])
        for k, v in fields:
            if k == "date":
                continue
            if k == "server-timing":
                v = "<varies>"
            text += f"{k}: {norm(v)}\n"
        text += f"body: {len(payload)} bytes, md5 {md5(payload)}\n"
        ctype = dict(fields).get("content-type", "")
        if payload and len(payload) <= TEXT_LIMIT and re.search(r"json|text/plain|geo\+json|xml", ctype):
            text += payload.decode("utf-8", "replace").rstrip("\n") + "\n"
        self.text += text + "\n"
        answer = (r.status, dict(fields), payload)
        self.answers[label or f"{method} {target}"] = answer
        return answer

    def get(self, target, **kw):
        return self.ask("GET", target, **kw)

    def etag(self, target):
        a = self.answers.get(f"GET {target}")
        return a[1].get("etag", "") if a else ""

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.log.close()
        if self.port:
            write(self.record, self.text)


# Tile paths no server should answer with a tile, asked of every server under a tileset's prefix.
BAD_TILES = [
    "0/1/0.png", "1/0/2.png", "3/8/0.png",  # x or y >= 2^z
    "31/0/0.png", "99/0/0.png", "123/0/0.png",  # zoom beyond the grid's, too many digits
    "01/0/0.png", "0/00/0.png", "0/0/-1.png", "0/0/+0.png", "0/0/0x1.png", "a/b/c.png",  # bad numbers
    "0/0/99999999999.png", "0/0/0", "0/0/0.", "0/0/0.gif", "0/0/0.PNG", "0/0/0.png.png",  # names, extensions
    "0/0/%30.png", "0/0/0%2Epng", "0%2F0/0.png", "0/0/0.png%", "0/0/0.png%zz",  # percent-encoding
    "../0/0/0.png", "0/../0/0.png", "./0/0/0.png", "0/0/0.png/", "0//0/0.png", "0/0/%2e%2e",  # dot segments
    "0/0/0.png?x=1&y=2", "0/0/0@2x.png", "0/0/0@3x.png",
]


def bad_paths(s, prefix):
    for t in BAD_TILES:
        s.get(prefix + t)


def serve():
    # Tilesets cut above, scans rendered on demand (a scan with its points, a georef VRT, the demo's
    # pipeline), a composite with its sheet index.
    s = Server(["serve", "tiles", "sch-mb.mbtiles", "sch-pm.pmtiles", "retina", "bm", "scan.jpg:scan.points",
                "georef-tps.vrt", "demo/out/demo/world.pmtiles", "series/series.yml"], WORK, "serve.txt",
               ready=r"held", ready_count=4)
    try:
        for t in ["/", "/viewer.js", "/leaflet/leaflet.js", "/leaflet/leaflet.css", "/leaflet/images/marker-icon.png",
                  "/leaflet/nope.js", "/health", "/metrics", "/maps?lon=0&lat=10", "/maps?lon=-4.5&lat=56",
                  "/maps?lon=200&lat=0", "/maps", "/maps?lon=abc&lat=1"]:
            s.get(t)
        for ts in ["tiles", "sch-mb", "sch-pm", "retina", "bm", "scan", "georef-tps", "world", "r1c1", "r1c2", "nope"]:
            s.get(f"/{ts}.json")
        for t in ["/world.index.geojson", "/tiles.index.geojson", "/.json", "/..json", "/tiles.JSON"]:
            s.get(t)
        # good tiles, and missing ones within and beyond the zooms
        for t in ["/tiles/0/0/0.png", "/tiles/3/4/3.png", "/tiles/5/16/10.png", "/tiles/5/0/0.png", "/tiles/6/32/20.png",
                  "/tiles/tms/0/0/0.png", "/tiles/tms/3/4/4.png", "/tiles/0/0/0.jpg",
                  "/sch-mb/0/0/0.jpg", "/sch-mb/2/1/1.jpg", "/sch-mb/4/8/5.jpg", "/sch-mb/tms/2/1/2.jpg", "/sch-mb/2/1/1.png",
                  "/sch-pm/0/0/0.webp", "/sch-pm/3/4/3.webp", "/sch-pm/tms/3/4/4.webp",
                  "/retina/0/0/0@2x.png", "/retina/2/1/1@2x.png", "/retina/0/0/0.png", "/retina/tms/2/1/2@2x.png",
                  "/bm/0/0/0.png", "/bm/2/2/1.png",
                  "/scan/0/0/0.png", "/scan/2/1/1.png", "/scan/3/4/3.png", "/scan/3/0/0.png", "/scan/tms/3/4/4.png",
                  "/georef-tps/1/0/0.png", "/georef-tps/3/5/3.png",
                  "/world/0/0/0.png", "/world/3/4/3.png",
                  "/r1c1/7/62/40.png", "/r1c1/6/31/20.png", "/r1c2/7/63/40.png", "/r1c2/7/62/40.png", "/r1c1/5/15/10.png",
                  "/nope/0/0/0.png"]:
            s.get(t)
        s.get("/tiles/0/0/0.png", headers=[("If-None-Match", s.etag("/tiles/0/0/0.png"))], label="conditional")
        s.get("/scan/2/1/1.png", headers=[("If-None-Match", s.etag("/scan/2/1/1.png"))], label="conditional scan")
        s.get("/tiles.json", headers=[("If-None-Match", "*")], label="conditional star")
        s.get("/sch-pm/0/0/0.webp", headers=[("Accept-Encoding", "gzip")], label="gzip")
        bad_paths(s, "/tiles/")
        bad_paths(s, "/scan/")
        for t in ["/tiles/tms/0/1/0.png", "/tiles/tms/31/0/0.png", "/tiles/x/0/0/0.png", "/tiles/0/0/0/0.png",
                  "/%2e%2e/etc/passwd", "/..%2f..%2fetc/passwd", "//tiles/0/0/0.png", "/tiles%2F0%2F0%2F0.png",
                  "/%ff/0/0/0.png", "/tiles\\0\\0\\0.png", "/tiles/0/0/%00.png", "no-slash"]:
            s.get(t)
        # IIIF
        for t in ["/iiif/scan", "/iiif/scan/", "/iiif/scan/info.json", "/iiif/georef-tps/info.json", "/iiif/tiles/info.json",
                  "/iiif/nope/info.json", "/iiif/scan/full/max/0/default.jpg", "/iiif/scan/full/338,/0/default.png",
                  "/iiif/scan/0,0,512,512/256,/0/default.png", "/iiif/scan/1024,512,512,512/512,512/0/default.webp",
                  "/iiif/scan/pct:10,10,20,20/max/0/default.jpg", "/iiif/scan/full/!200,200/0/default.jpg",
                  "/iiif/scan/full/pct:10/0/default.jpg", "/iiif/scan/full/^3000,/0/default.jpg",
                  "/iiif/scan/full/3000,/0/default.jpg", "/iiif/scan/full/max/90/default.jpg",
                  "/iiif/scan/full/max/0/gray.jpg", "/iiif/scan/full/max/0/default.gif",
                  "/iiif/scan/3000,0,10,10/max/0/default.jpg", "/iiif/scan/0,0,0,0/max/0/default.jpg",
                  "/iiif/scan/square/max/0/default.jpg", "/iiif/scan/full/max/0/default.jpg/extra", "/iiif/r1c1/info.json"]:
            s.get(t)
        s.get("/iiif/scan/info.json", headers=[("Accept", 'application/ld+json;profile="http://iiif.io/api/image/3/context.json"')],
              label="info ld+json")
        # methods
        s.ask("HEAD", "/tiles/0/0/0.png")
        s.ask("HEAD", "/tiles.json")
        s.ask("POST", "/tiles/0/0/0.png", body=b"")
        s.ask("PUT", "/health", body=b"{}")
        s.ask("DELETE", "/tiles.json")
        s.ask("OPTIONS", "/tiles/0/0/0.png", headers=[("Origin", "http://example.org"), ("Access-Control-Request-Method", "GET")])
        s.ask("POST", "/iiif/scan/info.json", body=b"")
        s.ask("PATCH", "/", body=b"")
    finally:
        s.stop()


def session_body(points, transform="auto", mask=None, output=""):
    return {"gcp_srs": "EPSG:4326", "gcps": points, "mask": mask, "output": output, "transform": transform}


def editor(name, output, more):
    """`tegula edit scan.jpg --gcps scan.points -o OUTPUT --basemap ../tiles`: pages, API, bad paths, a save."""
    s = Server(["edit", "scan.jpg", "--gcps", "scan.points", "-o", output, "--basemap", "../tiles"], w("edit"), name)
    try:
        for t in ["/", "/editor.js", "/scan-tiles.js", "/leaflet/leaflet.js", "/leaflet/leaflet.css", "/leaflet/nope.js",
                  "/api/session"]:
            s.get(t)
        start = json.loads(s.answers["GET /api/session"][2])
        points = start["gcps"]
        fit = s.ask("POST", "/api/fit", body=start)
        version = json.loads(fit[2]).get("version", "none") if fit and fit[0] == 200 else "none"
        if not more:
            s.ask("PUT", "/api/session", body=session_body(points, "tps", [[8, 8], [2692, 8], [2692, 1342], [8, 1342]]),
                  label="save, tps, masked")
            s.get("/api/session", label="session after save")
            return
        for t in [f"/overlay/{version}.json", f"/overlay/{version}/0/0/0.png", f"/overlay/{version}/2/1/1.png",
                  f"/overlay/{version}/3/4/3.png", f"/overlay/{version}/3/0/0.png", "/overlay/0000000000000000.json",
                  "/overlay/0000000000000000/0/0/0.png", f"/overlay/{version}/0/0/0.jpg", f"/overlay/{version}"]:
            s.get(t)
        bad_paths(s, f"/overlay/{version}/")
        for t in ["/iiif/scan", "/iiif/scan/info.json", "/iiif/scan/0,0,512,512/512,/0/default.jpg",
                  "/iiif/scan/full/338,/0/default.png", "/iiif/scan/full/max/90/default.jpg", "/iiif/nope/info.json",
                  "/basemap/tiles.json", "/basemap/tiles/0/0/0.png", "/basemap/tiles/3/4/3.png", "/basemap/", "/basemap",
                  "/basemap/nope.json", "/basemap/health"]:
            s.get(t)
        bad_paths(s, "/basemap/tiles/")
        for t in [f"/api/predict?v={version}&x=1350&y=675", f"/api/predict?v={version}&lon=0&lat=0",
                  f"/api/predict?v={version}&x=-100000&y=1e9", "/api/predict?v=0000000000000000&x=1&y=1",
                  f"/api/predict?v={version}", f"/api/predict?v={version}&x=abc&y=1", "/api/predict",
                  "/api/convert?crs=EPSG:28992&x=155000&y=463000", "/api/convert?crs=EPSG:3857&x=0&y=0",
                  "/api/convert?crs=EPSG:99999&x=1&y=1", "/api/convert?crs=EPSG:28992", "/api/convert?crs=EPSG:4326&x=500&y=1",
                  "/api/nope", "/api/session/extra", "/nope", "/editor.js/x", "/%2e%2e/api/session"]:
            s.get(t)
        # fits: a subset with a given transform, refusals (422) and a malformed body
        s.ask("POST", "/api/fit", body=session_body(points[:6], "polynomial1"), label="fit affine")
        s.ask("POST", "/api/fit", body=session_body(points, "helmert", [[8, 8], [2692, 8], [2692, 1342], [8, 1342]]),
              label="fit helmert masked")
        off = [dict(p) for p in points[:5]]
        off[2]["pixel"] = [5000, 10]
        s.ask("POST", "/api/fit", body=session_body(off), label="pixel outside")
        line = [{"id": f"p{i}", "pixel": [100 * i, 100 * i], "ground": [i, i], "enabled": True, "note": ""} for i in range(1, 5)]
        s.ask("POST", "/api/fit", body=session_body(line, "polynomial1"), label="collinear")
        s.ask("POST", "/api/fit", body=session_body(points[:2], "polynomial2"), label="too few")
        bad = [dict(p) for p in points[:6]]
        bad[0]["ground"] = [200, 100]
        s.ask("POST", "/api/fit", body=session_body(bad), label="invalid ground")
        s.ask("POST", "/api/fit", body=session_body(points, "nope"), label="bad transform")
        s.ask("POST", "/api/fit", body=session_body(points, mask=[[1, 1], [2, 2]]), label="bad mask")
        s.ask("POST", "/api/fit", body=session_body(points, output="elsewhere.points"), label="other output")
        dup = [dict(p) for p in points[:6]] + [dict(points[0], id="again")]
        s.ask("POST", "/api/fit", body=session_body(dup), label="duplicate")
        s.ask("POST", "/api/fit", body=b"{not json", label="not json")
        s.ask("POST", "/api/fit", body=b"", label="empty")
        # methods
        s.ask("DELETE", "/api/session")
        s.ask("GET", "/api/fit")
        s.ask("HEAD", "/api/session")
        s.ask("HEAD", "/")
        s.ask("POST", "/", body=b"")
        s.ask("PUT", f"/overlay/{version}/0/0/0.png", body=b"")
        s.ask("POST", "/api/predict", body=b"")
        # the save, then what the session says
        s.ask("PUT", "/api/session", body=session_body(points, "tps", [[8, 8], [2692, 8], [2692, 1342], [8, 1342]]),
              label="save, tps, masked")
        s.get("/api/session", label="session after save")
    finally:
        s.stop()


def tie_editor():
    s = Server(["edit", "series.yml", "--map", "r1c1", "--tie-with", "r1c2"], w("series"), "tie-edit.txt")
    try:
        for t in ["/", "/ties.js", "/scan-tiles.js", "/leaflet/leaflet.js", "/leaflet/nope.js", "/api/ties",
                  "/iiif/r1c1/info.json", "/iiif/r1c2/info.json", "/iiif/r1c1/full/max/0/default.png",
                  "/iiif/r1c2/0,0,128,128/64,/0/default.jpg", "/iiif/nope/info.json",
                  "/api/predict?from=a&x=284&y=28", "/api/predict?from=b&x=28&y=284", "/api/predict?from=a&x=1&y=1",
                  "/api/predict?from=c&x=1&y=1", "/api/predict", "/api/nope", "/nope", "/overlay/x/0/0/0.png"]:
            s.get(t)
        ties = json.loads(s.answers["GET /api/ties"][2])
        s.ask("POST", "/api/seams", body=ties, label="the ties as loaded")
        more = dict(ties, ties=ties["ties"] + [{"id": "t3", "a": [284, 150], "b": [28, 150]}])
        s.ask("POST", "/api/seams", body=more, label="seams of three")
        s.ask("POST", "/api/seams", body=dict(ties, map_b="r9c9"), label="unknown map")
        s.ask("POST", "/api/seams", body=dict(ties, ties=[{"id": "t1", "a": [9999, 0], "b": [0, 0]}]), label="outside")
        s.ask("POST", "/api/seams", body=b"[]", label="not a session")
        s.ask("DELETE", "/api/ties")
        s.ask("GET", "/api/seams")
        s.ask("POST", "/", body=b"")
        s.ask("PUT", "/api/ties", body=more, label="save three ties")
        s.get("/api/ties", label="ties after save")
    finally:
        s.stop()


# ---------------------------------------------------------------- the run

def inputs():
    os.makedirs(w("home"))
    shutil.copy(SCHAGEN, w("scan.jpg"))
    shutil.copy(os.path.join(ROOT, "pipelines/schagen1689.points"), w("scan.points"))
    for f in ("schagen1689-sample.csv", "schagen1689-sample.json", "schagen1689-sample.vrt"):
        shutil.copy(os.path.join(ROOT, "pipelines", f), w(f))
    with open(w("mask.wkt"), "w") as f:
        f.write("POLYGON ((8 8, 2692 8, 2692 1342, 8 1342, 8 8))\n")
    tool(["gdal_translate", "-q", "-of", "VRT", "-a_srs", "EPSG:4326", "-a_ullr", "-180", "85", "180", "-85",
          BLUEMARBLE, "bm.vrt"])
    os.makedirs(w("demo"))
    shutil.copy(os.path.join(ROOT, "pipelines/demo.yml"), w("demo/demo.yml"))
    shutil.copy(os.path.join(ROOT, "pipelines/schagen1689.points"), w("demo/schagen1689.points"))
    tool([os.path.join(ROOT, "scripts/make-series"), "series", "--cols", "2", "--rows", "1"])
    os.makedirs(w("edit"))
    shutil.copy(SCHAGEN, w("edit/scan.jpg"))
    shutil.copy(os.path.join(ROOT, "pipelines/schagen1689.points"), w("edit/scan.points"))
    lines = []
    for d, dirs, files in os.walk(WORK):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(d, f)
            lines.append(f"{file_md5(p)}  {os.path.relpath(p, WORK)}")
    write("inputs.txt", "# the inputs, made or copied before Tegula ran (md5  path in the work folder)\n" + "\n".join(lines) + "\n")
    fix_times()


def fix_times():
    """Every file in WORK gets one modification time (2000-01-01): tiles on demand hash their
    sources' paths, sizes and modification times into a version (TileJSON's ?v=, ETags, the
    viewer page), and the commands' outputs served on demand were written moments ago."""
    for d, dirs, files in os.walk(WORK):
        for f in files:
            os.utime(os.path.join(d, f), (946684800, 946684800))


def environment():
    pkgs = ["libgdal32", "libproj25", "libpng16-16", "libdeflate0", "libturbojpeg0", "libwebp7", "libimagequant0",
            "libsqlite3-0", "libjs-leaflet", "marble-qt-data", "gdal-bin"]
    q = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Version}\\n"] + pkgs, capture_output=True, text=True)
    write("environment.txt", "# what the answers depend on besides Tegula; a change here explains a diff elsewhere\n"
          f"cores {os.cpu_count()} (the --help texts' defaults of --jobs and --render-threads)\n"
          + tool(["gdalinfo", "--version"]) + q.stdout)


def commands():
    for args in [["--help"], ["--version"], ["help"]] + [[c, "--help"] for c in
                 ["grid", "info", "georef", "match", "transform", "warp", "tile", "run", "serve", "edit"]] \
            + [["grid", c, "--help"] for c in ["tile", "bounds", "quadkey", "cover"]] + [["nope"]]:
        cli("help-subcommand" if args == ["help"] else "help-" + "-".join(a.replace("-", "") for a in args), args)
    cli("grid-tile", ["grid", "tile", "4.9", "52.37", "12"])
    cli("grid-tile-stdin", ["grid", "tile"], stdin="0 0 0\n180 85.0511 3\n-180 -90 30\n4.9 52.37 31\n")
    cli("grid-bounds", ["grid", "bounds", "12", "2103", "1346"])
    cli("grid-bounds-3857", ["grid", "bounds", "12", "2103", "1346", "--srs", "EPSG:3857"])
    cli("grid-quadkey", ["grid", "quadkey", "3", "4", "2"])
    cli("grid-quadkey-back", ["grid", "quadkey", "120"])
    cli("grid-cover", ["grid", "cover", "--bbox", "-10,35,30,60", "--zoom", "3"])
    cli("grid-bad", ["grid", "bounds", "2", "4", "0"])

    cli("georef-tps", ["georef", "scan.jpg", "--gcps", "scan.points", "--transform", "tps", "--mask", "mask.wkt",
                       "-o", "georef-tps.vrt", "--report", "georef-tps.report.json", "--picture", "georef-tps.svg"])
    for f in ["georef-tps.vrt", "georef-tps.report.json", "georef-tps.svg"]:
        record_text(f)
    record_raster("georef-tps.mask.tif")
    cli("georef-auto-tif", ["georef", "scan.jpg", "--gcps", "scan.points", "-o", "georef-auto.tif",
                            "--report", "georef-auto.report.json"])
    record_text("georef-auto.report.json")
    record_raster("georef-auto.tif")
    cli("georef-affine-gcp-srs", ["georef", "scan.jpg", "--gcps", "scan.points", "--transform", "polynomial1",
                                  "--fit-srs", "gcp", "-o", "georef-affine.vrt", "--report", "georef-affine.report.json"])
    record_text("georef-affine.vrt")
    record_text("georef-affine.report.json")
    for ext in ["csv", "json", "vrt"]:
        cli(f"georef-sample-{ext}", ["georef", "scan.jpg", "--gcps", f"schagen1689-sample.{ext}", "-o", f"sample-{ext}.vrt",
                                     "--report", f"sample-{ext}.report.json"])
        record_text(f"sample-{ext}.report.json")
        record_text(f"sample-{ext}.vrt")
    cli("georef-bad-transform", ["georef", "scan.jpg", "--gcps", "scan.points", "--transform", "nope", "-o", "bad.vrt"])
    cli("georef-no-gcps", ["georef", "scan.jpg", "-o", "bad.vrt"])
    cli("georef-missing", ["georef", "nope.jpg", "--gcps", "scan.points", "-o", "bad.vrt"])

    cli("info-scan", ["info", "scan.jpg"])
    cli("info-vrt-json", ["info", "georef-tps.vrt", "--json"])
    cli("info-missing", ["info", "nope.tif"])
    cli("transform", ["transform", "--gcps", "scan.points", "--transform", "tps", "--image", "scan.jpg"],
        stdin="0 0\n1350 675\n2700 1350\n1287 408\n")
    cli("transform-inverse", ["transform", "--gcps", "scan.points", "--inverse"], stdin="0 0\n4.9 52.37\n-67.27 -55.98\n")

    cli("warp-vrt-z4", ["warp", "georef-tps.vrt", "-o", "warp-z4.tif", "--zoom", "4", "--quiet"])
    record_raster("warp-z4.tif")
    cli("warp-auto-cog-cubic", ["warp", "scan.jpg", "--gcps", "scan.points", "-o", "warp-cog.tif", "--zoom", "auto",
                                "--cog", "--resampling", "cubic", "--quiet"])
    record_raster("warp-cog.tif")
    cli("warp-bm-near", ["warp", "bm.vrt", "-o", "warp-bm.tif", "--zoom", "2", "--resampling", "near", "--quiet"])
    record_raster("warp-bm.tif")

    cli("tile-folder-png", ["tile", "georef-tps.vrt", "-o", "tiles", "--zoom", "0-5", "--quiet"])
    record_folder("tiles")
    cli("tile-mbtiles-jpg", ["tile", "georef-tps.vrt", "-o", "sch-mb.mbtiles", "--zoom", "0-4", "--format", "jpg",
                             "--quiet"])
    record_mbtiles("sch-mb.mbtiles")
    cli("tile-pmtiles-webp", ["tile", "georef-tps.vrt", "-o", "sch-pm.pmtiles", "--zoom", "0-3", "--format", "webp",
                              "--quiet"])
    record_pmtiles("sch-pm.pmtiles")
    cli("tile-retina-png8-tms", ["tile", "scan.jpg", "--gcps", "scan.points", "-o", "retina", "--zoom", "0-2",
                                 "--format", "png8", "--scale", "2", "--layout", "tms", "--quiet"])
    record_folder("retina")
    cli("tile-auto-lanczos", ["tile", "georef-tps.vrt", "-o", "auto", "--zoom", "0-3", "--format", "auto",
                              "--resampling", "lanczos", "--quiet"])
    record_folder("auto")
    cli("tile-bm-512-average", ["tile", "bm.vrt", "-o", "bm", "--zoom", "0-2", "--tile-size", "512",
                                "--resampling", "average", "--name", "Blue Marble", "--quiet"])
    record_folder("bm")
    cli("tile-bad-zoom", ["tile", "georef-tps.vrt", "-o", "bad-zoom", "--zoom", "5-2", "--quiet"])
    os.makedirs(w("not-a-tileset"))
    with open(w("not-a-tileset/notes.txt"), "w") as f:
        f.write("not tiles\n")
    cli("tile-over-non-tileset", ["tile", "georef-tps.vrt", "-o", "not-a-tileset", "--zoom", "0", "--quiet"])

    cli("match", ["match", "scan.jpg", "--reference", "georef-auto.tif", "-o", "match.points"])
    record_text("match.points")

    cli("run-demo-dry", ["run", "demo.yml", "--dry-run"], cwd=w("demo"))
    cli("run-demo", ["run", "demo.yml", "--quiet"], cwd=w("demo"))
    for f in ["bluemarble.pmtiles", "schagen1689.pmtiles", "world.pmtiles"]:
        record_pmtiles(f"demo/out/demo/{f}")
    record_text("demo/out/demo/world.index.geojson")
    for f in ["schagen1689/report.json", "schagen1689/residuals.svg", "schagen1689/georef.vrt", "schagen1689/mask.wkt",
              "bluemarble/georef.vrt"]:
        record_text(f"demo/.tegula/demo/{f}")
    for f in ["schagen1689/warped.tif", "bluemarble/warped.tif"]:
        if os.path.exists(w(f"demo/.tegula/demo/{f}")):
            record_raster(f"demo/.tegula/demo/{f}")
    cli("run-demo-again", ["run", "demo.yml"], cwd=w("demo"))
    cli("run-series-dry-shards", ["run", "series.yml", "--dry-run", "--shards", "2"], cwd=w("series"))
    cli("run-series", ["run", "series.yml", "--quiet"], cwd=w("series"))
    record_pmtiles("series/out/series.pmtiles")
    record_text("series/out/series.index.geojson")
    for m in ["r1c1", "r1c2"]:
        record_text(f"series/.tegula/series/{m}/report.json")
        record_text(f"series/.tegula/series/{m}/georef.vrt")


def main():
    os.makedirs(OUT, exist_ok=True)
    environment()
    inputs()
    commands()
    fix_times()
    serve()
    editor("edit-points.txt", "out.points", more=True)
    for f in ["out.points", "out.points.fit", "out.points.session.json"]:
        if os.path.exists(w("edit", f)):
            record_text(f"edit/{f}")
    editor("edit-json.txt", "out.json", more=False)
    editor("edit-vrt.txt", "out.vrt", more=False)
    for f in ["out.json", "out.vrt", "out.json.session.json"]:
        if os.path.exists(w("edit", f)):
            record_text(f"edit/{f}")
    tie_editor()
    record_text("series/series.yml", "series/series.yml.after-tie-save")


if __name__ == "__main__":
    main()
