import CKernels
import TegulaDeflate

/// Encodes 8-bit RGB/RGBA images as PNG with libdeflate: one zlib stream, one IDAT chunk.
///
/// libdeflate compresses a whole buffer at once and is several times faster than zlib at a
/// similar size; at level 1–2 with a fixed Paeth or Up filter a 256-px tile encodes in about
/// a millisecond. An encoder owns a libdeflate compressor and its buffers: use one per thread.
public final class PNGEncoder {
    /// The per-row filter (PNG spec §9).
    public enum Filter: UInt8, Sendable {
        case none = 0, sub = 1, up = 2, average = 3, paeth = 4
    }

    private let compressor: ZlibCompressor
    public let filter: Filter
    public let level: Int32
    private var filtered: [UInt8] = []
    private var compressed: [UInt8] = []
    private var rgb: [UInt8] = []

    /// - Parameters: level: libdeflate level 0–12; filter: the filter applied to every row.
    public init(level: Int = 2, filter: Filter = .up) {
        self.level = Int32(level)
        self.filter = filter
        compressor = ZlibCompressor(level: level)
    }

    /// Encode `channels`-sample pixels (3 = RGB, 4 = RGBA), row-major.
    public func encode(pixels: UnsafePointer<UInt8>, width: Int, height: Int, channels: Int) -> [UInt8] {
        precondition(channels == 3 || channels == 4)
        return write(
            pixels: pixels, width: width, height: height, bpp: channels, colorType: channels == 4 ? 6 : 2,
            filter: filter, chunks: [])
    }

    /// Encode palette indices (PNG colour type 3, 8 bits): `palette` holds up to 256 RGBA
    /// entries; alphas below 255 go into a tRNS chunk (PNG spec §11.3.2.1), trailing opaque
    /// entries left out. Rows are not filtered (filter type 0, as the spec recommends for palettes).
    public func encodeIndexed(
        indices: UnsafePointer<UInt8>, width: Int, height: Int,
        palette: [(r: UInt8, g: UInt8, b: UInt8, a: UInt8)]
    ) -> [UInt8] {
        precondition((1...256).contains(palette.count), "a PNG palette has 1–256 entries")
        let plte = palette.flatMap { [$0.r, $0.g, $0.b] }
        let lastTranslucent = palette.lastIndex { $0.a != 255 }
        var chunks: [(String, [UInt8])] = [("PLTE", plte)]
        if let last = lastTranslucent { chunks.append(("tRNS", palette[...last].map { $0.a })) }
        return write(pixels: indices, width: width, height: height, bpp: 1, colorType: 3, filter: .none, chunks: chunks)
    }

