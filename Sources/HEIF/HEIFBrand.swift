/// What the `ftyp` box at the start of an ISO-BMFF file says about it: which brands it claims, and whether
/// those make it a HEIF still image (HEVC or AV1) that photobook should read.
struct HEIFBrand: Sendable, Equatable {
    /// The major brand and the compatible brands, as four-character strings.
    let major: String
    let compatible: [String]

    /// Brands of HEIF still images and image sequences, HEVC and AV1 (ISO/IEC 23008-12 and the AVIF spec).
    /// libheif 1.15 itself opens only files that list heic, heix, mif1 or avif among their compatible brands:
    /// one with only msf1 or hevc is still ours, and refused by libheif with a reason.
    static let readable: Set<String> = ["heic", "heix", "hevc", "heim", "heis", "hevm", "hevs", "mif1", "msf1",
                                        "avif", "avis"]

    /// The brands of the `ftyp` box at offset 4 of `prefix`, as far as `prefix` holds them; nil without one.
    init?(prefix: [UInt8]) {
        guard prefix.count >= 12, prefix[4...7].elementsEqual("ftyp".utf8) else { return nil }
        let size = Int(prefix[0]) << 24 | Int(prefix[1]) << 16 | Int(prefix[2]) << 8 | Int(prefix[3])
        major = Self.fourCC(prefix, at: 8)
        // Compatible brands follow the major brand and its minor version, up to the box's end (size 0 or 1, a
        // box to the end of the file or a 64-bit size, never happens for ftyp: read what the prefix holds).
        let end = size >= 16 ? min(size, prefix.count) : prefix.count
        var brands: [String] = []
        var at = 16
        while at + 4 <= end {
            brands.append(Self.fourCC(prefix, at: at))
            at += 4
        }
        compatible = brands
    }

    /// True when the major or a compatible brand is one of `readable`.
    var isReadable: Bool { Self.readable.contains(major) || compatible.contains { Self.readable.contains($0) } }

    /// "AVIF" for AV1 files, "HEIC" for HEVC ones, "HEIF" when the brands do not say which.
    var kind: String {
        let avif: Set<String> = ["avif", "avis"], heic: Set<String> = ["heic", "heix", "hevc", "heim", "heis", "hevm",
                                                                       "hevs", "hevx"]
        if avif.contains(major) { return "AVIF" }
        if heic.contains(major) { return "HEIC" }
        if compatible.contains(where: { avif.contains($0) }) { return "AVIF" }
        if compatible.contains(where: { heic.contains($0) }) { return "HEIC" }
        return "HEIF"
    }

    private static func fourCC(_ bytes: [UInt8], at offset: Int) -> String {
        // Brands are printable ASCII; anything else is shown as '?' so a damaged brand still reads in a message.
        String(bytes[offset..<offset + 4].map { $0 >= 0x20 && $0 < 0x7F ? Character(UnicodeScalar($0)) : "?" })
    }
}
