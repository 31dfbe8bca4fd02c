import Foundation
import TegulaGeometry

/// The footprint file `tegula georef --footprint` writes beside its output: where, and how the
/// outline's edges are refined; written by ``GeoreferenceWriter`` with the rest, all or nothing.
public struct FootprintOutput: Sendable, Hashable {
    /// Where the GeoJSON goes.
    public var path: String
    /// How the edges are refined (Allmaps' settings by default).
    public var refinement: EdgeRefinement

    /// An output at `path` refined by `refinement`.
    public init(path: String, refinement: EdgeRefinement = .allmaps) {
        self.path = path
        self.refinement = refinement
    }

    /// The file's bytes: the footprint of `g` (``Georeference/footprint(_:)``) as a GeoJSON Feature.
    func file(_ g: Georeference) throws -> (path: String, data: Data) {
        (path, try FitFootprint.geoJSON(try g.footprint(refinement), refinement: refinement))
    }
}
