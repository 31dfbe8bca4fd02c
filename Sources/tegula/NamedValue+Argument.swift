import ArgumentParser
import TegulaGeometry
import TegulaServer
import TegulaSupport
import TegulaTileset
import TegulaWarp

// The command line reads each NamedValue with its one parser (aliases included) and lists its
// canonical names in help.
extension TileFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { names }
    public var defaultValueDescription: String { name }
}

extension AutoLossy: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { names }
    public var defaultValueDescription: String { name }
}

/// `--webp-effort N`, a level 0–9; out of range is refused naming the range.
extension WebPEffort: ExpressibleByArgument {
    public init?(argument: String) {
        guard let level = Int(argument) else { return nil }
        self.init(level)
    }
    public static var allValueStrings: [String] { levels.map(String.init) }
    public var defaultValueDescription: String { description }
}

extension TileOrigin: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { names }
    public var defaultValueDescription: String { name }
}

extension Resampling: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { names }
    public var defaultValueDescription: String { name }
}

/// `--missing 404|204`, by the status code.
extension TileServerConfiguration.MissingTile: ExpressibleByArgument {
    public static var allValueStrings: [String] { ["404", "204"] }
}
