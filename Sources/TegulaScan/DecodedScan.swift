import CKernels
import CMappedRows
import Foundation
import TegulaGDAL
import TegulaSupport

/// A compressed scan (DEFLATE, LZW or JPEG tiles or strips in a GeoTIFF, or a JPEG file) decoded
/// a block at a time into a cache the workers share, so each block is decoded once while it is
/// in use, instead of once per worker and again for every window that reaches into it.
///
/// Each worker reading its windows through GDAL kept its own copy of the blocks in GDAL's cache
/// (a dataset per worker), and neighbouring pyramid blocks, which go to different workers, read
/// the same file blocks, so a block was decompressed several times over. A JPEG file is read by
/// GDAL in rows from the top, and a window above the rows last read started its decoding over
/// from the first row (the profiles in BENCHMARKS.md, "Figures behind the code").
///
/// A unit of the cache is one block of the file (a TIFF tile), or whole-width blocks (strips,
/// JPEG scanlines) grouped into about ``rowsPerWideUnit`` rows, held as the file's bands
/// interleaved (3 or 4 bytes a pixel); at most ``budgetBytes`` of units are kept, the least
/// recently read dropped first. A JPEG file has one decoder, used under a lock, so its rows are
/// decoded in order; tiles and strips are decoded by whichever worker needs them first, with its
/// own dataset, while the others wait for that unit. Pixels are those GDAL reads, byte for byte.
public final class DecodedScan: @unchecked Sendable {
    /// Bytes of decoded units kept at most. Units decoded for the benchmark pyramid (946 tiles
    /// of 256², DEFLATE; 85 units of 64 rows, JPEG in rows) by budget: 24 MB 1,007 (JPEG in
    /// Morton order 466), 48 MB 968 (316), 64 MB 965, 96 MB 946 (170); the JPEG warped in rows of
    /// blocks decodes each unit once from 32 MB. Peak RSS grows with the budget (DEFLATE: 249,
    /// 272, 289, 319 MB, GDAL's own 64 MB block cache included).
    public static let budgetBytes = 64 << 20
    /// Whole-width blocks are grouped into units of about this many rows.
    static let rowsPerWideUnit = 64

    let path: String
    let width: Int
    let height: Int
    /// Bytes a pixel as decoded: 3 (RGB) or 4 (RGBA).
    let bands: Int
    let unitWidth: Int
    let unitHeight: Int
    let unitColumns: Int
    /// The one decoder of a file read in rows from the top (JPEG); nil when each reader decodes.
    private let sequential: Locked<SourceRaster>?
    /// An LZW or DEFLATE GeoTIFF's blocks, decoded here rather than by GDAL (``TIFFBlockReader``);
    /// nil otherwise.
    private let tiffBlocks: TIFFBlockReader?
    private let cache: LRUCache<Int, Unit>
    private let flight = NSCondition()
    private var decoding: Set<Int> = []
    private var decodes = 0
    /// Units the budget holds, unit rows in the scan.
    private let budgetUnits: Int
    private let unitRows: Int
    /// Read-ahead (files read in rows): decode rows up to aheadTarget, the next being aheadNext.
    private var aheadTarget = -1
    private var aheadNext = 0
    private var aheadRunning = false

    /// True when a unit spans the scan's width (strips, JPEG rows): blocks warped a row of
    /// blocks at a time then keep reading the same units, where the pyramid's Morton order
    /// returns to rows decoded long before (and a JPEG decodes again from its first row).
    public var decodesWholeRows: Bool { unitWidth == width }

    /// Units decoded so far: each unit once while the units in use fit the budget.
    public var unitsDecoded: Int {
        flight.lock(); defer { flight.unlock() }
        return decodes
    }

    final class Unit: @unchecked Sendable {
        let width: Int
        let height: Int
        let pixels: UnsafeMutablePointer<UInt8>
        init(width: Int, height: Int, bands: Int) {
            self.width = width
            self.height = height
            // Room after the pixels for the LZW decoder's copies (TEGULA_LZW_SLACK).
            pixels = .allocate(capacity: width * height * bands + Int(TEGULA_LZW_SLACK))
        }
        deinit { pixels.deallocate() }
    }

