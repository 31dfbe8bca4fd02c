/// Text made safe inside XML elements and double-quoted attributes (XML 1.0 §2.4): the four
/// characters with a meaning there — `& < > "` — become entity references.
public enum XMLText {
    /// `s` with `&`, `<`, `>` and `"` escaped (`&` first, so no entity is escaped twice).
    public static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
