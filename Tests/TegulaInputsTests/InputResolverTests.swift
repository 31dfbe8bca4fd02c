import Foundation
import TegulaGeoreference
import TegulaInputs
import TegulaScan
import TegulaSupport
import TegulaTestSupport
import Testing

/// The input resolver against a real level-0 IIIF server on loopback: annotations (a file, a URL,
/// a page) looked through to their image and GCPs, a map chosen, a re-scanned image refused, each
/// image opened once per resolver; a local scan left as given, and no client made for it.
@Suite(.timeLimit(.minutes(20)), .serialized)
struct InputResolverTests {
    /// A local annotation becomes its target's image (opened, its size from info.json) with itself
    /// as the GCP file; the image is opened once for the resolver, and a second resolver opens its own.
    @Test func aLocalAnnotationBecomesItsImageWithItselfAsTheGCPs() async throws {
        let f = try InputsFixtures.make("inputs-annotation")
        defer { f.stop() }
        let annotation = try f.write(InputsFixtures.annotation("leiden", service: f.service), as: "leiden.json")
        let (resolver, made) = InputsFixtures.countingResolver()
        let r = try await resolver.resolve(annotation, gcps: nil, mapID: nil)
        #expect(r.scan == f.service && r.gcps == annotation)
        let image = try #require(r.image)
        #expect(image.name == f.service && image.width == InputsFixtures.width && image.height == InputsFixtures.height)
        #expect(try GCPReader.read(path: annotation).gcps.count == 4)
        #expect(try await resolver.open(url: f.service) === image, "opened again by the same resolver")
        #expect(try resolver.open(Location(f.service)).remote === image)
        #expect(made.current == 1)
        let other = try await InputResolver(client: InputsFixtures.client()).open(url: f.service)
        #expect(other !== image, "a second resolver shares nothing with the first")
    }

    /// An annotation by URL is fetched, saved in the cache folder's `annotations/` under the URL's
    /// digest, and looked through like a file.
    @Test func anAnnotationByURLIsSavedInTheCacheAndLookedThrough() throws {
        let f = try InputsFixtures.make("inputs-url")
        defer { f.stop() }
        let text = InputsFixtures.annotation("leiden", service: f.service)
        let url = try f.publish(text, as: "leiden.json")
        let cache = f.dir.appendingPathComponent("cache").path
        let (resolver, _) = InputsFixtures.countingResolver(cache: cache)
        let r = try resolver.resolveBlocking(url, gcps: nil, mapID: nil)
        let saved = cache + "/annotations/" + FNV1a.hex(url) + ".json"
        #expect(r.scan == f.service && r.gcps == saved)
        #expect(try String(contentsOfFile: saved, encoding: .utf8) == text)
        #expect(try resolver.document(url) == saved)
        // The image's own URL is no annotation: it is opened as the scan, with no GCPs.
        let image = try resolver.resolveBlocking(f.service, gcps: nil, mapID: nil)
        #expect(image.scan == f.service && image.gcps == nil && image.image?.width == InputsFixtures.width)
    }

    /// An annotation made on an image of another size is refused in one line naming both sizes,
    /// given as the input or beside the image's URL; the right size passes beside the URL.
    @Test func anAnnotationOfAnotherSizeIsRefusedInOneLine() throws {
        let f = try InputsFixtures.make("inputs-size")
        defer { f.stop() }
        let wrong = try f.write(InputsFixtures.annotation("leiden", service: f.service, width: 600, height: 450), as: "wrong.json")
        let right = try f.write(InputsFixtures.annotation("leiden", service: f.service), as: "right.json")
        let resolver = InputResolver(client: try InputsFixtures.client())
        let line =
            "\(wrong): georeferenced on an image of 600 × 450 pixels, but \(f.service)/info.json describes 600 × 400 "
            + "(re-scanned?); georeference the image again, or give the scan it was made on"
        for (input, gcps) in [(wrong, nil), (f.service, wrong)] as [(String, String?)] {
            let e = #expect(throws: InputError.self) { try resolver.resolveBlocking(input, gcps: gcps, mapID: nil) }
            #expect(e?.reason == .sizeMismatch && e?.description == line, "\(String(describing: e))")
        }
        let r = try resolver.resolveBlocking(f.service, gcps: right, mapID: nil)
        #expect(r.scan == f.service && r.gcps == right)
    }

