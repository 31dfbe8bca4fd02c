import Foundation
import TegulaTestSupport
import Testing

/// Golden digests: small canonical runs of `tegula tile` on the Schagen 1689 scan (Debian's
/// marble-qt-data, georeferenced by pipelines/schagen1689.points with a thin-plate spline), zooms
/// 0–3, one run per resampling kernel, per tile format and per container, against the SHA-256 of
/// every tile stored in Tests/Goldens/schagen1689/RUN.sha256, and for the containers their
/// metadata as readers that are not ours see it (RUN.container: the sqlite3 CLI's MBTiles schema
/// and metadata table; Python `pmtiles`' PMTiles header, metadata and directories). Any changed
/// byte fails, naming the tiles or lines. The tiles are only as stable as the libraries that make
/// them: Tests/Goldens/libraries.txt records their versions, and when one differs the failure
/// says "library changed", not "tiles changed". A deliberate change is recorded by
/// `scripts/update-goldens` once the oracle tests pass (never by CI: scripts/test clears
/// TEGULA_UPDATE_GOLDENS), and the diff of Tests/Goldens shows which tiles moved.
@Suite(.timeLimit(.minutes(20)))
struct GoldenTileTests {
    static let goldens = TegulaBinary.packageRoot.appendingPathComponent("Tests/Goldens/schagen1689")
    static let updating = ProcessInfo.processInfo.environment["TEGULA_UPDATE_GOLDENS"] == "1"

    /// The runs: name → (format, resampling, output extension; "" for a folder).
    static let runs: [(name: String, format: String, resampling: String, ext: String)] = [
        ("near-png", "png", "near", ""), ("bilinear-png", "png", "bilinear", ""), ("cubic-png", "png", "cubic", ""),
        ("lanczos-png", "png", "lanczos", ""), ("average-png", "png", "average", ""),
        ("bilinear-jpeg", "jpeg", "bilinear", ""), ("bilinear-webp", "webp", "bilinear", ""), ("bilinear-png8", "png8", "bilinear", ""),
        ("bilinear-png-mbtiles", "png", "bilinear", ".mbtiles"), ("bilinear-jpeg-pmtiles", "jpeg", "bilinear", ".pmtiles"),
    ]

