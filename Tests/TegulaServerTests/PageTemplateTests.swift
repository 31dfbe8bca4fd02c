import Testing

@testable import TegulaHTTP
@testable import TegulaServer

/// Pages are HTML files with slots (`{{name}}`) filled in one pass (style guideline 18).
struct PageTemplateTests {
    @Test func slotsAreFilledOnceAndValuesAreNotSearched() {
        let t = PageTemplate(Array("<style>{{style}}</style><script>{{config}}</script>".utf8))
        #expect(t.slots == ["style", "config"])
        #expect(
            t.filled(["style": "{{config}}", "config": "{\"a\":\"{{style}}\"}"])
                == #"<style>{{config}}</style><script>{"a":"{{style}}"}</script>"#)
        #expect(PageTemplate(Array("no slots {{ here".utf8)).filled([:]) == "no slots {{ here")
    }

    /// The viewer's page: Leaflet's stylesheet, our style inline, the catalogue, Leaflet, the
    /// script; nothing left unfilled.
    @Test func viewerPageIsTheFileWithStyleAndCatalogue() throws {
        #expect(ViewerAssets.template.slots == ["style", "catalogue"])
        let page = ViewerAssets.html(try Catalogue([]))
        #expect(page.hasPrefix("<!doctype html>") && !page.contains("{{") && page.contains(".tegula-panel {"))
        #expect(page.contains(#"<script id="catalogue" type="application/json">[]</script>"#))
        #expect(page.contains(#"<link rel="stylesheet" href="/leaflet/leaflet.css">"#))
        #expect(String(decoding: PackageResources.viewer_js, as: UTF8.self).contains("PIN_THRESHOLD_PX"))
    }
}
