// The editor page's script (served as /editor.js; the page is editor.html). It talks to the server
// only through the HTTP API (/api/session, /api/fit, /api/predict), the scan's IIIF service and
// tiles; undo and redo are an operation log in the page (each operation keeps the session before
// and after it).
// The configuration is the JSON in <script id="config"> (EditorService.pageConfig).
(function () {
'use strict';
var cfg = JSON.parse(document.getElementById('config').textContent);
var pane = window.tegulaScanTiles(cfg);  // scan-tiles.js: the scan's IIIF tiles in pixel space
var toLL = pane.toLL, toPx = pane.toPx, inScan = pane.inScan;
var E = window.tegulaEditing;  // editing.js: what both editor pages share
var round = E.round, clone = E.clone, esc = E.esc, $ = E.$, fmt = E.fmt, flash = E.flash;

var state = { session: null, fit: null, fitError: null, pending: null, predicted: null, selected: null,
              mode: 'side', masking: false, overlayOn: true, link: false, undo: [], redo: [], seq: 0, fitting: false,
              saved: null, overlayVersion: null, ready: false, proposals: [], suggesting: false, snapping: false };
window.tegulaEditor = state;

// The scan, in pixel space, read through its IIIF Image API 3.0 service (cfg.iiif; scan-tiles.js).
var scanMap = pane.map('scan');

// The ground: basemaps (local tilesets work offline), and the warped scan in overlay mode.
var groundMap = L.map('ground', { zoomSnap: 0.25, doubleClickZoom: false, boxZoom: false, maxZoom: 22 });
var bases = {}, firstBase = null;
cfg.basemaps.forEach(function (b) {
  var l = L.tileLayer(b.url, { attribution: b.attribution, minZoom: 0, maxNativeZoom: b.maxzoom, maxZoom: 22, className: 'basemap-tiles' });
  bases[b.name] = l;
  if (!firstBase) firstBase = l;
});
if (firstBase) firstBase.addTo(groundMap);
var layers = cfg.basemaps.length > 1 || cfg.reference ? L.control.layers(cfg.basemaps.length > 1 ? bases : {}, {}).addTo(groundMap) : null;
groundMap.setView([20, 0], 1);
var overlayLayer = null;

var scanLayer = L.layerGroup().addTo(scanMap), arrowLayer = L.layerGroup().addTo(scanMap),
    maskLayer = L.layerGroup().addTo(scanMap), scanPending = L.layerGroup().addTo(scanMap);
var groundLayer = L.layerGroup().addTo(groundMap), groundPending = L.layerGroup().addTo(groundMap);

function icon(cls, label) {
  return L.divIcon({ className: 'gcp ' + cls, html: label ? '<span>' + esc(label) + '</span>' : '', iconSize: [12, 12], iconAnchor: [8, 8] });
}
function find(s, id) { for (var i = 0; i < s.gcps.length; i++) if (s.gcps[i].id === id) return s.gcps[i]; return null; }
function figures() { var f = {}; if (state.fit) state.fit.gcps.forEach(function (g) { f[g.id] = g; }); return f; }

// Size class of a point's error relative to the fit's: the residual for most transforms, the
// leave-one-out error for tps (whose residuals are zero).
function sizeClass(f) {
  if (!f || !state.fit || !f.enabled) return '';
  var tps = state.fit.transform === 'tps';
  var v = tps ? f.loo_m : f.residual_px, ref = tps ? state.fit.loo_rmse_m : state.fit.rmse_px;
  if (v === null || !ref) return '';
  return v <= ref ? 'ok' : v <= 2 * ref ? 'warn' : 'bad';
}

// ---- editing: every change is an operation with the session (and the pairs Suggest proposed)
// before and after it (editing.js) ----
var history = E.history(state, changed,
  function () { return { session: clone(state.session), proposals: clone(state.proposals) }; },
  function (s) { state.session = clone(s.session); state.proposals = clone(s.proposals); });
var edit = history.edit, undo = history.undo, redo = history.redo;
function changed() {
  if (state.selected && !find(state.session, state.selected)) state.selected = null;
  render();
  refit();
}
function nextId() {
  var n = 0;
  state.session.gcps.forEach(function (g) { var m = /^p(\d+)$/.exec(g.id); if (m) n = Math.max(n, +m[1]); });
  return 'p' + (n + 1);
}
function addPair(pixel, ground) {
  var id = nextId();
  state.pending = null; state.predicted = null;
  edit('add ' + id, function (s) { s.gcps.push({ id: id, pixel: round(pixel), ground: ground, enabled: true, note: '' }); });
  state.selected = id;
  render();
}
function remove(id) { edit('delete ' + id, function (s) { s.gcps = s.gcps.filter(function (g) { return g.id !== id; }); }); }
function toggleEnabled(id) { if (!id) return; edit((find(state.session, id).enabled ? 'disable ' : 'enable ') + id, function (s) { var g = find(s, id); g.enabled = !g.enabled; }); }
function select(id) { state.selected = id; render(); }

// The body sent: a mask still being drawn (fewer than three vertices) is not sent.
function body() { var s = clone(state.session); if (s.mask && s.mask.length < 3) s.mask = null; return JSON.stringify(s); }

function refit() {
  var seq = ++state.seq;
  state.fitting = true;
  status();
  return fetch('/api/fit', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: body() })
    .then(E.answer)
    .then(function (a) {
      if (seq !== state.seq) return;
      state.fitting = false;
      if (a.ok) { state.fit = a.j; state.fitError = null; } else { state.fit = null; state.fitError = a.j; }
      render(); updateOverlay(); updatePrediction();
    })
    .catch(function (e) { if (seq === state.seq) { state.fitting = false; state.fitError = { error: String(e) }; render(); } });
}

function save() {
  flash('saving…');
  return fetch('/api/session', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: body() })
    .then(E.answer)
    .then(function (a) {
      if (a.ok) { state.saved = a.j; state.fit = a.j; flash('saved to ' + cfg.output); }
      else { flash('not saved: ' + a.j.error, true); }
      render();
    });
}

