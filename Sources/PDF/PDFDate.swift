import CHaru
import Foundation

/// A moment as a PDF date (`D:YYYYMMDDHHmmSS+HH'mm'`) in the local time zone, ready for libharu.
struct PDFDate: CustomStringConvertible {
    let haruDate: HPDF_Date

    init(_ date: Date, timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let offsetMinutes = timeZone.secondsFromGMT(for: date) / 60
        let sign: UInt8 = offsetMinutes > 0 ? UInt8(ascii: "+") : offsetMinutes < 0 ? UInt8(ascii: "-") : UInt8(ascii: "Z")
        haruDate = HPDF_Date(
            year: HPDF_INT(parts.year ?? 1970), month: HPDF_INT(parts.month ?? 1), day: HPDF_INT(parts.day ?? 1),
            hour: HPDF_INT(parts.hour ?? 0), minutes: HPDF_INT(parts.minute ?? 0),
            // A leap second (60) would be refused by libharu.
            seconds: HPDF_INT(min(parts.second ?? 0, 59)),
            ind: CChar(bitPattern: sign),
            off_hour: HPDF_INT(abs(offsetMinutes) / 60), off_minutes: HPDF_INT(abs(offsetMinutes) % 60))
    }

    var description: String {
        let d = haruDate
        func two(_ n: HPDF_INT) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let zone = d.ind == CChar(UInt8(ascii: "Z")) ? "Z" : "\(UnicodeScalar(UInt8(d.ind)))\(two(d.off_hour))'\(two(d.off_minutes))'"
        return "D:\(d.year)\(two(d.month))\(two(d.day))\(two(d.hour))\(two(d.minutes))\(two(d.seconds))\(zone)"
    }

    /// The same moment as XMP writes it (ISO 8601, `2026-12-02T13:33:00Z` or `...+01:00`): an XMP date and the Info
    /// dictionary's must agree to the second for PDF/X.
    var xmpDescription: String {
        let d = haruDate
        func two(_ n: HPDF_INT) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let zone = d.ind == CChar(UInt8(ascii: "Z")) ? "Z" : "\(UnicodeScalar(UInt8(d.ind)))\(two(d.off_hour)):\(two(d.off_minutes))"
        return "\(d.year)-\(two(d.month))-\(two(d.day))T\(two(d.hour)):\(two(d.minutes)):\(two(d.seconds))\(zone)"
    }
}
