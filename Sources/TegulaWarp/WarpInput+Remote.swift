import TegulaGeoreference
import TegulaScan

extension WarpInput {
    /// A remote scan (an IIIF image) and its GCPs as a ``WarpSource``: its size from its
    /// description, no pixel read (each window is fetched when a worker reads it).
    func resolve(_ remote: any RemoteScan, readingPixels: Bool) throws -> WarpSource {
        guard let fitted = try fit(remote) else {
            throw WarpError(.notGeoreferenced, at: path, "a remote image carries no georeference: give --gcps FILE (an Allmaps annotation, say)")
        }
        let mapping = try GCPMapping(
            width: remote.width, height: remote.height, georeference: fitted,
            mask: fitted.gcps.mask.map { $0.map { (x: $0.x, y: $0.y) } })
        return try WarpSource(
            scan: OpenedScan(remote: remote), mapping: mapping, summary: readingPixels ? GeoreferenceSummary(fitted) : nil,
            sharePixels: readingPixels)
    }

    /// The GCP fit for a remote scan: from the inline GCPs or the GCP file; nil when there are none.
    func fit(_ remote: any RemoteScan) throws -> Georeference? {
        try georeference(imageWidth: remote.width, imageHeight: remote.height)
    }

    /// The GCP fit for an image of `imageWidth` × `imageHeight` pixels that is not opened (one an
    /// annotation describes): from the inline GCPs or the GCP file; nil when there are none.
    public func georeference(imageWidth: Int, imageHeight: Int) throws -> Georeference? {
        var set: GCPSet
        if let gcpSet {
            set = gcpSet
            if let gcpCRS { set.crs = gcpCRS }
        } else if let gcpFile {
            set = try GCPReader.read(path: gcpFile, gcpCRS: gcpCRS, mapID: mapID)
        } else {
            return nil
        }
        if let mask { set.mask = mask }
        return try Georeferencer.fit(set, imageWidth: imageWidth, imageHeight: imageHeight, options: fit)
    }
}
