import TegulaSupport

/// Opens the scans that locations name, as a value a program makes once at its edge and passes
/// to every stage that reads a scan (the warp, the pyramid, tiles on demand, the editor): a local
/// path through GDAL, a URL through ``remote(_:)``. TegulaInputs' `InputResolver` opens IIIF
/// images with its client; ``LocalScans`` opens files alone.
public protocol ScanOpener: Sendable {
    /// The remote scan at `url`, opened on first use and kept by this opener, so its description
    /// and decoded tiles are shared by every stage given the same opener.
    func remote(_ url: String) throws -> any RemoteScan
}

extension ScanOpener {
    /// The scan `location` names, opened: a file as it is (read when a reader is made), a URL
    /// through ``remote(_:)``.
    public func open(_ location: Location) throws -> OpenedScan {
        switch location {
        case .file(let path): return OpenedScan(file: path)
        case .url(let url): return OpenedScan(remote: try remote(url))
        }
    }

    /// The scan `name` names (a path or an http(s) URL, parsed by ``Location``), opened.
    public func open(_ name: String) throws -> OpenedScan { try open(Location(name)) }
}

/// An opener of local files alone: a URL is refused in one line (a program with no IIIF client).
public struct LocalScans: ScanOpener {
    public init() {}

    /// Refuses: this opener reads no remote scans.
    public func remote(_ url: String) throws -> any RemoteScan {
        throw ScanError(.unreadable, at: url, "a URL, but this program reads no remote scans; give a local file")
    }
}

/// A scan as the stages hold it: a local file's path, or a remote scan already opened by a
/// ``ScanOpener``. Its name stays as given (hashed into fit versions and ETags).
public struct OpenedScan: Sendable {
    /// Where it lives, as given.
    public let location: Location
    /// The remote scan, for a URL; nil for a file.
    public let remote: (any RemoteScan)?

    /// A local file at `path`, read through GDAL.
    public init(file path: String) {
        location = .file(path)
        remote = nil
    }

    /// A remote scan, named by the URL it was opened by.
    public init(remote: any RemoteScan) {
        location = .url(remote.name)
        self.remote = remote
    }

    /// The path or URL as given.
    public var path: String { location.description }

    /// True for a remote scan (read window by window: nothing mapped, decoded whole or held).
    public var isRemote: Bool { remote != nil }

    /// A reader for one worker: `mapped` (a local file's mapping, see TegulaWarp's
    /// `WarpSource.mapped`) or `decoded` (a local file's shared decoded blocks, see TegulaWarp's
    /// `WarpSource.decoded`) for its full-resolution windows, and with `removal` the paper colour
    /// taken out of every window it reads, wherever the pixels come from (``PaperRemovingReader``).
    public func reader(mapped: MappedScan? = nil, decoded: DecodedScan? = nil, removal: ColorRemoval? = nil) throws -> any ScanReader {
        let reader: any ScanReader
        if let remote {
            reader = try remote.makeReader()
        } else {
            let raster = try SourceRaster(path: path)
            raster.mapped = mapped
            raster.decoded = decoded
            reader = raster
        }
        return removal.map { PaperRemovingReader(reader, removal: $0) } ?? reader
    }

    /// The whole scan reduced to `width` × `height`, RGB (3 bytes a pixel), read as the warp reads
    /// it (an IIIF image at the coarsest scale factor that keeps that detail): the picture of a fit
    /// (TegulaGeoreference's `GeoreferenceWriter.ScanThumbnail`).
    public func thumbnail(width: Int, height: Int) throws -> [UInt8] {
        let reader = try reader()
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        try rgba.withUnsafeMutableBufferPointer {
            try reader.readRGBA(
                x: 0, y: 0, width: reader.width, height: reader.height, bufferWidth: width, bufferHeight: height,
                into: $0.baseAddress!)
        }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) { for c in 0..<3 { rgb[i * 3 + c] = rgba[i * 4 + c] } }
        return rgb
    }
}