    /// The scan at `path` behind a cache of decoded blocks, when its file is a GeoTIFF or a
    /// JPEG (directly or through a VRT that passes it through) with RGB or RGBA bands and no
    /// nodata; nil otherwise (GDAL then reads each window itself).
    public convenience init?(path: String) {
        self.init(path: path, budgetBytes: Self.budgetBytes)
    }

    init?(path: String, budgetBytes: Int) {
        guard let raster = try? SourceRaster(path: path), raster.noData == nil,
            raster.layout == .rgb || raster.layout == .rgba,
            let layout = raster.dataset.storageLayout(), ["GTiff", "JPEG"].contains(layout.driver),
            layout.blockWidth > 0, layout.blockHeight > 0
        else { return nil }
        self.path = path
        width = raster.width
        height = raster.height
        bands = raster.layout == .rgb ? 3 : 4
        if layout.blockWidth >= width {
            unitWidth = width
            unitHeight = min(height, layout.blockHeight * max(1, Self.rowsPerWideUnit / layout.blockHeight))
        } else {
            unitWidth = layout.blockWidth
            unitHeight = layout.blockHeight
        }
        unitColumns = (width + unitWidth - 1) / unitWidth
        // A budget holding fewer than a few units would decode every unit again for each window.
        guard unitWidth * unitHeight * bands * 8 <= budgetBytes else { return nil }
        cache = LRUCache(byteBudget: budgetBytes)
        budgetUnits = budgetBytes / (unitWidth * unitHeight * bands)
        unitRows = (height + unitHeight - 1) / unitHeight
        sequential = layout.driver == "JPEG" ? Locked(raster) : nil
        let samples = bands
        tiffBlocks =
            layout.driver == "GTiff"
            ? raster.dataset.tiffBlocks().flatMap { TIFFBlockReader(blocks: $0, bands: samples, checkedWith: raster) } : nil
    }

    /// True when an LZW or DEFLATE file's blocks are decoded here rather than by GDAL.
    public var decodesTIFFBlocks: Bool { tiffBlocks != nil }

    /// Copy the window (`x`, `y`, `width` × `height`, inside the scan) into `out` as RGBA8,
    /// decoding the units it covers that are not kept, with `raster`'s dataset (the caller's own).
    func readRGBA(
        x: Int, y: Int, width w: Int, height h: Int, into out: UnsafeMutablePointer<UInt8>,
        using raster: SourceRaster
    ) throws {
        for uy in (y / unitHeight)...((y + h - 1) / unitHeight) {
            for ux in (x / unitWidth)...((x + w - 1) / unitWidth) {
                let u = try unit(ux, uy, raster)
                let left = ux * unitWidth, top = uy * unitHeight
                let x0 = max(x, left), x1 = min(x + w, left + u.width)
                let y0 = max(y, top), y1 = min(y + h, top + u.height)
                tegula_copy_rows(
                    u.pixels + ((y0 - top) * u.width + (x0 - left)) * bands, u.width * bands, bands,
                    x1 - x0, y1 - y0, out + ((y0 - y) * w + (x0 - x)) * 4, w * 4)
            }
        }
    }

    /// Unit (`ux`, `uy`) from the cache, else decoded now (by this thread, or waited for while
    /// another decodes it).
    private func unit(_ ux: Int, _ uy: Int, _ raster: SourceRaster) throws -> Unit {
        let u = try cachedOrDecoded(ux, uy, raster)
        if sequential != nil, readingInRows { readAhead(through: uy + aheadRows) }
        return u
    }

    /// Set while the scan is read from top to bottom (the pyramid's blocks in rows): the rows of
    /// a file read in rows (JPEG) are then decoded ahead of the readers, on a thread of their own.
    /// Off for reads in no order (tiles on demand), where rows decoded ahead would be wasted and
    /// the one decoder held from the row asked for next.
    public var readingInRows: Bool {
        get { flight.lock(); defer { flight.unlock() }; return inRows }
        set { flight.lock(); inRows = newValue; flight.unlock() }
    }
    private var inRows = false

    /// Unit rows of a file read in rows (JPEG) decoded ahead of the furthest asked for: a quarter
    /// of the units the budget holds, so they and the rows a row of blocks reads (about 17 of the
    /// benchmark scan's 31) fit it together.
    private var aheadRows: Int { max(1, budgetUnits / 4) }

