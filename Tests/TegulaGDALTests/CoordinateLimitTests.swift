import TegulaGDAL
import Testing

/// GDAL 3.6 converts Web Mercator to WGS 84 one longitude turn at a time (find 7): points beyond
/// ``CoordinateTransformation/coordinateLimit`` fail without reaching PROJ.
struct CoordinateLimitTests {
    /// A coordinate of 3e16 m took GDAL 1.2 s; it now fails at once, and points up to the limit
    /// convert as before.
    @Test func aCoordinateBeyondTheLimitFailsWithoutPROJ() throws {
        let ct = try CoordinateTransformation(from: .webMercator(), to: .wgs84())
        let edge = try #require(ct.transform(20037508.342789244, 0))
        #expect(abs(edge.x - 180) < 1e-9 && abs(edge.y) < 1e-9)
        #expect(ct.transform(CoordinateTransformation.coordinateLimit, 0) != nil)
        var x = [3e16, 1e6, -.infinity], y = [0.0, 1e6, 0]
        #expect(ct.transform(x: &x, y: &y) == [false, true, false])
        #expect(x[0] == .infinity && x[1].isFinite && abs(x[1] - 8.983152841195214) < 1e-9)
    }
}
