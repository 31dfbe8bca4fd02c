# shellcheck shell=bash
# What several scripts need, written once. A script sources it before it changes folder:
#
#   source "$(dirname "$0")/lib.sh"
#   cd "$tegula_root"
#
#   tegula_root                       the package's root folder, absolute
#   tegula_venv                       the .venv's bin folder (scripts/setup makes it; its python3
#                                     has the Python oracles)
#   load_average                      the 1, 5 and 15 minute load as uptime writes it: "0.52, 0.61, 0.70"
#   load_now                          the 1 minute load alone: "0.52"
#   wait_for_url URL [TRIES] [PAUSE]  until URL answers 2xx (curl -sf), trying TRIES times PAUSE s
#                                     apart (100, 0.1); fails if it never did
#   free_port                         a TCP port free on 127.0.0.1 now (the kernel's pick)
#   bench_scan WORK                   the benchmark scan (BENCHMARKS.md): WORK/scan.tif, Schagen 1689
#                                     upscaled 4× to 10800×5400, made once, and WORK/scan-gcps.vrt,
#                                     it with its 5 GCPs (EPSG:4326)
#   bench_scan_geotransform WORK      WORK/scan-gt.vrt: the scan with the least-squares affine of
#                                     those GCPs as its geotransform (the same mapping for every tool)
#   gdal313_python WORK               prints the python of a venv with GDAL 3.13 (PyPI gdal-wheel
#                                     3.13.3 on pyenv's Python 3.12, for `gdal raster tile`), made
#                                     once in WORK/gdal313
#
# It sets no shell option: each script keeps its own `set -euo pipefail`.

tegula_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tegula_venv=$tegula_root/.venv/bin

load_average() { awk '{ printf "%s, %s, %s\n", $1, $2, $3 }' /proc/loadavg; }
load_now() { cut -d' ' -f1 /proc/loadavg; }

wait_for_url() {
  local url=$1 tries=${2:-100} pause=${3:-0.1} _
  for _ in $(seq "$tries"); do
    curl -sf -o /dev/null "$url" && return 0
    sleep "$pause"
  done
  return 1
}

free_port() {
  /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

bench_scan() {
  local work=$1 scan=/usr/share/marble/data/maps/earth/schagen1689/schagen1689.jpg
  if [ ! -f "$work/scan.tif" ]; then
    echo "bench: building the 10800×5400 benchmark scan" >&2
    gdal_translate -q -outsize 400% 400% -r bilinear "$scan" "$work/scan.tif"
  fi
  gdal_translate -q -of VRT -a_srs EPSG:4326 \
    -gcp 0 0 -30 60 -gcp 10800 0 30 60.5 -gcp 0 5400 -30.5 20 -gcp 10800 5400 30 20 -gcp 5400 2700 0.2 40 \
    "$work/scan.tif" "$work/scan-gcps.vrt"
}

gdal313_python() {
  local work=$1 py312
  if [ ! -x "$work/gdal313/bin/python" ]; then
    echo "bench: making the GDAL 3.13 venv (Python 3.12 from pyenv, gdal-wheel 3.13.3)" >&2
    py312=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.12*/bin/python3.12 2>/dev/null | tail -1)
    [ -n "$py312" ] || { echo "bench: no Python 3.12 under pyenv (gdal-wheel has no wheel for 3.11)" >&2; return 1; }
    "$py312" -m venv "$work/gdal313"
    "$work/gdal313/bin/pip" install -q 'gdal-wheel==3.13.3' numpy >&2
  fi
  echo "$work/gdal313/bin/python"
}

bench_scan_geotransform() {
  /usr/bin/python3 - "$1/scan-gcps.vrt" "$1/scan-gt.vrt" <<'PY'
import sys
import numpy as np
from osgeo import gdal
gdal.UseExceptions()
src = gdal.Open(sys.argv[1])
g = src.GetGCPs()
a = np.array([[1, p.GCPPixel, p.GCPLine] for p in g])
cx = np.linalg.lstsq(a, np.array([p.GCPX for p in g]), rcond=None)[0]
cy = np.linalg.lstsq(a, np.array([p.GCPY for p in g]), rcond=None)[0]
ds = gdal.Translate(sys.argv[2], src, format="VRT", GCPs=[])
ds.SetGCPs([], "")
ds.SetGeoTransform([cx[0], cx[1], cx[2], cy[0], cy[1], cy[2]])
ds.SetProjection(src.GetGCPProjection())
ds = None
PY
}
