// The viewer's CRS for a tileset cut in another tile matrix set than WebMercatorQuad (served as
// /viewer-crs.js, before viewer.js): a Leaflet CRS made from the set as the server describes it
// (the `grid` of a catalogue entry, ViewerGrid.swift), with no library beside Leaflet.
//
// Leaflet's pixels at zoom z are the set's CRS units divided by the cell size of level z, counted
// from the first level's top-left corner: a tile's place follows from the set's numbers alone.
// Fractional zooms scale geometrically between two levels. The projection from degrees is
// Leaflet's own longitude/latitude one when the CRS's x/y are the degrees, else the server's two
// sampled grids of PROJ's transformation (degrees → CRS and back), interpolated bilinearly and
// extrapolated from the edge cells outside them.
(function () {
  'use strict';

  // Bilinear interpolation over samples {box: [x0, y0, x1, y1], count: n, values: [x, y, …]}.
  function sampled(s) {
    var n = s.count, w = (s.box[2] - s.box[0]) / n, h = (s.box[3] - s.box[1]) / n;
    function at(i, j, k) { return s.values[2 * (j * (n + 1) + i) + k]; }
    return function (x, y) {
      var fx = (x - s.box[0]) / w, fy = (y - s.box[1]) / h;
      var i = Math.min(Math.max(Math.floor(fx), 0), n - 1), j = Math.min(Math.max(Math.floor(fy), 0), n - 1);
      var u = fx - i, v = fy - j;
      function lerp(k) {
        return (1 - u) * (1 - v) * at(i, j, k) + u * (1 - v) * at(i + 1, j, k) + (1 - u) * v * at(i, j + 1, k) + u * v * at(i + 1, j + 1, k);
      }
      return [lerp(0), lerp(1)];
    };
  }

  function projection(g) {
    if (!g.toCRS) return L.Projection.LonLat;
    var toCRS = sampled(g.toCRS), toDegrees = sampled(g.toDegrees);
    return {
      project: function (ll) { var p = toCRS(ll.lng, ll.lat); return L.point(p[0], p[1]); },
      unproject: function (p) { var c = toDegrees(p.x, p.y); return L.latLng(c[1], c[0]); }
    };
  }

  // The cell size of zoom z: the level's, else halved (or doubled) from the nearest level.
  function resolutions(g) {
    var first = g.levels[0], last = g.levels[g.levels.length - 1], byZoom = {};
    g.levels.forEach(function (l) { byZoom[l.z] = l.cellSize; });
    return function (z) {
      if (byZoom[z] !== undefined) return byZoom[z];
      return z < first.z ? first.cellSize * Math.pow(2, first.z - z) : last.cellSize / Math.pow(2, z - last.z);
    };
  }

  // The Leaflet CRS of grid g.
  window.tegulaGridCRS = function (g) {
    var res = resolutions(g), origin = g.levels[0];
    function scale(z) {
      var i = Math.floor(z), f = z - i;
      return f === 0 ? 1 / res(i) : Math.pow(1 / res(i), 1 - f) * Math.pow(1 / res(i + 1), f);
    }
    return L.extend({}, L.CRS.Earth, {
      code: g.id, projection: projection(g), transformation: new L.Transformation(1, -origin.left, -1, origin.top),
      scale: scale,
      zoom: function (s) {
        var i = g.levels[0].z - 30;
        while (i < g.levels[g.levels.length - 1].z + 30 && scale(i + 1) <= s) i++;
        return i + Math.log(s / scale(i)) / Math.log(scale(i + 1) / scale(i));
      },
      infinite: true, wrapLng: undefined, wrapLat: undefined
    });
  };

  // A tile layer of grid g: Leaflet's tile (x, y) at zoom z is the level's column and row from
  // its top-left corner (shifted when the level's corner is not the first level's), the row
  // counted from the bottom where the set counts it so; tiles outside the tileset's columns and
  // rows are not asked for.
  window.tegulaGridLayer = function (url, g, options) {
    var origin = g.levels[0], byZoom = {};
    g.levels.forEach(function (l) {
      var span = l.cellSize * l.tileSize;
      byZoom[l.z] = { l: l, dx: Math.round((l.left - origin.left) / span), dy: Math.round((origin.top - l.top) / span) };
    });
    function tileOf(c) {
      var e = byZoom[c.z];
      if (!e) return null;
      var x = c.x - e.dx, y = c.y - e.dy;
      if (e.l.bottomLeft) y = e.l.matrixHeight - 1 - y;
      return { x: x, y: y, l: e.l };
    }
    var Layer = L.TileLayer.extend({
      getTileUrl: function (c) {
        var t = tileOf(c);
        return L.Util.template(this._url, L.extend({ z: c.z, x: t.x, y: t.y }, this.options));
      },
      _isValidTile: function (c) {
        var t = tileOf(c);
        return !!t && !!t.l.columns && t.x >= t.l.columns[0] && t.x <= t.l.columns[1] && t.y >= t.l.rows[0] && t.y <= t.l.rows[1];
      }
    });
    return new Layer(url, L.extend({}, options, { tileSize: origin.tileSize, bounds: null }));
  };
})();
