/// The editor page's script (`Pages/editor.js`, embedded in the binary by SwiftPM's `embedInCode`),
/// served as `/editor.js`. It talks to the server only through the HTTP API (`/api/session`,
/// `/api/fit`, `/api/predict`), the scan's IIIF service (``ScanPane``) and tiles; undo and redo are an operation log in the page.
enum EditorScript {
    static let source = String(decoding: PackageResources.editor_js, as: UTF8.self)
}
