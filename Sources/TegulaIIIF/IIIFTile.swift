/// One tile of an image's tile grid at one scale factor, and the request that fetches it.
public struct IIIFTile: Sendable, Hashable {
    /// Column, from 0 at the left.
    public var column: Int
    /// Row, from 0 at the top.
    public var row: Int
    /// The scale factor (1 is full resolution).
    public var scaleFactor: Int
    /// The region in full-resolution pixels: `x = column·tw·s`, `w = min(tw·s, W − x)`.
    public var x: Int, y: Int, width: Int, height: Int
    /// The tile's pixel size: `ceil(w/s)` × `ceil(h/s)`.
    public var size: IIIFSize

    /// The canonical request for this tile: region `full` when the tile covers the whole image,
    /// else `x,y,w,h`; size `w,` in 2.x and `w,h` in 3.0 (the forms a level-0 server's files are named by).
    public func request(in info: IIIFImageInfo, format: IIIFFormat) -> IIIFImageRequest {
        let whole = x == 0 && y == 0 && width == info.width && height == info.height
        let size =
            info.version == .v2
            ? IIIFSizeRequest(.width(self.size.width))
            : IIIFSizeRequest(.exact(width: self.size.width, height: self.size.height))
        return IIIFImageRequest(region: whole ? .full : .pixels(x: x, y: y, width: width, height: height), size: size, format: format)
    }
}

extension IIIFTileSet {
    /// Columns and rows of the grid at `scaleFactor` over a `width` × `height` image.
    public func gridSize(scaleFactor s: Int, imageWidth: Int, imageHeight: Int) -> (columns: Int, rows: Int) {
        let tw = width * s, th = height * s
        return ((imageWidth + tw - 1) / tw, (imageHeight + th - 1) / th)
    }

    /// Every tile of the grid at scale factor `s` over a `width` × `height` image, row by row,
    /// edge tiles included (Image API 3.0 §5.6 and its implementation notes: region
    /// `x = n·tw·s`, `y = m·th·s`, `w = min(tw·s, W − x)`, `h = min(th·s, H − y)`, size `ceil(w/s)` × `ceil(h/s)`).
    public func tiles(scaleFactor s: Int, imageWidth: Int, imageHeight: Int) -> [IIIFTile] {
        let (columns, rows) = gridSize(scaleFactor: s, imageWidth: imageWidth, imageHeight: imageHeight)
        var out: [IIIFTile] = []
        out.reserveCapacity(columns * rows)
        for m in 0..<rows {
            for n in 0..<columns { out.append(tile(column: n, row: m, scaleFactor: s, imageWidth: imageWidth, imageHeight: imageHeight)) }
        }
        return out
    }

    /// The tile at column `n`, row `m` of the grid at scale factor `s`.
    public func tile(column n: Int, row m: Int, scaleFactor s: Int, imageWidth: Int, imageHeight: Int) -> IIIFTile {
        let x = n * width * s, y = m * height * s
        let w = min(width * s, imageWidth - x), h = min(height * s, imageHeight - y)
        return IIIFTile(
            column: n, row: m, scaleFactor: s, x: x, y: y, width: w, height: h,
            size: IIIFSize(width: (w + s - 1) / s, height: (h + s - 1) / s))
    }
}

extension IIIFTileSet {
    /// The coarsest of the grid's scale factors that keeps full detail for a read at `downsampling`
    /// source pixels per output pixel: the largest factor ≤ it (as GDAL picks an overview), 1 at least.
    public func scaleFactor(forDownsampling downsampling: Double) -> Int {
        scaleFactors.filter { Double($0) <= downsampling }.max() ?? scaleFactors.min() ?? 1
    }

    /// The tiles at scale factor `s` that a window of full-resolution pixels (`x`, `y`, `width` ×
    /// `height`, clipped to the image) touches, row by row: only what a read of that window needs.
    public func tiles(
        covering x: Int, _ y: Int, _ width: Int, _ height: Int, scaleFactor s: Int,
        imageWidth: Int, imageHeight: Int
    ) -> [IIIFTile] {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(imageWidth, x + width), y1 = min(imageHeight, y + height)
        guard x1 > x0, y1 > y0 else { return [] }
        let tw = self.width * s, th = self.height * s
        var out: [IIIFTile] = []
        for m in (y0 / th)...((y1 - 1) / th) {
            for n in (x0 / tw)...((x1 - 1) / tw) {
                out.append(tile(column: n, row: m, scaleFactor: s, imageWidth: imageWidth, imageHeight: imageHeight))
            }
        }
        return out
    }
}
