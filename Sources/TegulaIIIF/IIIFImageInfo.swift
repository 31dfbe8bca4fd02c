import Foundation
import TegulaSupport

/// The Image API version an info.json declares, or a request is written for.
public enum IIIFAPIVersion: String, Sendable, Hashable, CaseIterable {
    /// Image API 2.0 and 2.1 (`@id`, `profile` as a URI and an object, size `full`).
    case v2 = "2"
    /// Image API 3.0 (`id`, `profile` `levelN`, size `max`, `^` for upscaling).
    case v3 = "3"

    /// The JSON-LD context URI of an info.json of this version.
    public var context: String { "http://iiif.io/api/image/\(rawValue)/context.json" }
}

/// A compliance level (Image API 2.1 §5, 3.0 §6): what a server promises to answer.
public enum IIIFComplianceLevel: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Only the listed tiles and sizes.
    case level0 = 0
    /// Regions by pixels and square, sizes by `w,`, `,h`, `w,h`.
    case level1 = 1
    /// Level 1 plus percent regions and sizes, confined sizes, rotation by 90°, PNG.
    case level2 = 2

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The level named by a 3.0 `levelN` or a 2.x URI (`http://iiif.io/api/image/2/level1.json`);
    /// nil for any other string.
    public init?(profile: String) {
        var name = Substring(profile)
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if name.hasSuffix(".json") { name = name.dropLast(5) }
        switch name {
        case "level0": self = .level0
        case "level1": self = .level1
        case "level2": self = .level2
        default: return nil
        }
    }

    /// `levelN`, as a 3.0 `profile` writes it.
    public var name: String { "level\(rawValue)" }
}

/// An image format of the Image API (the `.{format}` of a request).
public enum IIIFFormat: String, Sendable, Hashable, CaseIterable, Codable {
    case jpg, tif, png, gif, jp2, pdf, webp

    /// True when the format keeps every pixel: a tile in it is the scan's own pixels.
    public var isLossless: Bool { self == .png || self == .tif }

    /// The media type a server answers with (Image API 3.0 §4.5).
    public var mediaType: String {
        switch self {
        case .jpg: "image/jpeg"
        case .tif: "image/tiff"
        case .png: "image/png"
        case .gif: "image/gif"
        case .jp2: "image/jp2"
        case .pdf: "application/pdf"
        case .webp: "image/webp"
        }
    }
}

/// A quality of the Image API (the `{quality}` of a request).
public enum IIIFQuality: String, Sendable, Hashable, CaseIterable, Codable {
    case `default`, color, gray, bitonal
}

/// A feature name of the Image API (2.1 `supports`, 3.0 `extraFeatures`): the union of both
/// versions' lists. Names a server adds of its own (2.1 allows URIs) are left out when decoding.
public enum IIIFFeature: String, Sendable, Hashable, CaseIterable, Codable {
    case baseUriRedirect, canonicalLinkHeader, cors, jsonldMediaType, mirroring, profileLinkHeader
    case regionByPct, regionByPx, regionSquare, rotationArbitrary, rotationBy90s
    case sizeAboveFull, sizeByConfinedWh, sizeByDistortedWh, sizeByForcedWh, sizeByH, sizeByPct, sizeByW, sizeByWh
    case sizeByWhListed, sizeUpscaling

    /// The features a level implies in 3.0 (§6 compliance document), which `extraFeatures` need not list.
    public static func implied(by level: IIIFComplianceLevel) -> Set<IIIFFeature> {
        let one: Set<IIIFFeature> = [.baseUriRedirect, .cors, .jsonldMediaType, .regionByPx, .regionSquare, .sizeByH, .sizeByW, .sizeByWh]
        switch level {
        case .level0: return []
        case .level1: return one
        case .level2: return one.union([.regionByPct, .rotationBy90s, .sizeByConfinedWh, .sizeByPct])
        }
    }
}

/// One tile grid of an image (`tiles` entry): tiles of `width` × `height` pixels at each of
/// `scaleFactors`.
public struct IIIFTileSet: Sendable, Hashable, Codable {
    /// Tile width in pixels of the scaled image.
    public var width: Int
    /// Tile height; `width` when the info.json leaves it out.
    public var height: Int
    /// The scale factors these tiles are offered at (1 is full resolution).
    public var scaleFactors: [Int]

