import CGDAL
import Foundation

/// A failure inside GDAL, naming the GDAL call and the file it was working on.
public struct GDALError: Error, CustomStringConvertible, Sendable {
    /// The GDAL C function that failed, e.g. `GDALOpenEx`.
    public var call: String
    /// The file or dataset path, when there is one.
    public var path: String?
    /// GDAL's own message (its last error), or ours when GDAL gave none.
    public var message: String

    public init(call: String, path: String?, message: String) {
        self.call = call
        self.path = path
        self.message = message
    }

    public var description: String {
        if let path {
            let m = message.replacingOccurrences(of: "\(path), ", with: "").replacingOccurrences(of: "\(path): ", with: "")
            return "\(path): \(m) (\(call))"
        }
        return "\(message) (\(call))"
    }

    /// Build an error from GDAL's last error on this thread, then reset it.
    static func last(_ call: String, path: String?, fallback: String) -> GDALError {
        let text = CPLGetLastErrorMsg().map { String(cString: $0) } ?? ""
        CPLErrorReset()
        return GDALError(call: call, path: path, message: text.isEmpty ? fallback : text)
    }

    /// Throw when GDAL recorded a failure or a warning since the last reset.
    ///
    /// Reads treat warnings as errors: a truncated JPEG only warns, and must not become grey
    /// pixels silently.
    static func checkLast(_ call: String, path: String?, warningsFail: Bool) throws {
        let type = CPLGetLastErrorType()
        if type == CE_Failure || type == CE_Fatal || (warningsFail && type == CE_Warning) {
            throw last(call, path: path, fallback: "\(call) failed")
        }
        CPLErrorReset()
    }
}
