import TegulaGeometry
import TegulaSupport

/// What a plan knows of every map without reading a pixel: its footprint in EPSG:3857 (and in
/// the composite's tile matrix set's CRS when that is another), its warp zoom and the size of
/// its warp. Surveying a map reads its GCP and mask files and its
/// scan's header (size), fits the GCPs in memory, and nothing more: no scan's pixels, no hash
/// of a scan's bytes. Every shard surveys the whole collection and gets the same answer.
package struct CollectionSurvey: Sendable {
    /// One map.
    package struct Entry: Sendable {
        /// The footprint's box, clipped to the Web Mercator square; nil when the map cannot be planned.
        package var bounds: ProjectedBounds?
        /// The warp zoom (`warp.zoom`, the tile or composite max zoom, else auto).
        package var warpZoom: Int?
        /// Pixels of the warp at that zoom (0 when unknown).
        package var warpPixels: Int
        /// Why the map cannot be planned.
        package var error: String?
        /// For a composite in another tile matrix set: the footprint's box in the set's CRS,
        /// within its extent (nil when it reaches none of it), and the set's zoom nearest the
        /// scan's resolution (``WarpSource/nearestZoom(in:within:)``); nil in WebMercatorQuad.
        package var gridBounds: ProjectedBounds?
        package var gridZoom: Int?

        /// A map that can be planned; `grid` its box and zoom in a composite's other set.
        package init(bounds: ProjectedBounds, warpZoom: Int, warpPixels: Int, grid: (bounds: ProjectedBounds?, zoom: Int?)? = nil) {
            self.bounds = bounds
            self.warpZoom = warpZoom
            self.warpPixels = warpPixels
            gridBounds = grid?.bounds
            gridZoom = grid?.zoom
        }

        /// A map that cannot be planned, and why.
        package init(error: String) {
            warpPixels = 0
            self.error = error
        }
    }

    /// One entry per map, in file order.
    package let entries: [Entry]

    /// Survey `count` maps on `jobs` threads; `survey` looks at one map by index.
    package init(count: Int, jobs: Int, survey: @escaping @Sendable (Int) -> Entry) {
        let out = Locked([Entry](repeating: Entry(error: "not surveyed"), count: count))
        // Errors are per map; ParallelWork itself never fails here.
        try? ParallelWork.run(
            jobs: jobs, count: count, makeState: { _ in () },
            process: { _, i in
                let e = survey(i)
                out.withLock { $0[i] = e }
            })
        entries = out.withLock { $0 }
    }

    /// The maps that cannot be planned: index and why.
    package var failures: [(index: Int, message: String)] {
        entries.enumerated().compactMap { i, e in e.error.map { (i, $0) } }
    }
}
