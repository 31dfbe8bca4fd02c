// swift-tools-version:6.1
// Tegula: scanned paper maps to web map tiles.
import PackageDescription

/// The pixel loops are optimised even in debug builds, so the test suite's real warps and
/// pyramids run in seconds rather than minutes.
let hot: [SwiftSetting] = [.unsafeFlags(["-O"])]

let package = Package(
    name: "Tegula",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "tegula", targets: ["tegula"]),
        .library(name: "TegulaGeometry", targets: ["TegulaGeometry"]),
        .library(name: "TegulaOverlay", targets: ["TegulaOverlay"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // 3.12.3 or any 4.x: async-http-client's graph already resolves swift-crypto 4.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // C layer 1: system libraries with shims for macros and variadics.
        .systemLibrary(name: "CGDAL", pkgConfig: "gdal", providers: [.apt(["libgdal-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // Pure geometry and the support every layer needs (lock, thread pool, atomic write,
        // little-endian bytes), under everything.
        .target(name: "TegulaGeometry"),
        .target(name: "TegulaSupport"),

        // C layer 2: the Swift wrappers that own the C calls, one per C library family.
        .target(name: "TegulaGDAL", dependencies: ["CGDAL", "TegulaGeometry"]),
        .target(name: "TegulaCodec", dependencies: ["CPNG", "CDeflate", "TegulaGeometry"], swiftSettings: hot),
        .target(name: "TegulaBundle", dependencies: ["CSQLite", "TegulaCodec", "TegulaGeometry", "TegulaSupport"]),

        // Pipeline stages, each its own module; a stage never imports a later one.
        .target(name: "TegulaGeoreference", dependencies: ["TegulaGDAL", "TegulaGeometry", "TegulaSupport"], swiftSettings: hot),
        .target(name: "TegulaWarp", dependencies: ["TegulaGeoreference", "TegulaGDAL", "TegulaGeometry", "TegulaSupport"],
                swiftSettings: hot),
        .target(name: "TegulaPyramid", dependencies: [
            "TegulaWarp", "TegulaGeoreference", "TegulaCodec", "TegulaBundle", "TegulaGDAL", "TegulaGeometry", "TegulaSupport",
        ], swiftSettings: hot),
        .target(name: "TegulaOverlay", dependencies: [
            "TegulaGeometry", "TegulaBundle", "TegulaCodec", "TegulaSupport",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ]),
        .target(name: "TegulaServer", dependencies: [
            "TegulaBundle", "TegulaGeometry", "TegulaOverlay",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
        .target(name: "TegulaPipeline", dependencies: [
            "TegulaGeoreference", "TegulaWarp", "TegulaPyramid", "TegulaBundle", "TegulaGDAL", "TegulaGeometry", "TegulaSupport",
            .product(name: "Yams", package: "Yams"), .product(name: "Crypto", package: "swift-crypto"),
        ]),

        // The thin CLI on top.
        .executableTarget(name: "tegula", dependencies: [
            "TegulaGeometry", "TegulaGDAL", "TegulaGeoreference", "TegulaWarp", "TegulaPyramid",
            "TegulaBundle", "TegulaServer", "TegulaPipeline", "TegulaSupport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // Fixtures more than one test suite writes.
        .target(name: "TegulaTestSupport", dependencies: [
            "TegulaGDAL", "TegulaBundle", .product(name: "Crypto", package: "swift-crypto"),
        ], path: "Tests/TegulaTestSupport"),

        .testTarget(name: "TegulaGeometryTests", dependencies: ["TegulaGeometry"]),
        .testTarget(name: "TegulaSupportTests", dependencies: ["TegulaSupport"]),
        .testTarget(name: "TegulaGDALTests", dependencies: ["TegulaGDAL"]),
        .testTarget(name: "TegulaCodecTests", dependencies: ["TegulaCodec", "TegulaGDAL", "TegulaTestSupport"]),
        .testTarget(name: "TegulaBundleTests", dependencies: [
            "TegulaBundle", "TegulaCodec", "TegulaGeometry", "TegulaSupport", "TegulaTestSupport",
        ]),
        .testTarget(name: "TegulaGeoreferenceTests", dependencies: [
            "TegulaGeoreference", "TegulaGDAL", "TegulaGeometry", "TegulaTestSupport",
        ]),
        .testTarget(name: "TegulaWarpTests", dependencies: [
            "TegulaWarp", "TegulaGeoreference", "TegulaGDAL", "TegulaGeometry", "TegulaTestSupport",
        ]),
        .testTarget(name: "TegulaPyramidTests", dependencies: [
            "TegulaPyramid", "TegulaWarp", "TegulaGeoreference", "TegulaBundle", "TegulaCodec", "TegulaGDAL", "TegulaGeometry",
            "TegulaTestSupport",
        ]),
        // Overlay tests load tilesets made by the pyramid stage and served by the server stage.
        .testTarget(name: "TegulaOverlayTests", dependencies: [
            "TegulaOverlay", "TegulaBundle", "TegulaCodec", "TegulaGeometry", "TegulaPyramid", "TegulaWarp", "TegulaGDAL",
            "TegulaServer", "TegulaSupport", "TegulaTestSupport", .product(name: "HummingbirdTesting", package: "hummingbird"),
        ]),
        .testTarget(name: "TegulaServerTests", dependencies: [
            "TegulaServer", "TegulaBundle", "TegulaGeometry",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ]),
        .testTarget(name: "TegulaPipelineTests", dependencies: [
            "TegulaPipeline", "TegulaPyramid", "TegulaWarp", "TegulaGeoreference", "TegulaBundle", "TegulaCodec", "TegulaGDAL", "TegulaGeometry",
            "TegulaTestSupport",
        ]),
        .testTarget(name: "TegulaCLITests", dependencies: ["TegulaGeometry", "TegulaTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