// ---- drawing ----
function render() {
  if (!state.session) return;
  var figs = figures();
  scanLayer.clearLayers(); groundLayer.clearLayers();
  state.session.gcps.forEach(function (g) {
    var cls = (g.enabled ? '' : 'disabled ') + (g.id === state.selected ? 'selected ' : '') + sizeClass(figs[g.id]);
    var label = g.note || g.id;
    wire(L.marker(toLL(g.pixel), { icon: icon('scan ' + cls, label), draggable: !state.masking, keyboard: false }).addTo(scanLayer), g.id, 'pixel');
    wire(L.marker([g.ground[1], g.ground[0]], { icon: icon('ground ' + cls, label), draggable: true, keyboard: false }).addTo(groundLayer), g.id, 'ground');
  });
  arrows(figs); drawMask(); drawPending(); drawProposals(); table(figs); summary(); status();
  document.body.classList.toggle('overlay', state.mode === 'overlay');
  document.body.classList.toggle('masking', state.masking);
  $('mode-side').classList.toggle('on', state.mode === 'side');
  $('mode-overlay').classList.toggle('on', state.mode === 'overlay');
  $('mask-mode').classList.toggle('on', state.masking);
  $('transform').value = state.session.transform;
}

function wire(m, id, side) {
  m.getElement().setAttribute('data-id', id);
  m.on('click', function () { select(id); });
  m.on('dragend', function () {
    var ll = m.getLatLng();
    if (side === 'pixel') {
      var p = toPx(ll);
      if (!inScan(p)) { flash('outside the scan: not moved', true); render(); return; }
      edit('move ' + id, function (s) { find(s, id).pixel = round(p); });
    } else {
      edit('move ' + id, function (s) { find(s, id).ground = [ll.lng, ll.lat]; });
    }
  });
  m.on('contextmenu', function (e) { L.DomEvent.preventDefault(e.originalEvent); remove(id); });
}

