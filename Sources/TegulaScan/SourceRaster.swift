import TegulaGDAL

/// A scan opened for warping: which bands hold colour and alpha, and window reads as RGBA.
///
/// One per worker thread (it owns a GDAL dataset, which must not be shared).
public final class SourceRaster {
    /// How the file's bands become RGBA.
    public enum Layout: Equatable, Sendable {
        case gray, grayAlpha, rgb, rgba
        case palette([UInt8])  // 256 × RGBA entries
    }

    public let path: String
    public let dataset: Dataset
    public let layout: Layout
    public let noData: Double?
    /// The scan mapped from its file and shared by the workers, when it can be
    /// (``MappedScan``): full-resolution windows are then copied from it, not read through GDAL.
    public var mapped: MappedScan?
    /// The scan's decoded blocks, cached and shared by the workers, when its file is compressed
    /// (``DecodedScan``): full-resolution windows are then copied from them.
    public var decoded: DecodedScan?
    public var width: Int { dataset.width }
    public var height: Int { dataset.height }

    public init(path: String) throws {
        self.path = path
        dataset = try Dataset(path: path)
        let bands = dataset.bands
        guard let first = bands.first else { throw ScanError(.unreadable, at: path, "the raster has no bands") }
        if !first.isByte {
            throw ScanError(
                .unreadable, at: path, "band 1 is \(first.dataType); Tegula warps 8-bit scans (convert with gdal_translate -ot Byte -scale)")
        }
        switch bands.count {
        case 1:
            if let table = dataset.colorTable(band: 1) {
                var lut = [UInt8](repeating: 0, count: 256 * 4)
                for (i, e) in table.prefix(256).enumerated() {
                    lut[i * 4] = e.0; lut[i * 4 + 1] = e.1; lut[i * 4 + 2] = e.2; lut[i * 4 + 3] = e.3
                }
                layout = .palette(lut)
            } else {
                layout = .gray
            }
        case 2: layout = .grayAlpha
        case 3: layout = .rgb
        default: layout = bands[3].isAlpha ? .rgba : .rgb
        }
        noData = first.noData
    }

    /// True when every pixel reads as opaque: colour bands without alpha or nodata (a palette
    /// whose entries are all opaque counts).
    public var isOpaque: Bool {
        guard noData == nil else { return false }
        switch layout {
        case .gray, .rgb: return true
        case .grayAlpha, .rgba: return false
        case .palette(let lut): return stride(from: 3, to: lut.count, by: 4).allSatisfy { lut[$0] == 255 }
        }
    }

    private var bandList: [Int] {
        switch layout {
        case .gray, .palette: return [1]
        case .grayAlpha: return [1, 2]
        case .rgb: return [1, 2, 3]
        case .rgba: return [1, 2, 3, 4]
        }
    }

