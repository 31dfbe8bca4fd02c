import Foundation
import TegulaInputs
import TegulaSupport
import TegulaTileset

/// A loaded, checked pipeline file: the spec with every path made absolute against the file's
/// folder, the files it names known to exist, and its work folder.
public struct Pipeline: Sendable {
    /// The pipeline file's absolute path.
    public let file: String
    /// The parsed YAML, to locate keys in later errors.
    public let document: PipelineDocument
    /// The spec, paths absolute.
    public internal(set) var spec: PipelineSpec
    /// Stage outputs and manifests: `<work>/<map name>/`.
    public let workFolder: String
    /// The tied sheets' joint fit and the quality gate's verdicts (``SeriesStep``).
    public internal(set) var series = PipelineSeries()
    /// Where each of ``PipelineSpec/ties`` was given (the `ties:` list, then the `ties_from:` file).
    public internal(set) var tieOrigins: [TieOrigin] = []
    /// What `ties: auto` tried and found (``AutoTies``); nil without it.
    var foundTies: AutoTies?
    /// Whether `ties: auto`'s ties were matched now, read back unchanged, or matched by a dry run
    /// and not written.
    var foundTiesMade = AutoTies.Made.matched
    /// How its maps' scans are opened: the resolver it was loaded with (an IIIF image opened once
    /// and shared by every stage and map that reads it).
    public internal(set) var inputs = InputResolver()

