/// An opaque 8-bit sRGB colour, as pipeline files and the command line write it: `#RRGGBB`.
public struct RGBColor: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    /// A colour from its three channels.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parse `#RRGGBB` (hex digits in either case); nil for anything else.
    public init?(hex text: String) {
        let digits = Array(text.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#"),
            let v = UInt32(String(decoding: digits[1...], as: UTF8.self), radix: 16),
            digits[1...].allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) })
        else { return nil }
        self.init(red: UInt8(v >> 16), green: UInt8((v >> 8) & 0xFF), blue: UInt8(v & 0xFF))
    }

    /// `#rrggbb`, lower case.
    public var hex: String {
        func two(_ v: UInt8) -> String { (v < 16 ? "0" : "") + String(v, radix: 16) }
        return "#" + two(red) + two(green) + two(blue)
    }

    public var description: String { hex }
}
