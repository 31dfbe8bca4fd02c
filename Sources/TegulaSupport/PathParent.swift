/// The folder part of a file path, as `NSString.deletingLastPathComponent` gives it, which traps
/// on a bare one-character name in swift-corelibs-foundation 6.3 (`tegula tile scan.tif -o t`
/// crashed): "" for a bare name, "/" for a name in the root, trailing slashes ignored.
extension String {
    public var parentPath: String {
        var path = Substring(self)
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        var parent = path[..<slash]
        while parent.count > 1 && parent.hasSuffix("/") { parent.removeLast() }
        return parent.isEmpty ? "/" : String(parent)
    }
}
