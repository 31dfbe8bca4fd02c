import HTTPTypes
import TegulaHTTP
import TegulaSupport

/// A WMTS 1.0.0 request (OGC 07-057r7) to `tegula serve`, parsed from either encoding: KVP
/// (`/wmts?SERVICE=WMTS&REQUEST=GetTile&…`, parameter names in any case, §7.1–7.2 and OWS Common
/// 1.1 §11.5.2) or RESTful (`/wmts/1.0.0/WMTSCapabilities.xml`, and tiles by the `ResourceURL`
/// template the capabilities give, §10.2). What cannot be one is its OWS exception.
public enum WMTSRequest: Equatable, Sendable {
    /// GetCapabilities.
    case capabilities
    /// GetTile.
    case tile(WMTSTile)
    /// A request refused before it reached a layer (answered as an `ows:ExceptionReport`).
    case refused(OWSException)

    /// The only version served.
    public static let version = "1.0.0"

    /// A KVP request: its query's parameters, names taken in any case.
    public init(kvp query: [String: String]) {
        var p: [String: String] = [:]
        for (k, v) in query where p[k.lowercased()] == nil { p[k.lowercased()] = v }
        do { self = try Self.parse(kvp: p) } catch { self = .refused(error) }
    }

    static func parse(kvp p: [String: String]) throws(OWSException) -> WMTSRequest {
        guard let service = p["service"] else { throw .missing("service") }
        guard service.uppercased() == "WMTS" else { throw .invalid("service", "SERVICE must be WMTS, not '\(service)'") }
        guard let request = p["request"] else { throw .missing("request") }
        switch request.lowercased() {
        case "getcapabilities":
            if let versions = p["acceptversions"], !versions.split(separator: ",").contains(Substring(version)) {
                throw OWSException(.versionNegotiationFailed, at: "acceptversions", "this server speaks WMTS \(version) only, not \(versions)")
            }
            return .capabilities
        case "gettile":
            guard let v = p["version"] else { throw .missing("version") }
            guard v == version else { throw .invalid("version", "VERSION must be \(version), not '\(v)'") }
            func value(_ name: String) throws(OWSException) -> String {
                guard let s = p[name], !s.isEmpty else { throw .missing(name) }
                return s
            }
            return .tile(
                WMTSTile(
                    layer: try value("layer"), style: try value("style"), format: .mediaType(try value("format")),
                    tileMatrixSet: try value("tilematrixset"), tileMatrix: try value("tilematrix"),
                    row: try WMTSTile.index(try value("tilerow"), "tilerow"), column: try WMTSTile.index(try value("tilecol"), "tilecol")))
        case "getfeatureinfo":
            throw OWSException(.operationNotSupported, at: "request", "GetFeatureInfo is not served; the operations are GetCapabilities and GetTile")
        default:
            throw .invalid("request", "REQUEST must be GetCapabilities or GetTile, not '\(request)'")
        }
    }

    /// A RESTful tile path's segments after `/wmts/1.0.0/`: `{layer}/{style}/{set}/{matrix}/{row}/{col}.{ext}`.
    public init(rest m: RouteMatch) {
        let file = m["file"]
        guard let dot = file.lastIndex(of: ".") else {
            self = .refused(.invalid("tilecol", "the tile's file name '\(file)' needs an extension, as the ResourceURL template gives it"))
            return
        }
        do {
            self = .tile(
                WMTSTile(
                    layer: m["layer"], style: m["style"], format: .fileExtension(String(file[file.index(after: dot)...])),
                    tileMatrixSet: m["set"], tileMatrix: m["matrix"], row: try WMTSTile.index(m["row"], "tilerow"),
                    column: try WMTSTile.index(String(file[..<dot]), "tilecol")))
        } catch {
            self = .refused(error)
        }
    }
}

/// A GetTile request's parameters, as given.
public struct WMTSTile: Equatable, Sendable {
    /// The layer: a tileset's id.
    public var layer: String
    /// The style; `default` is the only one.
    public var style: String
    /// The format asked for.
    public var format: Format
    /// The tile matrix set's identifier.
    public var tileMatrixSet: String
    /// The tile matrix's identifier (the zoom).
    public var tileMatrix: String
    /// The row from the top.
    public var row: Int
    /// The column from the left.
    public var column: Int

    /// How a request names its format: KVP by media type, REST by the file extension.
    public enum Format: Equatable, Sendable {
        /// `image/png`.
        case mediaType(String)
        /// `png`.
        case fileExtension(String)
    }

    /// A row or column: a plain decimal (``RequestTarget/number(_:maxDigits:)``).
    static func index(_ s: String, _ name: String) throws(OWSException) -> Int {
        guard let n = RequestTarget.number(s, maxDigits: 10) else {
            throw .invalid(name, "\(name.uppercased()) must be a non-negative integer, not '\(s)'")
        }
        return n
    }
}
