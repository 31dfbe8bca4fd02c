import ArgumentParser

@main
struct Tegula: AsyncParsableCommand {
    /// The release version, in one place: `tegula --version` prints it and scripts/package names
    /// the Debian package after what the built binary prints.
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "tegula",
        abstract: "Turn scanned paper maps into web map tiles.",
        discussion: """
            Stages: georeference a scan with ground control points, warp it onto the EPSG:3857 tile \
            grid (or another tile matrix set's, --tms), cut a tile pyramid, serve it. Each stage runs \
            on its own.
            """,
        version: version,
        subcommands: [
            GridCommand.self, InfoCommand.self, GeorefCommand.self, MatchCommand.self, TransformCommand.self, WarpCommand.self,
            TileCommand.self, RunCommand.self, ServeCommand.self, EditCommand.self,
        ])
}