// Residual arrows: from each point to where the fit's inverse puts its ground position,
// scaled so the longest is about 8% of the scan's longer side.
function arrows(figs) {
  arrowLayer.clearLayers();
  if (!state.fit) { $('arrow-scale').textContent = ''; return; }
  var longest = 0;
  state.fit.gcps.forEach(function (f) { if (f.residual_px) longest = Math.max(longest, f.residual_px); });
  if (!longest) { $('arrow-scale').textContent = ''; return; }
  var k = 0.08 * Math.max(cfg.width, cfg.height) / longest;
  // A round factor: 1, 2 or 5 × 10^n at or below the one that fits.
  var e = Math.pow(10, Math.floor(Math.log10(k)));
  k = [5, 2, 1].map(function (m) { return m * e; }).filter(function (v) { return v <= k; })[0] || e;
  $('arrow-scale').textContent = 'residual arrows ×' + (k >= 1 ? k.toFixed(0) : k.toPrecision(1));
  state.session.gcps.forEach(function (g) {
    var f = figs[g.id];
    if (!f || f.dx_px === null || f.dy_px === null) return;
    var a = g.pixel, b = [a[0] + k * f.dx_px, a[1] + k * f.dy_px];
    var colour = { ok: '#2a6', warn: '#e90', bad: '#d11' }[sizeClass(f)] || '#999';
    var ang = Math.atan2(b[1] - a[1], b[0] - a[0]), len = Math.hypot(b[0] - a[0], b[1] - a[1]) * 0.3;
    var h1 = [b[0] - len * Math.cos(ang - 0.4), b[1] - len * Math.sin(ang - 0.4)], h2 = [b[0] - len * Math.cos(ang + 0.4), b[1] - len * Math.sin(ang + 0.4)];
    L.polyline([toLL(a), toLL(b)], { color: colour, weight: 2, interactive: false, className: 'residual-arrow' }).addTo(arrowLayer);
    L.polyline([toLL(h1), toLL(b), toLL(h2)], { color: colour, weight: 2, interactive: false }).addTo(arrowLayer);
  });
}

function drawMask() {
  maskLayer.clearLayers();
  var m = state.session.mask;
  if (!m || !m.length) return;
  var lls = m.map(toLL);
  if (m.length >= 3) L.polygon(lls, { color: '#06c', weight: 2, fillOpacity: 0.05, interactive: false, className: 'mask-polygon' }).addTo(maskLayer);
  else L.polyline(lls, { color: '#06c', weight: 2, dashArray: '4 4', interactive: false }).addTo(maskLayer);
  if (!state.masking) return;
  m.forEach(function (v, i) {
    var vm = L.marker(toLL(v), { icon: L.divIcon({ className: 'mask-vertex', iconSize: [10, 10] }), draggable: true, keyboard: false }).addTo(maskLayer);
    vm.on('dragend', function () {
      var p = toPx(vm.getLatLng());
      if (!inScan(p)) { flash('outside the scan: not moved', true); render(); return; }
      edit('move mask vertex', function (s) { s.mask[i] = round(p); });
    });
    vm.on('contextmenu', function (e) {
      L.DomEvent.preventDefault(e.originalEvent);
      edit('delete mask vertex', function (s) { s.mask.splice(i, 1); if (!s.mask.length) s.mask = null; });
    });
  });
}

function drawPending() {
  scanPending.clearLayers(); groundPending.clearLayers();
  var p = state.pending;
  if (p && p.pixel) L.marker(toLL(p.pixel), { icon: icon('pending', 'new'), interactive: false }).addTo(scanPending);
  if (p && p.ground) L.marker([p.ground[1], p.ground[0]], { icon: icon('pending', 'new'), interactive: false }).addTo(groundPending);
  var q = state.predicted;
  if (q && q.pixel) L.marker(toLL(q.pixel), { icon: icon('predicted', 'Enter'), interactive: false }).addTo(scanPending);
  if (q && q.ground) L.marker([q.ground[1], q.ground[0]], { icon: icon('predicted', 'Enter'), interactive: false }).addTo(groundPending);
}

function summary() {
  var f = state.fit, e = state.fitError;
  var n = state.session.gcps.filter(function (g) { return g.enabled; }).length;
  if (f) {
    $('fit-summary').textContent = f.transform + ' from ' + n + ' points: RMSE ' + fmt(f.rmse_m, 0) + ' m (' + fmt(f.rmse_px, 2) +
      ' px), leave-one-out RMSE ' + fmt(f.loo_rmse_m, 0) + ' m' + (state.session.transform === 'auto' ? ' (auto)' : '');
    $('comparison').textContent = f.comparison;
  } else {
    $('fit-summary').textContent = e ? 'no fit: ' + e.error : n + ' points';
    $('comparison').textContent = '';
  }
  var ws = f ? f.warnings : [];
  $('warnings').innerHTML = ws.map(function (w) { return '<li data-code="' + esc(w.code) + '">' + esc(w.message) + '</li>'; }).join('');
}

function status() {
  var s = $('status');
  if (state.fitting) { s.textContent = 'fitting…'; s.className = ''; }
  else if (s.textContent === 'fitting…') s.textContent = '';
}

