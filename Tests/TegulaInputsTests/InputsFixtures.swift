import Foundation
import TegulaFetch
import TegulaGDAL
import TegulaIIIF
import TegulaInputs
import TegulaSupport
import TegulaTestSupport

/// TegulaInputsTests' fixtures: a 600 × 400 scan published as a level-0 IIIF image
/// (`iiif_static.py`'s files under nginx on loopback, as TegulaIIIFTests serve theirs), and
/// Allmaps annotations of it, written locally or published beside it.
struct InputsFixtures {
    static let width = 600, height = 400

    /// The test's folder (the scan, local annotations, the cache).
    let dir: URL
    let server: LocalHTTPServer
    /// The folder nginx serves at `/iiif/`.
    let files: URL
    /// The image service's id.
    var service: String { server.base + "/iiif/scan" }

    /// A new folder `name` with the scan, and nginx serving it; ``stop()`` ends both.
    static func make(_ name: String) throws -> InputsFixtures {
        let dir = try TemporaryFolder.make(name)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            pixels[i * 3] = UInt8(i % width * 255 / width)
            pixels[i * 3 + 1] = UInt8(i / width * 255 / height)
            pixels[i * 3 + 2] = 128
        }
        let png = try pixels.withUnsafeBufferPointer {
            try Dataset.encode(pixels: $0.baseAddress!, width: width, height: height, bands: 3, driver: "PNG", options: [])
        }
        let scan = dir.appendingPathComponent("scan.png")
        try Data(png).write(to: scan)
        let files = dir.appendingPathComponent("www")
        let server = try LocalHTTPServer.nginx(server: "location /iiif/ { alias \(files.path)/; }") { port in
            try LocalHTTPServer.writeIIIFStatic(scan, identifier: "scan", tile: 256, port: port, into: files)
        }
        return InputsFixtures(dir: dir, server: server, files: files)
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: dir)
    }

    /// An Allmaps Georeference Annotation of `service` with id `…/maps/NAME`, declaring an image
    /// of `width` × `height`, with the scan's four corners near Leiden as its GCPs.
    static func annotation(_ name: String, service: String, width: Int = width, height: Int = height) -> String {
        AllmapsAnnotation.text(
            name: name, service: service, width: width, height: height,
            gcps: AllmapsAnnotation.leiden(width: Self.width, height: Self.height))
    }

    /// An AnnotationPage of `annotations`.
    static func page(_ annotations: [String]) -> String {
        "{\"type\":\"AnnotationPage\",\"items\":[\(annotations.joined(separator: ","))]}"
    }

    /// `text` written as `name` in the test's folder: its path.
    func write(_ text: String, as name: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `text` published beside the image as `name`: its URL.
    func publish(_ text: String, as name: String) throws -> String {
        try text.write(to: files.appendingPathComponent(name), atomically: true, encoding: .utf8)
        return server.base + "/iiif/" + name
    }

    /// A client with its cache in `cache` (none when nil).
    static func client(cache: String? = nil) throws -> IIIFClient {
        var politeness = IIIFPoliteness()
        politeness.userAgent = "tegula/test"
        politeness.timeout = .seconds(20)
        return IIIFClient(transport: URLSessionTransport(), politeness: politeness, cache: try cache.map { try IIIFCache(folder: $0) })
    }

    /// A resolver whose client is made on first use, and how many times it was made.
    static func countingResolver(cache: String? = nil) -> (InputResolver, Locked<Int>) {
        let made = Locked(0)
        let resolver = InputResolver {
            made.withLock { $0 += 1 }
            return try client(cache: cache)
        }
        return (resolver, made)
    }
}
