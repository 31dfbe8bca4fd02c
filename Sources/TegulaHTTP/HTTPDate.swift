import Foundation

/// The `Date` header's IMF-fixdate (RFC 9110 §5.6.7), formatted once per second.
struct HTTPDate {
    private var second = -1
    private var text = ""

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The current time, e.g. `Mon, 23 Nov 2026 08:33:00 GMT`.
    mutating func now() -> String {
        var t = time(nil)
        if Int(t) != second {
            second = Int(t)
            text = Self.format(&t)
        }
        return text
    }

    /// `t` (seconds since 1970) as an IMF-fixdate.
    static func format(_ t: inout time_t) -> String {
        var tm = tm()
        gmtime_r(&t, &tm)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(days[Int(tm.tm_wday)]), \(two(tm.tm_mday)) \(months[Int(tm.tm_mon)]) \(1900 + tm.tm_year) "
            + "\(two(tm.tm_hour)):\(two(tm.tm_min)):\(two(tm.tm_sec)) GMT"
    }
}
