import Foundation

/// Reduced copies of a scan (1/F, 1/2F, … of its size, RGBA in memory) for reading windows at a
/// decimation without reading the full-resolution pixels again: what a tile far below the scan's
/// native resolution is warped from when it is rendered on its own.
///
/// A file with overviews of its own (GeoTIFF/COG overviews, JPEG's DCT scaling) is read through
/// GDAL, which picks them. Otherwise the copies are built once, on first use: the finest level F
/// is the smallest power of two whose levels together fit ``budgetBytes`` (built from the scan
/// already in memory, else read once from the file in strips), each coarser level halves the one
/// before, down to about one tile. Cells are box means in premultiplied alpha (partial cells at
/// the right and bottom edges average the pixels they have), so transparency never darkens.
public final class SourceOverviews: @unchecked Sendable {
    /// The default memory budget for the reduced copies: 128 MiB.
    public static let defaultBudgetBytes = 128 << 20

    /// Bytes the levels may hold together.
    public let budgetBytes: Int
    /// The scan's size.
    public let width: Int
    public let height: Int
    /// True when the file has overviews and GDAL reads through them (no copies are built).
    public let fileHasOverviews: Bool
    let scan: OpenedScan
    let shared: SourceWindow?
    /// The paper colour taken out of the pixels read from the file (TegulaWarp's `WarpSource.removal`).
    let removal: ColorRemoval?
    private let lock = NSLock()
    /// Levels by factor, finest first; nil until built.
    private var levels: [SourceWindow]?

    /// Copies for `scan` (`shared`: its pixels when already in memory, paper
    /// already removed; `removal`: the paper colour to take out of what is read from the file).
    public init(
        scan: OpenedScan, shared: SourceWindow?, budgetBytes: Int = SourceOverviews.defaultBudgetBytes,
        removal: ColorRemoval? = nil
    ) throws {
        let raster = try scan.reader()
        self.scan = scan
        self.shared = shared
        self.removal = removal
        self.budgetBytes = max(0, budgetBytes)
        width = raster.width
        height = raster.height
        // A scan already in memory is reduced from there: exact box means, no file read.
        fileHasOverviews = raster.hasOwnReductions && shared == nil
    }

    /// The finest factor whose levels fit the budget (nil: none does, or the scan is tiny).
    public var finestFactor: Int? {
        var f = 2
        while f < max(width, height) {
            let w = (width + f - 1) / f, h = (height + f - 1) / f
            if w * h * 4 * 4 / 3 <= budgetBytes { return f }
            f *= 2
        }
        return nil
    }

    /// Bytes held by the levels built so far.
    public var byteCount: Int {
        lock.lock(); defer { lock.unlock() }
        return (levels ?? []).reduce(0) { $0 + $1.width * $1.height * 4 }
    }

    /// Build the levels now (they are otherwise built on first use); a no-op for files with overviews.
    public func prepare() throws {
        guard !fileHasOverviews else { return }
        _ = try built()
    }

    /// The scan reduced by `factor` (a power of two; 1 = native) around source pixels [x0, x1) ×
    /// [y0, y1) (clamped to the image), with its cells at multiples of `factor` in the scan, so a
    /// pixel's value does not depend on the window asked for: the built level itself when there is
    /// one at that factor (no copy), the shared scan at factor 1, else read from the file (through
    /// its own overviews when it has them, else at full resolution in strips and box-reduced).
    /// nil when the window is empty.
    public func window(_ raster: any ScanReader, factor f: Int, x0: Int, y0: Int, x1: Int, y1: Int) throws -> SourceWindow? {
        let ax = max(0, x0) / f * f, ay = max(0, y0) / f * f
        var bx = min(width, (x1 + f - 1) / f * f), by = min(height, (y1 + f - 1) / f * f)
        guard ax < bx, ay < by else { return nil }
        if f == 1 {
            if let shared, shared.scaleX == 1, shared.scaleY == 1, shared.width == width, shared.height == height { return shared }
            return try SourceWindow.read(raster, x0: ax, y0: ay, x1: bx, y1: by, step: 1)
        }
        if fileHasOverviews {
            // GDAL's overview cells are whole multiples of f: drop a partial last cell so the
            // buffer's scale is exactly f (a fraction of a pixel at the scan's right and bottom).
            if bx == width, bx - ax >= 2 * f { bx -= (bx - ax) % f }
            if by == height, by - ay >= 2 * f { by -= (by - ay) % f }
            return try SourceWindow.read(raster, x0: ax, y0: ay, x1: bx, y1: by, step: f)
        }
        // Only a factor the levels have waits for them (they may be being built).
        if levelFactors.contains(f), let level = try built().first(where: { Int($0.scaleX) == f }) { return level }
        let out = SourceWindow(
            originX: ax, originY: ay, scaleX: Double(f), scaleY: Double(f),
            width: (bx - ax + f - 1) / f, height: (by - ay + f - 1) / f)
        let rowsPerStrip = f * max(1, 64 / f)
        let strip = SourceWindow(originX: 0, originY: 0, scaleX: 1, scaleY: 1, width: bx - ax, height: rowsPerStrip)
        var y = ay
        while y < by {
            let h = min(rowsPerStrip, by - y)
            if let shared, shared.scaleX == 1, shared.width == width {
                for r in 0..<h { (strip.pixels + r * (bx - ax) * 4).update(from: shared.pixels + ((y + r) * width + ax) * 4, count: (bx - ax) * 4) }
            } else {
                try raster.readRGBA(x: ax, y: y, width: bx - ax, height: h, bufferWidth: bx - ax, bufferHeight: h, into: strip.pixels)
            }
            Self.reduceRows(strip.pixels, width: bx - ax, height: h, factor: f, into: out.pixels + ((y - ay) / f) * out.width * 4)
            y += h
        }
        return out
    }

