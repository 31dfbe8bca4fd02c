/// How the file under a raster stores its pixels: its driver and the block GDAL decodes at once.
public struct StorageLayout: Equatable, Sendable {
    /// The file's driver ("GTiff", "JPEG", …).
    public let driver: String
    /// Band 1's block in pixels (GDALGetBlockSize): a TIFF tile or strip, a JPEG scanline.
    public let blockWidth: Int
    public let blockHeight: Int
}

extension Dataset {
    /// The layout of this raster's file, or of the one file a VRT passes through unchanged (one
    /// SimpleSource per band, band i from band i, whole: see ``mappedPixels()``); nil for other
    /// VRTs, whose blocks are the VRT's own.
    public func storageLayout() -> StorageLayout? {
        guard let file = storedFile(), let band = file.bands.first else { return nil }
        return StorageLayout(driver: file.driverName, blockWidth: band.blockWidth, blockHeight: band.blockHeight)
    }

    /// The dataset whose file holds this raster's pixels: itself, or the one file a VRT passes
    /// through unchanged (opened, of the same size and band count); nil for other VRTs.
    func storedFile() -> Dataset? {
        guard driverName == "VRT" else { return self }
        guard let inner = vrtPassThroughFile(), let opened = try? Dataset(path: inner),
            opened.width == width, opened.height == height, opened.bandCount == bandCount
        else { return nil }
        return opened
    }
}
