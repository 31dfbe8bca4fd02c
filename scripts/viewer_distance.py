"""Distances as the viewer's script writes them (viewer.js `distance`): 1,041 km; 12.4 km; 688 m.
Shared by scripts/viewer_check.py and scripts/sheet_index_check.py."""
import math


def person_distance(m):
    """A distance in metres as viewer.js writes it."""
    if m >= 100000:
        return "{:,} km".format(int(math.floor(m / 1000 + 0.5)))
    if m >= 1000:
        return "%.1f km" % (m / 1000)
    return "%d m" % int(math.floor(m + 0.5))