// The point table; while a field in it has the focus only the figures are updated.
function table(figs) {
  var tbody = document.querySelector('#gcp-table tbody');
  var typing = tbody.contains(document.activeElement) && document.activeElement.tagName === 'INPUT';
  if (!typing) {
    tbody.innerHTML = state.session.gcps.map(function (g) {
      var f = figs[g.id] || {};
      return '<tr data-id="' + esc(g.id) + '" class="' + (g.id === state.selected ? 'selected ' : '') + (g.enabled ? '' : 'disabled ') + (f.outlier ? 'outlier' : '') + '">' +
        '<td class="id">' + esc(g.id) + '</td><td><input type="checkbox" class="enabled"' + (g.enabled ? ' checked' : '') + '></td>' +
        '<td><input class="note" value="' + esc(g.note) + '"></td>' +
        '<td><input class="pixel" value="' + g.pixel[0] + ', ' + g.pixel[1] + '"><span class="field-error"></span></td>' +
        '<td><input class="ground" value="' + g.ground[0].toFixed(6) + ', ' + g.ground[1].toFixed(6) + '"><span class="field-error"></span></td>' +
        '<td class="dx"></td><td class="dy"></td><td class="r rpx"></td><td class="r rm"></td><td class="r loo"></td>' +
        '<td><button class="del" title="remove">✕</button></td></tr>';
    }).join('');
  }
  Array.prototype.forEach.call(tbody.rows, function (tr) {
    var f = figs[tr.getAttribute('data-id')] || {};
    tr.querySelector('.dx').textContent = fmt(f.dx_px, 1);
    tr.querySelector('.dy').textContent = fmt(f.dy_px, 1);
    tr.querySelector('.rpx').textContent = fmt(f.residual_px, 2);
    tr.querySelector('.rm').textContent = fmt(f.residual_m, 0);
    tr.querySelector('.loo').textContent = fmt(f.loo_m, 0);
  });
}

function fieldError(input, message) {
  input.classList.toggle('invalid', !!message);
  var span = input.parentNode.querySelector('.field-error');
  if (span) span.textContent = message || '';
  if (message) input.title = message; else input.removeAttribute('title');
}
function two(text) {
  var parts = text.trim().split(/[\s,;]+/);
  if (parts.length !== 2) return null;
  var a = Number(parts[0]), b = Number(parts[1]);
  return isFinite(a) && isFinite(b) && parts[0] !== '' && parts[1] !== '' ? [a, b] : null;
}
var tbody = document.querySelector('#gcp-table tbody');
tbody.addEventListener('change', function (e) {
  var t = e.target, tr = t.closest('tr'), id = tr && tr.getAttribute('data-id');
  if (!id) return;
  if (t.classList.contains('enabled')) { toggleEnabled(id); return; }
  if (t.classList.contains('note')) { var v = t.value; t.blur(); edit('rename ' + id, function (s) { find(s, id).note = v; }); return; }
  if (t.classList.contains('pixel')) {
    var p = two(t.value);
    if (!p) return fieldError(t, 'expected two numbers: x, y');
    if (!inScan(p)) return fieldError(t, 'outside the scan: x must be 0…' + cfg.width + ', y 0…' + cfg.height);
    fieldError(t, null); t.blur();
    edit('move ' + id, function (s) { find(s, id).pixel = p; });
    return;
  }
  if (t.classList.contains('ground')) {
    var m = /^\s*(\S+?)[\s,;]+(\S+?)[\s,;]+((?:EPSG|ESRI|IGNF):\d+)\s*$/i.exec(t.value);
    if (m) {  // easting, northing in a projected CRS: converted by the server
      fetch('/api/convert?crs=' + encodeURIComponent(m[3]) + '&x=' + encodeURIComponent(m[1]) + '&y=' + encodeURIComponent(m[2]))
        .then(E.answer)
        .then(function (a) {
          if (!a.ok) return fieldError(t, a.j.error);
          fieldError(t, null); t.blur();
          edit('move ' + id, function (s) { find(s, id).ground = a.j.ground; });
        });
      return;
    }
    var g = two(t.value);
    if (!g) return fieldError(t, 'expected longitude, latitude in decimal degrees, or easting northing EPSG:code');
    var geographic = /^(EPSG:4326|OGC:CRS84|CRS:84)$/i.test(state.session.gcp_srs);
    if (geographic && (Math.abs(g[1]) > 90 || Math.abs(g[0]) > 180)) return fieldError(t, 'longitude must be −180…180 and latitude −90…90 (swapped?)');
    fieldError(t, null); t.blur();
    edit('move ' + id, function (s) { find(s, id).ground = g; });
  }
});
tbody.addEventListener('click', function (e) {
  var tr = e.target.closest('tr'), id = tr && tr.getAttribute('data-id');
  if (!id) return;
  if (e.target.classList.contains('del')) { remove(id); return; }
  if (e.target.tagName !== 'INPUT' && state.selected !== id) select(id);
});

