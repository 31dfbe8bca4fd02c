import TegulaFetch

/// The process's one HTTP transport (Foundation's URLSession; libcurl on Linux), made at its first
/// use and passed to every client the commands make: the IIIF client, PMTiles read by range.
/// The libraries keep none of their own.
enum Network {
    static let transport: any HTTPTransport = URLSessionTransport()
}
