import Foundation
import Testing
@testable import TegulaEditor
import TegulaGeoreference

/// The editor's page is its HTML file with the style and configuration filled in (style
/// guideline 18); what the file writes by hand matches the Swift it mirrors.
struct EditorPageTests {
    @Test func pageIsTheFileWithStyleAndConfig() {
        #expect(EditorPage.template.slots == ["style", "config"])
        let page = EditorPage.html(config: #"{"maxzoom":3}"#)
        #expect(page.hasPrefix("<!doctype html>") && !page.contains("{{") && page.contains("#gcp-table {"))
        #expect(page.contains(#"<script id="config" type="application/json">{"maxzoom":3}</script>"#))
        #expect(page.components(separatedBy: "<script").count - 1 == 4)  // the config, Leaflet, the scan tiles, the editor
        #expect(EditorScript.source.contains("document.getElementById('config')"))
    }

    /// The transform menu offers `auto` and every transform the georeferencer fits.
    @Test func transformMenuOffersEveryTransformKind() throws {
        let page = EditorPage.html(config: "{}")
        let select = try #require(page.components(separatedBy: #"<select id="transform">"#).last?
            .components(separatedBy: "</select>").first)
        let values = select.components(separatedBy: #"<option value=""#).dropFirst()
            .compactMap { $0.components(separatedBy: "\"").first }
        #expect(values.first == "auto")
        #expect(Set(values) == Set(["auto"] + TransformKind.allCases.map(\.rawValue)) && values.count == TransformKind.allCases.count + 1)
    }
}