// ---- placing points ----
scanMap.on('click', function (e) {
  var p = toPx(e.latlng);
  if (!inScan(p)) { flash('outside the scan', true); return; }
  if (state.masking) { edit('add mask vertex', function (s) { s.mask = (s.mask || []).concat([round(p)]); }); return; }
  if (state.pending && state.pending.ground && !state.pending.pixel) { addPair(p, state.pending.ground); return; }
  state.pending = { pixel: p }; state.predicted = null;
  render(); updatePrediction();
});
groundMap.on('click', function (e) {
  var g = [e.latlng.lng, e.latlng.lat];
  if (state.pending && state.pending.pixel && !state.pending.ground) { addPair(state.pending.pixel, g); return; }
  state.pending = { ground: g }; state.predicted = null;
  render(); updatePrediction();
});
scanMap.on('contextmenu', function () {});
groundMap.on('contextmenu', function () {});

// Once the fit allows, the twin of a half-placed point is predicted (Enter accepts it).
function updatePrediction() {
  var p = state.pending;
  if (!p || !state.fit) { if (state.predicted) { state.predicted = null; drawPending(); } return; }
  var q = p.pixel ? 'x=' + p.pixel[0] + '&y=' + p.pixel[1] : 'lon=' + p.ground[0] + '&lat=' + p.ground[1];
  fetch('/api/predict?v=' + state.fit.version + '&' + q).then(function (r) { return r.ok ? r.json() : null; }).then(function (j) {
    if (state.pending !== p) return;
    state.predicted = j && (j.ground ? { ground: j.ground } : j.pixel && inScan(j.pixel) ? { pixel: j.pixel } : null);
    drawPending();
  });
}
function accept() {
  var p = state.pending, q = state.predicted;
  if (!p || !q) return;
  if (p.pixel && q.ground) addPair(p.pixel, q.ground);
  else if (p.ground && q.pixel) addPair(q.pixel, p.ground);
}

// ---- overlay: the scan warped by the current fit; tile URLs carry the fit's version ----
function updateOverlay() {
  if (state.mode !== 'overlay' || !state.fit) return;
  var v = state.fit.version;
  if (v === state.overlayVersion) return;
  state.overlayVersion = v;
  fetch('/overlay/' + v + '.json').then(function (r) { return r.ok ? r.json() : null; }).then(function (j) {
    if (!j || state.overlayVersion !== v) return;
    var layer = L.tileLayer(j.tiles, { minNativeZoom: j.minzoom, maxNativeZoom: j.maxzoom, maxZoom: 22, opacity: +$('opacity').value,
      bounds: L.latLngBounds([j.bounds[1], j.bounds[0]], [j.bounds[3], j.bounds[2]]), noWrap: true, className: 'overlay-tiles', zIndex: 5 });
    if (overlayLayer) groundMap.removeLayer(overlayLayer);
    overlayLayer = layer;
    if (state.overlayOn) layer.addTo(groundMap);
  });
}
function setMode(mode) {
  state.mode = mode;
  if (mode === 'side' && overlayLayer) { groundMap.removeLayer(overlayLayer); overlayLayer = null; state.overlayVersion = null; }
  render();
  groundMap.invalidateSize(); scanMap.invalidateSize();
  updateOverlay();
}
function toggleOverlay() {
  state.overlayOn = !state.overlayOn;
  if (overlayLayer) { if (state.overlayOn) overlayLayer.addTo(groundMap); else groundMap.removeLayer(overlayLayer); }
}
function opacity(d) { var o = $('opacity'); o.value = Math.max(0, Math.min(1, +o.value + d)); if (overlayLayer) overlayLayer.setOpacity(+o.value); }
$('opacity').addEventListener('input', function () { if (overlayLayer) overlayLayer.setOpacity(+this.value); });
$('mode-side').onclick = function () { setMode('side'); };
$('mode-overlay').onclick = function () { setMode('overlay'); };
$('transform').onchange = function () { var v = this.value; this.blur(); edit('transform ' + v, function (s) { s.transform = v; }); };
$('mask-mode').onclick = function () { state.masking = !state.masking; render(); };
$('mask-delete').onclick = function () { if (state.session.mask) edit('delete mask', function (s) { s.mask = null; }); };
$('undo').onclick = undo;
$('redo').onclick = redo;
$('save').onclick = save;
$('help-button').onclick = function () { document.body.classList.toggle('help'); };

