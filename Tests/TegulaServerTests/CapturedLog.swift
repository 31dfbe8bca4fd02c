import Foundation
import Logging

extension ServerFixtures {
    /// A log handler keeping every line it is given, for assertions.
    final class CapturedLog: LogHandler, @unchecked Sendable {
        struct Line {
            var level: Logger.Level
            var message: String
        }
        private let lock = NSLock()
        private var stored: [Line] = []
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level

        init(level: Logger.Level) { logLevel = level }

        var lines: [Line] { lock.lock(); defer { lock.unlock() }; return stored }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        /// A logger labelled as the server's, logging into this capture.
        var logger: Logger { Logger(label: "tegula.serve") { _ in self } }

        func log(event: LogEvent) {
            lock.lock(); defer { lock.unlock() }
            stored.append(Line(level: event.level, message: "\(event.message)"))
        }
    }
}
