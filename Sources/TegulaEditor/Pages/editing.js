// What the two editor pages share (served as /editing.js to the GCP editor and the tie editor,
// before each page's own script): text escaped for HTML, copies, rounding and figures as the
// tables show them, the undo and redo log, and the keys both pages read the same way.
window.tegulaEditing = (function () {
'use strict';
var E = {};
E.$ = function (id) { return document.getElementById(id); };
E.clone = function (x) { return JSON.parse(JSON.stringify(x)); };
E.esc = function (s) { return String(s).replace(/[&<>"]/g, function (c) { return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]; }); };
// A pixel position to a hundredth of a pixel.
E.round = function (p) { return [Math.round(p[0] * 100) / 100, Math.round(p[1] * 100) / 100]; };
// A figure to d decimals, '–' for none.
E.fmt = function (v, d) { return v === null || v === undefined ? '–' : v.toFixed(d); };
// A fetch's answer as {ok, j}: the status and the JSON body.
E.answer = function (r) { return r.json().then(function (j) { return { ok: r.ok, j: j }; }); };
// The status line: a message, red when it is an error.
E.flash = function (text, isError) { var s = E.$('status'); s.textContent = text; s.className = isError ? 'error' : ''; };

// The operation log: every change is an operation holding what `take()` gave before and after it
// (state.undo, state.redo: {op, before, after}); undo and redo `put` one back and call `changed`.
// By default what is edited is state.session.
E.history = function (state, changed, take, put) {
  take = take || function () { return E.clone(state.session); };
  put = put || function (s) { state.session = E.clone(s); };
  var h = {};
  h.edit = function (label, fn) {
    var before = take();
    fn(state.session);
    state.undo.push({ op: label, before: before, after: take() });
    state.redo = [];
    changed();
  };
  h.undo = function () { var op = state.undo.pop(); if (!op) return; state.redo.push(op); put(op.before); changed(); E.flash('undid ' + op.op); };
  h.redo = function () { var op = state.redo.pop(); if (!op) return; state.undo.push(op); put(op.after); changed(); E.flash('redid ' + op.op); };
  return h;
};

// Whether a key went to a field being typed in (keys do nothing there).
E.typing = function (e) {
  var t = e.target;
  return !!(t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA' || t.isContentEditable));
};
// Ctrl+Z undo, Ctrl+Shift+Z and Ctrl+Y redo, Ctrl+S save (Cmd on a Mac): true when the key was one.
E.controlKeys = function (e, h, save) {
  var k = e.key;
  if (!(e.ctrlKey || e.metaKey)) return false;
  if (k === 'z' || k === 'Z') { e.preventDefault(); if (e.shiftKey) h.redo(); else h.undo(); return true; }
  if (k === 'y' || k === 'Y') { e.preventDefault(); h.redo(); return true; }
  if (k === 's' || k === 'S') { e.preventDefault(); save(); return true; }
  return false;
};
return E;
})();
