import TegulaServer

/// The editor's page: two maps side by side (the scan in pixel space, the basemap), the toolbar,
/// the fit panel with the point table, and the `?` help overlay with the keymap. Leaflet comes
/// from Debian's libjs-leaflet under `/leaflet/`, never a CDN; the script is ``EditorScript``.
enum EditorPage {
    /// The keymap, as the help overlay and the README show it.
    static let keymap: [(keys: String, action: String)] = [
        ("click scan, click map", "add a pair (either side first; the half-placed point pulses until its twin is placed)"),
        ("Enter", "accept the predicted twin of a half-placed point"),
        ("Esc", "drop the half-placed point; leave mask drawing; close this help"),
        ("drag a point", "move it (scan or map side)"),
        ("Delete / Backspace, right-click", "remove the selected point / the point clicked"),
        ("e", "enable or disable the selected point"),
        ("n", "edit the selected point's note"),
        ("Ctrl+Z / Ctrl+Shift+Z (Ctrl+Y)", "undo / redo any edit"),
        ("o", "switch between side by side and overlay"),
        ("v", "show or hide the warped overlay"),
        ("[ / ]", "overlay opacity down / up"),
        ("m", "draw the mask: clicks on the scan add vertices; drag to move, right-click to delete one"),
        ("l", "link the map to the scan through the fit"),
        ("s, Ctrl+S", "save to the output"),
        ("?", "this help"),
    ]

    static func html(config: String) -> String {
        let keys = keymap.map { "<tr><td><kbd>\($0.keys)</kbd></td><td>\($0.action)</td></tr>" }.joined(separator: "\n")
        let transforms = ["auto", "helmert", "polynomial1", "projective", "polynomial2", "polynomial3", "tps"]
            .map { "<option value=\"\($0)\">\($0)</option>" }.joined()
        return """
        \(ViewerAssets.pageHead(title: "Tegula editor"))
        <style>
        html, body { height: 100%; margin: 0; font: 13px/1.35 sans-serif; }
        body { display: flex; flex-direction: column; }
        #bar { display: flex; gap: 10px; align-items: center; padding: 4px 8px; background: #f4f1ea; border-bottom: 1px solid #ccc; flex-wrap: wrap; }
        #bar button.on { background: #335; color: #fff; }
        #maps { flex: 1 1 0; display: flex; min-height: 240px; }
        #scan, #ground { flex: 1 1 50%; height: 100%; }
        #scan { border-right: 2px solid #888; background: #ddd; }
        body.overlay #scan { display: none; }
        body.masking #scan { cursor: crosshair; }
        #panel { flex: 0 0 34vh; overflow: auto; padding: 4px 8px; border-top: 1px solid #ccc; }
        #fit-summary { font-weight: bold; }
        #comparison { color: #555; font-size: 12px; }
        #warnings { margin: 2px 0; padding-left: 18px; color: #a40; }
        #gcp-table { border-collapse: collapse; font-size: 12px; }
        #gcp-table th, #gcp-table td { border-bottom: 1px solid #ddd; padding: 1px 5px; text-align: right; }
        #gcp-table td.id, #gcp-table th.id { text-align: left; }
        #gcp-table tr.selected { background: #fde8a8; }
        #gcp-table tr.disabled { color: #999; }
        #gcp-table tr.outlier td.r { color: #c00; font-weight: bold; }
        #gcp-table input.pixel, #gcp-table input.ground { width: 150px; }
        #gcp-table input.note { width: 110px; }
        input.invalid { border: 2px solid #d00; background: #fee; }
        .field-error { color: #d00; display: block; font-size: 11px; text-align: left; }
        .gcp { border-radius: 50%; border: 2px solid #fff; box-shadow: 0 0 0 1px #000; background: #2a6; }
        .gcp span { position: absolute; left: 14px; top: -4px; white-space: nowrap; font: bold 11px sans-serif; color: #000;
          text-shadow: 0 0 2px #fff, 0 0 2px #fff; }
        .gcp.warn { background: #e90; } .gcp.bad { background: #d11; } .gcp.disabled { background: #999; opacity: .7; }
        .gcp.selected { box-shadow: 0 0 0 3px #06f; }
        .gcp.pending { background: #f0f; animation: pulse 0.8s infinite alternate; }
        .gcp.predicted { background: transparent; border: 2px dashed #f0f; box-shadow: none; }
        @keyframes pulse { from { transform-origin: center; box-shadow: 0 0 0 2px #f0f; } to { box-shadow: 0 0 0 8px rgba(255,0,255,.2); } }
        .mask-vertex { background: #fff; border: 2px solid #06c; }
        #help { display: none; position: fixed; inset: 40px 15%; background: #fff; border: 1px solid #333; padding: 12px 18px;
          z-index: 2000; overflow: auto; box-shadow: 0 4px 20px rgba(0,0,0,.4); }
        body.help #help { display: block; }
        #help td { padding: 2px 8px; vertical-align: top; }
        kbd { font: 12px monospace; background: #eee; border: 1px solid #bbb; border-radius: 3px; padding: 0 3px; }
        #status.error { color: #c00; }
        </style>
        </head>
        <body>
        <div id="bar">
          <b>Tegula editor</b>
          <button id="mode-side" class="on" title="o">Side by side</button>
          <button id="mode-overlay" title="o">Overlay</button>
          <label>opacity <input id="opacity" type="range" min="0" max="1" step="0.05" value="0.7"></label>
          <label>transform <select id="transform">\(transforms)</select></label>
          <button id="mask-mode" title="m">Draw mask</button>
          <button id="mask-delete">Delete mask</button>
          <button id="undo" title="Ctrl+Z">Undo</button>
          <button id="redo" title="Ctrl+Shift+Z">Redo</button>
          <button id="save" title="s">Save</button>
          <button id="help-button" title="?">?</button>
          <span id="status"></span>
        </div>
        <div id="maps"><div id="scan"></div><div id="ground"></div></div>
        <div id="panel">
          <div id="fit-summary"></div>
          <div id="comparison"></div>
          <ul id="warnings"></ul>
          <div id="arrow-scale"></div>
          <table id="gcp-table"><thead><tr><th class="id">id</th><th>on</th><th>note</th><th>pixel x, y</th><th>ground lon, lat</th>
            <th>dX px</th><th>dY px</th><th>|r| px</th><th>|r| m</th><th>leave-one-out m</th><th></th></tr></thead><tbody></tbody></table>
        </div>
        <div id="help"><h3>Keys</h3><p>Keys do nothing while you type in a field.</p><table>\(keys)</table>
          <p>Residual arrows on the scan point from each point to where the fit puts its ground position (scaled as stated below the summary);
          green within the RMSE, orange within twice it, red beyond.</p></div>
        <script id="config" type="application/json">\(config)</script>
        <script src="/leaflet/leaflet.js"></script>
        <script src="/editor.js"></script>
        </body>
        </html>

        """
    }
}
