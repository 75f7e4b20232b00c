extension CaptureDate {
    /// The moment `seconds` after 1970-01-01 00:00 UTC, read in UTC (offset +00:00); nil outside the years 1-9999.
    ///
    /// For dates kept as a moment and not as a clock's reading (Google Takeout's `photoTakenTime`): the local time
    /// where the photo was taken is not known, only the moment.
    public init?(unixSeconds seconds: Int64) {
        let (days, second) = (seconds.quotientAndRemainder(dividingBy: 86_400))
        let dayNumber = second < 0 ? days - 1 : days
        let secondOfDay = Int(second < 0 ? second + 86_400 : second)
        // H. Hinnant's civil_from_days, on days since 1970-01-01.
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        guard (1...9999).contains(year) else { return nil }
        self.init(year: Int(year), month: month, day: day, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60,
                  second: secondOfDay % 60, utcOffsetMinutes: 0)
    }
}
