import TegulaGeometry

/// The three segments `{z}/{x}/{y}[@2x].{ext}` that name a tile in every Tegula server's paths
/// (`tegula serve`'s `/{id}/…` and `/{id}/tms/…`, the editor's `/overlay/{version}/…`): the one
/// tile-path parser, so the same bad path is refused with the same status and message wherever it
/// comes. Numbers by ``RequestTarget``'s rule (plain decimal, no sign or leading zeros); a path
/// that cannot name a tile of the Web Mercator grid (zoom above ``WebMercator/maxZoom``, x or y
/// not below 2^z) is malformed (400), whatever is served there. Whether the tile exists, and in
/// which format and scale, is the service's question (404).
public struct TilePath: Equatable, Sendable {
    /// The zoom.
    public var z: Int
    /// The column.
    public var x: Int
    /// The row as given, counted from the origin of the route it came by.
    public var y: Int
    /// True for `@2x` before the extension.
    public var retina: Bool
    /// What follows the last `.` of the file name (`png`; empty after a trailing `.`).
    public var fileExtension: String

    /// A tile path of numbers already checked.
    public init(z: Int, x: Int, y: Int, retina: Bool = false, fileExtension: String) {
        self.z = z
        self.x = x
        self.y = y
        self.retina = retina
        self.fileExtension = fileExtension
    }

    /// Parses the decoded segments `z`, `x` and `file` (`{y}[@2x].{ext}`); throws a 400
    /// ``ServerError`` (`malformedTarget`) saying what is wrong.
    public init(z: String, x: String, file: String) throws(ServerError) {
        let f = file.utf8
        guard let dot = f.lastIndex(of: UInt8(ascii: ".")) else { throw .malformedTarget(reason: "tile name '\(file)' has no extension") }
        var stem = f[..<dot]
        let retina = stem.count >= 3 && stem.suffix(3).elementsEqual("@2x".utf8)
        if retina { stem = stem.dropLast(3) }
        guard let zn = RequestTarget.number(z, maxDigits: 2), let xn = RequestTarget.number(x, maxDigits: 10),
            let yn = RequestTarget.number(stem, maxDigits: 10)
        else {
            throw .malformedTarget(reason: "z, x and y must be plain decimal numbers")
        }
        guard zn <= WebMercator.maxZoom else { throw .malformedTarget(reason: "zoom \(zn) is beyond \(WebMercator.maxZoom)") }
        guard xn < (1 << zn), yn < (1 << zn) else { throw .malformedTarget(reason: "x and y must be below 2^z = \(1 << zn)") }
        self.init(z: zn, x: xn, y: yn, retina: retina, fileExtension: String(file[f.index(after: dot)...]))
    }
}
