import Foundation
import TegulaBundle
import TegulaInputs
import TegulaSupport

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
    /// How its maps' scans are opened: the resolver it was loaded with (an IIIF image opened once
    /// and shared by every stage and map that reads it).
    public internal(set) var inputs = InputResolver()

    /// Read, decode and check a pipeline file. Errors name `file:line:column` and the key path.
    /// `inputs` reaches IIIF images and annotations (an `input:` or `maps_from:` that is a URL or
    /// an annotation); a resolver without an IIIF client (the default) refuses them.
    public static func load(path: String, inputs: InputResolver = InputResolver()) throws -> Pipeline {
        let file = absolute(path, base: FileManager.default.currentDirectoryPath)
        guard let data = FileManager.default.contents(atPath: file) else {
            throw PipelineError(.unreadable, file: path, "cannot read the pipeline file \(file) (no such file or no permission)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw PipelineError(.unreadable, file: path, "not UTF-8 text")
        }
        let doc = try PipelineDocument(path: path, text: text)
        var spec = try doc.decode(Strict<PipelineSpec>.self).value
        let base = (file as NSString).deletingLastPathComponent
        let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let work = spec.work.map { absolute($0, base: base) } ?? base + "/.tegula/" + stem
        spec.work = work
        if case .sheetList(let p)? = spec.mapsFrom { spec.mapsFrom = .sheetList(absolute(p, base: base)) }
        if case .annotationPage(let p)? = spec.mapsFrom, !Location(p).isURL { spec.mapsFrom = .annotationPage(absolute(p, base: base)) }
        if var c = spec.composite {
            c.output = absolute(c.output, base: base)
            if let why = checkOutput(c.output) { throw doc.error([.key("composite"), .key("output")], why) }
            spec.composite = c
        }
        let entries = try MapCollection.entries(doc: doc, spec: spec, folder: base, inputs: inputs)
        guard !entries.isEmpty else { throw doc.error([.key("maps")], "lists no map") }
        // Tags resolved once: every map's decoding would otherwise match each default's text
        // against the YAML resolver's patterns again.
        let defaults = doc.node([.key("map_defaults")]).map(MapEntry.resolvingTags)
        var names: [String: Int] = [:]
        var outputs: [String: Int] = [:]
        spec.maps.reserveCapacity(entries.count)
        for (i, entry) in entries.enumerated() {
            func fail(_ steps: [PipelineDocument.Step], _ message: String) -> PipelineError {
                entry.error(doc: doc, defaults: defaults, steps, message)
            }
            var m = try entry.decode(doc: doc, defaults: defaults)
            if let j = names.updateValue(i, forKey: m.name) {
                throw fail([.key("name")], "a second map named '\(m.name)' (the first is \(entries[j].describe(doc: doc))); names must be unique")
            }
            let inputStem = ((m.input as NSString).lastPathComponent as NSString).deletingPathExtension
            let remoteInput = Location(m.input).isURL
            if !remoteInput {
                m.input = absolute(m.input, base: entry.base(for: [.key("input")], pipelineFolder: base))
                if let why = requireFile(m.input, what: "input scan") { throw fail([.key("input")], why) }
            }
            if var g = m.georeference {
                if case .file(let p) = g.gcps {
                    let at: [PipelineDocument.Step] = [.key("georeference"), .key("gcps")]
                    g.gcps = .file(absolute(p, base: entry.base(for: at, pipelineFolder: base)))
                    if case .file(let a) = g.gcps { if let why = requireFile(a, what: "GCP file") { throw fail(at, why) } }
                }
                if case .file(let p) = g.mask {
                    let at: [PipelineDocument.Step] = [.key("georeference"), .key("mask")]
                    g.mask = .file(absolute(p, base: entry.base(for: at, pipelineFolder: base)))
                    if case .file(let a) = g.mask { if let why = requireFile(a, what: "mask file") { throw fail(at, why) } }
                }
                m.georeference = g
            }
            if remoteInput || isAnnotationFile(m.input) {
                try lookThrough(&m, inputs: inputs) { fail($0, $1) }
            }
            if let o = m.output {
                let expanded: String
                do { expanded = try PathPattern(o).expand(name: m.name, stem: inputStem) } catch let e as PipelineError {
                    throw fail([.key("output")], e.message)
                }
                let out = absolute(expanded, base: base)
                m.output = out
                if let why = checkOutput(out) { throw fail([.key("output")], why) }
                if let j = outputs.updateValue(i, forKey: out) {
                    throw fail([.key("output")], "\(out) is also the output of map '\(spec.maps[j].name)'")
                }
                if out == spec.composite?.output {
                    throw fail([.key("output")], "\(out) is also the composite's output")
                }
            } else if spec.composite == nil {
                throw fail([], "map '\(m.name)' needs an output (a folder, .mbtiles or .pmtiles), or the file a composite")
            }
            spec.maps.append(m)
        }
        if let why = spec.composite?.order.problem(maps: spec.maps.map(\.name)) {
            throw doc.error([.key("composite"), .key("order")], why)
        }
        var origins = spec.ties.indices.map { TieOrigin.list(index: $0) }
        if let f = spec.tiesFrom {
            let path = absolute(f, base: base)
            if let why = requireFile(path, what: "ties file") { throw doc.error([.key("ties_from")], why) }
            spec.tiesFrom = path
            for row in try TieList(path: path).rows {
                spec.ties.append(row.tie)
                origins.append(.file(path: path, line: row.line, columns: row.columns))
            }
        }
        if let why = spec.composite?.tone.problem(maps: spec.maps.map(\.name)) {
            throw doc.error([.key("composite"), .key("tone"), .key("anchor")], why)
        }
        var pipeline = Pipeline(file: file, document: doc, spec: spec, workFolder: work)
        pipeline.inputs = inputs
        pipeline.tieOrigins = origins
        try SeriesStep.apply(&pipeline)
        return pipeline
    }

    /// A map whose input is an IIIF image URL or a Georeference Annotation (a file or URL),
    /// looked through `inputs`: the input becomes the image service's URL and an annotation the
    /// map's GCP file (an annotation as the input is its own GCPs; `georeference.map` picks one
    /// of a page). An IIIF image without GCPs, or with `bounds`, is refused.
    static func lookThrough(_ m: inout MapSpec, inputs: InputResolver,
                            fail: ([PipelineDocument.Step], String) -> PipelineError) throws {
        guard inputs.readsRemote else {
            throw fail([.key("input")], "\(m.input): an IIIF image or annotation needs the IIIF client of `tegula run`")
        }
        if m.georeference?.bounds != nil {
            throw fail([.key("georeference"), .key("bounds")], "bounds georeference a local scan; an IIIF image takes gcps (an annotation, say)")
        }
        var gcpFile: String?
        if case .file(let p)? = m.georeference?.gcps { gcpFile = p }
        // An annotation as the input is its own GCP file (a page's map names it as both).
        let own = gcpFile == nil || gcpFile == m.input
        let resolved: ResolvedInput
        do { resolved = try inputs.resolveBlocking(m.input, gcps: own ? nil : gcpFile, mapID: m.georeference?.mapID) } catch {
            throw fail([.key("input")], "\(error)")
        }
        m.input = resolved.scan
        if let annotation = resolved.gcps, own {
            var g = m.georeference ?? GeoreferenceSpec()
            if case .inline? = g.gcps {} else { g.gcps = .file(annotation) }
            m.georeference = g
        }
        guard m.georeference?.gcps != nil else {
            throw fail([.key("georeference")], "\(m.input): an IIIF image carries no georeference; give georeference.gcps (a Georeference Annotation, say), or the annotation as the input")
        }
    }

    /// True when a local `input:` is a Georeference Annotation by its name (`.json`, `.jsonld`).
    static func isAnnotationFile(_ path: String) -> Bool {
        ["json", "jsonld"].contains((path as NSString).pathExtension.lowercased())
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
        Tileset.refusal(at: path).map {
            "\(path) exists and is not a tileset; refusing to overwrite it (\($0); choose another output or move it away)"
        }
    }
}
