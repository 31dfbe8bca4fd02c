import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaSupport

/// Writes what `tegula georef` produces after fitting: the scan as a VRT or GeoTIFF carrying the
/// GCPs with their CRS and Tegula's metadata, the JSON report, and the residual picture.
///
/// Every file is first written beside its destination under a temporary name and renamed only
/// when all of them succeeded, so a failure leaves nothing behind.
public enum GeoreferenceWriter {
    /// RGB bytes (3 a pixel) of the whole scan reduced to `width` × `height`, for the picture of
    /// a scan GDAL does not read (an IIIF image).
    public typealias ScanThumbnail = @Sendable (_ width: Int, _ height: Int) throws -> [UInt8]

    /// Write `output` (.vrt or .tif/.tiff), and optionally the report (JSON) and picture (SVG).
    ///
    /// The output holds the enabled GCPs (GDALSetGCPs2, CRS of the GCPs) and metadata items
    /// `TEGULA_TRANSFORM`, `TEGULA_FIT_SRS` and `TEGULA_MASK` (WKT in pixels), so `tegula warp`
    /// and `tegula tile` reproduce the same fit; GDAL and QGIS open it as a raster with GCPs. The
    /// mask is also a per-dataset mask band, so GDAL and QGIS crop to it too: inside a GeoTIFF,
    /// or for a VRT a `<MaskBand>` reading the sidecar `NAME.mask.tif` written beside it.
    /// `gcpFile`: the GCPs also as a GCP file in the form it names (``GCPFileOutput``);
    /// `footprint`: the fit's outline as GeoJSON (``FootprintOutput``); `pins`: which points the
    /// output carries as its GCPs (``WrittenPins``).
    public static func write(
        imagePath: String, georeference: Georeference, output: String,
        report: String?, picture: String?, gcpFile: GCPFileOutput? = nil,
        footprint: FootprintOutput? = nil, pins: WrittenPins = .gcps
    ) throws {
        let ext = (output as NSString).pathExtension.lowercased()
        guard ["vrt", "tif", "tiff"].contains(ext) else {
            throw GeoreferenceError(.writeFailed, at: output, "the output must end in .vrt or .tif")
        }
        try checkPaths(output: output, report: report, picture: picture, gcpFile: gcpFile, footprint: footprint)
        // Refused from the header, before a byte is copied or a mask raster allocated.
        do {
            let scan = try Dataset(path: imagePath)
            try RasterLimits.checkBands(scan)
            if ext != "vrt" { try RasterLimits.checkCopied(scan, instead: "write OUT.vrt, which references the scan") }
            if let mask = georeference.gcps.mask, mask.count >= 3 {
                try RasterLimits.checkHeld(
                    scan, bytesPerPixel: 1, for: "its mask raster",
                    instead: "georeference it without the mask, and give the mask to tegula warp or tile")
            }
        }
        // Every file goes to a temporary name beside its destination; all are renamed into
        // place only when every one was written, and the temporaries go when anything fails.
        var staged: [AtomicFile] = []
        func stage(_ path: String) throws -> String {
            // What a killed run left for the same file goes first.
            AtomicFile.removeAbandoned(of: path)
            let file = try AtomicFile(replacing: path)
            staged.append(file)
            return file.temporaryPath
        }
        do {
            var maskFile: String?
            if ext == "vrt", let mask = georeference.gcps.mask, mask.count >= 3 {
                let final = maskSidecar(for: output)
                try writeMaskRaster(mask, imagePath: imagePath, to: try stage(final))
                maskFile = (final as NSString).lastPathComponent
            }
            try writeRaster(
                imagePath: imagePath, georeference: georeference, to: try stage(output), vrt: ext == "vrt",
                maskFile: maskFile, pins: pins)
            if let report {
                try reportJSON(georeference.report).write(to: URL(fileURLWithPath: try stage(report)))
            }
            if let picture {
                let svg = try ResidualPicture(imagePath: imagePath, georeference: georeference).svg()
                try Data(svg.utf8).write(to: URL(fileURLWithPath: try stage(picture)))
            }
            for file in try gcpFile?.files(georeference, scanPath: imagePath, service: nil, serviceType: "ImageService3") ?? [] {
                try file.data.write(to: URL(fileURLWithPath: try stage(file.path)))
            }
            if let file = try footprint?.file(georeference) {
                try file.data.write(to: URL(fileURLWithPath: try stage(file.path)))
            }
        } catch let e as GeoreferenceError {
            throw e
        } catch {
            throw GeoreferenceError(.writeFailed, at: output, "\(error)")
        }
        for file in staged {
            do { try file.commit() } catch {
                throw GeoreferenceError(.writeFailed, at: file.path, "cannot move the finished file into place: \(error)")
            }
        }
    }

