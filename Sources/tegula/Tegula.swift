import ArgumentParser

@main
struct Tegula: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tegula",
        abstract: "Turn scanned paper maps into web map tiles.",
        discussion: """
        Stages: georeference a scan with ground control points, warp it onto the EPSG:3857 tile \
        grid, cut a tile pyramid, serve it. Each stage runs on its own.
        """,
        version: "0.1.0",
        subcommands: [GridCommand.self, InfoCommand.self, GeorefCommand.self, TransformCommand.self, WarpCommand.self, TileCommand.self, ServeCommand.self])
}
