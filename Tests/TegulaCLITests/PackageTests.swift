import Foundation
import TegulaTestSupport
import Testing

/// The Debian package scripts/package builds: the light checks that run with every test run
/// (scripts/test-package installs it in a fresh Debian 12 for the full check). The .deb is
/// $TEGULA_DEB, which scripts/test builds before the suite; without it the suite builds one.
/// A $TEGULA_DEB is used only if it holds the binary of the sources under test: the build
/// scripts/package ships (scripts/release-build, in $TEGULA_PACKAGE_CONFIGURATION, a no-op or a relink when
/// it is current) stripped as scripts/package strips it must equal the packaged one byte for
/// byte; a package of older sources, or of the other configuration, fails every test.
@Suite(.timeLimit(.minutes(20)))
struct PackageTests {
    static let built: Result<String, any Error> = Result {
        func failure(_ text: String) -> any Error { CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: text]) }
        guard let path = ProcessInfo.processInfo.environment["TEGULA_DEB"], !path.isEmpty else {
            let r = try ProgramRun.run(TegulaBinary.packageRoot.appendingPathComponent("scripts/package").path, [])
            guard r.status == 0, let last = r.stdout.split(separator: "\n").last else {
                throw failure("scripts/package failed: \(r.stderr.suffix(2000))")
            }
            return String(last)
        }
        let build = try ProgramRun.run(TegulaBinary.packageRoot.appendingPathComponent("scripts/release-build").path, [])
        guard build.status == 0, let bin = build.stdout.split(separator: "\n").last.map(String.init) else {
            throw failure("scripts/release-build failed: \(build.stderr.suffix(2000))")
        }
        let dir = try TemporaryFolder.make("package-check")
        defer { try? FileManager.default.removeItem(at: dir) }
        let stripped = dir.appendingPathComponent("tegula").path
        try ProgramRun.output("cp", [bin, stripped])
        try ProgramRun.output("strip", ["--strip-all", stripped])
        try ProgramRun.output("dpkg-deb", ["-x", path, dir.appendingPathComponent("deb").path])
        let packaged = try Data(contentsOf: dir.appendingPathComponent("deb/usr/bin/tegula"))
        guard try Data(contentsOf: URL(fileURLWithPath: stripped)) == packaged else {
            throw failure(
                "TEGULA_DEB=\(path) does not hold the binary of these sources (\(bin), stripped): rerun scripts/package, or unset TEGULA_DEB")
        }
        return path
    }

    static func deb() throws -> String {
        let path = try built.get()
        try #require(FileManager.default.fileExists(atPath: path), "no package at \(path)")
        return path
    }

    /// The version written once in Sources/tegula/Tegula.swift.
    static func sourceVersion() throws -> String {
        let text = try String(contentsOf: TegulaBinary.packageRoot.appendingPathComponent("Sources/tegula/Tegula.swift"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.contains("static let version = \"") })
        return String(try #require(line.split(separator: "\"").dropFirst().first))
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let r = try ProgramRun.run(tool, arguments)
        #expect(r.status == 0, "\(tool) \(arguments): \(r.stderr)")
        return r.stdout
    }

    /// The package unpacked with `dpkg-deb -x` into a temporary folder.
    static func unpacked() throws -> URL {
        let dir = try TemporaryFolder.make("package")
        _ = try run("dpkg-deb", ["-x", try deb(), dir.path])
        return dir
    }

    @Test func fileListHoldsTheBinaryCompletionsManPageAndDocs() throws {
        let deb = try Self.deb()
        let version = try Self.sourceVersion()
        #expect((deb as NSString).lastPathComponent == "tegula_\(version)_amd64.deb")
        // dpkg-deb -c: "MODE OWNER/GROUP SIZE DATE TIME ./PATH"
        var entries: [String: (mode: String, owner: String)] = [:]
        for line in try Self.run("dpkg-deb", ["-c", deb]).split(separator: "\n") {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count >= 6 else { continue }
            entries[String(f[5].dropFirst())] = (String(f[0]), String(f[1]))
        }
        let expected = [
            "/usr/bin/tegula",
            "/usr/share/bash-completion/completions/tegula",
            "/usr/share/zsh/vendor-completions/_tegula",
            "/usr/share/fish/vendor_completions.d/tegula.fish",
            "/usr/share/man/man1/tegula.1.gz",
            "/usr/share/doc/tegula/copyright",
            "/usr/share/doc/tegula/README.md.gz",
        ]
        for path in expected { #expect(entries[path] != nil, "\(path) in the package") }
        #expect(entries["/usr/bin/tegula"]?.mode == "-rwxr-xr-x")
        for path in expected.dropFirst() { #expect(entries[path]?.mode == "-rw-r--r--", "\(path): \(entries[path]?.mode ?? "-")") }
        let notRoot = entries.filter { $0.value.owner != "root/root" }.map(\.key)
        #expect(notRoot.isEmpty, "files not owned by root: \(notRoot.prefix(3))")
        #expect(!entries.keys.contains { $0.contains("libswift") || $0.hasPrefix("/usr/lib") }, "no Swift runtime shipped beside the binary")
    }

    @Test func controlNamesTheVersionAndDebianRuntimePackages() throws {
        let deb = try Self.deb()
        let version = try Self.sourceVersion()
        #expect(try Self.run("dpkg-deb", ["-f", deb, "Version"]).trimmingCharacters(in: .whitespacesAndNewlines) == version)
        #expect(try Self.run("dpkg-deb", ["-f", deb, "Architecture"]).trimmingCharacters(in: .whitespacesAndNewlines) == "amd64")
        let (depends, names) = try Self.depends()
        for package in ["libgdal32", "libpng16-16", "libdeflate0", "libsqlite3-0", "libc6", "libjs-leaflet"] {
            #expect(names.contains(package), "Depends: \(depends)")
        }
        #expect(!names.contains { $0.contains("swift") }, "Depends: \(depends)")
    }

    /// The Depends field and the package names in it.
    static func depends() throws -> (String, Set<String>) {
        let depends = try run("dpkg-deb", ["-f", try deb(), "Depends"]).trimmingCharacters(in: .whitespacesAndNewlines)
        return (depends, Set(depends.split(separator: ",").map { String($0.split(separator: " ")[0]) }))
    }

    /// Every library the packaged binary loads (ldd, transitively) resolves, belongs to a Debian
    /// package (dpkg -S), and is no part of Swift; the packages owning its direct needs
    /// (readelf's NEEDED) are all in Depends.
    @Test func binaryLoadsOnlyLibrariesOwnedByDebianPackages() throws {
        let dir = try Self.unpacked()
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = dir.appendingPathComponent("usr/bin/tegula").path
        let ldd = try Self.run("ldd", [binary])
        #expect(!ldd.contains("not found"), "\(ldd)")
        var paths: [String: String] = [:]  // soname → path
        for line in ldd.split(separator: "\n") {
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if f.count >= 3, f[1] == "=>", f[2].hasPrefix("/") {
                paths[f[0]] = f[2]
            } else if let first = f.first, first.hasPrefix("/") {
                paths[(first as NSString).lastPathComponent] = first
            }
        }
        #expect(paths.count > 20, "GDAL alone brings dozens: \(ldd)")
        let swifty = paths.keys.filter {
            $0.hasPrefix("libswift") || $0.hasPrefix("libFoundation") || $0.hasPrefix("libdispatch") || $0.hasPrefix("libBlocksRuntime")
        }
        #expect(swifty.isEmpty, "the Swift runtime must be linked in: \(swifty)")
        let owners = try Self.owners(paths)
        let unowned = paths.filter { owners[$0.key] == nil }.map(\.value).sorted()
        #expect(unowned.isEmpty, "libraries no Debian package owns: \(unowned)")
        let (depends, names) = try Self.depends()
        let needed = try Self.run("readelf", ["-d", binary]).split(separator: "\n").compactMap { line -> String? in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        #expect(needed.contains("libgdal.so.32") && needed.contains("libsqlite3.so.0"), "\(needed)")
        for soname in needed {
            let owner = try #require(owners[soname], "\(soname) not resolved by ldd")
            #expect(names.contains(owner), "\(owner) (for \(soname)) not in Depends: \(depends)")
        }
    }

    /// The Debian package owning each library (soname → path), from one `dpkg -S` call; Debian 12
    /// registers some libraries under /lib, some under /usr/lib, so each path is asked both ways.
    static func owners(_ paths: [String: String]) throws -> [String: String] {
        var forms: [String: [String]] = [:]  // soname → the path spellings to ask for
        for (soname, path) in paths {
            let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            forms[soname] = [path, real].flatMap { [$0, $0.hasPrefix("/usr/") ? String($0.dropFirst(4)) : "/usr" + $0] }
        }
        // dpkg -S exits 1 when some spelling is unknown; the lines it prints are what counts.
        let r = try ProgramRun.run("dpkg", ["-S"] + Set(forms.values.flatMap { $0 }).sorted())
        var ownerOf: [String: String] = [:]  // path → package
        for line in r.stdout.split(separator: "\n") {
            guard let sep = line.range(of: ": /") else { continue }
            let package = line[..<sep.lowerBound].split(separator: ",")[0].split(separator: ":")[0]
            ownerOf[String(line[line.index(before: sep.upperBound)...])] = String(package)
        }
        return forms.compactMapValues { spellings in spellings.lazy.compactMap { ownerOf[$0] }.first }
    }

    @Test func packagedBinaryCompletionsAndManPageWork() throws {
        let dir = try Self.unpacked()
        defer { try? FileManager.default.removeItem(at: dir) }
        let version = try Self.sourceVersion()
        let r = try ProgramRun.run(dir.appendingPathComponent("usr/bin/tegula").path, ["--version"])
        #expect(r.status == 0 && r.stdout == version + "\n", "\(r.stdout) \(r.stderr)")
        func text(_ path: String) throws -> String { try String(contentsOf: dir.appendingPathComponent(path), encoding: .utf8) }
        let bash = try text("usr/share/bash-completion/completions/tegula")
        #expect(bash.contains("\ncomplete -o filenames -F _tegula tegula") && bash.contains("serve") && bash.contains("--public-url"))
        #expect(try text("usr/share/zsh/vendor-completions/_tegula").hasPrefix("#compdef tegula"))
        let fish = try text("usr/share/fish/vendor_completions.d/tegula.fish")
        #expect(fish.contains("\ncomplete -c 'tegula'") && fish.contains("'georef'") && fish.contains("'public-url'"))
        let man = try Self.run("gzip", ["-dc", dir.appendingPathComponent("usr/share/man/man1/tegula.1.gz").path])
        #expect(man.contains("\n.Dt TEGULA 1\n") && man.contains("\n.Nm tegula\n"), "\(man.prefix(300))")
        for command in ["grid", "info", "georef", "transform", "warp", "tile", "run", "serve"] {
            #expect(man.contains("\n.It Em \(command)\n"), "the man page covers \(command)")
        }
        #expect(man.contains("--public-url") || man.contains("-public-url"), "options of the subcommands too")
        let copyright = try text("usr/share/doc/tegula/copyright")
        #expect(copyright.hasPrefix("tegula \(version)") && copyright.contains("Apache License"))
    }

    /// The packaged binary is linked apart from the tested one (scripts/release-build; in
    /// scripts/test a relink of the test build that SwiftPM does not make itself), so one real
    /// command runs on it: a fresh GeoTIFF tiled into a fresh folder gives the tiles, byte for byte,
    /// of the build the suite checks against its oracles.
    @Test func packagedBinaryTilesAFreshScanAsTheTestedBuildDoes() throws {
        let dir = try Self.unpacked()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scan = dir.appendingPathComponent("scan.tif").path
        try SyntheticGeoTIFF.write(to: scan)
        func tiles(_ binary: String, into name: String) throws -> (digest: String, tiles: Int) {
            let out = dir.appendingPathComponent(name).path
            let r = try ProgramRun.run(binary, ["tile", scan, "-o", out, "--zoom", "0-6", "--quiet"])
            try #require(r.status == 0, "\(binary) tile: \(r.stderr)")
            return try TilesetDigest.of(out)
        }
        let packaged = try tiles(dir.appendingPathComponent("usr/bin/tegula").path, into: "packaged")
        let tested = try tiles(try BuiltTegula.path(), into: "tested")
        // 32: the tiles mercantile lists over the scan's bounds (lon 5…23, lat 41…53) at zooms 0–6.
        #expect(packaged.tiles == tested.tiles && packaged.tiles == 32)
        #expect(packaged.digest == tested.digest)
    }
}
