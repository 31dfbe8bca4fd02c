// The tie editor's script (served as /ties.js; the page is ties.html): two sheets of a pipeline
// side by side, a tie placed by clicking the same place on both. It talks to the server only
// through the HTTP API (/api/ties, /api/seams, /api/predict) and the sheets' IIIF services; undo and
// redo are an operation log in the page, as in the GCP editor. With `ties: auto` the ties found by
// matching (ids f1, f2, …, each with its score) are shown beside the hand ties and edited alike;
// found ties removed (by now or by an earlier save: ids r1, r2, …) stay listed, greyed, with a
// Restore button that puts one back where it was found. After a save the page shows the ties as
// the server read them back from the files (ids renumbered, undo started afresh).
// The configuration is the JSON in <script id="config"> (TieEditorService.pageConfig).
(function () {
'use strict';
var cfg = JSON.parse(document.getElementById('config').textContent);
var E = window.tegulaEditing;  // editing.js: what both editor pages share
var $ = E.$, esc = E.esc, round = E.round, fmt = E.fmt, flash = E.flash;

var state = { session: null, figures: null, error: null, pending: null, predicted: null, selected: null,
              undo: [], redo: [], seq: 0, busy: false, saved: null, ready: false, found: {}, originals: [] };
window.tegulaTies = state;

// Each side: its sheet's scan (scan-tiles.js), its map and its marker layers.
var sides = {};
['a', 'b'].forEach(function (k) {
  var pane = window.tegulaScanTiles(cfg[k]), map = pane.map(k);
  sides[k] = { pane: pane, map: map, markers: L.layerGroup().addTo(map), pending: L.layerGroup().addTo(map) };
});
$('pair').textContent = cfg.a.name + ' ↔ ' + cfg.b.name + ' in ' + cfg.pipeline;

function icon(cls, label) {
  return L.divIcon({ className: 'tie ' + cls, html: label ? '<span>' + esc(label) + '</span>' : '', iconSize: [12, 12], iconAnchor: [8, 8] });
}
// A found tie's kind as the page shows it: as found (with its score), or moved since it was found.
// A removed one put back whose row leaves no found tie out now has no score: nothing is found there.
function kind(t) {
  var f = state.found[t.id];
  if (!f) return { cls: '', text: 'hand' };
  var moved = f.a[0] !== t.a[0] || f.a[1] !== t.a[1] || f.b[0] !== t.b[0] || f.b[1] !== t.b[1];
  if (moved) return { cls: 'found moved', text: 'found, moved' };
  return { cls: 'found', text: f.score === undefined ? 'restored, not found now' : 'found ' + fmt(f.score, 2) };
}
// The found ties (as opened) not in the session now: removed, to be restored.
function removedTies() { return state.originals.filter(function (id) { return !find(state.session, id); }); }
function find(s, id) { for (var i = 0; i < s.ties.length; i++) if (s.ties[i].id === id) return s.ties[i]; return null; }
function other(k) { return k === 'a' ? 'b' : 'a'; }

// ---- editing: every change is an operation with the session before and after it (editing.js) ----
var history = E.history(state, changed);
var edit = history.edit, undo = history.undo, redo = history.redo;
function changed() {
  if (state.selected && !find(state.session, state.selected)) state.selected = null;
  render();
  figure();
}
function nextId() {
  var n = 0;
  state.session.ties.forEach(function (t) { var m = /^t(\d+)$/.exec(t.id); if (m) n = Math.max(n, +m[1]); });
  return 't' + (n + 1);
}
function addTie(a, b) {
  var id = nextId();
  state.pending = null; state.predicted = null;
  edit('add ' + id, function (s) { s.ties.push({ id: id, a: round(a), b: round(b) }); });
  state.selected = id;
  render();
}
function remove(id) { edit('delete ' + id, function (s) { s.ties = s.ties.filter(function (t) { return t.id !== id; }); }); }
function restore(id) {
  var f = state.found[id];
  if (!f || find(state.session, id)) return;
  edit('restore ' + id, function (s) { s.ties.push({ id: id, a: f.a.slice(), b: f.b.slice(), score: f.score }); });
}
function select(id) { state.selected = id; render(); }

// The seam figures of the session as it is now (the latest request wins).
function figure() {
  var seq = ++state.seq;
  state.busy = true;
  return fetch('/api/seams', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(state.session) })
    .then(E.answer)
    .then(function (a) {
      if (seq !== state.seq) return;
      state.busy = false;
      if (a.ok) { state.figures = a.j; state.error = null; } else { state.figures = null; state.error = a.j; }
      render();
    })
    .catch(function (e) { if (seq === state.seq) { state.busy = false; state.error = { error: String(e) }; render(); } });
}

// Save, then show what the server read back from the files it wrote (so what is shown is what was
// written, as the next run reads it); the status says saved once that is on the page.
function save() {
  flash('saving…');
  return fetch('/api/ties', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(state.session) })
    .then(E.answer)
    .then(function (a) {
      if (!a.ok) { flash('not saved: ' + a.j.error, true); render(); return; }
      state.saved = a.j;
      return load().then(function () {
        var n = state.session.ties.length, r = removedTies().length;
        flash('saved to ' + a.j.saved + '; read back: ' + n + ' ties' + (r ? ', ' + r + ' found ties removed' : ''));
      });
    });
}