    /// For a scan no file holds (an IIIF image service `service` of Allmaps type `serviceType`):
    /// the fit as an Allmaps Georeference Annotation naming the service (its GCPs, transform and
    /// mask, ``GCPWriter``), and the report and the picture as ``write(imagePath:georeference:output:report:picture:)``
    /// writes them, the scan in the picture read by `thumbnail`; all or nothing. A VRT cannot
    /// reference an IIIF image and a copy would defeat reading only what a zoom needs, so the
    /// output must end in `.json`.
    public static func writeAnnotation(
        service: String, serviceType: String, georeference: Georeference, output: String,
        report: String?, picture: String?, gcpFile: GCPFileOutput? = nil,
        footprint: FootprintOutput? = nil, thumbnail: @escaping ScanThumbnail
    ) throws {
        guard (output as NSString).pathExtension.lowercased() == "json" else {
            throw GeoreferenceError(
                .writeFailed, at: output,
                "an IIIF image is neither copied nor referenced by a VRT; write OUT.json, a Georeference Annotation naming the image")
        }
        try checkPaths(output: output, report: report, picture: picture, gcpFile: gcpFile, footprint: footprint)
        let g = georeference
        var files: [(String, Data)] = [
            (
                output,
                Data(
                    try GCPWriter.allmapsAnnotation(
                        g.gcps.enabled, crs: g.gcps.crs, transform: g.kind, mask: g.gcps.mask, scanPath: service, service: service,
                        serviceType: serviceType, width: g.imageWidth, height: g.imageHeight
                    ).utf8)
            )
        ]
        if let report { files.append((report, try reportJSON(g.report))) }
        if let picture {
            files.append((picture, Data(try ResidualPicture(imagePath: service, georeference: g, reader: thumbnail).svg().utf8)))
        }
        for file in try gcpFile?.files(g, scanPath: service, service: service, serviceType: serviceType) ?? [] {
            files.append((file.path, file.data))
        }
        if let file = try footprint?.file(g) { files.append(file) }
        var staged: [AtomicFile] = []
        do {
            for (path, data) in files {
                AtomicFile.removeAbandoned(of: path)
                let file = try AtomicFile(replacing: path)
                staged.append(file)
                try file.write(Array(data))
            }
            for file in staged { try file.commit() }
        } catch {
            for file in staged { file.discard() }
            throw GeoreferenceError(.writeFailed, at: output, "\(error)")
        }
    }

    /// The report as pretty, key-sorted JSON (non-finite numbers as strings).
    public static func reportJSON(_ report: GeoreferenceReport) throws -> Data {
        try JSONStyle.readable.nonFiniteAsStrings.encode(report)
    }

    /// Where a VRT's mask raster goes: `NAME.mask.tif` beside `NAME.vrt`.
    public static func maskSidecar(for vrt: String) -> String {
        (vrt as NSString).deletingPathExtension + ".mask.tif"
    }

    /// The mask polygon as a one-band GeoTIFF of the scan's size (255 inside, 0 outside).
    static func writeMaskRaster(_ mask: [PixelPoint], imagePath: String, to path: String) throws {
        let size = try Dataset(path: imagePath)
        let (w, h) = (size.width, size.height)
        let ds = try Dataset.create(
            path: path, driver: "GTiff", width: w, height: h, bands: 1,
            options: ["TILED=YES", "COMPRESS=DEFLATE"])
        try rasterize(mask, width: w, height: h).withUnsafeBufferPointer {
            try ds.writeBytes(x: 0, y: 0, width: w, height: h, bands: [1], from: $0.baseAddress!)
        }
        try ds.flush()
    }

    /// Copy the scan (VRT: a reference to it; GeoTIFF: its pixels) and add GCPs and metadata;
    /// `maskFile` (VRT only) is the mask raster's name in the VRT's folder.
    static func writeRaster(
        imagePath: String, georeference: Georeference, to path: String, vrt: Bool,
        maskFile: String? = nil, pins: WrittenPins = .gcps
    ) throws {
        let absolute = URL(fileURLWithPath: imagePath).standardizedFileURL.path
        do {
            let source = try Dataset(path: absolute)
            try source.copy(
                to: path, driver: vrt ? "VRT" : "GTiff",
                options: vrt ? [] : ["TILED=YES", "COMPRESS=DEFLATE", "PREDICTOR=2"])
        }
        let ds = try Dataset(updating: path)
        let (points, crs) = pins.points(for: georeference)
        let records = points.map {
            GCPRecord(id: $0.id, pixel: $0.pixel.x, line: $0.pixel.y, x: $0.ground.x, y: $0.ground.y)
        }
        try ds.setGCPs(records, srs: crs.makeReference())
        for (key, value) in georeference.stored.metadataItems.sorted(by: { $0.key < $1.key }) {
            try ds.setMetadataItem(key, value)
        }
        if !vrt, let mask = georeference.gcps.mask, mask.count >= 3 {
            try ds.writeDatasetMask(rasterize(mask, width: ds.width, height: ds.height))
        }
        try ds.flush()
        if vrt { try rewriteGCPList(path: path, gcps: points, image: absolute, maskFile: maskFile) }
    }

