import Foundation

/// Comma-separated values as RFC 4180 defines them: fields may be quoted with `"`, `""` inside
/// quotes is one quote, a quoted field may hold separators and line ends, lines end in CRLF, LF
/// or a lone CR (old Mac spreadsheets). Every record keeps its line and every field its column, so an error can name its place.
/// The one CSV reader: sheet lists (`maps_from:`) and GCP files (`.csv`, `.points`) both read
/// through it.
///
/// Two extensions for GCP files: fields separated by runs of tabs or spaces (older QGIS
/// `.points`), chosen line by line when asked, and comment lines (`#CRS: …`) returned whole.
public enum CSV {
    /// One field: its text (quotes removed, `""` made `"`, spaces kept) and its 1-based column.
    public struct Field: Sendable, Equatable {
        /// The value.
        public var text: String
        /// Where it starts on its line, counted in Unicode scalars from 1.
        public var column: Int

        /// A field from its parts.
        public init(text: String, column: Int) {
            self.text = text
            self.column = column
        }
    }

    /// One record: the line it starts on, its fields, and its text as written.
    public struct Record: Sendable, Equatable {
        /// The 1-based line of its first character.
        public var line: Int
        /// The fields in order; a comment line has none.
        public var fields: [Field]
        /// The record as written, line ends inside quotes kept, its own line end left out.
        public var raw: String
        /// True for a line that starts with the comment character (``records(_:separator:comment:)``).
        public var isComment: Bool

        /// A record from its parts.
        public init(line: Int, fields: [Field], raw: String, isComment: Bool = false) {
            self.line = line
            self.fields = fields
            self.raw = raw
            self.isComment = isComment
        }

        /// The fields' texts.
        public var texts: [String] { fields.map(\.text) }
        /// True when the record holds nothing but spaces.
        public var isBlank: Bool { !isComment && raw.unicodeScalars.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" } }
    }

    /// What separates fields.
    public enum Separator: Sendable, Equatable {
        /// A comma; empty fields count (RFC 4180).
        case comma
        /// Runs of one character, such as a tab or a space; leading, trailing and repeated ones
        /// make no empty fields.
        case runs(of: Unicode.Scalar)
        /// Chosen for each record by its first line: a comma if it holds one, else runs of tabs
        /// if it holds one, else runs of spaces.
        case perLine
    }

    /// Split `text` into records. `comment`: a line starting with it (spaces before it allowed)
    /// is returned whole, ``Record/isComment``, quotes in it not read. A blank line is a record
    /// (one empty field with commas, none with runs); ``Record/isBlank`` tells it.
    public static func records(
        _ text: String, separator: Separator = .comma,
        comment: Unicode.Scalar? = nil
    ) throws(CSVError) -> [Record] {
        var reader = Reader(Array(text.unicodeScalars), separator: separator, comment: comment)
        return try reader.all()
    }

    /// Quote a value as a CSV field when it must be (it holds a comma, a quote or a line end):
    /// in quotes, inner quotes doubled. Else the value as it is.
    public static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The state of one pass over the text.
    struct Reader {
        let s: [Unicode.Scalar]
        let separator: Separator
        let comment: Unicode.Scalar?
        var i = 0, line = 1, column = 1

        init(_ s: [Unicode.Scalar], separator: Separator, comment: Unicode.Scalar?) {
            self.s = s
            self.separator = separator
            self.comment = comment
        }

        mutating func all() throws(CSVError) -> [Record] {
            var records: [Record] = []
            while i < s.count { records.append(try record()) }
            return records
        }

        /// The separator of the record starting at `i`: the one asked for, or the one its line
        /// holds (``Separator/perLine``); nil for runs.
        func separatorHere() -> (scalar: Unicode.Scalar, runs: Bool) {
            switch separator {
            case .comma: return (",", false)
            case .runs(let c): return (c, true)
            case .perLine:
                var j = i
                var tab = false
                while j < s.count, !isLineEnd(j) {
                    if s[j] == "," { return (",", false) }
                    if s[j] == "\t" { tab = true }
                    j += 1
                }
                return (tab ? "\t" : " ", true)
            }
        }