// The session as the server holds it (at start, and after a save): found ties by id, the removed
// ones among them; the page's undo history starts afresh (its ids are the server's now).
function load() {
  return fetch('/api/ties').then(function (r) { return r.json(); }).then(function (s) {
    state.found = {}; state.originals = [];
    function original(t) { state.found[t.id] = { a: t.a.slice(), b: t.b.slice(), score: t.score }; state.originals.push(t.id); }
    s.ties.forEach(function (t) { if (t.score !== undefined) original(t); });
    (s.removed || []).forEach(original);
    state.session = { map_a: s.map_a, map_b: s.map_b, ties: s.ties };
    state.undo = []; state.redo = []; state.selected = null; state.pending = null; state.predicted = null;
    render();
    return figure();
  });
}

// ---- drawing ----
function render() {
  if (!state.session) return;
  ['a', 'b'].forEach(function (k) {
    var side = sides[k];
    side.markers.clearLayers();
    state.session.ties.forEach(function (t) {
      var cls = kind(t).cls + (t.id === state.selected ? ' selected' : '');
      var m = L.marker(side.pane.toLL(t[k]), { icon: icon(cls, t.id), draggable: true, keyboard: false });
      m.addTo(side.markers);
      wire(m, t.id, k);
    });
    removedTies().forEach(function (id) {
      L.marker(side.pane.toLL(state.found[id][k]), { icon: icon('removed', id), interactive: false, keyboard: false }).addTo(side.markers);
    });
  });
  drawPending(); table(); summary();
}
function wire(m, id, k) {
  m.getElement().setAttribute('data-id', id);
  m.on('click', function () { select(id); });
  m.on('dragend', function () {
    var p = sides[k].pane.toPx(m.getLatLng());
    if (!sides[k].pane.inScan(p)) { flash('outside the scan: not moved', true); render(); return; }
    edit('move ' + id, function (s) { find(s, id)[k] = round(p); });
  });
  m.on('contextmenu', function (e) { L.DomEvent.preventDefault(e.originalEvent); remove(id); });
}
function drawPending() {
  ['a', 'b'].forEach(function (k) {
    var side = sides[k];
    side.pending.clearLayers();
    if (state.pending && state.pending[k]) L.marker(side.pane.toLL(state.pending[k]), { icon: icon('pending', ''), interactive: false }).addTo(side.pending);
    if (state.predicted && state.predicted[k]) L.marker(side.pane.toLL(state.predicted[k]), { icon: icon('predicted', ''), interactive: false }).addTo(side.pending);
  });
}
function rowFigures() { var f = {}; if (state.figures) state.figures.ties.forEach(function (r) { f[r.id] = r; }); return f; }
function table() {
  var figs = rowFigures();
  document.querySelector('#tie-table tbody').innerHTML = state.session.ties.map(function (t) {
    var f = figs[t.id] || {};
    var c = kind(t);
    return '<tr data-id="' + esc(t.id) + '" class="' + c.cls + (t.id === state.selected ? ' selected' : '') + '"><td class="id">' + esc(t.id) + '</td>' +
      '<td class="kind">' + esc(c.text) + '</td>' +
      '<td class="pa">' + t.a[0] + ', ' + t.a[1] + '</td><td class="pb">' + t.b[0] + ', ' + t.b[1] + '</td>' +
      '<td class="seam">' + fmt(f.seam_m, 1) + '</td><td class="seam-px">' + fmt(f.seam_px, 2) + '</td><td class="after">' + fmt(f.seam_after_m, 1) + '</td>' +
      '<td><button class="del" title="remove">✕</button></td></tr>';
  }).join('') + removedTies().map(function (id) {
    var f = state.found[id];
    return '<tr data-id="' + esc(id) + '" class="removed"><td class="id">' + esc(id) + '</td>' +
      '<td class="kind">' + (f.score === undefined ? 'removed, not found now' : 'removed (found ' + fmt(f.score, 2) + ')') + '</td>' +
      '<td class="pa">' + f.a[0] + ', ' + f.a[1] + '</td><td class="pb">' + f.b[0] + ', ' + f.b[1] + '</td><td></td><td></td><td></td>' +
      '<td><button class="restore" title="put it back where it was found">Restore</button></td></tr>';
  }).join('');
}
function summary() {
  var n = state.session.ties.length, f = state.figures;
  if (state.error) { $('summary').textContent = 'no figures: ' + state.error.error; return; }
  if (!n) { $('summary').textContent = 'no ties yet: click a place on ' + cfg.a.name + ' and the same place on ' + cfg.b.name; return; }
  if (!f || f.ties.length !== n) { $('summary').textContent = n + ' ties'; return; }
  var worst = Math.max.apply(null, f.ties.map(function (r) { return r.seam_m; }));
  var after = Math.max.apply(null, f.ties.map(function (r) { return r.seam_after_m || 0; }));
  $('summary').textContent = n + ' ties: largest seam ' + worst.toFixed(1) + ' m on the sheets\' own fits, ' + after.toFixed(1) +
    ' m fitted together (tie_weight ' + f.tie_weight + ')';
}

