import Foundation
import TegulaGDAL
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A CRS named by a URL or a file is refused, never fetched or opened: GDAL 3.6's
/// `OSRSetFromUserInput` GETs any `http://` definition, reads `/vsicurl/` paths and opens any
/// file the text names, so a `#CRS:` line in a stranger's GCP file or `gcp_srs` in an editor
/// request could make Tegula call any host, or hang on a FIFO (URLs found while writing the
/// editor-session fuzz target, confirmed with gdalsrsinfo against a local HTTP server; the file
/// open by the gcp-points campaign: `Fuzz/Crashes/gcp-points/crs-names-a-file`).
struct CRSSourceTests {
    /// A listening loopback socket that nothing should connect to.
    final class Listener {
        let fd: Int32
        let port: Int

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.fd = fd
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            var len = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
            }
            port = Int(UInt16(bigEndian: addr.sin_port))
            guard bound, listen(fd, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        }

        /// Whether a client connected (a pending connection accepted without waiting).
        var wasCalled: Bool {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&p, 1, 200) > 0
        }

        deinit { close(fd) }
    }

    @Test(arguments: [
        "http://127.0.0.1:PORT/crs.wkt", "HTTPS://127.0.0.1:PORT/x", "/vsicurl/http://127.0.0.1:PORT/x.wkt",
        "ftp://127.0.0.1:PORT/crs", "  http://127.0.0.1:PORT/leading-space",
    ])
    func aURLIsRefusedAndNeverFetched(_ template: String) throws {
        let server = try Listener()
        let definition = template.replacingOccurrences(of: "PORT", with: "\(server.port)")
        #expect {
            try CRS(definition)
        } throws: { error in
            "\(error)".contains("; Tegula never reads a CRS from one") && "\(error)".contains("give EPSG:n, a WKT or a PROJ string")
        }
        #expect(!server.wasCalled, "GDAL connected to \(definition)")
    }

    /// A FIFO would block GDAL's open for good, a file would be read: both refused unopened.
    @Test func aFileOrFIFOIsRefusedUnopened() throws {
        let dir = NSTemporaryDirectory() + "tegula-crs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let prj = dir + "/wgs84.prj"
        try CRS.wgs84.wkt.write(toFile: prj, atomically: true, encoding: .utf8)
        for path in [fifo, prj] {
            #expect {
                try CRS(path)
            } throws: { error in
                "\(error)".contains("CRS '\(path)' names a file; Tegula never reads a CRS from one")
            }
        }
    }

    /// The OGC's CRS URLs are resolved from PROJ's database, without the network: still read.
    @Test(arguments: [
        "http://www.opengis.net/def/crs/EPSG/0/28992", "https://www.opengis.net/def/crs/EPSG/0/28992",
        "http://opengis.net/def/crs/EPSG/0/28992",
    ])
    func ogcCRSURLsStillParse(_ url: String) throws {
        #expect(try CRS(url).isSame(as: CRS("EPSG:28992")))
    }

    /// A WKT may hold URLs inside (in a name, WKT2's `URI[...]`); only a definition that *is* a URL is refused.
    @Test func aWKTWithAURLInsideIsRead() throws {
        let wkt = CRS.wgs84.wkt.replacingOccurrences(of: "\"WGS 84\"", with: "\"WGS 84, see http://127.0.0.1:9/x\"")
        #expect(wkt.contains("http://"))
        #expect(try CRS(wkt).isGeographic)
    }
}
