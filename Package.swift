// swift-tools-version:6.1
// Tegula: scanned paper maps to web map tiles.
import PackageDescription

// Every target declares exactly the modules it imports (DeclaredDependencyTests), and none
// carries unsafe flags: an app must be able to depend on Tegula's products by version
// (scripts/check-as-dependency).
let package = Package(
    name: "Tegula",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "tegula", targets: ["tegula"]),
        .library(name: "TegulaGeometry", targets: ["TegulaGeometry"]),
        .library(name: "TegulaOverlay", targets: ["TegulaOverlay"]),
        .library(name: "TegulaTilesetOverlay", targets: ["TegulaTilesetOverlay"]),
        // The HTTP client under TegulaOverlay's loader, for an app that injects its own transport.
        .library(name: "TegulaFetch", targets: ["TegulaFetch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // Pinned with `exact:`: TegulaHTTP's ServerChannel leans on these three beyond their public API.
        // It finds Hummingbird's HTTP/1 pipeline as HTTP1Channel lays it out (NIO's
        // configureHTTPServerPipeline, then swift-nio-extras' HTTP1ToHTTPServerCodec, looked up by
        // type) and puts its own handlers between NIO's decoder and that codec: the fast path answers
        // requests Hummingbird never sees, under NIO's pipelining handler, and the connection guard
        // reads the decoder's `headerOverflow` for over-long targets and headers alike. A new release
        // may change any of this without a compile error, so move a pin only with the server suites
        // (TegulaServerTests, ServeConnectionTests) and scripts/bench-serve run on the new version.
        // (Package.resolved stays out of git: these machines' package copies have their own commits.)
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // A command plugin only (`swift package generate-documentation`, scripts/check-docs): no target
        // depends on it, so `swift build` never builds it and apps depending on Tegula never fetch it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C layer 1: system libraries with shims for macros and variadics.
        .systemLibrary(name: "CGDAL", pkgConfig: "gdal", providers: [.apt(["libgdal-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CImageQuant", pkgConfig: "imagequant", providers: [.apt(["libimagequant-dev"])]),
        // SHA-256 for the stages' content hashes: OpenSSL's libcrypto, which libgdal already loads.
        // (swift-crypto did it before, compiling its own copy of BoringSSL: 366 C files, about
        // 150 s of each fresh build on two cores.)
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // OpenCV (Debian's libopencv-dev, 4.6) for the matching engine: the five modules it uses,
        // named by the module map's `link` lines; pkg-config's `opencv4` would link all ~60.
        .systemLibrary(name: "COpenCV"),

        // The support every layer needs (lock, thread pool, atomic write, little-endian bytes, the
        // one error shape, named values) on Foundation alone, and pure geometry on it: under everything.
        // The built-in tile matrix sets (morecantile's OGC documents, MIT; TileMatrixSets/README.md),
        // compiled in as byte arrays like the viewer's pages.
        .target(
            name: "TegulaGeometry", dependencies: ["TegulaSupport"],
            exclude: ["TileMatrixSets/README.md", "TileMatrixSets/LICENSE-morecantile"],
            resources: [
                .embedInCode("TileMatrixSets/CDB1GlobalGrid.json"), .embedInCode("TileMatrixSets/CanadianNAD83_LCC.json"),
                .embedInCode("TileMatrixSets/EuropeanETRS89_LAEAQuad.json"),
                .embedInCode("TileMatrixSets/GNOSISGlobalGrid.json"), .embedInCode("TileMatrixSets/LINZAntarticaMapTilegrid.json"),
                .embedInCode("TileMatrixSets/NZTM2000Quad.json"),
                .embedInCode("TileMatrixSets/UPSAntarcticWGS84Quad.json"), .embedInCode("TileMatrixSets/UPSArcticWGS84Quad.json"),
                .embedInCode("TileMatrixSets/UTM31WGS84Quad.json"),
                .embedInCode("TileMatrixSets/WGS1984Quad.json"), .embedInCode("TileMatrixSets/WebMercatorQuad.json"),
                .embedInCode("TileMatrixSets/WorldCRS84Quad.json"),
                .embedInCode("TileMatrixSets/WorldMercatorWGS84Quad.json"),
            ]),
        .target(name: "TegulaSupport"),
        // The one HTTP client stack, on Foundation's URLSession (libcurl on Linux) and TegulaSupport
        // alone: a fetcher with an injected transport and a retry policy, one transport failure.
        .target(name: "TegulaFetch", dependencies: ["TegulaSupport"]),

        // C layer 2: the Swift wrappers that own the C calls, one per C library family.
        // The copy out of a file mapping, guarded against SIGBUS (a file cut short under it):
        // beside the mapping, TegulaGDAL's VirtualMemory, which alone calls the guarded copy;
        // TegulaWarp's DecodedScan widens decoded blocks with its unguarded twin.
        .target(name: "CMappedRows"),
        .target(name: "TegulaGDAL", dependencies: ["CGDAL", "CMappedRows"]),
        // libdeflate (gzip, zlib streams, CRC-32), under the image codecs and the bundles alike.
        .target(name: "TegulaDeflate", dependencies: ["CDeflate", "TegulaSupport"]),
        .target(
            name: "TegulaCodec",
            dependencies: [
                "CKernels", "CPNG", "CTurboJPEG", "CWebP", "CImageQuant", "TegulaDeflate", "TegulaSupport",
            ]),
        // Tilesets (folders, MBTiles through SQLite, PMTiles over byte sources): no image codec.
        .target(name: "TegulaTileset", dependencies: ["CSQLite", "TegulaDeflate", "TegulaGeometry", "TegulaSupport"]),
        // SHA-256 through libcrypto: the content hash of the stages' manifests and the cluster's
        // packs (TegulaSupport's FNV1a is the non-cryptographic one, on Foundation alone).
        .target(name: "TegulaCrypto", dependencies: ["CLibCrypto"]),

        // The matching engine in C++ over OpenCV (SIFT, MAGSAC++, template correlation) behind a C
        // header; its headers through the `opencv4` link to /usr/include/opencv4 (no unsafe flags).
        .target(name: "CMatch", exclude: ["opencv4"], cxxSettings: [.headerSearchPath("opencv4")]),
        // Pipeline stages, each its own module; a stage never imports a later one.
        .target(name: "TegulaGeoreference", dependencies: ["TegulaGDAL", "TegulaGeometry", "TegulaSupport"]),
        // The pyramid's hot pixel loops (the bilinear warp row, halving) in C, for their SSE2 lanes.
        .target(name: "CKernels"),
        // A scan's pixels read as RGBA windows wherever they live: the `ScanReader` protocol, GDAL
        // files, their mapped rows and decoded TIFF blocks, reduced copies, paper colour removal.
        .target(name: "TegulaScan", dependencies: ["CKernels", "CMappedRows", "TegulaDeflate", "TegulaGDAL", "TegulaSupport"]),
        .target(name: "TegulaWarp", dependencies: ["CKernels", "TegulaScan", "TegulaGeoreference", "TegulaGDAL", "TegulaGeometry", "TegulaSupport"]),
        .target(
            name: "TegulaPyramid",
            dependencies: [
                "CKernels", "TegulaScan", "TegulaWarp", "TegulaCodec", "TegulaTileset", "TegulaGDAL", "TegulaGeometry", "TegulaSupport",
            ]),
        // Control points proposed by matching a scan against a georeferenced reference (`tegula match`):
        // an image with a geotransform or GCPs, or a tileset read at one zoom.
        .target(
            name: "TegulaMatch",
            dependencies: [
                "CMatch", "COpenCV", "TegulaScan", "TegulaWarp", "TegulaGeoreference", "TegulaGDAL", "TegulaTileset", "TegulaCodec",
                "TegulaGeometry", "TegulaSupport",
            ]),
        // MapKit's tile-overlay model on URL templates: no image codec, no SQLite
        // (scripts/check-as-dependency checks the probe app's ldd).
        .target(name: "TegulaOverlay", dependencies: ["TegulaFetch", "TegulaGeometry", "TegulaSupport"]),
        // Overlays that need Tegula's bundles and codecs: a tileset read in place, overzoom decoding.
        .target(name: "TegulaTilesetOverlay", dependencies: ["TegulaOverlay", "TegulaTileset", "TegulaCodec", "TegulaGeometry"]),
        // Tilesets read by HTTP range requests (S3 and S3-compatible stores, nginx): the transport
        // under TegulaTileset's PMTiles reader, below the server (which serves a remote file with it).
        .target(name: "TegulaRemote", dependencies: ["TegulaTileset", "TegulaFetch", "TegulaSupport"]),
        // The IIIF Image API (2.1, 3.0): info.json and request models, and a polite, caching client
        // that fetches only what a server can answer. Under the server (which serves the same
        // models), so it imports no later stage.
        .target(name: "TegulaIIIF", dependencies: ["TegulaFetch", "TegulaSupport"]),
        // An IIIF image read as a scan: windows at the server's scale factors, only the tiles a
        // window touches, decoded once (TegulaScan's ScanReader over TegulaIIIF's client).
        .target(name: "TegulaIIIFSource", dependencies: ["TegulaIIIF", "TegulaScan", "TegulaCodec", "TegulaSupport"]),
        // Inputs opened by a value: the input resolver a program makes once at its edge (its IIIF
        // client, each image opened once), Georeference Annotations looked through to their image,
        // match references opened (tilesets by URL through its fetcher, an annotation's IIIF image).
        .target(
            name: "TegulaInputs",
            dependencies: [
                "TegulaIIIF", "TegulaIIIFSource", "TegulaGeoreference", "TegulaScan", "TegulaSupport",
                "TegulaTileset", "TegulaFetch", "TegulaGeometry", "TegulaMatch", "TegulaWarp",
            ]),
        // The HTTP core under every server (tiles, IIIF images, the editor): typed requests and
        // responses, the one target parser, errors that carry their status, and the Hummingbird
        // adapter with its connection guard and event-loop fast path, the route table and the one
        // tile-path parser (so the Web Mercator grid's limits). No tileset.
        .target(
            name: "TegulaHTTP",
            dependencies: [
                "TegulaGeometry", "TegulaSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The IIIF Image API 3.0 server on the HTTP core: rasters by id, no tile catalogue (served
        // by `tegula serve` under /iiif/ and by the editor's scan pane).
        .target(
            name: "TegulaIIIFServer",
            dependencies: [
                "TegulaTileset", "TegulaHTTP", "TegulaIIIF", "TegulaSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // `tegula serve`: the tile catalogue and its service on the HTTP core, the viewer, metrics.
        .target(
            name: "TegulaServer",
            dependencies: [
                "TegulaTileset", "TegulaGeometry", "TegulaHTTP", "TegulaIIIFServer", "TegulaRemote", "TegulaSupport",
                // The viewer's projection of a tileset in another tile matrix set (ViewerGrid: PROJ's
                // transformation sampled by GeographicGrid).
                "TegulaGeoreference",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [
                // The viewer's page, style and script, compiled into the module as byte arrays
                // (`PackageResources.viewer_html`, …): no resource bundle beside the binary.
                .embedInCode("Pages/viewer.html"), .embedInCode("Pages/viewer.css"), .embedInCode("Pages/viewer.js"),
                .embedInCode("Pages/viewer-crs.js"),
            ]),
        // A collection of maps as one: blended into one pyramid, block by block, from every map
        // that reaches each block.
        .target(
            name: "TegulaComposite",
            dependencies: [
                "TegulaPyramid", "TegulaWarp", "TegulaCodec", "TegulaTileset", "TegulaGeometry", "TegulaSupport",
            ]),
        // A collection run on a cluster: the shards (`--shard I/N`, array engines) and their plan,
        // each shard's part of the composite in tile packs, the reduce into one tileset.
        .target(
            name: "TegulaCluster",
            dependencies: [
                "TegulaComposite", "TegulaPyramid", "TegulaCrypto", "TegulaTileset", "TegulaGeometry", "TegulaSupport",
            ]),
        // The pipeline file (document, specs, strict decoding), its stages and the runner.
        .target(
            name: "TegulaPipeline",
            dependencies: [
                "TegulaCluster", "TegulaComposite", "TegulaCrypto", "TegulaGeoreference", "TegulaInputs", "TegulaMatch", "TegulaScan", "TegulaWarp",
                "TegulaPyramid",
                "TegulaTileset", "TegulaGDAL", "TegulaGeometry", "TegulaSupport", .product(name: "Yams", package: "Yams"),
            ]),
        // Tiles on demand: scans and pipeline maps rendered per request behind the server's
        // DynamicTileSource (the server module itself links no GDAL).
        .target(
            name: "TegulaOnDemand",
            dependencies: [
                "TegulaServer", "TegulaIIIFServer", "TegulaInputs", "TegulaPipeline", "TegulaPyramid", "TegulaScan", "TegulaWarp",
                "TegulaGeoreference",
                "TegulaTileset", "TegulaCodec", "TegulaGDAL", "TegulaGeometry", "TegulaSupport",
            ]),

        // The georeferencing editor (`tegula edit`): a session model, its fit and save formats, and
        // the page and API served beside on-demand overlay tiles.
        .target(
            name: "TegulaEditor",
            dependencies: [
                "TegulaOnDemand", "TegulaServer", "TegulaHTTP", "TegulaIIIFServer", "TegulaPipeline", "TegulaGeoreference", "TegulaScan",
                "TegulaWarp", "TegulaPyramid", "TegulaTileset", "TegulaCodec",
                "TegulaMatch",
                "TegulaGDAL", "TegulaGeometry", "TegulaSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"), .product(name: "Yams", package: "Yams"),
            ],
            resources: [
                // The editor's pages, styles and scripts, compiled in like the viewer's: GCPs on one
                // scan, ties between two sheets of a pipeline, and the scan pane's IIIF tiles both use.
                .embedInCode("Pages/editor.html"), .embedInCode("Pages/editor.css"), .embedInCode("Pages/editor.js"),
                .embedInCode("Pages/ties.html"), .embedInCode("Pages/ties.css"), .embedInCode("Pages/ties.js"),
                .embedInCode("Pages/scan-tiles.js"), .embedInCode("Pages/editing.js"),
            ]),

        // The thin CLI on top.
        .executableTarget(
            name: "tegula",
            dependencies: [
                "TegulaGeometry", "TegulaGDAL", "TegulaGeoreference", "TegulaScan", "TegulaWarp", "TegulaPyramid",
                "TegulaTileset", "TegulaHTTP", "TegulaServer", "TegulaPipeline", "TegulaCluster", "TegulaSupport", "TegulaOnDemand", "TegulaRemote",
                "TegulaEditor", "TegulaFetch", "TegulaIIIF", "TegulaIIIFServer", "TegulaIIIFSource", "TegulaInputs", "TegulaMatch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // scripts/bench's encode floor: a folder's PNG tiles encoded alone at libdeflate level 1.
        .executableTarget(name: "tegula-encode-floor", dependencies: ["TegulaCodec"]),

        // Fixtures more than one test suite writes.
        .target(
            name: "TegulaTestSupport",
            dependencies: [
                "TegulaGDAL", "TegulaSupport", "TegulaTileset", "TegulaCrypto", "TegulaHTTP",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ], path: "Tests/TegulaTestSupport"),

        // TegulaTestSupport for its ProgramRun and SeededRandom: morecantile is the tile matrix sets' oracle.
        .testTarget(name: "TegulaGeometryTests", dependencies: ["TegulaGeometry", "TegulaTestSupport"]),
        .testTarget(name: "TegulaSupportTests", dependencies: ["TegulaSupport"]),
        // The fetcher and its retry policy against nginx on loopback (503 and 429 with Retry-After,
        // a trickle, redirects), a refused port and a name that does not resolve.
        .testTarget(name: "TegulaFetchTests", dependencies: ["TegulaFetch", "TegulaSupport", "TegulaTestSupport"]),
        .testTarget(name: "TegulaGDALTests", dependencies: ["TegulaGDAL", "TegulaTestSupport"]),
        .testTarget(
            name: "TegulaCodecTests",
            dependencies: [
                "TegulaCodec", "TegulaDeflate", "TegulaGDAL", "TegulaSupport", "TegulaTestSupport",
            ]),
        .testTarget(
            name: "TegulaTilesetTests",
            dependencies: [
                "TegulaTileset", "TegulaCodec", "TegulaDeflate", "TegulaGeometry", "TegulaSupport", "TegulaTestSupport",
            ]),
        .testTarget(
            name: "TegulaGeoreferenceTests",
            dependencies: [
                "TegulaGeoreference", "TegulaGDAL", "TegulaGeometry", "TegulaSupport", "TegulaTestSupport",
            ]),
        .testTarget(
            name: "TegulaScanTests",
            dependencies: [
                "TegulaScan", "TegulaGDAL", "TegulaSupport", "TegulaTestSupport",
            ]),
        .testTarget(
            name: "TegulaWarpTests",
            dependencies: [
                "CKernels", "TegulaWarp", "TegulaGeoreference", "TegulaGDAL", "TegulaGeometry", "TegulaSupport", "TegulaTestSupport",
            ]),
        .testTarget(
            name: "TegulaPyramidTests",
            dependencies: [
                "TegulaPyramid", "TegulaWarp", "TegulaGeoreference", "TegulaTileset", "TegulaCodec", "TegulaGDAL", "TegulaGeometry",
                "TegulaSupport", "TegulaTestSupport",
            ]),
        // Overlay tests load tilesets made by the pyramid stage and served by the server stage.
        .testTarget(
            name: "TegulaOverlayTests",
            dependencies: [
                "TegulaOverlay", "TegulaTilesetOverlay", "TegulaTileset", "TegulaCodec", "TegulaGeometry", "TegulaPyramid", "TegulaWarp",
                "TegulaGDAL",
                "TegulaServer", "TegulaSupport", "TegulaTestSupport",
            ]),
        .testTarget(
            name: "TegulaOnDemandTests",
            dependencies: [
                "TegulaOnDemand", "TegulaServer", "TegulaHTTP", "TegulaIIIFServer", "TegulaPyramid", "TegulaTileset", "TegulaCodec", "TegulaGDAL",
                "TegulaGeometry", "TegulaSupport", "TegulaTestSupport", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        .testTarget(
            name: "TegulaServerTests",
            dependencies: [
                "TegulaServer", "TegulaHTTP", "TegulaTileset", "TegulaGeometry", "TegulaTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "TegulaPipelineTests",
            dependencies: [
                "TegulaPipeline", "TegulaCluster", "TegulaComposite", "TegulaCrypto", "TegulaMatch", "TegulaPyramid", "TegulaWarp",
                "TegulaGeoreference", "TegulaTileset",
                "TegulaCodec", "TegulaGDAL", "TegulaGeometry", "TegulaSupport", "TegulaTestSupport",
            ]),
        // Remote PMTiles against real servers started by the tests: moto's S3 and nginx.
        .testTarget(
            name: "TegulaRemoteTests",
            dependencies: [
                "TegulaRemote", "TegulaTileset", "TegulaFetch", "TegulaGeometry", "TegulaServer", "TegulaTestSupport",
            ]),
        // The IIIF client against real servers started by the tests: iiif_static.py's files under
        // nginx (level 0, and behind a 429 front), iiif_testserver.py (level 1).
        .testTarget(
            name: "TegulaIIIFTests",
            dependencies: [
                "TegulaIIIF", "TegulaFetch", "TegulaGDAL", "TegulaSupport", "TegulaTestSupport",
            ]),
        // The input resolver against real IIIF servers on loopback, as TegulaIIIFTests: an
        // annotation looked through to its image and GCPs, a map chosen, a re-scanned image refused.
        .testTarget(
            name: "TegulaInputsTests",
            dependencies: [
                "TegulaInputs", "TegulaIIIF", "TegulaFetch", "TegulaGeoreference", "TegulaScan", "TegulaGDAL", "TegulaSupport", "TegulaTestSupport",
            ]),
        .testTarget(
            name: "TegulaEditorTests",
            dependencies: [
                "TegulaEditor", "TegulaPipeline", "TegulaOnDemand", "TegulaServer", "TegulaHTTP", "TegulaIIIFServer", "TegulaGeoreference",
                "TegulaWarp", "TegulaPyramid", "TegulaGDAL",
                "TegulaTileset", "TegulaGeometry", "TegulaTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        .testTarget(
            name: "TegulaMatchTests",
            dependencies: [
                "TegulaMatch", "TegulaScan", "TegulaWarp", "TegulaGeoreference", "TegulaTileset", "TegulaCodec", "TegulaGeometry",
                "TegulaTestSupport",
            ]),
        // Runs the built `tegula` executable (`swift test` builds it) and other programs.
        .testTarget(name: "TegulaCLITests", dependencies: ["TegulaTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