// Linked views: the map follows the scan's centre through the fit.
scanMap.on('moveend', function () {
  if (!state.link || !state.fit) return;
  var c = toPx(scanMap.getCenter());
  fetch('/api/predict?v=' + state.fit.version + '&x=' + c[0] + '&y=' + c[1]).then(function (r) { return r.ok ? r.json() : null; })
    .then(function (j) { if (j && j.ground) groundMap.panTo([j.ground[1], j.ground[0]]); });
});

// ---- keys (none while typing in a field) ----
document.addEventListener('keydown', function (e) {
  if (E.typing(e) || E.controlKeys(e, history, save)) return;
  var k = e.key;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  switch (k) {
  case '?': document.body.classList.toggle('help'); break;
  case 'Escape':
    if (document.body.classList.contains('help')) document.body.classList.remove('help');
    else if (state.masking) { state.masking = false; render(); }
    else { state.pending = null; state.predicted = null; render(); }
    break;
  case 'Delete': case 'Backspace': if (state.selected) { e.preventDefault(); remove(state.selected); } break;
  case 'Enter': accept(); break;
  case 'e': toggleEnabled(state.selected); break;
  case 'n':
    if (state.selected) { var tr = document.querySelector('#gcp-table tr[data-id="' + state.selected + '"] input.note'); if (tr) { e.preventDefault(); tr.focus(); } }
    break;
  case 'o': setMode(state.mode === 'side' ? 'overlay' : 'side'); break;
  case 'v': toggleOverlay(); break;
  case '[': opacity(-0.1); break;
  case ']': opacity(0.1); break;
  case 'm': state.masking = !state.masking; render(); break;
  case 't': snap(); break;
  case 'l': state.link = !state.link; flash(state.link ? 'map linked to the scan' : 'views unlinked'); break;
  case 's': save(); break;
  default: return;
  }
});