    /// A tile grid; `height` defaults to `width`.
    public init(width: Int, height: Int? = nil, scaleFactors: [Int]) {
        self.width = width
        self.height = height ?? width
        self.scaleFactors = scaleFactors
    }

    enum CodingKeys: String, CodingKey { case width, height, scaleFactors }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            width: try c.decode(Int.self, forKey: .width), height: try c.decodeIfPresent(Int.self, forKey: .height),
            scaleFactors: try c.decode([Int].self, forKey: .scaleFactors))
        let at = IIIFImageInfo.keyPath(decoder.codingPath)
        guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16 else {
            throw IIIFError(.badInfo, at: at, "tile size \(width) × \(height); expected 1 to 65536 pixels a side")
        }
        guard !scaleFactors.isEmpty, scaleFactors.allSatisfy({ $0 >= 1 && $0 <= 1 << 20 }) else {
            throw IIIFError(.badInfo, at: at, "scaleFactors \(scaleFactors); expected a list of whole numbers from 1")
        }
    }
}

/// A size the server offers for the whole image (`sizes` entry).
public struct IIIFSize: Sendable, Hashable, Codable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    enum CodingKeys: String, CodingKey { case width, height }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(width: try c.decode(Int.self, forKey: .width), height: try c.decode(Int.self, forKey: .height))
        guard width > 0, height > 0 else {
            throw IIIFError(.badInfo, at: IIIFImageInfo.keyPath(decoder.codingPath), "size \(width) × \(height); expected positive pixels")
        }
    }
}

/// An image service's description (`info.json`), Image API 2.x or 3.0, in one typed model:
/// decoded from either version, encoded as 3.0 (Image API 3.0 §5; 2.1 §5).
public struct IIIFImageInfo: Sendable, Hashable {
    /// The version the description was written in.
    public var version: IIIFAPIVersion
    /// The service's base URI (`id`, 2.x `@id`), without a trailing `/`.
    public var id: String
    /// Full-resolution width in pixels.
    public var width: Int
    /// Full-resolution height in pixels.
    public var height: Int
    /// The compliance level.
    public var level: IIIFComplianceLevel
    /// Tile grids offered (often one).
    public var tiles: [IIIFTileSet]
    /// Whole-image sizes offered.
    public var sizes: [IIIFSize]
    /// The largest width the server answers (3.0 top level, 2.1 profile object).
    public var maxWidth: Int?
    /// The largest height; defaults to `maxWidth` when only that is given (3.0 §5.4).
    public var maxHeight: Int?
    /// The largest pixel count.
    public var maxArea: Int?
    /// Every format the server answers: those the level implies (jpg; png at level 2) and the listed ones.
    public var formats: [IIIFFormat]
    /// Formats the server prefers, best first (3.0 `preferredFormats`).
    public var preferredFormats: [IIIFFormat]
    /// Every quality offered (`default` always).
    public var qualities: [IIIFQuality]
    /// Every feature the level implies and the listed ones.
    public var features: Set<IIIFFeature>

    /// A description; formats, qualities and features the level implies are added.
    public init(
        version: IIIFAPIVersion = .v3, id: String, width: Int, height: Int, level: IIIFComplianceLevel,
        tiles: [IIIFTileSet] = [], sizes: [IIIFSize] = [], maxWidth: Int? = nil, maxHeight: Int? = nil,
        maxArea: Int? = nil, formats: [IIIFFormat] = [], preferredFormats: [IIIFFormat] = [],
        qualities: [IIIFQuality] = [], features: Set<IIIFFeature> = []
    ) {
        self.version = version
        var id = id
        while id.hasSuffix("/") { id.removeLast() }
        self.id = id
        self.width = width
        self.height = height
        self.level = level
        self.tiles = tiles
        self.sizes = sizes
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight ?? maxWidth
        self.maxArea = maxArea
        self.formats = Self.union(Self.impliedFormats(level), formats)
        self.preferredFormats = preferredFormats
        self.qualities = Self.union([.default], qualities)
        self.features = features.union(IIIFFeature.implied(by: level))
    }

