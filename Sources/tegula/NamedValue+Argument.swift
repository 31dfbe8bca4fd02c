import ArgumentParser
import TegulaBundle
import TegulaGeometry
import TegulaServer
import TegulaSupport
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
extension ServerConfiguration.MissingTile: ExpressibleByArgument {
    public static var allValueStrings: [String] { ["404", "204"] }
}
