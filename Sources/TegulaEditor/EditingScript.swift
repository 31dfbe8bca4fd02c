/// What the two editor pages share (`Pages/editing.js`, embedded in the binary by SwiftPM's
/// `embedInCode`), served as `/editing.js` by the GCP editor and the tie editor alike: HTML
/// escaping, copies, rounding and figures, the undo and redo log, the keys both read the same way.
enum EditingScript {
    static let source = String(decoding: PackageResources.editing_js, as: UTF8.self)
}
