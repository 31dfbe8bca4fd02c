import ArgumentParser
import Logging

/// `--log-level`: swift-log's levels up to `error`, so errors are always logged (`critical`,
/// which would hide them, is not offered). Parsed once at the edge.
enum LogLevel: String, CaseIterable, ExpressibleByArgument {
    case trace, debug, info, notice, warning, error

    /// The swift-log level.
    var level: Logger.Level {
        switch self {
        case .trace: return .trace
        case .debug: return .debug
        case .info: return .info
        case .notice: return .notice
        case .warning: return .warning
        case .error: return .error
        }
    }
}