document.querySelector('#tie-table tbody').addEventListener('click', function (e) {
  var tr = e.target.closest('tr'), id = tr && tr.getAttribute('data-id');
  if (!id) return;
  if (tr.classList.contains('removed')) { if (e.target.classList.contains('restore')) restore(id); return; }
  if (e.target.classList.contains('del')) { remove(id); return; }
  select(id);
});

// ---- placing ties: a click on one sheet, then the same place on the other ----
['a', 'b'].forEach(function (k) {
  sides[k].map.on('click', function (e) {
    var p = sides[k].pane.toPx(e.latlng), o = other(k);
    if (!sides[k].pane.inScan(p)) { flash('outside the scan', true); return; }
    if (state.pending && state.pending[o] && !state.pending[k]) {
      var pair = {}; pair[k] = p; pair[o] = state.pending[o];
      addTie(pair.a, pair.b);
      return;
    }
    state.pending = {}; state.pending[k] = p; state.predicted = null;
    drawPending(); predict();
  });
  sides[k].map.on('contextmenu', function () {});
});

// The twin of a half-placed point, by the two sheets' own fits (Enter accepts it).
function predict() {
  var p = state.pending;
  if (!p) return;
  var k = p.a ? 'a' : 'b';
  fetch('/api/predict?from=' + k + '&x=' + p[k][0] + '&y=' + p[k][1]).then(function (r) { return r.ok ? r.json() : null; }).then(function (j) {
    if (state.pending !== p || !j || !j.pixel || !sides[other(k)].pane.inScan(j.pixel)) return;
    state.predicted = {}; state.predicted[other(k)] = j.pixel;
    drawPending();
  });
}
function accept() {
  var p = state.pending, q = state.predicted;
  if (!p || !q) return;
  if (p.a && q.b) addTie(p.a, q.b); else if (p.b && q.a) addTie(q.a, p.b);
}

$('undo').onclick = undo;
$('redo').onclick = redo;
$('save').onclick = save;
$('help-button').onclick = function () { document.body.classList.toggle('help'); };

document.addEventListener('keydown', function (e) {
  if (E.typing(e) || E.controlKeys(e, history, save)) return;
  var k = e.key;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  switch (k) {
  case '?': document.body.classList.toggle('help'); break;
  case 'Escape':
    if (document.body.classList.contains('help')) document.body.classList.remove('help');
    else { state.pending = null; state.predicted = null; drawPending(); }
    break;
  case 'Delete': case 'Backspace': if (state.selected) { e.preventDefault(); remove(state.selected); } break;
  case 'Enter': accept(); break;
  case 's': save(); break;
  default: return;
  }
});
window.addEventListener('resize', function () { sides.a.map.invalidateSize(); sides.b.map.invalidateSize(); });

// Screen positions of a scan pixel on either side, for scripts driving the page.
state.point = function (k, p) { return sides[k].map.latLngToContainerPoint(sides[k].pane.toLL(p)); };
state.maps = { a: sides.a.map, b: sides.b.map };
state.panes = { a: sides.a.pane, b: sides.b.pane };

load().then(function () { state.ready = true; window.tegulaReady = true; });
})();
