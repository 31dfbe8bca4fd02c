import CGDAL
import CMappedRows
import Foundation

/// An uncompressed raster's pixels mapped straight from its file for reading
/// (`GDALGetVirtualMemAuto` with GDAL's generic implementation refused, so only a file mapping
/// comes back): pixel (x, y), band b (from 0) is at `base[y · lineSpace + x · pixelSpace + b]`.
///
/// Reading it is a memory access, no call into GDAL, so it may be shared by threads. The bytes
/// a reader touches stay mapped, counted in the process's RSS, until ``release(offset:count:)``.
public final class VirtualMemory: @unchecked Sendable {
    public let base: UnsafePointer<UInt8>
    public let width: Int
    public let height: Int
    /// Bands in the file, each one byte of a pixel.
    public let bands: Int
    public let pixelSpace: Int
    public let lineSpace: Int
    private let memory: OpaquePointer
    /// The file's dataset, closed after the mapping is freed (stored properties outlive deinit's body).
    private let file: Dataset

    fileprivate init(memory: OpaquePointer, base: UnsafePointer<UInt8>, file: Dataset, pixelSpace: Int, lineSpace: Int) {
        self.memory = memory
        self.base = base
        self.file = file
        width = file.width
        height = file.height
        bands = file.bandCount
        self.pixelSpace = pixelSpace
        self.lineSpace = lineSpace
    }

    deinit { CPLVirtualMemFree(memory) }

    /// Copies the window (`x`, `y`, `width` × `height`, inside the raster) into `out` as RGBA8:
    /// three bands widened with alpha 255, four as they are (other band counts are not copied).
    /// Guarded (`tegula_copy_mapped_rows`): a page past the end of a file cut short under the
    /// mapping faults (SIGBUS), and then this returns false, `out` part written, instead of the
    /// process ending. True when copied.
    public func copyRGBA(x: Int, y: Int, width: Int, height: Int, into out: UnsafeMutablePointer<UInt8>) -> Bool {
        guard bands == 3 || bands == 4 else { return false }
        return tegula_copy_mapped_rows(base + y * lineSpace + x * bands, lineSpace, bands, width, height, out) == 0
    }

    /// Drop the mapping's pages over bytes [offset, offset + count) from the process (the pages
    /// they touch, `madvise(MADV_DONTNEED)`): the next read maps them again from the page cache,
    /// with the same bytes, so a page shared with bytes still in use only costs a fault. (The
    /// file is mapped from the page holding `base`, so whole pages stay inside the mapping.)
    public func release(offset: Int, count: Int) {
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let start = UInt(bitPattern: base) + UInt(offset)
        let first = start / page * page, last = (start + UInt(count) + page - 1) / page * page
        guard last > first, let p = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(p, Int(last - first), Int32(MADV_DONTNEED))
    }
}

extension Dataset {
    /// This raster's 8-bit bands mapped from its file (see ``VirtualMemory``), or nil when GDAL
    /// cannot map them: compressed, tiled or band-interleaved files, other sample types, other
    /// systems. A VRT that passes one file's bands through unchanged (one SimpleSource per band,
    /// band i from band i, the whole raster) is mapped from that file. Either way the mapping
    /// must read the same bytes as this dataset does at sample rows, or it is not used.
    public func mappedPixels() -> VirtualMemory? {
        let n = bandCount
        guard n >= 1, bands.allSatisfy(\.isByte), let filePath = passThroughFile(),
            let file = try? Dataset(path: filePath),
            file.width == width, file.height == height, file.bandCount == n,
            let band = GDALGetRasterBand(file.handle, 1)
        else { return nil }
        var pixelSpace: Int32 = 0
        var lineSpace: GIntBig = 0
        let mem = GDALRuntime.withStringList(["USE_DEFAULT_IMPLEMENTATION=NO"]) {
            GDALGetVirtualMemAuto(band, GF_Read, &pixelSpace, &lineSpace, $0)
        }
        guard let mem else { return nil }
        guard pixelSpace == Int32(n), Int(lineSpace) >= width * n, let addr = CPLVirtualMemGetAddr(mem) else {
            CPLVirtualMemFree(mem)
            return nil
        }
        let mapped = VirtualMemory(
            memory: mem, base: UnsafePointer(addr.assumingMemoryBound(to: UInt8.self)),
            file: file, pixelSpace: n, lineSpace: Int(lineSpace))
        return readsAlike(mapped) ? mapped : nil
    }

    /// The file whose bands this dataset reads as they are: itself unless it is a VRT; for a VRT,
    /// its one source file when every band is that file's same band, whole, in a SimpleSource.
    private func passThroughFile() -> String? {
        guard driverName == "VRT" else { return driverName == "GTiff" ? path : nil }
        return vrtPassThroughFile()
    }

    /// A VRT's one source file when every band is that file's same band, whole, in a SimpleSource.
    func vrtPassThroughFile() -> String? {
        let files = fileList.dropFirst()
        guard files.count == 1, let file = files.first else { return nil }
        for i in 1...bandCount {
            // The band's sources as "source_N=<xml>" items (GDAL answers no single item here).
            guard let b = GDALGetRasterBand(handle, Int32(i)), let list = GDALGetMetadata(b, "vrt_sources"),
                CSLCount(list) == 1, let item = list[0], let eq = strchr(item, 61 /* = */),
                let node = CPLParseXMLString(eq + 1)
            else { return nil }
            defer { CPLDestroyXMLNode(node) }
            func value(_ key: String) -> String? { CPLGetXMLValue(node, key, nil).map { String(cString: $0) } }
            let whole = ["0", "0", "\(width)", "\(height)"]
            guard String(cString: node.pointee.pszValue) == "SimpleSource", value("SourceBand") == "\(i)",
                ["xOff", "yOff", "xSize", "ySize"].map({ value("SrcRect.\($0)") }) == whole,
                ["xOff", "yOff", "xSize", "ySize"].map({ value("DstRect.\($0)") }) == whole
            else { return nil }
        }
        return file
    }

    /// True when the mapping holds what this dataset reads at its first, middle and last rows
    /// (up to 256 pixels at each end of each).
    private func readsAlike(_ m: VirtualMemory) -> Bool {
        let n = bandCount, w = min(width, 256)
        var read = [UInt8](repeating: 0, count: w * n)
        for y in Set([0, height / 2, height - 1]) {
            for x in Set([0, width - w]) {
                let ok: Bool? = try? read.withUnsafeMutableBufferPointer {
                    try readBytes(x: x, y: y, width: w, height: 1, bands: Array(1...n), into: $0.baseAddress!)
                    return memcmp($0.baseAddress!, m.base + y * m.lineSpace + x * n, w * n) == 0
                }
                if ok != true { return false }
            }
        }
        return true
    }
}
