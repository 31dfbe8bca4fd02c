#!/usr/bin/env python3
"""An OGC API – Tiles server's answers validated against the specifications' own JSON schemas.

usage: ogc_schema_check.py LANDING_URL

Walks the API from its landing page by the links it gives (conformance, collections, each
collection's tilesets list, each tileset, tile matrix sets) and validates each answer with Python
`jsonschema` against the schemas vendored in Tests/Schemas (see its README): the OGC API – Tiles
1.0 OpenAPI document's response schemas (landing page, conformance, collections, collection,
tilesets list, tileset, tile matrix sets list, tile matrix set, exception) and the OGC 2D Tile
Matrix Set 2.0 schemas (`tileSet.json`, `tileMatrixSet.json`). Beside the schemas, the links the
requirements ask for: the landing page's conformance, data and tiling-schemes links, each
tileset's `self`, `tiling-scheme` and templated `item` link, whose first tile (from the limits)
is fetched and must be 200 with the link's media type.

Prints one JSON line: documents validated by kind; exits 1 naming the first invalid answer."""
import json
import os
import sys
import urllib.error
import urllib.request

from jsonschema import Draft4Validator, Draft201909Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4, DRAFT201909

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Schemas")
OGC = "http://www.opengis.net/def/rel/ogc/1.0/"

BUNDLE = json.load(open(os.path.join(ROOT, "ogcapi-tiles-1", "ogcapi-tiles-1.bundled.json")))
# The 2D TMS 2.0 schemas reference each other by file name; registered under the address they
# are published at, so those references resolve here and not on the network.
TMS_BASE = "https://schemas.opengis.net/tms/2.0/json/"
TMS_REGISTRY = Registry().with_resources(
    (TMS_BASE + name, Resource.from_contents(json.load(open(os.path.join(ROOT, "tms-2.0", name))), default_specification=DRAFT201909))
    for name in os.listdir(os.path.join(ROOT, "tms-2.0")) if name.endswith(".json"))
counts = {}


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def get(url):
    with urllib.request.urlopen(url) as r:
        return r.status, r.headers.get("Content-Type"), r.read()


def document(url):
    status, ctype, body = get(url)
    if status != 200 or not ctype.startswith("application/json"):
        fail(f"{url}: {status} {ctype}")
    return json.loads(body)


def check_response(url, response, value=None):
    """`value` (else the document at `url`) against the bundle's response `response`'s JSON schema,
    read as OpenAPI 3.0 reads it (JSON Schema draft 4 with the bundle's components)."""
    value = document(url) if value is None else value
    schema = dict(BUNDLE["components"]["responses"][response]["content"]["application/json"]["schema"])
    schema["components"] = BUNDLE["components"]
    Draft4Validator.check_schema(schema)
    errors = sorted(Draft4Validator(schema).iter_errors(value), key=str)
    if errors:
        fail(f"{url}: not a valid {response}: {errors[0].message} at {list(errors[0].absolute_path)}")
    counts[response] = counts.get(response, 0) + 1
    return value


def check_tms(url, name, value):
    """`value` against the 2D TMS 2.0 schema `name` (`tileSet.json`, `tileMatrixSet.json`)."""
    Draft201909Validator.check_schema(TMS_REGISTRY.contents(TMS_BASE + name))
    # By reference, so that the schema's own relative references resolve against its address.
    schema = {"$schema": "https://json-schema.org/draft/2019-09/schema", "$ref": TMS_BASE + name}
    errors = sorted(Draft201909Validator(schema, registry=TMS_REGISTRY).iter_errors(value), key=str)
    if errors:
        fail(f"{url}: not a valid {name}: {errors[0].message} at {list(errors[0].absolute_path)}")
    counts[name] = counts.get(name, 0) + 1


def link(doc, rel, url):
    found = [l for l in doc.get("links", []) if l["rel"] == rel]
    if not found:
        fail(f"{url}: no link with rel {rel}")
    return found[0]


def main():
    landing_url = sys.argv[1]
    landing = check_response(landing_url, "LandingPage")
    check_response(link(landing, OGC + "conformance", landing_url)["href"], "Conformance")
    sets_url = link(landing, OGC + "tiling-schemes", landing_url)["href"]
    for item in check_response(sets_url, "TileMatrixSetsList")["tileMatrixSets"]:
        set_url = link(item, "self", sets_url)["href"]
        tms = check_response(set_url, "TileMatrixSet")
        check_tms(set_url, "tileMatrixSet.json", tms)
    collections_url = link(landing, OGC + "data", landing_url)["href"]
    for c in check_response(collections_url, "CollectionsList")["collections"]:
        c_url = link(c, "self", collections_url)["href"]
        check_response(c_url, "Collection")
        list_url = link(c, OGC + "tilesets-map", c_url)["href"]
        for t in check_response(list_url, "TileSetsList")["tilesets"]:
            link(t, OGC + "tiling-scheme", list_url)
            t_url = link(t, "self", list_url)["href"]
            tileset = check_response(t_url, "TileSet")
            check_tms(t_url, "tileSet.json", tileset)
            check_response(link(tileset, OGC + "tiling-scheme", t_url)["href"], "TileMatrixSet")
            item = link(tileset, "item", t_url)
            if not item.get("templated") or "{tileMatrix}" not in item["href"]:
                fail(f"{t_url}: the item link is not a tile template")
            first = tileset["tileMatrixSetLimits"][0]
            tile_url = item["href"].format(tileMatrix=first["tileMatrix"], tileRow=first["minTileRow"], tileCol=first["minTileCol"])
            status, ctype, _ = get(tile_url)
            if status != 200 or ctype != item["type"]:
                fail(f"{tile_url}: {status} {ctype}, expected 200 {item['type']}")
            counts["tiles"] = counts.get("tiles", 0) + 1
    try:
        get(collections_url + "/no-such-collection")
        fail("an unknown collection was not refused")
    except urllib.error.HTTPError as e:
        if e.code != 404:
            fail(f"an unknown collection answered {e.code}, not 404")
        check_response(collections_url + "/no-such-collection", "NotFound", json.loads(e.read()))
    print(json.dumps(counts, sort_keys=True))


main()