        /// Reads the record at `i` and its line end.
        mutating func record() throws(CSVError) -> Record {
            let start = i, recordLine = line
            if let comment {
                var j = i
                while j < s.count, s[j] == " " || s[j] == "\t" { j += 1 }
                if j < s.count, s[j] == comment {
                    while i < s.count, !isLineEnd(i) { i += 1 }
                    var rawEnd = i
                    while rawEnd > start, s[rawEnd - 1] == "\r" { rawEnd -= 1 }
                    let raw = text(start, rawEnd)
                    endLine()
                    return Record(line: recordLine, fields: [], raw: raw, isComment: true)
                }
            }
            let (sep, runs) = separatorHere()
            var fields: [Field] = []
            var field = String.UnicodeScalarView()
            var fieldColumn = column
            var wasQuoted = false
            func end() {
                if !runs || !field.isEmpty || wasQuoted { fields.append(Field(text: String(field), column: fieldColumn)) }
                field = String.UnicodeScalarView()
                wasQuoted = false
            }
            while i < s.count {
                let c = s[i]
                if c == "\"" {
                    guard String(field).trimmingCharacters(in: .whitespaces).isEmpty, !wasQuoted else {
                        throw CSVError(line: line, column: column, "a quote inside an unquoted field; quote the whole field and double inner quotes")
                    }
                    field = String.UnicodeScalarView()
                    wasQuoted = true
                    try quoted(into: &field)
                } else if c == sep {
                    end()
                    i += 1
                    column += 1
                    fieldColumn = column
                } else if isLineEnd(i) {
                    break
                } else if c == "\r" {
                    i += 1
                    column += 1
                } else {
                    if wasQuoted && !c.properties.isWhitespace {
                        throw CSVError(
                            line: line, column: column,
                            "text after a closing quote; expected \(sep == "," ? "a comma" : "a separator") or the end of the line")
                    }
                    field.append(c)
                    i += 1
                    column += 1
                }
            }
            end()
            var rawEnd = i
            while rawEnd > start, s[rawEnd - 1] == "\r" { rawEnd -= 1 }
            let raw = text(start, rawEnd)
            endLine()
            return Record(line: recordLine, fields: fields, raw: raw)
        }

        /// Reads a quoted field from its opening quote at `i` to just after its closing quote.
        mutating func quoted(into field: inout String.UnicodeScalarView) throws(CSVError) {
            let openLine = line, openColumn = column
            i += 1
            column += 1
            while i < s.count {
                let c = s[i]
                if c == "\"" {
                    if i + 1 < s.count, s[i + 1] == "\"" {
                        field.append("\"")
                        i += 2
                        column += 2
                        continue
                    }
                    i += 1
                    column += 1
                    return
                }
                let breaks = isLineEnd(i)
                field.append(c)
                i += 1
                if breaks { line += 1; column = 1 } else { column += 1 }
            }
            throw CSVError(line: openLine, column: openColumn, "a quoted field is never closed")
        }

        /// True at an LF, or a CR that no LF follows (the CR of a CRLF is skipped as text).
        func isLineEnd(_ j: Int) -> Bool {
            s[j] == "\n" || (s[j] == "\r" && (j + 1 == s.count || s[j + 1] != "\n"))
        }

        /// Steps over the line end at `i`, if any.
        mutating func endLine() {
            if i < s.count, isLineEnd(i) {
                i += 1
                line += 1
                column = 1
            }
        }

        func text(_ a: Int, _ b: Int) -> String {
            var v = String.UnicodeScalarView()
            v.append(contentsOf: s[a..<b])
            return String(v)
        }
    }
}

/// CSV text that breaks RFC 4180 (an unclosed quote, a quote inside an unquoted field), with
/// the 1-based line and column where it does.
public struct CSVError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line of the fault.
    public var line: Int
    /// Its column, in Unicode scalars from 1.
    public var column: Int
    /// What is wrong and what would be right.
    public var message: String

    /// An error at `line`:`column`.
    public init(line: Int, column: Int, _ message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line:column: message`.
    public var description: String { "\(line):\(column): \(message)" }
}
