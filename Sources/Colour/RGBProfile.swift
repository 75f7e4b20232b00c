import CLCMS

/// Where an RGB space's primaries and white point lie (CIE 1931 xy).
public struct Chromaticities: Sendable, Equatable {
    public var red: (x: Double, y: Double), green: (x: Double, y: Double), blue: (x: Double, y: Double)
    public var white: (x: Double, y: Double)

    public init(red: (x: Double, y: Double), green: (x: Double, y: Double), blue: (x: Double, y: Double),
                white: (x: Double, y: Double)) {
        self.red = red; self.green = green; self.blue = blue; self.white = white
    }

    public static func == (a: Chromaticities, b: Chromaticities) -> Bool {
        a.red == b.red && a.green == b.green && a.blue == b.blue && a.white == b.white
    }

    static let d65 = (x: 0.3127, y: 0.3290)
    /// ITU-R BT.709, the primaries of sRGB.
    public static let bt709 = Chromaticities(red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060), white: d65)
    /// ITU-R BT.2020.
    public static let bt2020 = Chromaticities(red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046), white: d65)
    /// SMPTE EG 432-1: Display P3, the iPhone's space.
    public static let displayP3 = Chromaticities(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: d65)
    /// SMPTE RP 431-2: DCI-P3, with its own white.
    public static let dciP3 = Chromaticities(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060),
                                             white: (0.314, 0.351))
}

/// How an RGB space's encoded values map to light.
public enum TransferCurve: Sendable, Equatable {
    /// IEC 61966-2-1 (sRGB, Display P3).
    case sRGB
    /// ITU-R BT.709 (also BT.601 and BT.2020's 10- and 12-bit curves).
    case bt709
    /// A pure power law.
    case gamma(Double)
    case linear
}

/// ICC profiles made from a colour description (a HEIF's `nclx`), so that the photo's colours travel into the
/// PDF as a profile would carry them.
public enum RGBProfile {
    /// A matrix/TRC RGB display profile for `primaries` and `transfer`, as ICC bytes; nil if Little CMS fails.
    public static func make(primaries: Chromaticities, transfer: TransferCurve, description: String) -> [UInt8]? {
        var white = cmsCIExyY(x: primaries.white.x, y: primaries.white.y, Y: 1)
        var rgb = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: primaries.red.x, y: primaries.red.y, Y: 1),
                                  Green: cmsCIExyY(x: primaries.green.x, y: primaries.green.y, Y: 1),
                                  Blue: cmsCIExyY(x: primaries.blue.x, y: primaries.blue.y, Y: 1))
        // Little CMS's parametric type 4: Y = (aX + b)^g for X >= d, Y = cX below.
        var parameters: [cmsFloat64Number]
        let type: Int32
        switch transfer {
        case .sRGB: (type, parameters) = (4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        case .bt709: (type, parameters) = (4, [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081])
        case .gamma(let g): (type, parameters) = (1, [g])
        case .linear: (type, parameters) = (1, [1])
        }
        guard let curve = cmsBuildParametricToneCurve(nil, type, &parameters) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = cmsCreateRGBProfile(&white, &rgb, &curves) else { return nil }
        defer { cmsCloseProfile(profile) }
        _ = description.withCString { text in
            guard let mlu = cmsMLUalloc(nil, 1) else { return false }
            defer { cmsMLUfree(mlu) }
            return cmsMLUsetASCII(mlu, "en", "US", text) != 0
                && cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu)) != 0
        }
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard bytes.withUnsafeMutableBytes({ cmsSaveProfileToMem(profile, $0.baseAddress, &size) }) != 0 else { return nil }
        // Little CMS stamps a profile with the time it was made (header bytes 24-35) and has no setter for it: a
        // book with a HEIC would differ from run to run under SOURCE_DATE_EPOCH. The profile is a function of the
        // description alone, so it gets one fixed date.
        bytes.replaceSubrange(creationDate, with: fixedCreationDate)
        return bytes
    }

    /// Where an ICC header keeps its creation date: six big-endian 16-bit numbers, year to second.
    static let creationDate = 24..<36
    /// 2026-01-01 00:00:00 UTC: the date every profile made here carries.
    static let fixedCreationDate: [UInt8] = [2026, 1, 1, 0, 0, 0].flatMap { (v: Int) in [UInt8(v >> 8), UInt8(v & 0xFF)] }
}