    /// The formats a level requires (2.1 §5, 3.0 §6): jpg, and png at level 2.
    public static func impliedFormats(_ level: IIIFComplianceLevel) -> [IIIFFormat] {
        level == .level2 ? [.jpg, .png] : [.jpg]
    }

    static func union<T: Equatable>(_ a: [T], _ b: [T]) -> [T] {
        var all = a
        for x in b where !all.contains(x) { all.append(x) }
        return all
    }

    /// The description in `data`, refused in one line naming `location` (its URL) and the key.
    public static func decode(_ data: [UInt8], from location: String) throws(IIIFError) -> IIIFImageInfo {
        do {
            return try JSONDecoder().decode(IIIFImageInfo.self, from: Data(data))
        } catch let e as IIIFError {
            throw IIIFError(e.reason, at: e.location.map { "\(location) \($0)" } ?? location, e.message)
        } catch let DecodingError.keyNotFound(key, context) {
            throw IIIFError(
                .badInfo, at: "\(location) \(keyPath(context.codingPath + [key]))",
                "missing; an Image API info.json needs @context, id (2.x @id), width, height and profile")
        } catch let DecodingError.typeMismatch(type, context) {
            throw IIIFError(.badInfo, at: "\(location) \(keyPath(context.codingPath))", "expected \(describe(type))")
        } catch let DecodingError.valueNotFound(type, context) {
            throw IIIFError(.badInfo, at: "\(location) \(keyPath(context.codingPath))", "null; expected \(describe(type))")
        } catch {
            throw IIIFError(.badInfo, at: location, "not JSON; expected an Image API info.json")
        }
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: "a whole number"
        case is String.Type: "a string"
        case is [Int].Type: "a list of whole numbers"
        default: "a \(type)".replacingOccurrences(of: "Swift.", with: "")
        }
    }

    /// A coding path as the info.json's key path: `tiles[0].scaleFactors`.
    static func keyPath(_ path: [any CodingKey]) -> String {
        var s = ""
        for k in path {
            if let i = k.intValue { s += "[\(i)]" } else { s += (s.isEmpty ? "" : ".") + k.stringValue }
        }
        return s.isEmpty ? "info.json" : s
    }

    /// The largest size of a region of `width` × `height` the server answers without upscaling:
    /// the region's own, scaled down into `maxWidth`, `maxHeight` and `maxArea` (3.0 §4.2).
    public func maxSize(ofRegion width: Int, _ height: Int) -> IIIFSize {
        var scale = 1.0
        if let maxWidth, width > maxWidth { scale = min(scale, Double(maxWidth) / Double(width)) }
        if let maxHeight, height > maxHeight { scale = min(scale, Double(maxHeight) / Double(height)) }
        if let maxArea, width * height > maxArea { scale = min(scale, (Double(maxArea) / Double(width * height)).squareRoot()) }
        if scale == 1 { return IIIFSize(width: width, height: height) }
        return IIIFSize(width: max(1, Int(Double(width) * scale)), height: max(1, Int(Double(height) * scale)))
    }
}

extension IIIFImageInfo: Codable {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The 2.x profile's object: what the level adds.
    struct ProfileDetails: Decodable {
        var formats: [String]?
        var qualities: [String]?
        var supports: [String]?
        var maxWidth: Int?
        var maxHeight: Int?
        var maxArea: Int?
    }