    static func parse(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: " ")
            if f.count == 2 { out[String(f[0])] = String(f[1]) }
        }
        return out
    }

    @Test(arguments: runs.map(\.name))
    func tilesEqualTheirGoldenDigests(run name: String) throws {
        let run = try #require(Self.runs.first { $0.name == name })
        let dir = try TemporaryFolder.make("golden")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("tiles" + run.ext).path
        let points = Schagen1689.points
        let r = try TegulaBinary.run([
            "tile", Schagen1689.scan, "--gcps", points, "--transform", "tps", "-o", out, "--zoom", "0-3",
            "--format", run.format, "--resampling", run.resampling, "--quiet",
        ])
        try #require(r.status == 0, "\(r.stderr)")
        let got = try TilesetDigest.perTile(out)
        #expect(got.count > 20, "\(got.count) tiles")
        let container = run.ext.isEmpty ? nil : try ContainerMetadata.read(out)
        let file = Self.goldens.appendingPathComponent(name + ".sha256")
        let containerFile = Self.goldens.appendingPathComponent(name + ".container")
        let command =
            "tegula tile schagen1689.jpg --gcps pipelines/schagen1689.points --transform tps --zoom 0-3 "
            + "--format \(run.format) --resampling \(run.resampling) -o tiles\(run.ext)"
        if Self.updating {
            try FileManager.default.createDirectory(at: Self.goldens, withIntermediateDirectories: true)
            let text =
                "# \(command); scripts/update-goldens rewrites this\n"
                + got.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined()
            try text.write(to: file, atomically: true, encoding: .utf8)
            if let container {
                try
                    ("# \(command), as \(ContainerMetadata.reader(run.ext)) reads it; scripts/update-goldens rewrites this\n"
                    + container.map { $0 + "\n" }.joined()).write(to: containerFile, atomically: true, encoding: .utf8)
            }
            print("golden \(name): recorded \(got.count) tiles" + (container.map { ", \($0.count) lines of container metadata" } ?? ""))
            return
        }
        let text = try #require(try? String(contentsOf: file, encoding: .utf8), "no golden \(file.path): run scripts/update-goldens")
        let want = Self.parse(text)
        let changed = want.keys.filter { got[$0] != nil && got[$0] != want[$0] }.sorted()
        let missing = want.keys.filter { got[$0] == nil }.sorted()
        let extra = got.keys.filter { want[$0] == nil }.sorted()
        // Tiles made with other libraries than the goldens' are not a change of Tegula's: say so,
        // and how many tiles it moved, instead of listing them as changed.
        let libraryChanges = try GoldenLibraries.changes()
        if !libraryChanges.isEmpty {
            let count = changed.count + missing.count + extra.count
            let moved = count == 0 ? "no tile" : "\(count) of \(want.count) tiles"
            let libraries = libraryChanges.joined(separator: "; ")
            Issue.record(
                "\(name): library changed since the goldens were recorded: \(libraries); \(moved) moved. Look at the tiles, then run scripts/update-goldens"
            )
            return
        }
        #expect(changed.isEmpty, "\(name): \(changed.count) of \(want.count) tiles changed: \(changed.joined(separator: ", "))")
        #expect(missing.isEmpty, "\(name): \(missing.count) tiles no longer written: \(missing.joined(separator: ", "))")
        #expect(extra.isEmpty, "\(name): \(extra.count) tiles written that the golden lacks: \(extra.joined(separator: ", "))")
        if let container {
            let recorded = try #require(
                try? String(contentsOf: containerFile, encoding: .utf8),
                "no golden \(containerFile.path): run scripts/update-goldens")
            let wanted = recorded.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
            let gone = wanted.filter { !container.contains($0) }, new = container.filter { !wanted.contains($0) }
            #expect(
                wanted == container,
                "\(name): container metadata changed (\(ContainerMetadata.reader(run.ext))): recorded \(gone.prefix(5)), now \(new.prefix(5))")
        }
    }

    /// Every library's version is read (two unreadable versions would compare equal and hide a
    /// change) and the goldens have a record of them, which scripts/update-goldens writes.
    @Test func imageLibraryVersionsAreReadAndRecorded() throws {
        let now = try GoldenLibraries.current()
        #expect(now.values.allSatisfy { $0.first?.isNumber == true }, "versions that are not numbers: \(now)")
        if Self.updating {
            try GoldenLibraries.record(now)
            print("golden libraries: recorded \(GoldenLibraries.lines(now).joined(separator: "; "))")
            return
        }
        let recorded = try #require(try? GoldenLibraries.recorded(), "no \(GoldenLibraries.file.path): run scripts/update-goldens")
        #expect(Set(recorded.keys) == Set(now.keys), "\(GoldenLibraries.file.path) lists \(recorded.keys.sorted()): run scripts/update-goldens")
    }
}

/// The versions of the libraries a golden tile passes through, as pkg-config and dpkg report
/// them: the codecs (libpng, libdeflate, libturbojpeg, libwebp, libimagequant) and GDAL and PROJ
/// (the scan's reading, the transforms). Package.swift's system libraries name the same modules
/// and Debian packages.
enum GoldenLibraries {
    /// pkg-config module and the Debian package that provides it.
    static let modules: [(pkgConfig: String, debian: String)] = [
        ("libpng", "libpng-dev"), ("libdeflate", "libdeflate-dev"), ("libturbojpeg", "libturbojpeg0-dev"),
        ("libwebp", "libwebp-dev"), ("imagequant", "libimagequant-dev"), ("gdal", "libgdal-dev"), ("proj", "libproj-dev"),
    ]
    static let file = GoldenTileTests.goldens.deletingLastPathComponent().appendingPathComponent("libraries.txt")

