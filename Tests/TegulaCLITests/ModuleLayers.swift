/// The layers of Tegula's modules, bottom to top (house style 20): a module may import only
/// modules of strictly lower layers, besides other packages' modules and the platform's. A layer's
/// number is its place in `table`, from 0. `LayeringTests` holds every target of Package.swift to
/// it, test targets aside (they stand above everything and may import any module).
///
/// A new module goes into the lowest layer above everything it imports that says what it is; a
/// module that fits no layer's line is a new layer, inserted where its imports put it.
enum ModuleLayers {
    /// One layer: its name, what belongs there, and its modules.
    struct Layer {
        var name: String, holds: String, modules: [String]
    }

    static let table: [Layer] = [
        Layer(
            name: "C libraries", holds: "Debian's C libraries as system-library targets: module maps, inline shims for macros and variadics",
            modules: ["CDeflate", "CGDAL", "CImageQuant", "CLibCrypto", "COpenCV", "CPNG", "CSQLite", "CTurboJPEG", "CWebP"]),
        Layer(
            name: "C code", holds: "our own C and C++: the pixel kernels, the guarded copy out of a mapping, the matching engine",
            modules: ["CKernels", "CMappedRows", "CMatch"]),
        Layer(
            name: "support", holds: "what every layer needs, on Foundation alone",
            modules: ["TegulaSupport"]),
        Layer(
            name: "geometry", holds: "pure Web Mercator math and the values every layer shares",
            modules: ["TegulaGeometry"]),
        Layer(
            name: "C wrappers", holds: "the Swift modules that own the C calls, one per C library family",
            modules: ["TegulaCrypto", "TegulaDeflate", "TegulaGDAL"]),
        Layer(
            name: "formats", holds: "bytes at rest: tile codecs and tilesets",
            modules: ["TegulaTileset", "TegulaCodec"]),
        Layer(
            name: "HTTP", holds: "HTTP that knows no protocol on it: the fetcher and its retry policy, the server core",
            modules: ["TegulaFetch", "TegulaHTTP"]),
        Layer(
            name: "protocols", holds: "protocols on HTTP, no map stage: the IIIF Image API's models and client, MapKit's overlay model",
            modules: ["TegulaIIIF", "TegulaOverlay"]),
        Layer(
            name: "remote tilesets", holds: "tilesets through a protocol: PMTiles by range requests, overlays read from tilesets",
            modules: ["TegulaTilesetOverlay", "TegulaRemote"]),
        Layer(
            name: "georeference", holds: "stage 1: control points, transforms, fits",
            modules: ["TegulaGeoreference"]),
        Layer(
            name: "scan", holds: "a scan's pixels: the ScanReader protocol, readers, decoders, mappings",
            modules: ["TegulaScan"]),
        Layer(
            name: "warp", holds: "stage 2: a scan resampled onto the map",
            modules: ["TegulaWarp"]),
        Layer(
            name: "scan readers", holds: "what reads scans from above: stage 3 (the pyramid), matching, an IIIF image as a scan",
            modules: ["TegulaIIIFSource", "TegulaMatch", "TegulaPyramid"]),
        Layer(
            name: "inputs", holds: "inputs opened by a value: the input resolver (its IIIF client, the images it opened), annotations looked through",
            modules: ["TegulaInputs"]),
        Layer(
            name: "image server", holds: "the IIIF Image API served on the HTTP core",
            modules: ["TegulaIIIFServer"]),
        Layer(
            name: "tile server", holds: "`tegula serve`: catalogues of tilesets, the viewer, the hook for tiles made on request",
            modules: ["TegulaServer"]),
        Layer(
            name: "composite", holds: "a collection of maps blended into one pyramid",
            modules: ["TegulaComposite"]),
        Layer(
            name: "cluster", holds: "a composite cut among machines: shards and their plan, tile packs, the reduce",
            modules: ["TegulaCluster"]),
        Layer(
            name: "pipeline", holds: "`tegula run`: pipeline files, their stages and the runner",
            modules: ["TegulaPipeline"]),
        Layer(
            name: "on demand", holds: "tiles rendered per request behind the tile server's hook",
            modules: ["TegulaOnDemand"]),
        Layer(
            name: "editor", holds: "`tegula edit`: sessions, fits, saves, their pages and API",
            modules: ["TegulaEditor"]),
        Layer(
            name: "entry points", holds: "what no module imports: the executables, the tests' shared fixtures",
            modules: ["TegulaTestSupport", "tegula", "tegula-encode-floor"]),
    ]

    /// A module's layer and its number, or nil for a module of no layer (another package's, the platform's).
    static func layer(of module: String) -> (number: Int, layer: Layer)? {
        table.enumerated().first { $0.element.modules.contains(module) }.map { ($0.offset, $0.element) }
    }

    /// How a layer is named in a failure: `layer 5 (formats)`.
    static func describe(_ number: Int) -> String { "layer \(number) (\(table[number].name))" }
}
