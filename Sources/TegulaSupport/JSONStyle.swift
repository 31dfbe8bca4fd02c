import Foundation

/// How Tegula writes JSON: the one place that names the encoder configurations, so every file and
/// answer of one kind has the same bytes. Keys are always sorted: an encoded struct's key order
/// otherwise changes from run to run (the encoder keeps a Swift dictionary).
///
/// Two styles, ``readable`` and ``compact``, and two variations that a few outputs keep so that
/// their bytes stay what they were: ``escapingSlashes`` and ``nonFiniteAsStrings``.
public struct JSONStyle: Sendable, Equatable {
    /// The encoder's output formatting.
    public let formatting: JSONEncoder.OutputFormatting
    /// Whether infinities and NaN are written as the strings `"inf"`, `"-inf"` and `"nan"`
    /// (otherwise encoding them fails).
    public let writesNonFiniteAsStrings: Bool

    /// Files and answers a person reads: indented, keys sorted, `/` as is. The fit report, the
    /// editor's session and fits, the run's manifest, `tegula info --json`.
    public static let readable = JSONStyle(
        formatting: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes],
        writesNonFiniteAsStrings: false)
    /// One line, keys sorted, `/` as is: HTTP answers, the pages' configuration, TileJSON and
    /// tile metadata, info.json, hashed sections, markers and headers of files.
    public static let compact = JSONStyle(
        formatting: [.sortedKeys, .withoutEscapingSlashes],
        writesNonFiniteAsStrings: false)

    /// The same style with `/` written `\/`, as Foundation does by default: for stored bytes
    /// written so before ``compact`` and ``readable`` existed (the pins and footprint in a
    /// georeferenced raster's metadata, the composite's part records and tone file, the IIIF
    /// cache's entry headers).
    public var escapingSlashes: JSONStyle {
        JSONStyle(formatting: formatting.subtracting(.withoutEscapingSlashes), writesNonFiniteAsStrings: writesNonFiniteAsStrings)
    }

    /// The same style with infinities and NaN written as `"inf"`, `"-inf"` and `"nan"`: for
    /// records of measurements that may hold them (the fit report, the sheet index).
    public var nonFiniteAsStrings: JSONStyle {
        JSONStyle(formatting: formatting, writesNonFiniteAsStrings: true)
    }

    /// A new encoder in this style.
    public func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = formatting
        if writesNonFiniteAsStrings {
            e.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        }
        return e
    }

    /// `value` encoded in this style.
    public func encode(_ value: some Encodable) throws -> Data {
        try encoder().encode(value)
    }

    /// The same formatting for `JSONSerialization`, for values that are not `Encodable` (an
    /// annotation built as a dictionary, a PROJJSON object read as one).
    public var writingOptions: JSONSerialization.WritingOptions {
        var o: JSONSerialization.WritingOptions = []
        if formatting.contains(.prettyPrinted) { o.insert(.prettyPrinted) }
        if formatting.contains(.sortedKeys) { o.insert(.sortedKeys) }
        if formatting.contains(.withoutEscapingSlashes) { o.insert(.withoutEscapingSlashes) }
        return o
    }

    /// `value` encoded in this style, as text.
    public func string(_ value: some Encodable) throws -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }
}
