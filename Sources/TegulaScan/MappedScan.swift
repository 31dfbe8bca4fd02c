import Foundation
import TegulaGDAL
import TegulaSupport

/// An uncompressed RGB or RGBA scan read through a file mapping (``VirtualMemory``), shared by
/// the workers, instead of one GDAL read per row of each window.
///
/// GDAL read a scan of one-row strips in many small reads and seeks, each window's rows again,
/// where faulting the whole file into a mapping costs a fraction of that (BENCHMARKS.md, "Figures behind the code"). So that memory stays flat
/// whatever the scan's size, the mapping is kept resident in chunks of about 2 MB of rows, at
/// most ``budgetBytes`` over every mapped scan of the process, least recently read dropped
/// first (a dropped chunk is mapped again from the page cache when read; a reader on another
/// thread meanwhile only takes page faults). A file cut short under the mapping faults the
/// copy, which is then an error (``VirtualMemory/copyRGBA(x:y:width:height:into:)``).
///
/// Reading the scan in chunks of whole rows with `pread` instead, with no fault to guard,
/// copied whole rows where a window needs a tenth of each: slower and larger at every budget.
public final class MappedScan: @unchecked Sendable {
    /// The most the mapped scans of a process keep resident together: the smallest budget measured,
    /// a little slower than larger ones for much less memory (BENCHMARKS.md, "Figures behind the code").
    public static let budgetBytes = 32 << 20
    /// Rows per residency chunk: about `chunkBytes` of them, at least one.
    let chunkRows: Int
    let path: String
    let memory: VirtualMemory
    private let residency: Residency

    /// The scan at `path` mapped, when it can be (see ``Dataset/mappedPixels()``) and its bands
    /// are RGB or RGBA without nodata; nil otherwise. Tests pass a smaller chunk and their own
    /// residency.
    public convenience init?(path: String) {
        self.init(path: path, chunkBytes: 2 << 20, residency: .shared)
    }

    init?(path: String, chunkBytes: Int, residency: Residency) {
        guard let raster = try? SourceRaster(path: path), raster.noData == nil,
            raster.layout == .rgb || raster.layout == .rgba,
            let memory = raster.dataset.mappedPixels(), memory.bands == (raster.layout == .rgb ? 3 : 4)
        else { return nil }
        self.memory = memory
        self.path = path
        self.residency = residency
        chunkRows = max(1, chunkBytes / memory.lineSpace)
    }

    deinit { residency.forget(self) }

    /// Copy the window (`x`, `y`, `width` × `height`, inside the scan) into `out` as RGBA8. A
    /// file cut short under the mapping (rewritten in place while read) is this error, not the
    /// end of the process.
    func readRGBA(x: Int, y: Int, width: Int, height: Int, into out: UnsafeMutablePointer<UInt8>) throws {
        let chunks = (y / chunkRows)...((y + height - 1) / chunkRows)
        residency.use(self, chunks: chunks)
        guard memory.copyRGBA(x: x, y: y, width: width, height: height, into: out) else {
            throw ScanError(.unreadable, at: path, "the file ended before its last row (changed while it was read?)")
        }
    }

    /// Drop chunk `c`'s rows from the process.
    fileprivate func release(chunk c: Int) {
        let rows = min(chunkRows, memory.height - c * chunkRows)
        memory.release(offset: c * chunkRows * memory.lineSpace, count: rows * memory.lineSpace)
    }

    fileprivate func chunkBytes(_ c: Int) -> Int { min(chunkRows, memory.height - c * chunkRows) * memory.lineSpace }

    /// Which chunks of which mapped scans are resident, and when each was last read.
    final class Residency: @unchecked Sendable {
        static let shared = Residency(budget: MappedScan.budgetBytes)
        struct Key: Hashable {
            let scan: ObjectIdentifier
            let chunk: Int
        }
        struct State {
            var tick = 0
            var bytes = 0
            var lastUse: [Key: Int] = [:]
            var scans: [ObjectIdentifier: Unmanaged<MappedScan>] = [:]
        }
        let budget: Int
        private let state = Locked(State())

        /// The bytes of chunks counted resident now.
        var residentBytes: Int { state.withLock { $0.bytes } }

        init(budget: Int) { self.budget = budget }

        /// Mark `chunks` of `scan` read now, then drop the least recently read chunks (never
        /// these) while more than the budget is resident.
        func use(_ scan: MappedScan, chunks: ClosedRange<Int>) {
            let id = ObjectIdentifier(scan)
            state.withLock { s in
                s.tick += 1
                s.scans[id] = Unmanaged.passUnretained(scan)
                for c in chunks {
                    let key = Key(scan: id, chunk: c)
                    if s.lastUse.updateValue(s.tick, forKey: key) == nil { s.bytes += scan.chunkBytes(c) }
                }
                while s.bytes > budget, let (key, used) = s.lastUse.min(by: { $0.value < $1.value }), used < s.tick,
                    let owner = s.scans[key.scan]?.takeUnretainedValue()
                {
                    owner.release(chunk: key.chunk)
                    s.bytes -= owner.chunkBytes(key.chunk)
                    s.lastUse[key] = nil
                }
            }
        }

        /// A scan going away: its chunks no longer count (its mapping is freed with it).
        func forget(_ scan: MappedScan) {
            let id = ObjectIdentifier(scan)
            state.withLock { s in
                for key in s.lastUse.keys where key.scan == id {
                    s.bytes -= scan.chunkBytes(key.chunk)
                    s.lastUse[key] = nil
                }
                s.scans[id] = nil
            }
        }
    }
}