    /// The factors of the levels (built or not yet), finest first; empty for files with overviews
    /// or when none fits the budget.
    public var levelFactors: [Int] {
        guard !fileHasOverviews, var f = finestFactor else { return [] }
        var out = [f]
        var w = (width + f - 1) / f, h = (height + f - 1) / f
        while max(w, h) > 256 { w = (w + 1) / 2; h = (h + 1) / 2; f *= 2; out.append(f) }
        return out
    }

    /// The levels, built on first call (callers wait for the one building them).
    private func built() throws -> [SourceWindow] {
        lock.lock(); defer { lock.unlock() }
        if let levels { return levels }
        var made: [SourceWindow] = []
        if let f = finestFactor {
            var level = try finest(factor: f)
            made.append(level)
            while max(level.width, level.height) > 256 {
                level = Self.reduce(level, by: 2)
                made.append(level)
            }
        }
        levels = made
        return made
    }

    /// The finest level: from the shared pixels, else the file read in strips of `factor` rows.
    private func finest(factor f: Int) throws -> SourceWindow {
        if let shared, shared.scaleX == 1, shared.scaleY == 1, shared.width == width, shared.height == height {
            return Self.reduce(shared, by: f)
        }
        let raster = try scan.reader(removal: removal)
        let out = SourceWindow(
            originX: 0, originY: 0, scaleX: Double(f), scaleY: Double(f),
            width: (width + f - 1) / f, height: (height + f - 1) / f)
        // Strips of whole f-row cells, at most 256 rows and 64 MiB (a wide scan's 256 rows would
        // otherwise be 1 GiB at 10⁶ px); the cells' values do not depend on the strip height.
        let rowsPerStrip = f * max(1, min(256, (64 << 20) / max(1, width * 4)) / f)
        let strip = SourceWindow(originX: 0, originY: 0, scaleX: 1, scaleY: 1, width: width, height: rowsPerStrip)
        var y = 0
        while y < height {
            let h = min(rowsPerStrip, height - y)
            try raster.readRGBA(x: 0, y: y, width: width, height: h, bufferWidth: width, bufferHeight: h, into: strip.pixels)
            Self.reduceRows(strip.pixels, width: width, height: h, factor: f, into: out.pixels + (y / f) * out.width * 4)
            y += h
        }
        return out
    }

    /// `src` reduced by `factor` (box means, premultiplied, partial edge cells).
    static func reduce(_ src: SourceWindow, by factor: Int) -> SourceWindow {
        let out = SourceWindow(
            originX: 0, originY: 0, scaleX: src.scaleX * Double(factor), scaleY: src.scaleY * Double(factor),
            width: (src.width + factor - 1) / factor, height: (src.height + factor - 1) / factor)
        reduceRows(src.pixels, width: src.width, height: src.height, factor: factor, into: out.pixels)
        return out
    }

    /// Box-reduce a `width` × `height` RGBA image by `factor` into `dst` (⌈w/f⌉ × ⌈h/f⌉).
    static func reduceRows(
        _ src: UnsafePointer<UInt8>, width: Int, height: Int, factor f: Int,
        into dst: UnsafeMutablePointer<UInt8>
    ) {
        let ow = (width + f - 1) / f, oh = (height + f - 1) / f
        let acc = UnsafeMutablePointer<Int>.allocate(capacity: ow * 5)  // Σα·r, Σα·g, Σα·b, Σα, pixel count
        defer { acc.deallocate() }
        for oy in 0..<oh {
            acc.update(repeating: 0, count: ow * 5)
            for y in (oy * f)..<min(height, oy * f + f) {
                let row = src + y * width * 4
                for ox in 0..<ow {
                    let x0 = ox * f, x1 = min(width, x0 + f)
                    var r = 0, g = 0, b = 0, sa = 0
                    var p = row + x0 * 4
                    for _ in x0..<x1 {
                        let a = Int(p[3])
                        r += a * Int(p[0]); g += a * Int(p[1]); b += a * Int(p[2]); sa += a
                        p += 4
                    }
                    let o = acc + ox * 5
                    o[0] += r; o[1] += g; o[2] += b; o[3] += sa; o[4] += x1 - x0
                }
            }
            let out = dst + oy * ow * 4
            for ox in 0..<ow {
                let o = ox * 5, sa = acc[o + 3], n = acc[o + 4], q = out + ox * 4
                if sa == 0 {
                    q[0] = 0; q[1] = 0; q[2] = 0; q[3] = 0
                } else {
                    q[0] = UInt8((acc[o] + sa / 2) / sa); q[1] = UInt8((acc[o + 1] + sa / 2) / sa)
                    q[2] = UInt8((acc[o + 2] + sa / 2) / sa); q[3] = UInt8((sa + n / 2) / n)
                }
            }
        }
    }
}