    /// Decode unit rows after the furthest asked for, up to `last`, on a thread of its own, in
    /// order (the one decoder reads rows in order; rows above the last read start it over from the
    /// file's first row). Without it the two workers reached each unit of a row of blocks together,
    /// and one waited while the other decoded it: the plain-JPEG pyramid kept 1.80 of its 2 cores
    /// busy, the tiled forms 1.94–1.96. A failed decode is dropped; the worker that needs the unit
    /// decodes it again and meets the error itself.
    private func readAhead(through last: Int) {
        flight.lock()
        let target = min(last, unitRows - 1)
        guard target > aheadTarget else { flight.unlock(); return }
        aheadTarget = target
        guard !aheadRunning else { flight.unlock(); return }
        aheadRunning = true
        flight.unlock()
        // A thread of its own: the workers are Dispatch's (concurrentPerform), and a block queued
        // on its global queue waits for one of them, which may be waiting for this very unit.
        Thread { [self] in
            while true {
                flight.lock()
                aheadNext = max(aheadNext, aheadTarget - aheadRows + 1)
                guard aheadNext <= aheadTarget else {
                    aheadRunning = false
                    flight.unlock()
                    return
                }
                let uy = aheadNext, key = uy * unitColumns
                aheadNext += 1
                if decoding.contains(key) {
                    flight.unlock()
                    continue
                }
                decoding.insert(key)
                flight.unlock()
                if cache.value(for: key) == nil {
                    flight.lock()
                    decodes += 1
                    flight.unlock()
                    if let u = try? decode(0, uy, nil) { cache.insert(u, cost: u.width * u.height * bands, for: key) }
                }
                done(key)
            }
        }.start()
    }

    private func cachedOrDecoded(_ ux: Int, _ uy: Int, _ raster: SourceRaster) throws -> Unit {
        let key = uy * unitColumns + ux
        while true {
            if let u = cache.value(for: key) { return u }
            flight.lock()
            if decoding.contains(key) {
                flight.wait()
                flight.unlock()
                continue
            }
            // Decoded and kept between the look-up above and the lock.
            if let u = cache.value(for: key) {
                flight.unlock()
                return u
            }
            decoding.insert(key)
            decodes += 1
            flight.unlock()
            do {
                let u = try decode(ux, uy, raster)
                cache.insert(u, cost: u.width * u.height * bands, for: key)
                done(key)
                return u
            } catch {
                done(key)
                throw error
            }
        }
    }

    private func done(_ key: Int) {
        flight.lock()
        decoding.remove(key)
        flight.broadcast()
        flight.unlock()
    }

    /// Unit (`ux`, `uy`) decoded: by the file's one decoder (`raster` unused), from its TIFF
    /// blocks, or by GDAL through `raster`.
    private func decode(_ ux: Int, _ uy: Int, _ raster: SourceRaster?) throws -> Unit {
        let left = ux * unitWidth, top = uy * unitHeight
        let u = Unit(width: min(unitWidth, width - left), height: min(unitHeight, height - top), bands: bands)
        if let tiffBlocks, decode(tiffBlocks, ux, uy, into: u) { return u }
        let list = Array(1...bands)
        if let sequential {
            try sequential.withLock {
                try $0.dataset.readBytes(x: left, y: top, width: u.width, height: u.height, bands: list, into: u.pixels)
            }
        } else {
            guard let raster else { preconditionFailure("a unit each reader decodes needs the reader's raster") }
            try raster.dataset.readBytes(x: left, y: top, width: u.width, height: u.height, bands: list, into: u.pixels)
        }
        return u
    }

    /// Unit (`ux`, `uy`) decoded from its TIFF blocks: one tile, or the strips it groups; false
    /// when one of them does not decode (GDAL then reads the unit).
    private func decode(_ reader: TIFFBlockReader, _ ux: Int, _ uy: Int, into u: Unit) -> Bool {
        let bh = reader.blocks.blockHeight
        guard unitWidth == width else {
            return reader.decode(column: ux, row: uy, into: u.pixels, width: u.width, height: u.height)
        }
        // Strips, each whole in place: one's spare bytes fall in the next, decoded after it.
        for r in 0..<((u.height + bh - 1) / bh) {
            guard
                reader.decode(
                    column: 0, row: uy * (unitHeight / bh) + r, into: u.pixels + r * bh * width * bands,
                    width: width, height: min(bh, u.height - r * bh))
            else { return false }
        }
        return true
    }
}
