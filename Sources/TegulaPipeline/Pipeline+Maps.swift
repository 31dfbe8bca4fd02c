import Foundation
import TegulaGeometry
import TegulaInputs
import TegulaSupport

/// Loading's checks of each map: decoded with `map_defaults:` under it, its name and output
/// unique, its files made absolute (against the folder its entry gives) and known to exist, and
/// an IIIF image or annotation input looked through.
extension Pipeline {
    /// How a map's check names the place of a bad value: the key path under the map, and why.
    typealias MapFailure = ([PipelineDocument.Step], String) -> PipelineError

    /// Every map of `maps:`, `maps_from:` or both, decoded and checked into `spec.maps`.
    static func resolveMaps(_ spec: inout PipelineSpec, doc: PipelineDocument, base: String, inputs: InputResolver) throws {
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
            try placeSectionWithoutGCPsByTies(&m, spec: spec, fail: fail)
            let inputStem = ((m.input as NSString).lastPathComponent as NSString).deletingPathExtension
            try resolveFiles(&m, entry: entry, base: base, inputs: inputs, fail: fail)
            try resolveOutput(&m, inputStem: inputStem, index: i, outputs: &outputs, spec: spec, base: base, fail: fail)
            spec.maps.append(m)
        }
    }

    /// The map's input and the files of its `georeference:` made absolute and known to exist;
    /// an IIIF image or annotation input looked through (``lookThrough(_:inputs:fail:)``).
    static func resolveFiles(_ m: inout MapSpec, entry: MapEntry, base: String, inputs: InputResolver, fail: MapFailure) throws {
        let remoteInput = Location(m.input).isURL
        if !remoteInput {
            m.input = absolute(m.input, base: entry.base(for: [.key("input")], pipelineFolder: base))
            if let why = requireFile(m.input, what: "input scan") { throw fail([.key("input")], why) }
        }
        do {
            try m.tile.resolveTileMatrixSet(base: entry.base(for: [.key("tile"), .key("tms")], pipelineFolder: base))
        } catch {
            throw fail([.key("tile"), .key("tms")], "\(error)")
        }
        if var g = m.georeference {
            if case .file(let p) = g.gcps {
                g.gcps = .file(try existingFile(p, at: [.key("georeference"), .key("gcps")], what: "GCP file", entry: entry, base: base, fail: fail))
            }
            if case .match(let r) = g.gcps {
                try checkMatchBounds(r, g.matchBounds, fail: fail)
                if !Location(r).isURL {
                    g.gcps = .match(try existingReference(r, at: [.key("georeference"), .key("match")], entry: entry, base: base, fail: fail))
                }
            }
            if case .file(let p) = g.mask {
                g.mask = .file(
                    try existingFile(p, at: [.key("georeference"), .key("mask")], what: "mask file", entry: entry, base: base, fail: fail))
            }
            m.georeference = g
        }
        if remoteInput || isAnnotationFile(m.input) {
            try lookThrough(&m, inputs: inputs, fail: fail)
        }
    }

    /// A bare XYZ template in `match:` without `reference_bounds`, or `reference_bounds` with any
    /// other reference, refused at load naming the key (``ReferenceBoundsProblem``).
    static func checkMatchBounds(_ reference: String, _ bounds: GeoBounds?, fail: MapFailure) throws {
        let match: [PipelineDocument.Step] = [.key("georeference"), .key("match")]
        switch ReferenceBoundsProblem(reference: reference, bounds: bounds) {
        case .missing?:
            throw fail(
                match,
                "a bare XYZ URL template says no bounds; give reference_bounds: [west, south, east, north] in degrees, the area the scan shows "
                    + "(match: {reference: URL, reference_bounds: [...]}), or the tileset's TileJSON URL")
        case .unused?:
            throw fail(
                match + [.key("reference_bounds")],
                "reference_bounds is only for a bare XYZ URL template ({z}/{x}/{y}); \(reference) carries its own georeference: leave it out")
        case nil: return
        }
    }

    /// `path`, given at `steps` of the map, made absolute against the folder the entry gives
    /// there; refused when it is no file.
    static func existingFile(
        _ path: String, at steps: [PipelineDocument.Step], what: String, entry: MapEntry, base: String,
        fail: MapFailure
    ) throws -> String {
        let file = absolute(path, base: entry.base(for: steps, pipelineFolder: base))
        if let why = requireFile(file, what: what) { throw fail(steps, why) }
        return file
    }

    /// A local match reference, given at `steps`, made absolute as a file is; a file or a
    /// folder (a tile folder), refused when nothing is there.
    static func existingReference(
        _ path: String, at steps: [PipelineDocument.Step], entry: MapEntry, base: String,
        fail: MapFailure
    ) throws -> String {
        let file = absolute(path, base: entry.base(for: steps, pipelineFolder: base))
        guard FileManager.default.fileExists(atPath: file) else {
            throw fail(steps, "match reference \(file) does not exist (give a georeferenced image, a tileset or an annotation, or a URL)")
        }
        return file
    }

    /// The map's output, its pattern expanded, made absolute and checked: a tileset or nothing
    /// there, no other map's, not the composite's. A map without one needs a composite.
    static func resolveOutput(
        _ m: inout MapSpec, inputStem: String, index i: Int, outputs: inout [String: Int], spec: PipelineSpec,
        base: String, fail: MapFailure
    ) throws {
        guard let o = m.output else {
            if spec.composite == nil {
                throw fail(
                    [],
                    "map '\(m.name)' has no output: give it one (a folder, .mbtiles, .pmtiles or .gpkg), or give the pipeline a composite: to draw it into"
                )
            }
            return
        }
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
    }

    /// A map whose input is an IIIF image URL or a Georeference Annotation (a file or URL),
    /// looked through `inputs`: the input becomes the image service's URL and an annotation the
    /// map's GCP file (an annotation as the input is its own GCPs; `georeference.map` picks one
    /// of a page). An IIIF image without GCPs, or with `bounds`, is refused.
    static func lookThrough(_ m: inout MapSpec, inputs: InputResolver, fail: MapFailure) throws {
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
            throw fail(
                [.key("georeference")],
                "\(m.input): an IIIF image carries no georeference; give georeference.gcps (a Georeference Annotation, say), or the annotation as the input"
            )
        }
    }

    /// True when a local `input:` is a Georeference Annotation by its name (`.json`, `.jsonld`).
    static func isAnnotationFile(_ path: String) -> Bool {
        ["json", "jsonld"].contains((path as NSString).pathExtension.lowercased())
    }
}
