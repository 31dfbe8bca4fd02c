import TegulaGDAL
import TegulaGeoreference

extension Pipeline {
    /// A GCP-fitted map as the joint fit takes it (``SeriesFit``): its GCPs (file or inline, the
    /// section's mask applied), its scan's size and its fit options. The one way a sheet of a
    /// series is read, for the run's joint fit and for the tie editor (`tegula edit --tie-with`).
    /// A map fitted otherwise (by bounds, or already georeferenced) is a ``PipelineError``.
    public func seriesSheet(_ map: MapSpec) throws -> SeriesSheet {
        guard let g = map.georeference, g.gcps != nil, g.bounds == nil else {
            throw PipelineError(.notGeoreferenced, "map '\(map.name)' is not fitted from GCPs; a tie joins two GCP-fitted maps")
        }
        let step = GeoreferenceStep(map: map, folder: workFolder(for: map), digests: FileDigests(stamps: [:]), scans: inputs)
        let ds = try Dataset(path: map.input)
        return SeriesSheet(
            name: map.name, gcps: try GCPGeoreferencing.gcpSet(g, mask: try step.mask(), step: step),
            width: ds.width, height: ds.height, options: FitOptions(transform: g.transform, fitCRS: g.fitCRS))
    }
}
