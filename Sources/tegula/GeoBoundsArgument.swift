import ArgumentParser
import TegulaGeometry

/// `WEST,SOUTH,EAST,NORTH` in degrees on the command line (`tegula match --reference-bounds`),
/// parsed once into ``GeoBounds``: four numbers, west < east, south < north, latitudes in ±90.
struct GeoBoundsArgument: ExpressibleByArgument, Sendable {
    /// The area, in degrees.
    var bounds: GeoBounds

    init?(argument: String) {
        let v = argument.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard v.count == 4, v.allSatisfy(\.isFinite), v[0] < v[2], v[1] < v[3], v[1] >= -90, v[3] <= 90 else { return nil }
        bounds = GeoBounds(west: v[0], south: v[1], east: v[2], north: v[3])
    }
}