    /// Module → "VERSION (DEBIAN-PACKAGE DEBIAN-VERSION)", read now. Throws when pkg-config cannot
    /// read a version; a package dpkg does not know (no Debian) reads "-".
    static func current() throws -> [String: String] {
        let debian = (try? ProgramRun.output("dpkg-query", ["-W", "-f", "${Package} ${Version}\n"] + modules.map(\.debian))) ?? ""
        var debianVersion: [String: String] = [:]
        for line in debian.split(separator: "\n") {
            let f = line.split(separator: " ")
            if f.count == 2 { debianVersion[String(f[0])] = String(f[1]) }
        }
        var out: [String: String] = [:]
        for m in modules {
            let v = try ProgramRun.output("pkg-config", ["--modversion", m.pkgConfig]).trimmingCharacters(in: .whitespacesAndNewlines)
            out[m.pkgConfig] = "\(v) (\(m.debian) \(debianVersion[m.debian] ?? "-"))"
        }
        return out
    }

    static func lines(_ versions: [String: String]) -> [String] {
        modules.compactMap { m in versions[m.pkgConfig].map { "\(m.pkgConfig) \($0)" } }
    }

    static func record(_ versions: [String: String]) throws {
        try
            ("# The libraries the goldens were made with (pkg-config --modversion, and the Debian package): "
            + "GoldenTileTests reads a difference as \"library changed\". scripts/update-goldens rewrites this.\n"
            + lines(versions).map { $0 + "\n" }.joined()).write(to: file, atomically: true, encoding: .utf8)
    }

    static func recorded() throws -> [String: String] {
        let text = try String(contentsOf: file, encoding: .utf8)
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.firstIndex(of: " ") else { continue }
            out[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        return out
    }

    /// "MODULE RECORDED → NOW" for each library whose version differs from the record.
    static func changes() throws -> [String] {
        let now = try current()
        let then = (try? recorded()) ?? [:]
        return modules.compactMap { m in
            let a = then[m.pkgConfig] ?? "not recorded", b = now[m.pkgConfig] ?? "unreadable"
            return a == b ? nil : "\(m.pkgConfig) \(a) → \(b)"
        }
    }
}

/// A container's own metadata as a reader that is not Tegula's sees it, one line per fact:
/// for MBTiles the sqlite3 CLI's schema and metadata table, for PMTiles Python `pmtiles`' header
/// fields, JSON metadata and every directory entry (root and leaves: tile id, offset, length, run
/// length).
enum ContainerMetadata {
    static func reader(_ ext: String) -> String { ext == ".mbtiles" ? "the sqlite3 CLI" : "Python pmtiles" }

    static func read(_ path: String) throws -> [String] {
        let text: String
        if path.hasSuffix(".mbtiles") {
            text = try ProgramRun.output(
                "sqlite3",
                [
                    "-separator", " ", path,
                    "SELECT 'schema', type, name, replace(sql, char(10), ' ') FROM sqlite_master ORDER BY type, name;"
                        + "SELECT 'metadata', name, value FROM metadata ORDER BY name",
                ])
        } else {
            text = try ProgramRun.output("python3", ["-c", pmtilesDump, path])
        }
        return text.split(separator: "\n").map(String.init)
    }

    static let pmtilesDump = """
        import json, sys
        from pmtiles.reader import Reader, MmapSource
        from pmtiles.tile import deserialize_directory
        with open(sys.argv[1], "rb") as f:
            get = MmapSource(f)
            reader = Reader(get)
            h = reader.header()
            for k in sorted(h):
                print("header", k, getattr(h[k], "name", h[k]))
            print("metadata", json.dumps(reader.metadata(), sort_keys=True))
            def walk(name, offset, length):
                for e in deserialize_directory(get(offset, length)):
                    print(name, e.tile_id, e.offset, e.length, e.run_length)
                    if e.run_length == 0:
                        walk("leaf@%d" % e.offset, h["leaf_directory_offset"] + e.offset, e.length)
            walk("root", h["root_offset"], h["root_length"])
        """
}
