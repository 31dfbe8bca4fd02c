/// Where an input lives, parsed once at the edge (a command's argument, a pipeline file's
/// `input:`, a PATH given to `tegula serve`): a local file, or an http(s) URL (the scheme in any
/// case, as RFC 3986 §3.1 compares schemes). The text stays exactly as given, since a scan's name
/// is hashed into fit versions and ETags: a relative path is never made absolute here.
public enum Location: Hashable, Sendable, CustomStringConvertible {
    /// A path on this machine, as given.
    case file(String)
    /// An `http://` or `https://` URL, as given.
    case url(String)

    /// `text` as a URL when it starts with `http://` or `https://` in any case, else as a file path.
    public init(_ text: String) {
        let lower = text.prefix(8).lowercased()
        self = lower.hasPrefix("http://") || lower.hasPrefix("https://") ? .url(text) : .file(text)
    }

    /// True for an http(s) URL.
    public var isURL: Bool {
        if case .url = self { return true }
        return false
    }

    /// The path or URL exactly as given.
    public var description: String {
        switch self {
        case .file(let path): return path
        case .url(let url): return url
        }
    }
}
