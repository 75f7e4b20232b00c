/// When a photo was taken, as its camera recorded it: the date and time on the camera's clock, to the
/// fraction of a second, and the camera's offset from UTC when it said what that was.
///
/// EXIF keeps the three apart (DateTimeOriginal, SubSecTimeOriginal, OffsetTimeOriginal), and most cameras
/// without a phone inside write no offset at all. So the local reading is the fact and the offset is an
/// optional extra: a caption shows the local reading (what the clock on the wall said where the photo was
/// taken), and only an order across time zones needs the instant.
public struct CaptureDate: Sendable, Hashable, Codable {
    public let year: Int, month: Int, day: Int
    public let hour: Int, minute: Int, second: Int
    /// Nanoseconds past `second` (from SubSecTimeOriginal's fraction digits); 0 when the camera did not say.
    public let nanosecond: Int
    /// Minutes east of UTC (+02:00 is 120); nil when the camera did not say, which is not the same as UTC.
    public let utcOffsetMinutes: Int?

    /// A date from its parts; nil unless it is a real date and time (no month 13, no 30 February, no hour 24)
    /// with an offset of at most 18 hours either way.
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanosecond: Int = 0,
                 utcOffsetMinutes: Int? = nil) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Self.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
              (0..<1_000_000_000).contains(nanosecond) else { return nil }
        if let offset = utcOffsetMinutes, !(-18 * 60...18 * 60).contains(offset) { return nil }
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
        self.nanosecond = nanosecond
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// Reads EXIF's three text fields; nil when `dateTime` is not a valid date and time.
    ///
    /// `dateTime` is "YYYY:MM:DD HH:MM:SS" (a "-" or "/" between the date's parts and a "T" before the time are
    /// accepted too: some software writes them). A `subSeconds` or `offset` that cannot be read is ignored
    /// rather than costing the photo its date: the date alone still places it within a second, or an hour.
    public init?(exifDateTime dateTime: String, subSeconds: String? = nil, offset: String? = nil) {
        let text = Array(dateTime.utf8.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed())
        guard text.count == 19 || text.count == 16 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (0x30...0x39).contains(text[index]) else { return nil }
                value = value * 10 + Int(text[index] - 0x30)
            }
            return value
        }
        let dateSeparators: Set<UInt8> = [0x3A, 0x2D, 0x2F]  // ":", "-", "/"
        guard dateSeparators.contains(text[4]), text[7] == text[4], text[10] == 0x20 || text[10] == 0x54,
              text[13] == 0x3A, text.count == 16 || text[16] == 0x3A,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16) else { return nil }
        // Without seconds ("2005:01:01 12:00") the minute is still worth having.
        guard let second = text.count == 19 ? number(17..<19) : 0 else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                  nanosecond: subSeconds.flatMap(Self.nanoseconds) ?? 0,
                  utcOffsetMinutes: offset.flatMap(Self.offsetMinutes))
    }

    /// SubSecTimeOriginal's digits as a fraction of a second ("5" is half a second, "050" 50 ms); nil unless
    /// it is digits only, spaces around them allowed. Digits past the ninth (below a nanosecond) are dropped.
    static func nanoseconds(_ text: String) -> Int? {
        let digits = Array(text.utf8.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed())
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var value = 0
        for index in 0..<9 { value = value * 10 + (index < digits.count ? Int(digits[index] - 0x30) : 0) }
        return value
    }

    /// `nanoseconds(text)` for callers outside the module: nil unless SubSecTimeOriginal's text is digits.
    public static func nanosecondsIfReadable(_ text: String) -> Int? { nanoseconds(text) }

    /// OffsetTimeOriginal ("+02:00", "-05:30"; "+0200" and "+02" are accepted) in minutes east of UTC; nil when
    /// blank ("   :  " is how EXIF writes unknown) or unreadable.
    static func offsetMinutes(_ text: String) -> Int? {
        let bytes = Array(text.utf8.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed())
        guard let sign = bytes.first, sign == 0x2B || sign == 0x2D else { return nil }
        var digits = Array(bytes.dropFirst())
        if digits.count == 5 && digits[2] == 0x3A { digits.remove(at: 2) }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        let hours = Int(digits[0] - 0x30) * 10 + Int(digits[1] - 0x30)
        let minutes = digits.count == 4 ? Int(digits[2] - 0x30) * 10 + Int(digits[3] - 0x30) : 0
        // Past 18 hours is no place on Earth: a wrong offset, which must not cost the photo its date.
        guard minutes < 60, hours * 60 + minutes <= 18 * 60 else { return nil }
        return (sign == 0x2D ? -1 : 1) * (hours * 60 + minutes)
    }

    private enum CodingKeys: String, CodingKey {
        case year, month, day, hour, minute, second, nanosecond, utcOffsetMinutes
    }

    /// Decodes the parts and checks them as `init?(year:...)` does: a plan file edited by hand must not carry a
    /// date the arithmetic here was never meant for (a year of 10^15 would overflow the instant).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let date = CaptureDate(year: try c.decode(Int.self, forKey: .year), month: try c.decode(Int.self, forKey: .month),
                               day: try c.decode(Int.self, forKey: .day), hour: try c.decode(Int.self, forKey: .hour),
                               minute: try c.decode(Int.self, forKey: .minute), second: try c.decode(Int.self, forKey: .second),
                               nanosecond: try c.decodeIfPresent(Int.self, forKey: .nanosecond) ?? 0,
                               utcOffsetMinutes: try c.decodeIfPresent(Int.self, forKey: .utcOffsetMinutes))
        guard let date else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not a real date and time"))
        }
        self = date
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The camera's local reading as people write it, "2024-05-01 14:03:07" (no fraction, no offset): what a
    /// caption shows, since it is the time where the photo was taken.
    public var localText: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
    }

    /// The local reading as a point on one time line from 0001-01-01 00:00, as if the camera's clock ran on UTC.
    ///
    /// Seconds and nanoseconds are kept apart because 10,000 years of nanoseconds (3.2e20) overflow an Int64.
    public var localInstant: Instant {
        Instant(seconds: Self.daysFromCivil(year: year, month: month, day: day) * 86_400
                    + Int64(hour * 3600 + minute * 60 + second),
                nanosecond: nanosecond)
    }

    /// The moment the photo was taken, with `assumedOffsetMinutes` standing in for an offset the camera did not
    /// write (its own offset wins when it wrote one).
    public func instant(assumingOffsetMinutes assumed: Int) -> Instant {
        let local = localInstant
        return Instant(seconds: local.seconds - Int64((utcOffsetMinutes ?? assumed) * 60), nanosecond: local.nanosecond)
    }

    /// Days from 0001-01-01 in the proleptic Gregorian calendar (H. Hinnant's days_from_civil, shifted).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra
    }

    /// A point in time to the nanosecond: whole seconds and the nanoseconds past them, compared in that order.
    public struct Instant: Sendable, Hashable, Comparable, Codable {
        public var seconds: Int64
        public var nanosecond: Int
        public init(seconds: Int64, nanosecond: Int) {
            self.seconds = seconds
            self.nanosecond = nanosecond
        }
        public static func < (a: Instant, b: Instant) -> Bool {
            (a.seconds, a.nanosecond) < (b.seconds, b.nanosecond)
        }
    }
}

extension CaptureDate: Comparable {
    /// Earlier moment first, a date without an offset taken as UTC: the only fair rule for two photos alone.
    /// A whole set of photos can do better (PhotoOrder borrows an offset from the photos around one without).
    /// Equal moments fall back on the local reading, so that the order is total and `==` agrees with it.
    public static func < (a: CaptureDate, b: CaptureDate) -> Bool {
        let x = a.instant(assumingOffsetMinutes: 0), y = b.instant(assumingOffsetMinutes: 0)
        if x != y { return x < y }
        let p = a.localInstant, q = b.localInstant
        if p != q { return p < q }
        return (a.utcOffsetMinutes ?? Int.min) < (b.utcOffsetMinutes ?? Int.min)
    }
}
