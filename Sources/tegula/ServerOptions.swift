import ArgumentParser
import Foundation
import TegulaServer

/// The options every command that runs a server shares (`tegula serve`, `tegula edit`).
struct ServerOptions: ParsableArguments {
    @Option(help: "Address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "Port to listen on (0: any free port; the one chosen is printed).")
    var port: Int = 8080

    @Option(name: .customLong("render-threads"), help: "Threads rendering tiles on demand (default: the number of cores).")
    var renderThreads: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .customLong("leaflet-dir"), help: "Where Leaflet is installed (Debian libjs-leaflet).")
    var leafletDir: String = ViewerAssets.debianLeaflet

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0–65535, not \(port)") }
        guard renderThreads >= 1 else { throw ValidationError("--render-threads must be 1 or more, not \(renderThreads)") }
    }
}
