// swift-tools-version:6.1
// Tegula: scanned paper maps to web map tiles.
import PackageDescription

let package = Package(
    name: "Tegula",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "tegula", targets: ["tegula"]),
        .library(name: "TegulaGeometry", targets: ["TegulaGeometry"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C layer 1: system libraries with shims for macros and variadics.
        .systemLibrary(name: "CGDAL", pkgConfig: "gdal", providers: [.apt(["libgdal-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // Pure geometry under everything.
        .target(name: "TegulaGeometry"),

        // C layer 2: the Swift wrappers that own every C call.
        .target(name: "TegulaGDAL", dependencies: ["CGDAL", "TegulaGeometry"]),

        // The thin CLI on top.
        .executableTarget(name: "tegula", dependencies: [
            "TegulaGeometry", "TegulaGDAL",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "TegulaGeometryTests", dependencies: ["TegulaGeometry"]),
        .testTarget(name: "TegulaGDALTests", dependencies: ["TegulaGDAL"]),
        .testTarget(name: "TegulaCLITests", dependencies: ["TegulaGeometry"]),
    ],
    swiftLanguageModes: [.v6]
)