    /// GDAL's VRT writer rounds GCP pixels to 4 decimals and grounds to 12 digits; rewrite the
    /// `<GCP>` elements with every digit so the fit read back is the fit written. A scan in the
    /// VRT's own folder is referenced relative to it, so the two can move together.
    /// With `maskFile`, a dataset `<MaskBand>` reading it (relative to the VRT) is added.
    static func rewriteGCPList(path: String, gcps: [GCP], image: String, maskFile: String? = nil) throws {
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let vrtFolder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
        let imageURL = URL(fileURLWithPath: image)
        if imageURL.deletingLastPathComponent().path == vrtFolder {
            text = text.replacingOccurrences(
                of: "<SourceFilename relativeToVRT=\"0\">\(image)</SourceFilename>",
                with: "<SourceFilename relativeToVRT=\"1\">\(imageURL.lastPathComponent)</SourceFilename>")
        }
        guard let open = text.range(of: "<GCPList"), let openEnd = text[open.upperBound...].range(of: ">"),
            let close = text.range(of: "</GCPList>")
        else {
            throw GeoreferenceError(.writeFailed, at: path, "GDAL wrote no <GCPList>")
        }
        let indent = "\n    "
        let items = gcps.map { g in
            "\(indent)<GCP Id=\"\(XMLText.escape(g.id))\" Info=\"\" Pixel=\"\(g.pixel.x)\" Line=\"\(g.pixel.y)\" X=\"\(g.ground.x)\" Y=\"\(g.ground.y)\" />"
        }.joined()
        var out = String(text[..<openEnd.upperBound]) + items + "\n  " + String(text[close.lowerBound...])
        if let maskFile {
            guard let end = out.range(of: "</VRTDataset>", options: .backwards) else {
                throw GeoreferenceError(.writeFailed, at: path, "GDAL wrote no </VRTDataset>")
            }
            let band = """
                  <MaskBand>
                    <VRTRasterBand dataType="Byte">
                      <SimpleSource>
                        <SourceFilename relativeToVRT="1">\(XMLText.escape(maskFile))</SourceFilename>
                        <SourceBand>1</SourceBand>
                      </SimpleSource>
                    </VRTRasterBand>
                  </MaskBand>

                """
            out.replaceSubrange(end, with: band + "</VRTDataset>")
        }
        try Data(out.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A polygon as a byte mask (255 inside, 0 outside), by the even-odd rule at pixel centres.
    static func rasterize(_ polygon: [PixelPoint], width: Int, height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        let ring = polygon.map { (x: $0.x, y: $0.y) }
        for row in 0..<height {
            for span in EvenOddRule.spans(ring, y: Double(row) + 0.5, width: width) {
                for c in span { out[row * width + c] = 255 }
            }
        }
        return out
    }

    /// Every output's folder exists, and no two outputs (the GCP file's sidecar included) are
    /// one file.
    static func checkPaths(
        output: String, report: String?, picture: String?, gcpFile: GCPFileOutput?,
        footprint: FootprintOutput? = nil
    ) throws {
        var paths = [output, report, picture, footprint?.path].compactMap { $0 }
        if let gcpFile {
            paths.append(gcpFile.path)
            if !gcpFile.format.holdsTheFit { paths.append(StoredFit.sidecarPath(forGCPFile: gcpFile.path)) }
        }
        var seen = Set<String>()
        for path in paths {
            try checkFolder(path)
            guard seen.insert(URL(fileURLWithPath: path).standardizedFileURL.path).inserted else {
                throw GeoreferenceError(.writeFailed, at: path, "named for two outputs; give each output its own file")
            }
        }
    }

    static func checkFolder(_ path: String) throws {
        let dir = path.parentPath
        var isDir: ObjCBool = false
        if !dir.isEmpty, !(FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) && isDir.boolValue) {
            throw GeoreferenceError(.writeFailed, at: path, "the folder \(dir) does not exist")
        }
    }
}
