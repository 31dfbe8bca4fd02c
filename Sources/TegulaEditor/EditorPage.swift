import TegulaGeoreference
import TegulaHTTP

/// The editor's page (`Pages/editor.html`, styled by `Pages/editor.css`, both embedded in the
/// binary by SwiftPM's `embedInCode`): two maps side by side (the scan in pixel space, the
/// basemap), the toolbar with the transforms, the fit panel with the point table, and the `?` help
/// overlay with the keymap, all written in the HTML file but the transform menu's options, which
/// come from ``TransformKind`` (``transformOptions``). Leaflet comes from Debian's libjs-leaflet
/// under `/leaflet/`, never a CDN; the scripts are ``EditingScript`` (shared with the tie editor)
/// and ``EditorScript``.
enum EditorPage {
    static let template = PageTemplate(PackageResources.editor_html)
    static let style = String(decoding: PackageResources.editor_css, as: UTF8.self)

    /// The page with `config` (a JSON object already made script-safe by
    /// ``PageTemplate/scriptSafe(json:)``) in its `<script id="config" type="application/json">`
    /// element, where the script reads it.
    static func html(config: String) -> String {
        template.filled(["style": style, "config": config, "transforms": transformOptions])
    }

    /// The transform menu's options, one a line: `auto` (the choice rule), the transforms it
    /// chooses among in its order, then those fitted only when named (`straight`).
    static let transformOptions: String = {
        let kinds = TransformKind.chosenAmong + TransformKind.allCases.filter { !TransformKind.chosenAmong.contains($0) }
        let names = [EditorSession.auto] + kinds.map(\.name)
        return "\n" + names.map { "    <option value=\"\($0)\">\($0)</option>\n" }.joined() + "  "
    }()
}
