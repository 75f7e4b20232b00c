import Foundation

/// `SOURCE_DATE_EPOCH` (reproducible-builds.org): the moment a reproducible build writes instead of the time
/// of day, as whole seconds since 1970-01-01 00:00:00 UTC.
enum SourceDateEpoch {
    static let variable = "SOURCE_DATE_EPOCH"
    /// 9999-12-31 23:59:59 UTC: a PDF date has four digits of year.
    static let latest = 253_402_300_799

    /// The date `text` names; nil when the variable is unset or empty (as a build system clears it). A value that
    /// is set but malformed is an error, never ignored: a build that meant to be reproducible would silently not be.
    static func date(from text: String?) -> Result<Date?, CLIError> {
        guard let text, !text.isEmpty else { return .success(nil) }
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let seconds = Int(text), seconds <= latest else {
            return .failure(.usage("\(variable): \(ValueError.quote(text)) is not a whole number of seconds since "
                                   + "1970-01-01 00:00:00 UTC from 0 to \(latest)"))
        }
        return .success(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