    /// Read a window as straight-alpha RGBA8 into `out` (bufferWidth × bufferHeight × 4),
    /// averaging when the buffer is smaller than the window. Nodata pixels become transparent.
    public func readRGBA(
        x: Int, y: Int, width w: Int, height h: Int, bufferWidth bw: Int, bufferHeight bh: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) throws {
        if let mapped, bw == w, bh == h, x >= 0, y >= 0, x + w <= width, y + h <= height {
            try mapped.readRGBA(x: x, y: y, width: w, height: h, into: out)
            return
        }
        if let decoded, bw == w, bh == h, x >= 0, y >= 0, x + w <= width, y + h <= height {
            try decoded.readRGBA(x: x, y: y, width: w, height: h, into: out, using: self)
            return
        }
        let bands = bandList
        let resampling: ReadResampling = (bw < w || bh < h) ? .average : .nearest
        let count = bw * bh
        let nd: Int? = noData.flatMap { $0 >= 0 && $0 <= 255 && $0 == $0.rounded() ? Int($0) : nil }
        if layout == .rgb, nd == nil {
            // GDAL spaces the colour bytes 4 apart itself; only alpha is filled here. The
            // expansion loop below took 16 % of a cold on-demand pass over z4/z5 tiles.
            try dataset.readBytes(
                x: x, y: y, width: w, height: h, bufferWidth: bw, bufferHeight: bh,
                bands: bands, resampling: resampling, pixelSpacing: 4, into: out)
            UnsafeMutableRawPointer(out).withMemoryRebound(to: UInt32.self, capacity: count) { px in
                let alpha = UInt32(littleEndian: 0xFF00_0000)  // byte 3 of each pixel
                for i in 0..<count { px[i] |= alpha }
            }
            return
        }
        try dataset.readBytes(
            x: x, y: y, width: w, height: h, bufferWidth: bw, bufferHeight: bh,
            bands: bands, resampling: resampling, into: out)
        // Expand in place from the back so source and destination never overlap wrongly.
        switch layout {
        case .rgba:
            break
        case .rgb:
            var i = count - 1
            while i >= 0 {
                let r = out[i * 3], g = out[i * 3 + 1], b = out[i * 3 + 2]
                let transparent = nd.map { Int(r) == $0 && Int(g) == $0 && Int(b) == $0 } ?? false
                out[i * 4] = r; out[i * 4 + 1] = g; out[i * 4 + 2] = b
                out[i * 4 + 3] = transparent ? 0 : 255
                i -= 1
            }
        case .gray:
            var i = count - 1
            while i >= 0 {
                let v = out[i]
                out[i * 4] = v; out[i * 4 + 1] = v; out[i * 4 + 2] = v
                out[i * 4 + 3] = (nd.map { Int(v) == $0 } ?? false) ? 0 : 255
                i -= 1
            }
        case .grayAlpha:
            var i = count - 1
            while i >= 0 {
                let v = out[i * 2], a = out[i * 2 + 1]
                out[i * 4] = v; out[i * 4 + 1] = v; out[i * 4 + 2] = v; out[i * 4 + 3] = a
                i -= 1
            }
        case .palette(let lut):
            var i = count - 1
            while i >= 0 {
                let v = Int(out[i])
                out[i * 4] = lut[v * 4]; out[i * 4 + 1] = lut[v * 4 + 1]; out[i * 4 + 2] = lut[v * 4 + 2]
                out[i * 4 + 3] = (nd.map { v == $0 } ?? false) ? 0 : lut[v * 4 + 3]
                i -= 1
            }
        }
    }
}

/// RGBA8 source pixels covering a window of the scan, possibly decimated.
///
/// Source pixel (sx, sy) of the full scan is at buffer position ((sx − originX)/scaleX,
/// (sy − originY)/scaleY).
public final class SourceWindow: @unchecked Sendable {
    public let originX: Int
    public let originY: Int
    /// Full-resolution source pixels per buffer pixel along x and y (1 = native).
    public let scaleX: Double
    public let scaleY: Double
    public let width: Int
    public let height: Int
    public let pixels: UnsafeMutablePointer<UInt8>

    /// An uninitialised buffer of `width` × `height` RGBA pixels for the window at (`originX`,
    /// `originY`) of the scan, `scaleX` × `scaleY` source pixels a buffer pixel.
    public init(originX: Int, originY: Int, scaleX: Double, scaleY: Double, width: Int, height: Int) {
        self.originX = originX
        self.originY = originY
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.width = width
        self.height = height
        pixels = .allocate(capacity: max(width * height * 4, 4))
    }

    deinit { pixels.deallocate() }

    /// Read a window of `raster` (clamped to the image) at decimation `step`.
    public static func read(_ raster: any ScanReader, x0: Int, y0: Int, x1: Int, y1: Int, step: Int) throws -> SourceWindow? {
        let ax = max(0, x0), ay = max(0, y0)
        let bx = min(raster.width, x1), by = min(raster.height, y1)
        guard ax < bx, ay < by else { return nil }
        let w = bx - ax, h = by - ay
        let bw = max(1, (w + step - 1) / step), bh = max(1, (h + step - 1) / step)
        let win = SourceWindow(
            originX: ax, originY: ay, scaleX: Double(w) / Double(bw), scaleY: Double(h) / Double(bh),
            width: bw, height: bh)
        try raster.readRGBA(x: ax, y: ay, width: w, height: h, bufferWidth: bw, bufferHeight: bh, into: win.pixels)
        return win
    }
}
