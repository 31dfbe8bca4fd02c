import Foundation
import Testing

/// The layering is a test, not a paragraph (house style 20): every target of Package.swift has a
/// layer in `ModuleLayers.table`, and neither a Swift file's imports nor a target's declared
/// dependencies run upward or sideways. Targets, folders and imports are read as
/// `DeclaredDependencyTests` reads them, through `swift package dump-package`.
@Suite(.timeLimit(.minutes(20)))
struct LayeringTests {
    typealias Manifest = DeclaredDependencyTests

    /// A use of a module that is not below its user: both modules and their layers.
    struct Crossing: CustomStringConvertible {
        var user: String, userLayer: Int, used: String, usedLayer: Int
        var description: String {
            "\(user), \(ModuleLayers.describe(userLayer)), uses \(used), \(ModuleLayers.describe(usedLayer)), which is "
                + (usedLayer == userLayer ? "its own layer" : "above it")
                + ": a module uses only lower layers; move what it needs down, or \(user) up in ModuleLayers.swift"
        }
    }

    /// The crossing when `user` may not use `used`, or nil when it may: `used` is of a lower
    /// layer or of none (another package's module, the platform's), or `user` has none (which
    /// `everyTargetHasALayerAndEveryModuleOfTheLayersIsATarget` reports).
    static func crossing(_ user: String, uses used: String) -> Crossing? {
        guard let own = ModuleLayers.layer(of: user), let other = ModuleLayers.layer(of: used),
            other.number >= own.number
        else { return nil }
        return Crossing(user: user, userLayer: own.number, used: used, usedLayer: other.number)
    }

    /// The targets the layers cover: all but test targets, which stand above every module.
    static func layeredTargets() throws -> [Manifest.Target] {
        try Manifest.manifestTargets().filter { $0.type != "test" }
    }

    /// `file`'s path from the package root.
    static func relative(_ file: URL) -> String {
        let root = TegulaBinary.packageRoot.standardizedFileURL.path + "/"
        let path = file.standardizedFileURL.path
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }

    @Test func anImportOfTheSameOrAHigherLayerCrossesAndOfALowerOneOrAnotherPackageDoesNot() throws {
        let upward = try #require(Self.crossing("TegulaGeometry", uses: "TegulaEditor"))
        #expect(upward.usedLayer > upward.userLayer && upward.description.contains("above it"))
        let sideways = try #require(Self.crossing("TegulaGDAL", uses: "TegulaDeflate"))
        #expect(sideways.usedLayer == sideways.userLayer && sideways.description.contains("its own layer"))
        #expect(Self.crossing("TegulaEditor", uses: "TegulaGeometry") == nil)
        #expect(Self.crossing("TegulaServer", uses: "Hummingbird") == nil)
        #expect(Self.crossing("TegulaGeometryTests", uses: "TegulaGeometry") == nil)
    }

    @Test func everyTargetHasALayerAndEveryModuleOfTheLayersIsATarget() throws {
        let targets = Set(try Self.layeredTargets().map(\.name))
        #expect(targets.count > 20, "dump-package listed \(targets.count) targets that are not tests")
        var layered: [String: [Int]] = [:]
        for (number, layer) in ModuleLayers.table.enumerated() {
            for module in layer.modules { layered[module, default: []].append(number) }
        }
        for module in targets.subtracting(layered.keys).sorted() {
            Issue.record(
                "\(module) is a target of Package.swift but has no layer in ModuleLayers.swift: add it to the lowest layer above everything it imports"
            )
        }
        for module in Set(layered.keys).subtracting(targets).sorted() {
            Issue.record(
                "\(module) has \(ModuleLayers.describe(layered[module]![0])) in ModuleLayers.swift but is no target of Package.swift (test targets have no layer): remove it from the table"
            )
        }
        for (module, numbers) in layered.sorted(by: { $0.key < $1.key }) where numbers.count > 1 {
            Issue.record(
                "\(module) is in \(numbers.count) layers of ModuleLayers.swift (\(numbers.map(ModuleLayers.describe).joined(separator: ", "))): keep one"
            )
        }
    }

    @Test func noSwiftFileImportsAModuleOfItsOwnLayerOrAHigherOne() throws {
        var files = 0
        for t in try Self.layeredTargets() where t.type != "system" && t.type != "binary" && t.type != "plugin" {
            for file in Manifest.swiftFiles(under: Manifest.folder(of: t), exclude: t.exclude) {
                for module in try Manifest.imports(of: file).sorted() {
                    if let crossing = Self.crossing(t.name, uses: module) {
                        Issue.record("\(Self.relative(file)) imports \(module): \(crossing)")
                    }
                }
                files += 1
            }
        }
        #expect(files > 200, "only \(files) Swift files read")
    }

    @Test func noTargetDeclaresADependencyOnItsOwnLayerOrAHigherOne() throws {
        for t in try Self.layeredTargets() {
            for module in t.declared.sorted() {
                if let crossing = Self.crossing(t.name, uses: module) {
                    Issue.record("Package.swift: \(t.name) declares \(module): \(crossing)")
                }
            }
        }
    }
}
