import TegulaSupport
import Testing

/// A location is parsed once: http(s) in any case is a URL, everything else a file, and the text
/// stays exactly as given (a relative path is hashed into fit versions and ETags as given).
struct LocationTests {
    @Test func httpAndHttpsInAnyCaseAreURLsAndEverythingElseAFile() {
        for url in ["http://a/b", "https://a/b", "HTTPS://A/B", "Http://x", "https://"] {
            #expect(Location(url) == .url(url), "\(url)")
        }
        for file in ["scan.tif", "scans/a.tif", "./x", "/data/http://x", "http:/a", "httpfoo", "ftp://a/b", "", "s3://b/k", "file:///a"] {
            #expect(Location(file) == .file(file), "\(file)")
        }
    }

    @Test func theTextIsKeptAsGiven() {
        for text in ["scans/../a.tif", "HTTPS://Example.org/Id/info.json", "~/a.tif"] {
            #expect(Location(text).description == text)
        }
        #expect(Location("HTTP://x").isURL && !Location("x").isURL)
    }
}
