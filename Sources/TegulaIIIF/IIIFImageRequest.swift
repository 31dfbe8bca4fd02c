import Foundation

/// The part of an image a request asks for (Image API 3.0 §4.1, 2.1 §4.1).
public enum IIIFRegion: Sendable, Hashable {
    /// The whole image.
    case full
    /// The largest centred square.
    case square
    /// A rectangle in full-resolution pixels, `x,y,w,h`.
    case pixels(x: Int, y: Int, width: Int, height: Int)
    /// A rectangle in percent of the full image, `pct:x,y,w,h`.
    case percent(x: Double, y: Double, width: Double, height: Double)

    /// The region as a URL segment.
    public var segment: String {
        switch self {
        case .full: "full"
        case .square: "square"
        case let .pixels(x, y, w, h): "\(x),\(y),\(w),\(h)"
        case let .percent(x, y, w, h): "pct:" + [x, y, w, h].map(IIIFImageRequest.number).joined(separator: ",")
        }
    }

    /// The region in full-resolution pixels of a `width` × `height` image, clipped to it (§4.1);
    /// nil when it lies outside the image or is empty (the server answers 400).
    public func pixels(inImage width: Int, _ height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        switch self {
        case .full:
            return (0, 0, width, height)
        case .square:
            let side = min(width, height)
            return ((width - side) / 2, (height - side) / 2, side, side)
        case let .pixels(x, y, w, h):
            guard x < width, y < height, w > 0, h > 0 else { return nil }
            return (x, y, min(w, width - x), min(h, height - y))
        case let .percent(px, py, pw, ph):
            let x = Int((px * Double(width) / 100).rounded()), y = Int((py * Double(height) / 100).rounded())
            let w = Int((pw * Double(width) / 100).rounded()), h = Int((ph * Double(height) / 100).rounded())
            guard x < width, y < height, w > 0, h > 0 else { return nil }
            return (x, y, min(w, width - x), min(h, height - y))
        }
    }
}

/// The size a request asks the region to be scaled to (Image API 3.0 §4.2, 2.1 §4.2).
public struct IIIFSizeRequest: Sendable, Hashable {
    /// How the size is given.
    public enum Kind: Sendable, Hashable {
        /// The region's own size, within the server's limits: 3.0 `max`, 2.x `full` (or 2.1 `max`).
        case max
        /// `w,`: this width, height in proportion.
        case width(Int)
        /// `,h`: this height, width in proportion.
        case height(Int)
        /// `w,h`: exactly, aspect ratio as given.
        case exact(width: Int, height: Int)
        /// `!w,h`: the largest size within `w` × `h` that keeps the region's aspect ratio.
        case confined(width: Int, height: Int)
        /// `pct:n`: n percent of the region.
        case percent(Double)
    }

    /// The form.
    public var kind: Kind
    /// 3.0's leading `^`: the size may exceed the region's.
    public var upscaling: Bool

    /// A size; `upscaling` only in 3.0.
    public init(_ kind: Kind, upscaling: Bool = false) {
        self.kind = kind
        self.upscaling = upscaling
    }

    /// The size as a URL segment of `version`: 2.x writes `max` as `full` and never `^`.
    public func segment(for version: IIIFAPIVersion) -> String {
        let body: String
        switch kind {
        case .max: body = version == .v2 ? "full" : "max"
        case let .width(w): body = "\(w),"
        case let .height(h): body = ",\(h)"
        case let .exact(w, h): body = "\(w),\(h)"
        case let .confined(w, h): body = "!\(w),\(h)"
        case let .percent(p): body = "pct:" + IIIFImageRequest.number(p)
        }
        return (upscaling && version == .v3 ? "^" : "") + body
    }

