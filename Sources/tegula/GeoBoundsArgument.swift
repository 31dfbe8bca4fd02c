import ArgumentParser
import TegulaGeometry

/// `WEST,SOUTH,EAST,NORTH` in degrees on the command line (`tegula match --reference-bounds`),
/// parsed once into ``GeoBounds``: four numbers, west < east, south < north, latitudes in ±90.
struct GeoBoundsArgument: ExpressibleByArgument, Sendable {
    /// The area, in degrees.
    var bounds: GeoBounds

    init?(argument: String) {
        let v = argument.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard let b = GeoBounds(validating: v) else { return nil }
        bounds = b
    }
}
