// A scan in pixel space for Leaflet's L.CRS.Simple, read through its IIIF Image API 3.0 service
// (served as /scan-tiles.js; both editor pages use it). scan: {width, height, maxzoom, tilesize,
// iiif}. At zoom maxzoom one screen pixel is one scan pixel: the tile at zoom z, column x, row y is
// the region of scan pixels it covers, s = 2^(maxzoom − z) of them per screen pixel, asked for at
// the size it is drawn; a tile at the scan's right or bottom edge is smaller, and drawn at its own size.
window.tegulaScanTiles = function (scan) {
  var S = Math.pow(2, scan.maxzoom);  // scan pixels per L.CRS.Simple unit
  var Tiles = L.TileLayer.extend({
    region: function (c) {
      var s = Math.pow(2, scan.maxzoom - c.z), n = scan.tilesize * s, x = c.x * n, y = c.y * n;
      if (c.x < 0 || c.y < 0 || x >= scan.width || y >= scan.height) return null;
      var w = Math.min(n, scan.width - x), h = Math.min(n, scan.height - y);
      return { x: x, y: y, w: w, h: h, width: Math.ceil(w / s), height: Math.ceil(h / s) };
    },
    getTileUrl: function (c) {
      var r = this.region(c);
      if (!r) return L.Util.emptyImageUrl;
      return scan.iiif + '/' + [r.x, r.y, r.w, r.h].join(',') + '/' + r.width + ',' + r.height + '/0/default.jpg';
    },
    createTile: function (c, done) {
      var tile = L.TileLayer.prototype.createTile.call(this, c, done), r = this.region(c);
      if (r) L.DomEvent.on(tile, 'load', function () { tile.style.width = r.width + 'px'; tile.style.height = r.height + 'px'; });
      return tile;
    }
  });
  var api = {
    toLL: function (p) { return L.latLng(-p[1] / S, p[0] / S); },
    toPx: function (ll) { return [ll.lng * S, -ll.lat * S]; },
    inScan: function (p) { return p[0] >= 0 && p[1] >= 0 && p[0] <= scan.width && p[1] <= scan.height; }
  };
  api.bounds = L.latLngBounds(api.toLL([0, scan.height]), api.toLL([scan.width, 0]));
  // The map in element `id` with the scan's tiles, fitted to the scan.
  api.map = function (id) {
    var m = L.map(id, { crs: L.CRS.Simple, minZoom: -2, maxZoom: scan.maxzoom + 3, zoomSnap: 0.25,
                        attributionControl: false, boxZoom: false, doubleClickZoom: false });
    new Tiles('', { minZoom: -2, maxNativeZoom: scan.maxzoom, minNativeZoom: 0, maxZoom: scan.maxzoom + 3,
                    bounds: api.bounds, tileSize: scan.tilesize, noWrap: true, className: 'scan-tiles' }).addTo(m);
    m.fitBounds(api.bounds);
    return m;
  };
  return api;
};
