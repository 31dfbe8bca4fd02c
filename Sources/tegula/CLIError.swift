import ArgumentParser
import Foundation
import TegulaSupport

/// Bad input the command line refuses before a stage runs, in Tegula's one error shape: a
/// reason, where (a file, `stdin:N`, an option) and one line; `reportingErrors` prints it as
/// `tegula: …` and exits non-zero.
typealias CLIFailure = LocatedError<CLIFailureReason>

/// The kinds of CLIFailure.
enum CLIFailureReason: String, Sendable, Hashable {
    /// A file named on the command line does not exist.
    case noSuchFile
    /// The folder an output goes in does not exist.
    case noFolder
    /// An input that cannot be placed: an IIIF image without a georeference, a raster without GCPs.
    case notGeoreferenced
    /// Some maps of a pipeline cannot run (each said why above).
    case mapsCannotRun
    /// An input that needs an option it was not given (`-o` for a URL to save to).
    case needsOption
    /// A value that is not what its option or argument takes (a basemap, an IIIF URL).
    case badOption
    /// A value on the command line or a stdin line that does not parse (a tile, a zoom, a box,
    /// a number, a quadkey, a count of values).
    case badValue
    /// A point with no answer under the fitted transform.
    case outsideTransform
}

/// CLIFailure's constructors, one per message, so each is written once.
extension LocatedError where Reason == CLIFailureReason {
    /// No `what` (file, GCP file, mask file, pipeline file) at `path`.
    static func noSuchFile(_ path: String, _ what: String = "file") -> CLIFailure { CLIFailure(.noSuchFile, at: path, "no such \(what)") }

    /// The folder `dir` that `path` would be written in does not exist.
    static func noFolder(_ path: String, _ dir: String) -> CLIFailure { CLIFailure(.noFolder, at: path, "the folder \(dir) does not exist") }

    /// `path` is an IIIF image without a georeference, given to `tegula serve`.
    static func iiifWithoutGeoreference(_ path: String) -> CLIFailure {
        CLIFailure(.notGeoreferenced, at: path, "an IIIF image without a georeference; serve its Georeference Annotation instead")
    }

    /// `path` has no GCPs and none were given.
    static func noGCPs(_ path: String) -> CLIFailure { CLIFailure(.notGeoreferenced, at: path, "no GCPs: give --gcps FILE") }

    /// Some maps of the pipeline `file` cannot run.
    static func mapsCannotRun(_ file: String) -> CLIFailure { CLIFailure(.mapsCannotRun, at: file, "some maps cannot run (see above)") }

    /// `scan` is a URL, so the editor has nowhere to save without `-o`.
    static func saveNeedsOutput(_ scan: String) -> CLIFailure {
        CLIFailure(.needsOption, at: scan, "an IIIF image or annotation by URL; give -o OUT.json (or .points, .csv) for Save to write")
    }

    /// `--basemap` `value` is neither a URL template nor a tileset.
    static func badBasemap(_ value: String) -> CLIFailure {
        CLIFailure(.badOption, at: "--basemap \(value)", "neither a URL template with {z}/{x}/{y} nor a tileset (folder, .mbtiles, .pmtiles)")
    }

    /// `path` is a URL but neither an IIIF image service nor an annotation of one.
    static func notIIIF(_ path: String) -> CLIFailure {
        CLIFailure(.badOption, at: path, "not an IIIF image service or an annotation of one")
    }

    /// `text` is not a quadkey.
    static func notAQuadkey(_ text: String) -> CLIFailure { CLIFailure(.badValue, "'\(text)' is not a quadkey: expected up to 30 digits 0–3") }

    /// `count` values where `usage` was expected.
    static func valueCount(_ count: Int, expected usage: String) -> CLIFailure { CLIFailure(.badValue, "expected \(usage), got \(count) values") }

    /// Stdin line `number` (`line`) does not hold `usage`.
    static func badLine(_ number: Int, _ line: String, expected usage: String) -> CLIFailure {
        CLIFailure(.badValue, at: "stdin line \(number)", "expected \(usage), got '\(line)'")
    }

    /// `--bbox` `text` is not four numbers.
    static func bboxForm(_ text: String) -> CLIFailure { CLIFailure(.badValue, at: "--bbox '\(text)'", "expected WEST,SOUTH,EAST,NORTH") }

    /// `--bbox` with `south` above `north`.
    static func bboxSouthAboveNorth(south: Double, north: Double) -> CLIFailure {
        CLIFailure(.badValue, at: "--bbox", "south \(south) is north of north \(north)")
    }

    /// `text`, given as `what`, is not a finite number.
    static func notANumber(_ text: String, _ what: String) -> CLIFailure { CLIFailure(.badValue, "\(what) '\(text)' is not a finite number") }

    /// `text` is not a zoom from 0 to `maxZoom`.
    static func badZoom(_ text: String, maxZoom: Int) -> CLIFailure {
        CLIFailure(.badValue, "zoom '\(text)' must be an integer from 0 to \(maxZoom)")
    }

    /// The tile `values` (Z X Y) has an X or Y that is not an integer.
    static func tileNotIntegers(_ values: [String]) -> CLIFailure {
        CLIFailure(.badValue, "tile '\(values.joined(separator: " "))': X and Y must be integers")
    }

    /// `tile` lies outside its zoom's grid.
    static func tileOutsideGrid(_ tile: some CustomStringConvertible, zoom z: Int) -> CLIFailure {
        CLIFailure(.badValue, "tile \(tile): X and Y must be in 0…\((1 << z) - 1) at zoom \(z)")
    }

    /// `error`, met on stdin line `number`: the same reason, placed on that line.
    static func onStdinLine(_ number: Int, _ error: CLIFailure) -> CLIFailure {
        CLIFailure(error.reason, at: "stdin line \(number)", error.description)
    }

    /// Stdin line `number` (`line`) is not two numbers.
    static func notTwoNumbers(_ number: Int, _ line: String) -> CLIFailure {
        CLIFailure(.badValue, at: "stdin:\(number)", "expected two numbers `x y`, got '\(line)'")
    }

    /// No pixel maps to the ground point `x y` of stdin line `number`.
    static func noPixel(line number: Int, x: Double, y: Double) -> CLIFailure {
        CLIFailure(.outsideTransform, at: "stdin:\(number)", "no pixel maps to \(x) \(y) (outside the transform's domain)")
    }

    /// The pixel `x y` of stdin line `number` has no position in `crs`.
    static func noPosition(line number: Int, x: Double, y: Double, crs: some CustomStringConvertible) -> CLIFailure {
        CLIFailure(.outsideTransform, at: "stdin:\(number)", "pixel \(x) \(y) has no position in \(crs)")
    }
}

/// Write a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Run a command body; a thrown error becomes one `tegula: …` line and exit code 1.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
        // What IIIF images cost (nothing when none was read; a failure stays one line).
        if let line = IIIFOptions.summary() { printError(line) }
    } catch let e as ExitCode {
        throw e
    } catch {
        printError("tegula: \(error)")
        throw ExitCode.failure
    }
}
