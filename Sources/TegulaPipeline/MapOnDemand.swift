import TegulaPyramid

/// A map's tiles without running its stages, for tiles on demand (`tegula serve FILE.yml`).
extension Pipeline {
    /// The pyramid `tegula tile` would cut for `map` straight from its scan: the `georeference:`
    /// section fitted in memory (nothing written, no stage run), the `tile:` options applied as the
    /// tile stage applies them (in the map's `tile.tms`, ``TileStep/job(source:output:maxZoom:of:)``), the
    /// max zoom defaulting to `warp.zoom`, else the zoom nearest the scan's native resolution;
    /// `remove_color:` taken out of the scan's pixels as the warp stage does. A sheet of a series
    /// takes its part of the joint fit (its tie pins, as the run's georeference stage does), so a
    /// tied sheet is placed where the run puts it, and one without GCPs (`gcps: none`) at all.
    public func tileJob(for map: MapSpec) throws -> TileJob {
        let step = GeoreferenceStep(
            map: map, folder: workFolder(for: map), digests: FileDigests(stamps: [:]), scans: inputs, tied: series.tied[map.name])
        let source = try step.sourceInMemory(readingPixels: true).removingColor(map.removeColor)
        let output = map.output ?? ""
        return TileStep(options: map.tile, output: output).job(source: source, output: output, maxZoom: map.warp.zoom, of: map)
    }

    /// The files a map's tiles depend on: the pipeline file, the scan, its GCP and mask files;
    /// for a tied sheet also the ties files (`ties_from:`, the found ties) and every tied sheet's
    /// GCP file (the joint fit reads them).
    public func files(of map: MapSpec) -> [String] {
        var files = [file, map.input]
        if case .file(let p) = map.georeference?.gcps { files.append(p) }
        if case .file(let p) = map.georeference?.mask { files.append(p) }
        guard series.tied[map.name] != nil else { return files }
        files += [spec.tiesFrom, spec.autoTies.map { _ in AutoTies.csvPath(work: workFolder) }].compactMap { $0 }
        for m in spec.maps where m.name != map.name && series.tied[m.name] != nil {
            if case .file(let p) = m.georeference?.gcps { files.append(p) }
        }
        return files
    }
}
