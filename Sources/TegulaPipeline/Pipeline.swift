import Foundation
import TegulaBundle

/// A loaded, checked pipeline file: the spec with every path made absolute against the file's
/// folder, the files it names known to exist, and its work folder.
public struct Pipeline: Sendable {
    /// The pipeline file's absolute path.
    public let file: String
    /// The parsed YAML, to locate keys in later errors.
    public let document: PipelineDocument
    /// The spec, paths absolute.
    public let spec: PipelineSpec
    /// Stage outputs and manifests: `<work>/<map name>/`.
    public let workFolder: String

    /// Read, decode and check a pipeline file. Errors name `file:line:column` and the key path.
    public static func load(path: String) throws -> Pipeline {
        let file = absolute(path, base: FileManager.default.currentDirectoryPath)
        guard let data = FileManager.default.contents(atPath: file) else {
            throw PipelineError(file: path, "cannot read the pipeline file \(file) (no such file or no permission)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw PipelineError(file: path, "not UTF-8 text")
        }
        let doc = try PipelineDocument(path: path, text: text)
        var spec = try doc.decode(Strict<PipelineSpec>.self).value
        let base = (file as NSString).deletingLastPathComponent
        let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let work = spec.work.map { absolute($0, base: base) } ?? base + "/.tegula/" + stem
        spec.work = work
        for i in spec.maps.indices {
            var m = spec.maps[i]
            let at: [PipelineDocument.Step] = [.key("maps"), .index(i)]
            m.input = absolute(m.input, base: base)
            try requireFile(m.input, what: "input scan", doc: doc, at + [.key("input")])
            if var g = m.georeference {
                if case .file(let p) = g.gcps {
                    g.gcps = .file(absolute(p, base: base))
                    try requireFile(absolute(p, base: base), what: "GCP file", doc: doc, at + [.key("georeference"), .key("gcps")])
                }
                if case .file(let p) = g.mask {
                    g.mask = .file(absolute(p, base: base))
                    try requireFile(absolute(p, base: base), what: "mask file", doc: doc, at + [.key("georeference"), .key("mask")])
                }
                m.georeference = g
            }
            if let o = m.output {
                m.output = absolute(o, base: base)
                try checkOutput(m.output!, doc: doc, at + [.key("output")])
            }
            spec.maps[i] = m
        }
        if var c = spec.composite {
            c.output = absolute(c.output, base: base)
            try checkOutput(c.output, doc: doc, [.key("composite"), .key("output")])
            spec.composite = c
        }
        var outputs: [String: Int] = [:]
        for (i, m) in spec.maps.enumerated() {
            guard let o = m.output else { continue }
            if let j = outputs[o] {
                throw doc.error([.key("maps"), .index(i), .key("output")], "\(o) is also the output of map '\(spec.maps[j].name)'")
            }
            outputs[o] = i
            if o == spec.composite?.output {
                throw doc.error([.key("maps"), .index(i), .key("output")], "\(o) is also the composite's output")
            }
        }
        return Pipeline(file: file, document: doc, spec: spec, workFolder: work)
    }

    /// The work folder of one map.
    public func workFolder(for map: MapSpec) -> String { workFolder + "/" + map.name }

    /// `path` made absolute against `base` (`~` expanded); standardised.
    static func absolute(_ path: String, base: String) -> String {
        let p = (path as NSString).expandingTildeInPath
        return ((p.hasPrefix("/") ? p : base + "/" + p) as NSString).standardizingPath
    }

    static func requireFile(_ path: String, what: String, doc: PipelineDocument, _ at: [PipelineDocument.Step]) throws {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw doc.error(at, "\(what) \(path) does not exist")
        }
        if isDir.boolValue { throw doc.error(at, "\(what) \(path) is a folder, not a file") }
    }

    /// An output that exists must be a tileset (or an empty folder): anything else is refused
    /// before any stage runs, and left untouched.
    static func checkOutput(_ path: String, doc: PipelineDocument, _ at: [PipelineDocument.Step]) throws {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return }
        let empty = isDir.boolValue && ((try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty ?? false)
        if !empty && !Tileset.isTileset(at: path) {
            throw doc.error(at, "\(path) exists and is not a tileset; refusing to overwrite it (choose another output or move it away)")
        }
    }
}