    /// Read, decode and check a pipeline file. Errors name `file:line:column` and the key path.
    /// `inputs` reaches IIIF images and annotations (an `input:` or `maps_from:` that is a URL or
    /// an annotation); a resolver without an IIIF client (the default) refuses them. `jobs`: the
    /// threads `ties: auto` matches overlaps on, when its ties are not yet in the work folder, and
    /// the joint fit draws its sheets' standard errors of place on. A dry run (`dryRun`) writes
    /// nothing: ties it finds are kept in memory. `progress` hears `ties: auto` matching the
    /// overlaps, as (label, done, total).
    public static func load(
        path: String, inputs: InputResolver = InputResolver(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        dryRun: Bool = false, progress: (@Sendable (String, Int, Int) -> Void)? = nil
    ) throws -> Pipeline {
        let file = absolute(path, base: FileManager.default.currentDirectoryPath)
        let doc = try PipelineDocument(path: path, text: try text(of: file, given: path))
        var spec = try doc.decode(Strict<PipelineSpec>.self).value
        let base = file.parentPath
        let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let work = spec.work.map { absolute($0, base: base) } ?? base + "/.tegula/" + stem
        spec.work = work
        try resolveCollectionPaths(&spec, doc: doc, base: base)
        // The ties first: a map's georeference section without GCPs is read by whether a tie names it.
        let origins = try resolveTies(&spec, doc: doc, base: base)
        try resolveMaps(&spec, doc: doc, base: base, inputs: inputs)
        if let why = spec.composite?.order.problem(maps: spec.maps.map(\.name)) {
            throw doc.error([.key("composite"), .key("order")], why)
        }
        placeUnreferencedScansByTies(&spec)
        if let why = spec.composite?.tone.problem(maps: spec.maps.map(\.name)) {
            throw doc.error([.key("composite"), .key("tone"), .key("anchor")], why)
        }
        var pipeline = Pipeline(file: file, document: doc, spec: spec, workFolder: work)
        pipeline.inputs = inputs
        pipeline.tieOrigins = origins
        // The hand ties checked before any overlap is matched (and again with the found ones).
        if spec.autoTies != nil { _ = try SeriesStep.resolve(pipeline) }
        pipeline.foundTies = try AutoTies.apply(&pipeline, jobs: jobs, writing: !dryRun, progress: progress)
        try RejectedTies.apply(&pipeline)
        try SeriesStep.apply(&pipeline, jobs: jobs)
        return pipeline
    }

    /// The pipeline file's text; `path` is the file as given, for the error.
    static func text(of file: String, given path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw PipelineError(.unreadable, file: path, "cannot read the pipeline file \(file) (no such file or no permission)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw PipelineError(.unreadable, file: path, "not UTF-8 text")
        }
        return text
    }

    /// `maps_from:` (a sheet list, a local AnnotationPage) and the composite's output made
    /// absolute against the pipeline file's folder, the output checked; the composite's
    /// `tile.tms:` file read from there.
    static func resolveCollectionPaths(_ spec: inout PipelineSpec, doc: PipelineDocument, base: String) throws {
        if case .sheetList(let p)? = spec.mapsFrom { spec.mapsFrom = .sheetList(absolute(p, base: base)) }
        if case .annotationPage(let p)? = spec.mapsFrom, !Location(p).isURL { spec.mapsFrom = .annotationPage(absolute(p, base: base)) }
        if var c = spec.composite {
            c.output = absolute(c.output, base: base)
            if let why = checkOutput(c.output) { throw doc.error([.key("composite"), .key("output")], why) }
            do { try c.tile.resolveTileMatrixSet(base: base) } catch { throw doc.error([.key("composite"), .key("tile"), .key("tms")], "\(error)") }
            spec.composite = c
        }
    }

    /// `ties_from:` read after the `ties:` list, its path made absolute; where each tie was given.
    static func resolveTies(_ spec: inout PipelineSpec, doc: PipelineDocument, base: String) throws -> [TieOrigin] {
        var origins = spec.ties.indices.map { TieOrigin.list(index: $0) }
        guard let f = spec.tiesFrom else { return origins }
        let path = absolute(f, base: base)
        if let why = requireFile(path, what: "ties file") {
            let start =
                spec.autoTies == nil
                ? ""
                : "; with ties: auto it holds the hand ties and the found ones removed: start it with the header line map_a,x_a,y_a,map_b,x_b,y_b"
            throw doc.error([.key("ties_from")], why + start)
        }
        spec.tiesFrom = path
        var seen: [TieSpec: Int] = [:]
        for row in try TieList(path: path).rows {
            if let first = seen.updateValue(row.line, forKey: row.tie) {
                throw PipelineError(
                    .invalid, file: path, line: row.line, column: 1,
                    "repeats the tie of line \(first) (the same maps and pixels), which would weigh twice; remove one")
            }
            spec.ties.append(row.tie)
            origins.append(.file(path: path, line: row.line, columns: row.columns))
        }
        return origins
    }

    /// The work folder of one map.
    public func workFolder(for map: MapSpec) -> String { workFolder + "/" + map.name }

    /// `path` made absolute against `base` (`~` expanded); standardised.
    static func absolute(_ path: String, base: String) -> String {
        let p = (path as NSString).expandingTildeInPath
        return ((p.hasPrefix("/") ? p : base + "/" + p) as NSString).standardizingPath
    }

    /// Why `path` cannot be read as a file, or nil when it can.
    static func requireFile(_ path: String, what: String) -> String? {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return "\(what) \(path) does not exist" }
        return isDir.boolValue ? "\(what) \(path) is a folder, not a file" : nil
    }

    /// An output that exists must be a tileset (``Tileset/refusal(at:)``): anything else is
    /// refused before any stage runs, and left untouched. Returns why, or nil when the output may
    /// be written.
    static func checkOutput(_ path: String) -> String? {
        if let file = fileAbove(path) {
            return "\(path) cannot be made: \(file) is a file, not a folder (choose another output, or move the file away)"
        }
        return Tileset.refusal(at: path).map {
            "\(path) exists and is not a tileset; refusing to overwrite it (\($0); choose another output or move it away)"
        }
    }

    /// The nearest folder above `path` that exists, when it is a file instead.
    static func fileAbove(_ path: String) -> String? {
        var up = path.parentPath
        var isDir: ObjCBool = false
        while !up.isEmpty, up != "/", !FileManager.default.fileExists(atPath: up, isDirectory: &isDir) { up = up.parentPath }
        return FileManager.default.fileExists(atPath: up, isDirectory: &isDir) && !isDir.boolValue ? up : nil
    }
}
