import Foundation
import TegulaGDAL
import TegulaGeoreference
import TegulaWarp

/// The georeference stage for maps with GCPs: read them (file or inline), fit with
/// ``Georeferencer/fit(_:imageWidth:imageHeight:options:)`` and write what `tegula georef`
/// writes (``GeoreferenceWriter``): `georef.vrt`, `report.json`, `residuals.svg`.
enum GCPGeoreferencing {
    /// The GCPs of a map's section: a file in any format, or the inline list (`gcp_srs`, default
    /// EPSG:4326); the section's mask, when given, replaces one the file carries.
    static func gcpSet(_ g: GeoreferenceSpec, mask: [PixelPoint]?) throws -> GCPSet {
        var set: GCPSet
        switch g.gcps {
        case .file(let p):
            set = try GCPReader.read(path: p, gcpSRS: g.gcpSRS)
        case .inline(let list):
            let points = list.enumerated().map { i, p in
                GCP(id: p.id ?? "\(i + 1)", pixel: PixelPoint(x: p.pixel[0], y: p.pixel[1]),
                    ground: GroundPoint(x: p.ground[0], y: p.ground[1]), enabled: p.enabled ?? true)
            }
            set = GCPSet(gcps: points, srs: g.gcpSRS ?? "EPSG:4326")
        case nil:
            throw StageError("the georeference section has no GCPs")
        }
        if let mask { set.mask = mask }
        return set
    }

    /// Fit the map's GCPs for its scan.
    static func fit(map: MapSpec, step: GeoreferenceStep) throws -> Georeference {
        let g = map.georeference!
        let set = try gcpSet(g, mask: try step.mask())
        let ds = try Dataset(path: map.input)
        return try Georeferencer.fit(set, imageWidth: ds.width, imageHeight: ds.height,
                                     options: FitOptions(transform: g.transform, fitSRS: g.fitSRS))
    }

    /// Fit and write `georef.vrt`, `report.json`, `residuals.svg`; returns the files written.
    static func write(map: MapSpec, step: GeoreferenceStep) throws -> [String] {
        let fitted = try fit(map: map, step: step)
        try GeoreferenceWriter.write(imagePath: map.input, georeference: fitted, output: step.vrtPath,
                                     report: step.reportPath, picture: step.picturePath)
        return [step.vrtPath, step.reportPath, step.picturePath]
    }

    /// One line on the fit: transform, why, and the honest error figure.
    static func describe(_ r: GeoreferenceReport) -> String {
        let loo = r.leaveOneOutRMSE.metres.map { String(format: ", leave-one-out RMSE %.0f km", $0 / 1000) } ?? ""
        return "\(r.transform.rawValue) (\(r.chosenBy)) in \(r.fitSRS) from \(r.gcps.filter(\.enabled).count) GCPs\(loo)"
    }

    /// Fit in memory for the plan.
    static func sourceInMemory(map: MapSpec, step: GeoreferenceStep) throws -> WarpSource {
        let g = map.georeference!
        let set = try gcpSet(g, mask: try step.mask())
        return try WarpInput(path: map.input, transform: g.transform?.rawValue, gcpSRS: g.gcpSRS, fitSRS: g.fitSRS,
                             gcpSet: set).resolve()
    }

    /// The recorded fit's report, if any.
    static func recordedReport(step: GeoreferenceStep) -> GeoreferenceReport? {
        guard let data = FileManager.default.contents(atPath: step.reportPath) else { return nil }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try? decoder.decode(GeoreferenceReport.self, from: data)
    }
}
