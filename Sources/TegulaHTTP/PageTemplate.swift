import Foundation

/// A web page from an HTML file embedded as a resource, with named slots written `{{name}}` as the
/// whole content of an element (`<style>{{style}}</style>`,
/// `<script id="config" type="application/json">{{config}}</script>`), filled in one pass: text
/// put in a slot is never searched for slots, and every slot must be given a value.
///
/// What goes in a slot is the caller's to make safe there: a stylesheet of ours, or JSON through
/// ``scriptSafe(json:)``.
public struct PageTemplate: Sendable {
    /// Literal text and slot names, alternating: text, name, text, …, text.
    private let parts: [String]

    /// Splits `html` (UTF-8, as `PackageResources` holds it) at its slots.
    public init(_ html: [UInt8]) {
        var parts: [String] = []
        var rest = Substring(String(decoding: html, as: UTF8.self))
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            parts.append(String(rest[..<open.lowerBound]))
            parts.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        parts.append(String(rest))
        self.parts = parts
    }

    /// JSON text made safe to embed in a `<script>` element: in JSON `<` can only stand inside a
    /// string, where `\u003c` means the same, so no id, name or attribution can close the script
    /// element or open a comment (`</script>`, `<!--`).
    public static func scriptSafe(json: String) -> String {
        json.replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// The slots' names, in the order they appear.
    public var slots: [String] { stride(from: 1, to: parts.count, by: 2).map { parts[$0] } }

    /// The page with each slot replaced by `values[name]`; a slot without a value is a programming
    /// error (the templates are files of this package, and the tests build every page).
    public func filled(_ values: [String: String]) -> String {
        var page = ""
        for (i, part) in parts.enumerated() {
            if i % 2 == 0 {
                page += part
            } else {
                guard let value = values[part] else { preconditionFailure("page slot {{\(part)}} has no value") }
                page += value
            }
        }
        return page
    }
}