    /// The size in pixels for a region of `width` × `height` (§4.2), within `info`'s
    /// `maxWidth`/`maxHeight`/`maxArea`; nil when the request cannot be answered: larger than
    /// the region without `^` in 3.0, above the limits, or zero pixels.
    public func pixels(ofRegion width: Int, _ height: Int, in info: IIIFImageInfo) -> IIIFSize? {
        let rw = Double(width), rh = Double(height)
        var w: Int, h: Int
        switch kind {
        case .max:
            let m = info.maxSize(ofRegion: width, height)
            if !upscaling { return m }
            (w, h) = (m.width, m.height)
        case let .width(n): (w, h) = (n, Int((Double(n) * rh / rw).rounded()))
        case let .height(n): (w, h) = (Int((Double(n) * rw / rh).rounded()), n)
        case let .exact(ew, eh): (w, h) = (ew, eh)
        case let .confined(cw, ch):
            let s = min(Double(cw) / rw, Double(ch) / rh)
            (w, h) = (Int((rw * s).rounded()), Int((rh * s).rounded()))
        case let .percent(p): (w, h) = (Int((rw * p / 100).rounded()), Int((rh * p / 100).rounded()))
        }
        guard w >= 1, h >= 1 else { return nil }
        if info.version == .v3 && !upscaling && (w > width || h > height) { return nil }
        if let m = info.maxWidth, w > m { return nil }
        if let m = info.maxHeight, h > m { return nil }
        if let m = info.maxArea, w * h > m { return nil }
        return IIIFSize(width: w, height: h)
    }
}

/// A rotation (Image API 3.0 §4.3): degrees clockwise, after a mirror when `mirrored` (`!`).
public struct IIIFRotation: Sendable, Hashable {
    public var degrees: Double
    public var mirrored: Bool

    /// No rotation: `0`.
    public static let none = IIIFRotation(degrees: 0, mirrored: false)

    public init(degrees: Double, mirrored: Bool = false) {
        self.degrees = degrees
        self.mirrored = mirrored
    }

    /// The rotation as a URL segment.
    public var segment: String { (mirrored ? "!" : "") + IIIFImageRequest.number(degrees) }
}

/// One image request, `{region}/{size}/{rotation}/{quality}.{format}` after the service's id
/// (Image API 3.0 §4, 2.1 §4): parsed from a path and written for either version.
public struct IIIFImageRequest: Sendable, Hashable {
    public var region: IIIFRegion
    public var size: IIIFSizeRequest
    public var rotation: IIIFRotation
    public var quality: IIIFQuality
    public var format: IIIFFormat

    public init(
        region: IIIFRegion = .full, size: IIIFSizeRequest = IIIFSizeRequest(.max), rotation: IIIFRotation = .none,
        quality: IIIFQuality = .default, format: IIIFFormat
    ) {
        self.region = region
        self.size = size
        self.rotation = rotation
        self.quality = quality
        self.format = format
    }

    /// The request's path below the service's id, in `version`'s syntax.
    public func path(for version: IIIFAPIVersion) -> String {
        "\(region.segment)/\(size.segment(for: version))/\(rotation.segment)/\(quality.rawValue).\(format.rawValue)"
    }

    /// The request's URL under the service `id` (no trailing `/`).
    public func url(service id: String, version: IIIFAPIVersion) -> String { "\(id)/\(path(for: version))" }

