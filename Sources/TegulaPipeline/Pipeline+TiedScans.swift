import TegulaGDAL
import TegulaSupport

/// Loading's rule for a tied map that says nothing of its GCPs: a map of a series with ties
/// that has no `georeference:` section (so no `gcps:` key) is placed by its ties, as one with
/// `gcps: none` is, when its scan has no georeference of its own; a scan that carries one (a
/// geotransform with a CRS, or GCPs in the file) keeps it, as any map without a section does.
extension Pipeline {
    /// Every such map of `spec` given `gcps: none`: under `ties: auto` any map without a section,
    /// under hand ties (`ties:`, `ties_from:`) only one a tie names. Runs after the ties are read
    /// and before they are found or fitted, so every later step sees `gcps: none`.
    static func placeUnreferencedScansByTies(_ spec: inout PipelineSpec) {
        guard !spec.ties.isEmpty || spec.autoTies != nil else { return }
        let named = Set(spec.ties.flatMap { [$0.mapA, $0.mapB] })
        for i in spec.maps.indices where spec.maps[i].georeference == nil {
            let m = spec.maps[i]
            guard spec.autoTies != nil || named.contains(m.name), !Location(m.input).isURL else { continue }
            // A scan GDAL cannot open is left to the georeference stage, which names the file.
            guard let ds = try? Dataset(path: m.input), !carriesOwnGeoreference(ds) else { continue }
            var g = GeoreferenceSpec()
            g.gcps = .tiesOnly
            spec.maps[i].georeference = g
        }
    }

    /// A map whose `georeference:` section names no GCPs (no `gcps:`, `match:` or `bounds:`; say
    /// only `transform: helmert`) given `gcps: none` when it is tied as above (a tie names it, or
    /// `ties: auto`), whatever its scan carries: the section asks for a fit. Refused otherwise,
    /// in one line naming the section (``GeoreferenceSpec/missingGCPs``). Runs as each map is
    /// read, after the ties are.
    static func placeSectionWithoutGCPsByTies(_ m: inout MapSpec, spec: PipelineSpec, fail: MapFailure) throws {
        guard let g = m.georeference, g.gcps == nil, g.bounds == nil else { return }
        guard spec.autoTies != nil || spec.ties.contains(where: { $0.mapA == m.name || $0.mapB == m.name }) else {
            throw fail([.key("georeference")], GeoreferenceSpec.missingGCPs)
        }
        m.georeference?.gcps = .tiesOnly
    }

    /// True when `ds` is georeferenced by itself: a geotransform with a CRS, or GCPs.
    static func carriesOwnGeoreference(_ ds: Dataset) -> Bool {
        (ds.geoTransform != nil && ds.spatialReference != nil) || !ds.gcps.isEmpty
    }
}