// ---- the reference (tegula edit --reference): its layer, Suggest and snap ----
var proposalLayers = [L.layerGroup().addTo(scanMap), L.layerGroup().addTo(groundMap)];
function findProposal(id) { return state.proposals.filter(function (q) { return q.id === id; })[0] || null; }
function drawProposals() {
  proposalLayers.forEach(function (l) { l.clearLayers(); });
  state.proposals.forEach(function (q) {
    L.marker(toLL(q.pixel), { icon: icon('proposed', q.id), interactive: false, keyboard: false }).addTo(proposalLayers[0]);
    L.marker([q.ground[1], q.ground[0]], { icon: icon('proposed', q.id), interactive: false, keyboard: false }).addTo(proposalLayers[1]);
  });
  $('proposal-table').style.display = state.proposals.length ? '' : 'none';
  document.querySelector('#proposal-table tbody').innerHTML = state.proposals.map(function (q) {
    return '<tr data-id="' + esc(q.id) + '"><td class="id">' + esc(q.id) + '</td><td class="score">' + q.score.toFixed(3) + '</td>' +
      '<td>' + q.pixel[0].toFixed(2) + ', ' + q.pixel[1].toFixed(2) + '</td><td>' + q.ground[0].toFixed(6) + ', ' + q.ground[1].toFixed(6) + '</td>' +
      '<td><button class="keep">Keep</button> <button class="drop">Drop</button></td></tr>';
  }).join('');
}
function suggestMessage(text, none) { var m = $('suggest-message'); m.textContent = text; m.classList.toggle('none', !!none); }
function suggest() {
  if (!cfg.reference || state.suggesting) return;
  state.suggesting = true;
  flash('matching the scan against ' + cfg.reference.name + '…');
  return fetch('/api/suggest').then(E.answer).then(function (a) {
    state.suggesting = false;
    var text = a.ok ? a.j.message : 'no suggestion: ' + a.j.error;
    suggestMessage(text, !a.ok || !a.j.matched);
    flash(text, !a.ok || !a.j.matched);
    if (!a.ok || !a.j.matched) return;
    edit('suggest ' + a.j.pairs.length + ' pairs', function () {
      state.proposals = a.j.pairs.map(function (q, i) { return { id: 's' + (i + 1), pixel: q.pixel, ground: q.ground, score: q.score }; });
    });
  });
}
// Keep a proposed pair as a point of the session, or drop it: each an edit.
function keep(id) {
  var q = findProposal(id), gid = nextId();
  if (!q) return;
  edit('keep ' + id + ' as ' + gid, function (s) {
    s.gcps.push({ id: gid, pixel: round(q.pixel), ground: q.ground, enabled: true, note: 'match ' + q.score.toFixed(3) });
    state.proposals = state.proposals.filter(function (r) { return r.id !== id; });
  });
}
function drop(id) {
  if (findProposal(id)) edit('drop ' + id, function () { state.proposals = state.proposals.filter(function (r) { return r.id !== id; }); });
}
document.querySelector('#proposal-table tbody').addEventListener('click', function (e) {
  var tr = e.target.closest('tr'), id = tr && tr.getAttribute('data-id');
  if (!id) return;
  if (e.target.classList.contains('keep')) keep(id);
  else if (e.target.classList.contains('drop')) drop(id);
});
// Snap: a point placed on the scan alone is completed with the twin of its scan pixel on the
// reference; else the selected point's ground moves to that twin. Either is an edit.
function snap() {
  if (!cfg.reference || state.snapping) return;
  var p = state.pending && state.pending.pixel && !state.pending.ground ? state.pending : null;
  var id = p ? null : state.selected, g = id && find(state.session, id);
  var pixel = p ? p.pixel : g ? g.pixel : null;
  if (!pixel) { flash('select a point, or place one on the scan, to snap it to its twin on the reference', true); return; }
  state.snapping = true;
  flash('matching around scan pixel ' + pixel[0].toFixed(1) + ', ' + pixel[1].toFixed(1) + '…');
  return fetch('/api/snap?x=' + pixel[0] + '&y=' + pixel[1]).then(E.answer).then(function (a) {
    state.snapping = false;
    if (!a.ok || !a.j.matched) { flash(a.ok ? a.j.message : a.j.error, true); return; }
    if (g && find(state.session, id)) edit('snap ' + id, function (s) { find(s, id).ground = a.j.ground; });
    else if (!g && state.pending === p) addPair(p.pixel, a.j.ground);
    flash(a.j.message);
  });
}
$('suggest').onclick = suggest;
$('snap').onclick = snap;
if (cfg.reference) {
  document.body.classList.add('reference');
  if (cfg.reference.info) fetch(cfg.reference.info).then(function (r) { return r.ok ? r.json() : null; }).then(function (j) {
    if (!j) return;
    var bounds = L.latLngBounds([j.bounds[1], j.bounds[0]], [j.bounds[3], j.bounds[2]]);
    var layer = L.tileLayer(j.tiles, { minNativeZoom: j.minzoom, maxNativeZoom: j.maxzoom, maxZoom: 22, bounds: bounds, noWrap: true,
                                       className: 'reference-tiles', zIndex: 4 }).addTo(groundMap);
    layers.addOverlay(layer, 'reference: ' + esc(cfg.reference.name));
    if (!state.session || state.session.gcps.length < 2) groundMap.fitBounds(bounds);
  });
}

window.addEventListener('resize', function () { scanMap.invalidateSize(); groundMap.invalidateSize(); });

// Screen positions of a scan pixel and a ground position, for scripts driving the page.
state.scanPoint = function (p) { return scanMap.latLngToContainerPoint(toLL(p)); };
state.groundPoint = function (g) { return groundMap.latLngToContainerPoint([g[1], g[0]]); };
state.maps = { scan: scanMap, ground: groundMap };
state.scanLatLng = toLL;

fetch('/api/session').then(function (r) { return r.json(); }).then(function (s) {
  state.session = s;
  var gs = s.gcps.map(function (g) { return [g.ground[1], g.ground[0]]; });
  if (gs.length >= 2) groundMap.fitBounds(L.latLngBounds(gs).pad(0.2));
  render();
  return s.gcps.length ? refit() : null;
}).then(function () { state.ready = true; window.tegulaReady = true; });
})();
