import Foundation
import TegulaGeometry
import TegulaSupport

/// What an unfinished tileset was begun from, kept beside it as `OUT.resume` from the start of a
/// run until the tileset is finished, so that `--resume` continues only the same work. Without
/// it, a run refused because its scan was replaced midway (`inputChanged`) and then resumed as
/// its own message once suggested would have made one tileset of two scans' tiles.
///
/// One line per watched input (its path, size and modification time: a replaced or rewritten
/// scan differs in one of them) and one of the settings that decide a tile's bytes. A missing
/// stamp (a tileset from before stamps, or finished) resumes as before.
struct ResumeStamp: Equatable {
    let lines: [String]

    init(job: TileJob, zooms: ZoomRange) {
        var lines = job.watchedInputs.map { path in
            "input \(path): " + (FileIdentity(path: path)?.sizeAndTime ?? "missing")
        }
        let s = job.settings, e = s.encoding
        lines.append(
            "settings zooms \(zooms.min)-\(zooms.max), format \(e.format.rawValue), quality \(e.quality.map(String.init) ?? "default"), "
                + "auto-lossy \(e.autoLossy), webp effort \(e.webpEffort), resampling \(s.resampling), tile size \(s.tileSize), scale \(s.scale), layout \(s.layout)"
        )
        // Only for another set than WebMercatorQuad, so stamps of Web Mercator runs read as before.
        if job.cutsInGrid { lines.append("grid \(job.tms.id) in \(job.tms.crs), zooms \(job.tms.minZoom)-\(job.tms.maxZoom)") }
        self.lines = lines
    }

    private init(lines: [String]) { self.lines = lines }

    static func path(of output: String) -> String { output + ".resume" }

    /// The stamp beside `output`, if any.
    static func read(at output: String) -> ResumeStamp? {
        guard let data = FileManager.default.contents(atPath: path(of: output)) else { return nil }
        return ResumeStamp(lines: String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    /// Records this stamp beside `output` (atomically: a kill leaves the old one or this one).
    /// The caller holds the output's lock, so the temporary a killed run left while writing its
    /// stamp (`.OUT.resume.PID-RANDOM.tmp`, once in FaultTests) goes first.
    func write(beside output: String) throws {
        AtomicFile.removeAbandoned(of: Self.path(of: output))
        try AtomicFile.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: Self.path(of: output))
    }

    static func remove(beside output: String) {
        AtomicFile.removeAbandoned(of: path(of: output))
        unlink(path(of: output))
    }

    /// The first of `self`'s lines that `other` does not have, with `other`'s line in its place
    /// (nil when they are the same work).
    func difference(from other: ResumeStamp) -> (was: String, now: String)? {
        guard self != other else { return nil }
        for (i, line) in lines.enumerated() where i >= other.lines.count || other.lines[i] != line {
            return (line, i < other.lines.count ? other.lines[i] : "nothing")
        }
        return (lines.last ?? "nothing", other.lines.last ?? "nothing")
    }
}
