import Foundation
import TegulaGeoreference
import TegulaInputs
import TegulaSupport
import Yams

/// The maps of a pipeline file as entries to decode: every entry of `maps:`, then every row of
/// the `maps_from:` sheet list, every scan its glob matches (in byte order of their paths, so
/// every machine lists them alike) or every annotation of its AnnotationPage, in page order.
enum MapCollection {
    /// The entries, in drawing order. Errors name the sheet list's line or the glob.
    static func entries(doc: PipelineDocument, spec: PipelineSpec, folder: String, inputs: InputResolver) throws -> [MapEntry] {
        var entries: [MapEntry] = []
        if case .sequence(let list)? = doc.node([.key("maps")]) {
            for (i, node) in list.enumerated() { entries.append(MapEntry(node: node, origin: .entry(i), base: folder)) }
        }
        switch spec.mapsFrom {
        case .sheetList(let path)?:
            let file = Pipeline.absolute(path, base: folder)
            guard FileManager.default.fileExists(atPath: file) else {
                throw doc.error([.key("maps_from")], "sheet list \(file) does not exist")
            }
            let list = try SheetList(path: file)
            guard !list.rows.isEmpty else {
                throw PipelineError(.invalid, file: file, line: 2, "the sheet list has a header but no rows")
            }
            entries += list.rows.map { MapEntry.row($0, file: file) }
        case .glob(let pattern, let gcps)?:
            let files = try glob(Pipeline.absolute(pattern, base: folder))
            guard !files.isEmpty else {
                throw doc.error([.key("maps_from"), .key("glob")], "'\(pattern)' matches no file (looked from \(folder))")
            }
            for file in files {
                let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
                let gcpPath = try PathPattern(gcps).expand(name: stem, stem: stem)
                entries.append(MapEntry.match(file: file, stem: stem, gcps: gcpPath, base: folder))
            }
        case .annotationPage(let page)?:
            let file: String
            if Location(page).isURL {
                guard inputs.readsRemote else {
                    throw doc.error([.key("maps_from")], "\(page): an AnnotationPage by URL needs the IIIF client of `tegula run`")
                }
                do { file = try inputs.document(page) } catch { throw doc.error([.key("maps_from")], "\(error)") }
            } else {
                file = Pipeline.absolute(page, base: folder)
                guard FileManager.default.fileExists(atPath: file) else {
                    throw doc.error([.key("maps_from")], "AnnotationPage \(file) does not exist")
                }
            }
            let targets: [AnnotationTarget]
            do { targets = try AnnotationTarget.read(path: file) } catch { throw doc.error([.key("maps_from")], "\(error)") }
            for (i, t) in targets.enumerated() {
                guard let id = t.mapID, let name = t.name else {
                    throw doc.error([.key("maps_from")], "\(page): map \(i + 1) has no id; each annotation of the page needs one to name its map by")
                }
                entries.append(MapEntry.annotation(file: file, page: page, mapID: id, name: name, base: folder))
            }
        case nil:
            break
        }
        return entries
    }

    /// Regular files matching a shell pattern (glob(3)), sorted by their bytes.
    static func glob(_ pattern: String) throws -> [String] {
        var g = glob_t()
        defer { globfree(&g) }
        let status = Glibc.glob(pattern, GLOB_MARK, nil, &g)
        if status == GLOB_NOMATCH { return [] }
        guard status == 0 else { throw PipelineError(.unreadable, file: pattern, "cannot list the files matching the glob (glob error \(status))") }
        var files: [String] = []
        for i in 0..<Int(g.gl_pathc) {
            guard let p = g.gl_pathv[i] else { continue }
            let path = String(cString: p)
            if !path.hasSuffix("/") { files.append(path) }
        }
        return files.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