    /// A page of several maps needs one chosen, by its id or the id's last part; the chosen map's
    /// size is the one checked; a map not on the page is refused naming those that are.
    @Test func aMapOfAPageIsChosenByItsIdOrItsLastPart() throws {
        let f = try InputsFixtures.make("inputs-page")
        defer { f.stop() }
        let page = try f.write(
            InputsFixtures.page([
                InputsFixtures.annotation("north", service: f.service),
                InputsFixtures.annotation("south", service: f.service, width: 300, height: 200),
            ]),
            as: "page.json")
        let resolver = InputResolver(client: try InputsFixtures.client())
        let unchosen = #expect(throws: InputError.self) { try resolver.resolveBlocking(page, gcps: nil, mapID: nil) }
        #expect(unchosen?.reason == .mapNotChosen && unchosen?.description == "\(page): 2 maps (north, south); choose one with --map ID")
        for id in ["north", "https://annotations.example.org/maps/north"] {
            let r = try resolver.resolveBlocking(page, gcps: nil, mapID: id)
            #expect(r.scan == f.service && r.gcps == page)
        }
        let south = #expect(throws: InputError.self) { try resolver.resolveBlocking(page, gcps: nil, mapID: "south") }
        #expect(south?.reason == .sizeMismatch && south?.description.contains("image of 300 × 200 pixels") == true)
        let missing = #expect(throws: InputError.self) { try resolver.resolveBlocking(page, gcps: nil, mapID: "west") }
        #expect(
            missing?.reason == .noSuchMap
                && missing?.description
                    == "\(page): no map 'west'; it holds https://annotations.example.org/maps/north, https://annotations.example.org/maps/south"
        )
    }

    /// A local scan stays exactly as given (a relative path too) and makes no client; a resolver
    /// without a client refuses a URL with the one line a program reading no remote scans gives;
    /// an annotation whose target is no image service is refused naming the way to give its scan.
    @Test func aLocalScanStaysAsGivenAndAURLNeedsAClient() throws {
        let (resolver, made) = InputsFixtures.countingResolver()
        for scan in ["scans/a.tif", "/data/b.tif"] {
            let r = try resolver.resolveBlocking(scan, gcps: "gcps/a.points", mapID: nil)
            #expect(r.scan == scan && r.gcps == "gcps/a.points" && r.image == nil)
            #expect(try resolver.open(scan).path == scan && resolver.open(scan).remote == nil)
        }
        let url = "HTTPS://iiif.example.org/image/1"
        let line = "\(url): a URL, but this program reads no remote scans; give a local file"
        for refusing in [InputResolver() as any ScanOpener, LocalScans()] {
            let e = #expect(throws: ScanError.self) { try refusing.open(url) }
            #expect(e?.description == line)
        }
        let e = #expect(throws: ScanError.self) { try InputResolver().resolveBlocking(url, gcps: "a.json", mapID: nil) }
        #expect(e?.description == line)
        let dir = try TemporaryFolder.make("inputs-local")
        defer { try? FileManager.default.removeItem(at: dir) }
        let annotation = dir.appendingPathComponent("photo.json").path
        try InputsFixtures.annotation("photo", service: "https://example.org/photo.jpg").replacingOccurrences(of: "ImageService2", with: "Image")
            .write(toFile: annotation, atomically: true, encoding: .utf8)
        let noService = #expect(throws: InputError.self) { try resolver.resolveBlocking(annotation, gcps: nil, mapID: nil) }
        #expect(
            noService?.reason == .noImageService
                && noService?.description
                    == "\(annotation): the annotation's target is no IIIF image service; give the scan itself: SCAN --gcps \(annotation)"
        )
        #expect(made.current == 0, "a client was made for local inputs")
    }
}
