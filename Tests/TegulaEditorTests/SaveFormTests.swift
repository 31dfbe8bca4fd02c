import Foundation
import TegulaEditor
import TegulaTestSupport
import Testing

/// Save writes every GCP form Tegula writes, chosen by TegulaGeoreference's `GCPFileOutput`
/// (issue 45): an output ending in `.txt` is GDAL text, one `PIXEL LINE X Y` a line as
/// `gdal_translate -gcp` takes them, read back here by splitting the lines.
@Suite(.serialized)
struct SaveFormTests {
    @Test func anOutputEndingInTxtIsSavedAsGDALTextWithTheFitBesideIt() async throws {
        let (service, dir) = try EditorAPITests.service(output: "out.txt")
        let session = service.current
        try await EditorAPITests.live(service) { send in
            let saved = try await send(.put, "/api/session", session.json())
            #expect(saved.status == 200, "\(String(decoding: saved.body, as: UTF8.self))")
        }
        let text = try String(contentsOf: dir.appendingPathComponent("out.txt"), encoding: .utf8)
        let rows = text.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
        let enabled = session.gcps.filter(\.enabled)
        try #require(rows.count == enabled.count && rows.allSatisfy { $0.count == 4 }, "\(text.prefix(300))")
        for (row, g) in zip(rows, enabled) {
            #expect(row == [g.pixel.x, g.pixel.y, g.ground.x, g.ground.y], "\(g.id): \(row)")
        }
        let fit = try String(contentsOf: dir.appendingPathComponent("out.txt.fit"), encoding: .utf8)
        #expect(fit.contains("TEGULA_TRANSFORM="), "the fit kept beside a form without room for it: \(fit)")
    }
}