    /// The PNG file: signature, IHDR, `chunks` (PLTE, tRNS), one IDAT, IEND. With
    /// `droppingAlpha`, `pixels` are RGBA (all opaque) written as RGB (`bpp` 3): each row loses
    /// its alpha into a row buffer just before it is filtered, instead of a whole RGB copy of
    /// the image first.
    private func write(
        pixels: UnsafePointer<UInt8>, width: Int, height: Int, bpp: Int, colorType: UInt8,
        filter: Filter, chunks: [(String, [UInt8])], droppingAlpha: Bool = false
    ) -> [UInt8] {
        let stride = width * bpp
        let rawCount = (stride + 1) * height
        if filtered.count < rawCount { filtered = [UInt8](repeating: 0, count: rawCount) }
        if droppingAlpha && rgb.count < stride * 2 { rgb = [UInt8](repeating: 0, count: stride * 2) }
        filtered.withUnsafeMutableBufferPointer { out in
            rgb.withUnsafeMutableBufferPointer { rows in
                for row in 0..<height {
                    let dst = out.baseAddress! + row * (stride + 1)
                    if droppingAlpha && filter == .up {
                        // Straight from the RGBA rows (CKernels: SSSE3, 2.5–2.9 % of a pyramid's
                        // samples as the copy below and then the filter).
                        dst[0] = Filter.up.rawValue
                        tegula_png_up_rgb_from_rgba(
                            pixels + row * width * 4, row > 0 ? pixels + (row - 1) * width * 4 : nil,
                            width, dst + 1)
                    } else if droppingAlpha {
                        // Two row buffers, used in turn: this row's RGB and the one before.
                        let cur = rows.baseAddress! + (row & 1) * stride, src = pixels + row * width * 4
                        for p in 0..<width {
                            cur[p * 3] = src[p * 4]; cur[p * 3 + 1] = src[p * 4 + 1]; cur[p * 3 + 2] = src[p * 4 + 2]
                        }
                        let prev: UnsafePointer<UInt8>? = row > 0 ? UnsafePointer(rows.baseAddress! + ((row - 1) & 1) * stride) : nil
                        PNGEncoder.filterRow(filter, cur: cur, prev: prev, count: stride, bpp: bpp, into: dst)
                    } else {
                        let cur = pixels + row * stride
                        let prev: UnsafePointer<UInt8>? = row > 0 ? pixels + (row - 1) * stride : nil
                        PNGEncoder.filterRow(filter, cur: cur, prev: prev, count: stride, bpp: bpp, into: dst)
                    }
                }
            }
        }
        let bound = compressor.bound(rawCount)
        if compressed.count < bound { compressed = [UInt8](repeating: 0, count: bound) }
        let size = filtered.withUnsafeBytes { src in
            compressed.withUnsafeMutableBytes { dst in
                compressor.compress(
                    UnsafeRawBufferPointer(rebasing: src[0..<rawCount]),
                    into: UnsafeMutableRawBufferPointer(rebasing: dst[0..<bound]))
            }
        }
        var png: [UInt8] = []
        png.reserveCapacity(size + 64 + chunks.reduce(0) { $0 + $1.1.count + 12 })
        png += [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr: [UInt8] = []
        ihdr.appendBigEndian(UInt32(width))
        ihdr.appendBigEndian(UInt32(height))
        ihdr += [8, colorType, 0, 0, 0]
        PNGEncoder.appendChunk("IHDR", ihdr[...], to: &png)
        for (type, data) in chunks { PNGEncoder.appendChunk(type, data[...], to: &png) }
        compressed.withUnsafeBufferPointer { c in
            PNGEncoder.appendChunk("IDAT", UnsafeBufferPointer(rebasing: c[0..<size]), to: &png)
        }
        PNGEncoder.appendChunk("IEND", [UInt8]()[...], to: &png)
        return png
    }

    /// Encode an image.
    public func encode(_ image: RGBAImage) -> [UInt8] {
        image.pixels.withUnsafeBufferPointer {
            encode(pixels: $0.baseAddress!, width: image.width, height: image.height, channels: image.channels)
        }
    }

    /// Encode RGBA pixels as `tegula tile` writes tiles: as RGB when every pixel is opaque
    /// (smaller and faster), else as RGBA. Pass `coverage` when already known to skip the scan.
    public func encodeDroppingOpaqueAlpha(
        rgba pixels: UnsafePointer<UInt8>, width: Int, height: Int,
        coverage: AlphaCoverage? = nil
    ) -> [UInt8] {
        let count = width * height
        guard (coverage ?? AlphaCoverage(rgba: pixels, pixelCount: count)) == .opaque else {
            return encode(pixels: pixels, width: width, height: height, channels: 4)
        }
        return write(
            pixels: pixels, width: width, height: height, bpp: 3, colorType: 2, filter: filter, chunks: [],
            droppingAlpha: true)
    }

    /// Encode an image, as RGB when it is RGBA and fully opaque.
    public func encodeDroppingOpaqueAlpha(_ image: RGBAImage) -> [UInt8] {
        guard image.channels == 4 else { return encode(image) }
        return image.pixels.withUnsafeBufferPointer {
            encodeDroppingOpaqueAlpha(rgba: $0.baseAddress!, width: image.width, height: image.height)
        }
    }

    static func appendChunk<C: Collection>(_ type: String, _ data: C, to png: inout [UInt8]) where C.Element == UInt8 {
        png.appendBigEndian(UInt32(data.count))
        let start = png.count
        png += Array(type.utf8)
        png += data
        let crc = png.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        png.appendBigEndian(crc)
    }

    @inline(__always)
    static func filterRow(
        _ f: Filter, cur: UnsafePointer<UInt8>, prev: UnsafePointer<UInt8>?, count: Int, bpp: Int,
        into dst: UnsafeMutablePointer<UInt8>
    ) {
        dst[0] = f.rawValue
        let out = dst + 1
        switch (f, prev) {
        case (.none, _):
            out.update(from: cur, count: count)
        case (.sub, _):
            for i in 0..<min(bpp, count) { out[i] = cur[i] }
            var i = bpp
            while i < count { out[i] = cur[i] &- cur[i - bpp]; i += 1 }
        case (.up, nil):
            out.update(from: cur, count: count)
        case (.up, let p?):
            for i in 0..<count { out[i] = cur[i] &- p[i] }
        case (.average, nil):
            for i in 0..<min(bpp, count) { out[i] = cur[i] }
            var i = bpp
            while i < count { out[i] = cur[i] &- (cur[i - bpp] >> 1); i += 1 }
        case (.average, let p?):
            for i in 0..<min(bpp, count) { out[i] = cur[i] &- (p[i] >> 1) }
            var i = bpp
            while i < count { out[i] = cur[i] &- UInt8((Int(cur[i - bpp]) + Int(p[i])) >> 1); i += 1 }
        case (.paeth, nil):
            for i in 0..<min(bpp, count) { out[i] = cur[i] }
            var i = bpp
            while i < count { out[i] = cur[i] &- cur[i - bpp]; i += 1 }
        case (.paeth, let p?):
            for i in 0..<min(bpp, count) { out[i] = cur[i] &- p[i] }
            var i = bpp
            while i < count {
                let a = Int(cur[i - bpp]), b = Int(p[i]), c = Int(p[i - bpp])
                let pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c)
                let pred = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
                out[i] = cur[i] &- UInt8(pred)
                i += 1
            }
        }
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ v: UInt32) {
        append(UInt8(v >> 24)); append(UInt8((v >> 16) & 0xFF)); append(UInt8((v >> 8) & 0xFF)); append(UInt8(v & 0xFF))
    }
}
