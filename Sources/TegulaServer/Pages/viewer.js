// The viewer's script (served as /viewer.js; the page is viewer.html): every tileset a Leaflet
// layer (the first base layer underneath, the rest as overlays with opacity sliders), named in the
// layer list with how it is made (cut tileset or rendered on demand); each scan's footprint polygon
// and GCP pins when the footprint is large on screen, a single pin when it is small. A pin's
// callout (name, residual written as a person writes distances: `1,041 km`, `688 m`) opens on hover
// or click, one at a time; a click on the map lists the scans covering the point. A composite
// with a sheet index (`sheets`, served as /{id}.index.geojson) has each sheet drawn as an outline,
// green when it passed the pipeline's quality gate, red when not; a click on an outline opens the
// sheet's figures (its name, title, date, transform, GCP and tie counts, RMSE, leave-one-out RMSE,
// worst residual, distortion and seam errors).
// The catalogue is the JSON in <script id="catalogue">: an array of ViewerTileset (ViewerTileset.swift).
// The page shows the tilesets of one tile matrix set at a time, in its CRS (viewer-crs.js for sets
// other than WebMercatorQuad): `?tms=ID`, else the first tileset's set; the others are links.
(function () {
  'use strict';
  var params = new URLSearchParams(location.search);
  var all = JSON.parse(document.getElementById('catalogue').textContent);
  function setOf(t) { return t.grid ? t.grid.id : 'WebMercatorQuad'; }
  var shown = params.get('tms') || (all.length ? setOf(all[0]) : 'WebMercatorQuad');
  var cat = all.filter(function (t) { return setOf(t) === shown; });
  var grid = cat.length && cat[0].grid ? cat[0].grid : null;
  // Footprints smaller than this many screen pixels show as a pin.
  var PIN_THRESHOLD_PX = 96;
  L.Icon.Default.imagePath = '/leaflet/images/';
  var map = L.map('map', grid
    ? { crs: tegulaGridCRS(grid), zoomSnap: 0.25, minZoom: grid.levels[0].z, maxZoom: grid.levels[grid.levels.length - 1].z }
    : { worldCopyJump: true, zoomSnap: 0.25 });
  window.tegulaMap = map;
  var base = cat.filter(function (t) { return t.type === 'baselayer'; })[0] || null;
  var bases = {}, overlays = {}, scans = [];

  function latLngBounds(b) { return L.latLngBounds([b[1], b[0]], [b[3], b[2]]); }
  // Leaflet writes layer names and tooltips as HTML: names are escaped first.
  function esc(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  }
  // Distances as a person writes them: 1,041 km; 12.4 km; 688 m.
  function distance(m) {
    if (typeof m !== 'number' || !isFinite(m)) return 'n/a';
    if (m >= 100000) return Math.round(m / 1000).toLocaleString('en-US') + ' km';
    if (m >= 1000) return (m / 1000).toFixed(1) + ' km';
    return Math.round(m) + ' m';
  }
  function layerLabel(t) {
    return esc(t.name) + ' <span class="tegula-kind">' + (t.ondemand ? 'rendered on demand' : 'cut tileset') + '</span>';
  }

  cat.forEach(function (t, i) {
    var options = {
      minNativeZoom: t.minzoom, maxNativeZoom: t.maxzoom, minZoom: 0, maxZoom: 22,
      attribution: t.attribution, bounds: latLngBounds(t.bounds), noWrap: true
    };
    var layer = t.grid ? tegulaGridLayer(t.tiles, t.grid, options) : L.tileLayer(t.tiles, options);
    layer.addTo(map);
    if (t === base) { bases[layerLabel(t)] = layer; layer.setZIndex(1); }
    else { overlays[layerLabel(t)] = layer; layer.setZIndex(10 + i); }
    if (t !== base) scans.push(scanOverlay(t, layer));
    if (t.sheets) sheetOutlines(t);
  });
  L.control.layers(bases, overlays, { collapsed: false }).addTo(map);
  opacityPanel(scans).addTo(map);
  otherSets().forEach(function (c) { c.addTo(map); });

  // A link to each other tile matrix set the catalogue has tilesets in (none: no control).
  function otherSets() {
    var ids = [];
    all.forEach(function (t) { var id = setOf(t); if (id !== shown && ids.indexOf(id) < 0) ids.push(id); });
    if (!ids.length) return [];
    var C = L.Control.extend({
      options: { position: 'bottomright' },
      onAdd: function () {
        var div = L.DomUtil.create('div', 'tegula-panel');
        div.appendChild(document.createTextNode('Other tile matrix sets: '));
        ids.forEach(function (id) {
          var a = L.DomUtil.create('a', 'tegula-tms', div);
          a.href = '?tms=' + encodeURIComponent(id);
          a.textContent = id + ' ';
        });
        return div;
      }
    });
    return [new C()];
  }

  function scanOverlay(t, layer) {
    var s = { t: t, layer: layer, polygon: null, pins: L.layerGroup(), pin: null };
    if (t.footprint && t.footprint.type === 'Polygon') {
      var ring = t.footprint.coordinates[0].map(function (p) { return [p[1], p[0]]; });
      s.polygon = L.polygon(ring, { color: '#e6194b', weight: 3, fill: false, dashArray: '6 4' });
      s.polygon.bindTooltip(esc(t.name));
    }
    (t.gcps || []).forEach(function (g) {
      var text = '<b>' + esc(g.name || 'GCP') + '</b><br>residual ' + distance(g.residual_m);
      // One callout at a time: a tooltip while hovering, a popup (which closes the last) on click.
      L.circleMarker([g.lat, g.lon], { radius: 5, color: '#fff', weight: 1.5, fillColor: '#e6194b', fillOpacity: 0.9,
                                       bubblingMouseEvents: false })
        .bindTooltip(text, { direction: 'top', offset: [0, -6], className: 'tegula-gcp' })
        .bindPopup(text, { className: 'tegula-gcp', closeButton: false })
        .addTo(s.pins);
    });
    var b = s.polygon ? s.polygon.getBounds() : latLngBounds(t.bounds);
    s.bounds = b;
    s.pin = L.marker(b.getCenter(), { title: t.name }).bindTooltip(esc(t.name), { permanent: true, direction: 'right' });
    return s;
  }

  // A composite's sheet index: each sheet's fitted footprint as an outline whose click opens its
  // figures (the click does not reach the map, whose own click lists the scans under it).
  // The outlines lie in a pane of their own under the overlay pane (Leaflet's is at z-index 400):
  // a sheet's outline catches the pointer over its whole area, and drawn above a scan's GCP pins
  // (it arrives later, by fetch) it kept their callouts from opening.
  function sheetOutlines(t) {
    if (!map.getPane('tegulaSheets')) map.createPane('tegulaSheets').style.zIndex = 390;
    fetch(t.sheets).then(function (r) { return r.json(); }).then(function (index) {
      L.geoJSON(index, {
        pane: 'tegulaSheets',
        style: function (f) {
          return { color: f.properties.quality === 'ok' ? '#3cb44b' : '#e6194b', weight: 1.5, fill: true, fillOpacity: 0,
                   className: 'tegula-sheet-outline', bubblingMouseEvents: false };
        },
        onEachFeature: function (f, l) {
          l.bindTooltip(esc(f.properties.name), { sticky: true });
          l.bindPopup(sheetFigures(f.properties), { className: 'tegula-sheet', maxWidth: 360 });
        }
      }).addTo(map);
      window.tegulaSheets = (window.tegulaSheets || 0) + index.features.length;
    });
  }
  // One sheet's figures, as the sheet index holds them (SheetFigures.swift); absent ones left out.
  function sheetFigures(p) {
    function n(v, digits) { return typeof v === 'number' && isFinite(v) ? v.toFixed(digits) : undefined; }
    var seams = p.seam_before_m == null ? undefined : distance(p.seam_before_m) + ' → ' + distance(p.seam_after_m);
    var rows = [['title', p.title && esc(p.title)], ['date', p.date && esc(p.date)], ['source', p.source && esc(p.source)],
                ['transform', esc(p.transform || p.georeference)], ['GCPs', p.gcps], ['ties', p.ties],
                ['RMSE', p.rmse_m == null ? undefined : distance(p.rmse_m)],
                ['leave-one-out RMSE', p.loo_m == null ? undefined : distance(p.loo_m)],
                ['worst residual', p.worst_residual_m == null ? undefined
                  : distance(p.worst_residual_m) + (p.worst_gcp ? ' (' + esc(p.worst_gcp) + ')' : '')],
                ['scale distortion', n(p.scale_distortion, 3)], ['angular distortion', n(p.angular_distortion_deg, 2) && n(p.angular_distortion_deg, 2) + '°'],
                ['seam error before → after', seams],
                ['ties from a sheet with GCPs', p.hops],
                ['standard error of place', p.place_se_m == null ? undefined : distance(p.place_se_m)],
                ['quality', esc(p.quality) + (p.failures && p.failures.length ? ': ' + esc(p.failures.join('; ')) : '')],
                ['error', p.error && esc(p.error)]];
    return '<b>' + esc(p.name) + '</b><table>' + rows.filter(function (r) { return r[1] !== undefined && r[1] !== null && r[1] !== ''; })
      .map(function (r) { return '<tr><th>' + r[0] + '</th><td>' + r[1] + '</td></tr>'; }).join('') + '</table>';
  }

  // The zoom rule: a pin while the footprint is small on screen, the polygon and GCPs when zoomed in.
  function applyZoomRule() {
    scans.forEach(function (s) {
      var a = map.latLngToContainerPoint(s.bounds.getNorthWest());
      var c = map.latLngToContainerPoint(s.bounds.getSouthEast());
      var small = Math.max(Math.abs(c.x - a.x), Math.abs(c.y - a.y)) < PIN_THRESHOLD_PX;
      var visible = map.hasLayer(s.layer);
      toggle(s.pin, visible && small);
      if (s.polygon) toggle(s.polygon, visible && !small);
      toggle(s.pins, visible && !small);
    });
  }
  function toggle(l, on) { if (on && !map.hasLayer(l)) l.addTo(map); if (!on && map.hasLayer(l)) map.removeLayer(l); }

  function opacityPanel(list) {
    var C = L.Control.extend({
      options: { position: 'bottomleft' },
      onAdd: function () {
        var div = L.DomUtil.create('div', 'tegula-panel');
        div.appendChild(document.createTextNode('Opacity'));
        list.forEach(function (s) {
          var label = L.DomUtil.create('label', '', div);
          label.appendChild(document.createTextNode(s.t.name + ' '));
          var input = L.DomUtil.create('input', '', label);
          input.type = 'range'; input.min = 0; input.max = 1; input.step = 0.05; input.value = 1;
          input.setAttribute('data-layer', s.t.id);
          input.addEventListener('input', function () { s.layer.setOpacity(parseFloat(input.value)); });
        });
        L.DomEvent.disableClickPropagation(div);
        return div;
      }
    });
    return new C();
  }

  map.on('click', function (e) {
    var lon = ((e.latlng.lng + 540) % 360) - 180;
    fetch('/maps?lon=' + lon.toFixed(6) + '&lat=' + e.latlng.lat.toFixed(6))
      .then(function (r) { return r.json(); })
      .then(function (j) {
        var html = j.maps.length ? '<b>Scans here</b><ul>' + j.maps.map(function (m) {
          return '<li>' + esc(m.name) + '</li>';
        }).join('') + '</ul>' : 'No scan covers this point.';
        L.popup().setLatLng(e.latlng).setContent(html).openOn(map);
      });
  });

  map.on('zoomend moveend overlayadd overlayremove', applyZoomRule);
  var first = scans.filter(function (s) { return s.polygon; })[0] || scans[0];
  if (params.get('z')) map.setView([+params.get('lat'), +params.get('lon')], +params.get('z'));
  else if (first) map.fitBounds(first.bounds, { padding: [60, 60] });
  else if (base) map.setView([base.center[1], base.center[0]], base.center[2]);
  else map.setView([0, 0], 1);
  applyZoomRule();
  window.tegulaReady = true;
})();
