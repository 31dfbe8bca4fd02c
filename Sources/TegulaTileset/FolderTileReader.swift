import Foundation
import TegulaGeometry
import TegulaSupport

/// Reads a tile folder described by its `tiles.json` (TileJSON written by tegula or another tool).
///
/// Tile paths are built from tile numbers only, and every file is resolved (symlinks followed)
/// and must still lie inside the folder, so a symlink pointing outside is never read.
final class FolderTileReader: TileReader, @unchecked Sendable {
    let root: String
    let realRoot: String
    let metadata: TilesetMetadata
    let naming: FolderNaming

    init(path: String) throws {
        root = path
        guard let real = FileIO.realPath(path) else { throw TilesetError.io(FileError(path: path, operation: "realpath", errno: errno)) }
        realRoot = real
        let jsonPath = path + "/" + Tileset.folderDescriptionName
        guard let bytes = try FileIO.readFile(jsonPath) else {
            throw TilesetError.corrupt(
                path: path,
                detail: "no tiles.json (a folder tileset needs its TileJSON; "
                    + "finish the writer or rerun `tegula tile --resume`)")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch {
            throw TilesetError.corrupt(path: jsonPath, detail: "not JSON: \(error)")
        }
        guard let o = json.objectValue else { throw TilesetError.corrupt(path: jsonPath, detail: "expected a JSON object") }
        metadata = try TilesetMetadata(jsonObject: o, source: jsonPath)
        let scheme = o["scheme"]?.stringValue ?? "xyz"
        let layout = TileOrigin.allCases.first { $0.name == scheme } ?? .topLeft
        naming = FolderNaming(layout: layout, format: metadata.format, scale: metadata.scale)
    }

    func tile(_ t: Tile) throws -> [UInt8]? {
        // Any tile a path of numbers can name: a folder cut in another tile matrix set (its
        // tms.json) holds columns beyond 2^z (WorldCRS84Quad has 2 at zoom 0); a tile it does not
        // hold is a file that is not there.
        guard t.z >= 0, t.z <= WebMercator.maxZoom, t.x >= 0, t.y >= 0 else { return nil }
        for relative in naming.relativePaths(t) {
            guard let real = FileIO.realPath(root + "/" + relative) else { continue }
            guard real.hasPrefix(realRoot + "/") else { return nil }
            if let bytes = try FileIO.readFile(real) { return bytes }
        }
        return nil
    }
}
