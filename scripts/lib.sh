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
