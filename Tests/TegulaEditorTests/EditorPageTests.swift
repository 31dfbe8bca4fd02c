import Foundation
import TegulaGeoreference
import Testing

@testable import TegulaEditor

/// The editor's page is its HTML file with the style and configuration filled in (style
/// guideline 18); what the file writes by hand matches the Swift it mirrors.
struct EditorPageTests {
    @Test func pageIsTheFileWithStyleAndConfig() {
        #expect(EditorPage.template.slots == ["style", "transforms", "config"])
        let page = EditorPage.html(config: #"{"maxzoom":3}"#)
        #expect(page.hasPrefix("<!doctype html>") && !page.contains("{{") && page.contains("#gcp-table {"))
        #expect(page.contains(#"<script id="config" type="application/json">{"maxzoom":3}</script>"#))
        #expect(page.components(separatedBy: "<script").count - 1 == 5)  // the config, Leaflet, the shared script, the scan tiles, the editor
        #expect(EditorScript.source.contains("document.getElementById('config')"))
    }

    /// The transform menu offers `auto` and every transform the georeferencer fits.
    @Test func transformMenuOffersEveryTransformKind() throws {
        let page = EditorPage.html(config: "{}")
        let select = try #require(
            page.components(separatedBy: #"<select id="transform">"#).last?
                .components(separatedBy: "</select>").first)
        let values = select.components(separatedBy: #"<option value=""#).dropFirst()
            .compactMap { $0.components(separatedBy: "\"").first }
        #expect(values.first == "auto")
        #expect(Set(values) == Set(["auto"] + TransformKind.allCases.map(\.rawValue)) && values.count == TransformKind.allCases.count + 1)
        // Served from TransformKind: the page's file names no transform itself.
        #expect(!String(decoding: PackageResources.editor_html, as: UTF8.self).contains("<option"))
    }

    /// What both editor pages share is written once, in `editing.js`, which both pages load
    /// before their own script; neither script keeps a copy of it.
    @Test func bothPagesLoadTheSharedScriptAndKeepNoCopyOfIt() {
        let shared = #"<script src="/editing.js"></script>"#
        for (page, own) in [
            (EditorPage.html(config: "{}"), #"<script src="/editor.js">"#), (TiePage.html(config: "{}"), #"<script src="/ties.js">"#),
        ] {
            let at = page.range(of: shared), ownAt = page.range(of: own)
            #expect(at != nil && ownAt != nil && at!.lowerBound < ownAt!.lowerBound)
        }
        for name in ["E.esc", "E.clone", "E.round", "E.fmt", "E.history", "E.typing", "E.controlKeys"] {
            #expect(EditingScript.source.contains(name + " = function"), "\(name)")
        }
        for script in [EditorScript.source, TiePage.script] {
            for copy in [
                "function esc(", "function clone(", "function round(", "function fmt(", "function undo(", "function redo(", "state.undo.push",
                "t.tagName === 'INPUT' || t.tagName === 'SELECT'",
            ] {
                #expect(!script.contains(copy), "\(copy) is written again in a page's own script")
            }
        }
    }
}