    /// Parses the four segments `region/size/rotation/quality.format` of `version`'s grammar;
    /// refused in one line naming the segment and the forms that would be right.
    public init(parsing path: String, version: IIIFAPIVersion) throws(IIIFError) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4 else {
            throw IIIFError(.badRequest, at: path, "\(parts.count) segments; expected {region}/{size}/{rotation}/{quality}.{format}")
        }
        region = try Self.region(parts[0])
        size = try Self.size(parts[1], version)
        rotation = try Self.rotation(parts[2])
        guard let dot = parts[3].lastIndex(of: ".") else {
            throw IIIFError(.badRequest, at: parts[3], "no format; expected {quality}.{format}, e.g. default.jpg")
        }
        let q = String(parts[3][..<dot]), f = String(parts[3][parts[3].index(after: dot)...])
        guard let quality = IIIFQuality(rawValue: q) else {
            throw IIIFError(.badRequest, at: q, "unknown quality; expected default, color, gray or bitonal")
        }
        guard let format = IIIFFormat(rawValue: f) else {
            throw IIIFError(.badRequest, at: f, "unknown format; expected " + IIIFFormat.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self.quality = quality
        self.format = format
    }

    /// A service id and a request from a whole path or URL `…/{id}/{region}/{size}/{rotation}/{quality}.{format}`:
    /// the id is everything before the last four segments.
    public static func split(_ url: String, version: IIIFAPIVersion) throws(IIIFError) -> (id: String, request: IIIFImageRequest) {
        var parts = url.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count > 4 else {
            throw IIIFError(.badRequest, at: url, "expected {id}/{region}/{size}/{rotation}/{quality}.{format}")
        }
        let tail = parts.suffix(4).joined(separator: "/")
        parts.removeLast(4)
        return (parts.joined(separator: "/"), try IIIFImageRequest(parsing: tail, version: version))
    }

    static func region(_ s: String) throws(IIIFError) -> IIIFRegion {
        switch s {
        case "full": return .full
        case "square": return .square
        default:
            if s.hasPrefix("pct:") {
                guard let n = numbers(s.dropFirst(4), { Double($0) }), n.count == 4, n.allSatisfy({ $0 >= 0 && $0.isFinite }), n[2] > 0, n[3] > 0
                else {
                    throw IIIFError(.badRequest, at: s, "bad region; expected pct:x,y,w,h with w and h above 0")
                }
                return .percent(x: n[0], y: n[1], width: n[2], height: n[3])
            }
            guard let n = numbers(Substring(s), { Int($0) }), n.count == 4, n[0] >= 0, n[1] >= 0, n[2] > 0, n[3] > 0 else {
                throw IIIFError(.badRequest, at: s, "bad region; expected full, square, x,y,w,h (w and h above 0) or pct:x,y,w,h")
            }
            return .pixels(x: n[0], y: n[1], width: n[2], height: n[3])
        }
    }

    static func size(_ s: String, _ version: IIIFAPIVersion) throws(IIIFError) -> IIIFSizeRequest {
        let right =
            version == .v3
            ? "max, w,, ,h, w,h, !w,h or pct:n, each optionally after ^"
            : "full, max, w,, ,h, w,h, !w,h or pct:n"
        var body = Substring(s)
        let upscaling = body.hasPrefix("^")
        if upscaling {
            guard version == .v3 else { throw IIIFError(.badRequest, at: s, "bad size: ^ is Image API 3.0; expected \(right)") }
            body = body.dropFirst()
        }
        func bad() -> IIIFError { IIIFError(.badRequest, at: s, "bad size; expected \(right)") }
        if body == "max" { return IIIFSizeRequest(.max, upscaling: upscaling) }
        if body == "full" {
            guard version == .v2 else { throw IIIFError(.badRequest, at: s, "bad size: full is Image API 2.x; 3.0 writes max") }
            return IIIFSizeRequest(.max)
        }
        if body.hasPrefix("pct:") {
            guard let p = Double(body.dropFirst(4)), p > 0, p.isFinite, upscaling || p <= 100 || version == .v2 else { throw bad() }
            return IIIFSizeRequest(.percent(p), upscaling: upscaling)
        }
        let confined = body.hasPrefix("!")
        if confined { body = body.dropFirst() }
        let wh = body.split(separator: ",", omittingEmptySubsequences: false)
        guard wh.count == 2 else { throw bad() }
        let w = wh[0].isEmpty ? nil : positive(wh[0]), h = wh[1].isEmpty ? nil : positive(wh[1])
        switch (w, h, wh[0].isEmpty, wh[1].isEmpty) {
        case let (w?, h?, _, _): return IIIFSizeRequest(confined ? .confined(width: w, height: h) : .exact(width: w, height: h), upscaling: upscaling)
        case let (w?, nil, _, true) where !confined: return IIIFSizeRequest(.width(w), upscaling: upscaling)
        case let (nil, h?, true, _) where !confined: return IIIFSizeRequest(.height(h), upscaling: upscaling)
        default: throw bad()
        }
    }

    static func rotation(_ s: String) throws(IIIFError) -> IIIFRotation {
        let mirrored = s.hasPrefix("!")
        guard let d = numbers(mirrored ? s.dropFirst() : Substring(s), { Double($0) })?.first, !s.contains(","), d <= 360 else {
            throw IIIFError(.badRequest, at: s, "bad rotation; expected degrees from 0 to 360, optionally after ! (mirror)")
        }
        return IIIFRotation(degrees: d, mirrored: mirrored)
    }

    /// Plain decimal digits only: no sign, no exponent, no spaces (which `Int("+1")` and `Double("1e3")` accept).
    static func numbers<T>(_ s: Substring, _ make: (Substring) -> T?) -> [T]? {
        var out: [T] = []
        for part in s.split(separator: ",", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let v = make(part) else { return nil }
            out.append(v)
        }
        return out
    }

    static func positive(_ s: Substring) -> Int? {
        guard s.allSatisfy({ $0.isASCII && $0.isNumber }), let v = Int(s), v > 0 else { return nil }
        return v
    }

    /// A number as the Image API writes it: integers without a decimal point, others in their shortest form.
    static func number(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e15 { return String(Int(x)) }
        return "\(x)"
    }
}