    /// Decodes a 2.0, 2.1 or 3.0 info.json; the version comes from `@context` (else from `id`
    /// against `@id`). Each part is checked in the order the keys are listed here, so a file
    /// wrong in two places is refused for the first.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let version = try Self.version(c)
        let id = try Self.serviceID(c, version)
        let (width, height) = try Self.fullSize(c)
        let (level, details) = try Self.profile(c, version)
        let extras = version == .v3 ? try Extras(c) : try Extras(details)
        try extras.checkLimits()
        self.init(
            version: version, id: id, width: width, height: height, level: level,
            tiles: try c.decodeIfPresent([IIIFTileSet].self, forKey: Key("tiles")) ?? [],
            sizes: try c.decodeIfPresent([IIIFSize].self, forKey: Key("sizes")) ?? [],
            maxWidth: extras.maxWidth, maxHeight: extras.maxHeight, maxArea: extras.maxArea, formats: extras.formats,
            preferredFormats: extras.preferred, qualities: extras.qualities,
            features: Set(extras.featureNames.compactMap(IIIFFeature.init(rawValue:))))
    }

    /// The version from `@context` (one URI or a list), else from which of `id` and `@id` is given.
    static func version(_ c: KeyedDecodingContainer<Key>) throws -> IIIFAPIVersion {
        let contexts =
            (try? c.decode(String.self, forKey: Key("@context"))).map { [$0] }
            ?? (try? c.decode([String].self, forKey: Key("@context"))) ?? []
        if contexts.contains(where: { $0.contains("iiif.io/api/image/3") }) { return .v3 }
        if contexts.contains(where: { $0.contains("iiif.io/api/image/2") }) { return .v2 }
        if contexts.isEmpty, c.contains(Key("id")) { return .v3 }
        if contexts.isEmpty, c.contains(Key("@id")) { return .v2 }
        throw IIIFError(
            .badInfo, at: "@context", "\(contexts.first ?? "missing"); expected \(IIIFAPIVersion.v2.context) or \(IIIFAPIVersion.v3.context)")
    }

    /// The service's base URI (`id`, 2.x `@id`): an http:// or https:// URI.
    static func serviceID(_ c: KeyedDecodingContainer<Key>, _ version: IIIFAPIVersion) throws -> String {
        let idKey = Key(version == .v3 ? "id" : "@id")
        let id = try c.decode(String.self, forKey: idKey)
        guard id.hasPrefix("http://") || id.hasPrefix("https://") else {
            throw IIIFError(.badInfo, at: idKey.stringValue, "'\(id)'; expected the service's http:// or https:// URI")
        }
        return id
    }

    /// The full-resolution `width` and `height`, both positive.
    static func fullSize(_ c: KeyedDecodingContainer<Key>) throws -> (Int, Int) {
        let width = try c.decode(Int.self, forKey: Key("width")), height = try c.decode(Int.self, forKey: Key("height"))
        guard width > 0, height > 0 else {
            throw IIIFError(.badInfo, at: "width", "\(width) × \(height); expected positive pixels")
        }
        return (width, height)
    }

    /// The compliance level and the 2.x profile's objects: 3.0 `"levelN"`; 2.x a URI, or
    /// `[URI, {formats, qualities, supports, maxWidth, …}, …]`.
    static func profile(_ c: KeyedDecodingContainer<Key>, _ version: IIIFAPIVersion) throws -> (IIIFComplianceLevel, [ProfileDetails]) {
        var levelName: String?
        var details: [ProfileDetails] = []
        if let s = try? c.decode(String.self, forKey: Key("profile")) {
            levelName = s
        } else if version == .v2 {
            var list = try c.nestedUnkeyedContainer(forKey: Key("profile"))
            while !list.isAtEnd {
                if let s = try? list.decode(String.self) {
                    if levelName == nil { levelName = s }
                } else {
                    details.append(try list.decode(ProfileDetails.self))
                }
            }
        } else {
            _ = try c.decode(String.self, forKey: Key("profile"))
        }
        guard let levelName, let level = IIIFComplianceLevel(profile: levelName) else {
            throw IIIFError(
                .badInfo, at: "profile",
                "\(levelName ?? "no level"); expected "
                    + (version == .v3 ? "level0, level1 or level2" : "http://iiif.io/api/image/2/levelN.json"))
        }
        return (level, details)
    }

    /// What a description lists beyond its level: 3.0's `extra…` keys, `preferredFormats` and
    /// limits at the top level, or 2.x's in the profile's objects (a later object's limit wins).
    struct Extras {
        var formats: [IIIFFormat] = [], qualities: [IIIFQuality] = [], featureNames: [String] = []
        var preferred: [IIIFFormat] = []
        var maxWidth: Int?, maxHeight: Int?, maxArea: Int?

        /// A 3.0 description's.
        init(_ c: KeyedDecodingContainer<Key>) throws {
            func strings(_ key: String) throws -> [String] { try c.decodeIfPresent([String].self, forKey: Key(key)) ?? [] }
            formats = try Self.formats(try strings("extraFormats"), "extraFormats")
            qualities = try Self.qualities(try strings("extraQualities"), "extraQualities")
            featureNames = try strings("extraFeatures")
            preferred = try Self.formats(try strings("preferredFormats"), "preferredFormats")
            maxWidth = try c.decodeIfPresent(Int.self, forKey: Key("maxWidth"))
            maxHeight = try c.decodeIfPresent(Int.self, forKey: Key("maxHeight"))
            maxArea = try c.decodeIfPresent(Int.self, forKey: Key("maxArea"))
        }

        /// A 2.x description's, from its profile's objects.
        init(_ details: [ProfileDetails]) throws {
            for d in details {
                formats += try Self.formats(d.formats ?? [], "profile.formats")
                qualities += try Self.qualities(d.qualities ?? [], "profile.qualities")
                featureNames += d.supports ?? []
                maxWidth = d.maxWidth ?? maxWidth
                maxHeight = d.maxHeight ?? maxHeight
                maxArea = d.maxArea ?? maxArea
            }
        }

        /// Refuses a limit that is not positive.
        func checkLimits() throws {
            for (name, value) in [("maxWidth", maxWidth), ("maxHeight", maxHeight), ("maxArea", maxArea)] {
                if let value, value <= 0 { throw IIIFError(.badInfo, at: name, "\(value); expected a positive whole number") }
            }
        }

        /// The formats named at `key`, each one the Image API knows.
        static func formats(_ names: [String], _ key: String) throws -> [IIIFFormat] {
            try names.map { name in
                guard let f = IIIFFormat(rawValue: name) else {
                    throw IIIFError(
                        .badInfo, at: key,
                        "unknown format '\(name)'; the Image API's formats are "
                            + IIIFFormat.allCases.map(\.rawValue).joined(separator: ", "))
                }
                return f
            }
        }

        /// The qualities named at `key`, each one the Image API knows.
        static func qualities(_ names: [String], _ key: String) throws -> [IIIFQuality] {
            try names.map { name in
                guard let q = IIIFQuality(rawValue: name) else {
                    throw IIIFError(.badInfo, at: key, "unknown quality '\(name)'; expected default, color, gray or bitonal")
                }
                return q
            }
        }
    }

    /// Encodes the description as an Image API 3.0 info.json (§5), whatever version it was read
    /// from: `extraFormats`, `extraQualities` and `extraFeatures` list only what the level does not imply.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(IIIFAPIVersion.v3.context, forKey: Key("@context"))
        try c.encode(id, forKey: Key("id"))
        try c.encode("ImageService3", forKey: Key("type"))
        try c.encode("http://iiif.io/api/image", forKey: Key("protocol"))
        try c.encode(level.name, forKey: Key("profile"))
        try c.encode(width, forKey: Key("width"))
        try c.encode(height, forKey: Key("height"))
        try c.encodeIfPresent(maxWidth, forKey: Key("maxWidth"))
        if maxHeight != maxWidth { try c.encodeIfPresent(maxHeight, forKey: Key("maxHeight")) }
        try c.encodeIfPresent(maxArea, forKey: Key("maxArea"))
        if !tiles.isEmpty { try c.encode(tiles, forKey: Key("tiles")) }
        if !sizes.isEmpty { try c.encode(sizes, forKey: Key("sizes")) }
        let implied = Self.impliedFormats(level)
        let extraFormats = formats.filter { !implied.contains($0) }
        if !extraFormats.isEmpty { try c.encode(extraFormats, forKey: Key("extraFormats")) }
        if !preferredFormats.isEmpty { try c.encode(preferredFormats, forKey: Key("preferredFormats")) }
        let extraQualities = qualities.filter { $0 != .default }
        if !extraQualities.isEmpty { try c.encode(extraQualities, forKey: Key("extraQualities")) }
        let extraFeatures = features.subtracting(IIIFFeature.implied(by: level)).map(\.rawValue).sorted()
        if !extraFeatures.isEmpty { try c.encode(extraFeatures, forKey: Key("extraFeatures")) }
    }

    /// The 3.0 info.json's bytes, keys sorted (the same description always gives the same bytes).
    public func json() -> [UInt8] {
        Array((try? JSONStyle.compact.encode(self)) ?? Data())
    }
}
