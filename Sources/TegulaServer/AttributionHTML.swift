/// A tileset's `attribution` made safe to hand to a browser as HTML: text, character references
/// and plain `<a href="http(s)://…">` links, nothing else (issue 16). TileJSON says the field is
/// HTML and Leaflet inserts it with `innerHTML`, so an MBTiles or PMTiles from a stranger could
/// otherwise put markup that runs script into the viewer (`<img onerror>`, `javascript:` links).
///
/// The output is built, not filtered: every `<`, `>` and `"` of the input's text comes out as a
/// character reference; an `<a>` tag comes out as `<a href="…">` with its href re-escaped only
/// when that href starts with `http://` or `https://` (checked on the raw text, so a scheme
/// spelt with character references, such as `java&#115;cript:`, is not a link); every other
/// tag, comment or attribute is dropped and its text kept. Links do not nest; one left open is
/// closed at the end.
public enum AttributionHTML {
    /// `html` as text plus plain http(s) links.
    public static func sanitized(_ html: String) -> String {
        let s = Array(html.unicodeScalars)
        var out = ""
        var text: [Unicode.Scalar] = []
        var linkOpen = false
        var i = 0
        while i < s.count {
            guard s[i] == "<", let end = tagEnd(s, from: i) else {
                text.append(s[i])
                i += 1
                continue
            }
            out += escaped(text)
            text = []
            if end == s.count { break }  // unterminated (an unclosed quote, say): dropped, as browsers do
            switch Tag(s[(i + 1)..<end]) {
            case .anchor(let href):
                if linkOpen { out += "</a>" }
                // Leading spaces dropped, as browsers drop them; then only http(s) links.
                let url = href.map { Array($0.unicodeScalars.drop(while: isSpace)) } ?? []
                linkOpen = isWebURL(String(String.UnicodeScalarView(url)))
                if linkOpen { out += "<a href=\"" + escaped(url) + "\">" }
            case .anchorEnd:
                if linkOpen { out += "</a>" }
                linkOpen = false
            case .other:
                break
            }
            i = end + 1
        }
        out += escaped(text)
        if linkOpen { out += "</a>" }
        return out
    }

    /// Index of the `>` ending a tag that opens at `start` (`<` then a letter, `/`, `!` or `?`),
    /// skipping quoted attribute values, or the end of `s` when none does (so each scalar is
    /// scanned once); nil when it is no tag (the `<` is then text).
    static func tagEnd(_ s: [Unicode.Scalar], from start: Int) -> Int? {
        guard start + 1 < s.count else { return nil }
        let first = s[start + 1]
        guard first.properties.isAlphabetic || first == "/" || first == "!" || first == "?" else { return nil }
        var quote: Unicode.Scalar?
        var i = start + 1
        while i < s.count {
            let c = s[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == ">" {
                return i
            }
            i += 1
        }
        return s.count
    }

    /// What a tag (the text between `<` and `>`) is, as far as links go.
    enum Tag: Equatable {
        /// `<a …>` with its first href (nil when it has none).
        case anchor(href: String?)
        /// `</a>`.
        case anchorEnd
        /// Any other tag, comment or declaration: dropped.
        case other

        init(_ tag: ArraySlice<Unicode.Scalar>) {
            let lower = String(String.UnicodeScalarView(tag)).lowercased()
            if lower == "/a" || (lower.hasPrefix("/a") && lower.unicodeScalars.dropFirst(2).allSatisfy(AttributionHTML.isSpace)) {
                self = .anchorEnd
            } else if lower == "a" || (lower.hasPrefix("a") && AttributionHTML.isSpace(lower.unicodeScalars.dropFirst().first!)) {
                self = .anchor(href: Self.href(tag.dropFirst()))
            } else {
                self = .other
            }
        }

        /// The first href among `name[=value]` attributes, values quoted or not.
        static func href(_ attributes: ArraySlice<Unicode.Scalar>) -> String? {
            let a = attributes
            var i = a.startIndex
            func skip(_ p: (Unicode.Scalar) -> Bool) { while i < a.endIndex && p(a[i]) { i += 1 } }
            while i < a.endIndex {
                skip { AttributionHTML.isSpace($0) || $0 == "/" }
                let nameStart = i
                skip { !AttributionHTML.isSpace($0) && $0 != "=" && $0 != "/" }
                let name = String(String.UnicodeScalarView(a[nameStart..<i])).lowercased()
                skip(AttributionHTML.isSpace)
                var value: String?
                if i < a.endIndex && a[i] == "=" {
                    i += 1
                    skip(AttributionHTML.isSpace)
                    var valueRange = i..<i
                    if i < a.endIndex && (a[i] == "\"" || a[i] == "'") {
                        let q = a[i]
                        i += 1
                        let start = i
                        skip { $0 != q }
                        valueRange = start..<i
                        if i < a.endIndex { i += 1 }
                    } else {
                        skip { !AttributionHTML.isSpace($0) }
                        valueRange = valueRange.lowerBound..<i
                    }
                    value = String(String.UnicodeScalarView(a[valueRange]))
                }
                if name == "href" { return value }
                if i == nameStart { i += 1 }  // a lone `=`: step over it
            }
            return nil
        }
    }

    /// Only web links: `http://` or `https://`, any case. Anything else, `javascript:` and
    /// `data:` included, is no link.
    static func isWebURL(_ href: String) -> Bool {
        let h = href.lowercased()
        return h.hasPrefix("http://") || h.hasPrefix("https://")
    }

    /// Length of a character reference at `i` (`&name;`, `&#123;`, `&#x1F;`), nil when the `&`
    /// starts none (it is then written as `&amp;`).
    static func referenceLength(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        var j = i + 1
        let numeric = j < s.count && s[j] == "#"
        let hex = numeric && j + 1 < s.count && (s[j + 1] == "x" || s[j + 1] == "X")
        if numeric { j += hex ? 2 : 1 }
        let digitsStart = j
        while j < s.count && j - digitsStart < 32 {
            let c = s[j]
            let ok =
                hex
                ? c.properties.isASCIIHexDigit
                : numeric
                    ? ("0"..."9").contains(c)
                    : c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c))
            guard ok else { break }
            j += 1
        }
        guard j > digitsStart, j < s.count, s[j] == ";" else { return nil }
        if !numeric && !s[digitsStart].properties.isAlphabetic { return nil }
        return j + 1 - i
    }

    static func isSpace(_ c: Unicode.Scalar) -> Bool {
        c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}"
    }

    /// Text for HTML, in an element or a double-quoted attribute: character references kept,
    /// `<`, `>`, `&`, `"` and `'` otherwise written as references.
    static func escaped(_ s: [Unicode.Scalar]) -> String {
        var out = ""
        var i = 0
        while i < s.count {
            if s[i] == "&", let length = referenceLength(s, at: i) {
                out.unicodeScalars.append(contentsOf: s[i..<(i + length)])
                i += length
                continue
            }
            switch s[i] {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(s[i])
            }
            i += 1
        }
        return out
    }
}
