import Foundation
import TegulaPyramid
import TegulaTestSupport
import TegulaWarp
import Testing

@testable import TegulaPipeline

/// `pipelines/schema.json` lists exactly the keys the Codable sections accept.
struct SchemaTests {
    static let root = PackageRoot.url

    func keys(_ object: Any?) -> Set<String> {
        Set(((object as? [String: Any])?["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
    }

    @Test func schemaKeysMatchTheModels() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("pipelines/schema.json"))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let top = schema["properties"] as? [String: Any]
        #expect(keys(schema) == Set(PipelineSpec.CodingKeys.allCases.map(\.stringValue)))
        let map = (top?["maps"] as? [String: Any])?["items"] as? [String: Any]
        #expect(keys(map) == Set(MapSpec.CodingKeys.allCases.map(\.stringValue)))
        let props = map?["properties"] as? [String: Any]
        #expect(keys(props?["warp"]) == Set(WarpOptions.CodingKeys.allCases.map(\.stringValue)))
        #expect(keys(props?["tile"]) == Set(TileOptions.CodingKeys.allCases.map(\.stringValue)))
        #expect(keys(props?["georeference"]) == Set(GeoreferenceSpec.CodingKeys.allCases.map(\.stringValue)))
        #expect(keys(top?["composite"]) == Set(CompositeSpec.CodingKeys.allCases.map(\.stringValue)))
        #expect(keys(top?["quality"]) == Set(QualitySpec.CodingKeys.allCases.map(\.stringValue)))
        let defaults = top?["map_defaults"] as? [String: Any]
        #expect(keys(defaults) == Set(MapDefaults.CodingKeys.allCases.map(\.stringValue)))
        #expect(keys((defaults?["properties"] as? [String: Any])?["georeference"]) == Set(GeoreferenceSpec.CodingKeys.allCases.map(\.stringValue)))
        let glob = ((top?["maps_from"] as? [String: Any])?["oneOf"] as? [Any])?.last
        #expect(keys(glob) == Set(MapsFrom.CodingKeys.allCases.map(\.stringValue)))
    }

    @Test func everyExampleLoadsAndPlans() throws {
        let dir = Self.root.appendingPathComponent("pipelines").path
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".yml") }.sorted()
        #expect(files.count >= 7)
        for file in files {
            let p = try Pipeline.load(path: dir + "/" + file)
            #expect(!p.spec.maps.isEmpty, "\(file)")
        }
    }
}
