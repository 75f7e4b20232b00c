/// What a camera raw file's first bytes say it is.
///
/// Most raws are TIFF structures (DNG, NEF, ARW, PEF, SRW: nothing in their first 64 bytes tells them from a
/// TIFF); a few carry a mark of their own: CR2 ("CR" at byte 8 of a TIFF), ORF ("IIRO", "IIRS", "MMOR"), RW2
/// ("IIU\0"), RAF ("FUJIFILMCCD-RAW") and CR3 (an ISO-BMFF `ftyp` of brand `crx `).
enum RawSignature: Equatable {
    /// A plain TIFF header: a raw only when its name says so (a .tif stays with the TIFF codec).
    case tiff
    case cr2, orf, rw2, raf, cr3

    init?(_ prefix: [UInt8]) {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            prefix.count >= offset + bytes.count && prefix[offset..<offset + bytes.count].elementsEqual(bytes)
        }
        let little: [UInt8] = [0x49, 0x49, 0x2A, 0x00], big: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]
        if starts(little) || starts(big) {
            self = starts(Array("CR".utf8), at: 8) && prefix.count > 10 && prefix[10] == 2 ? .cr2 : .tiff
        } else if starts(Array("IIRO".utf8)) || starts(Array("IIRS".utf8)) || starts(Array("MMOR".utf8)) {
            self = .orf
        } else if starts([0x49, 0x49, 0x55, 0x00]) {
            self = .rw2
        } else if starts(Array("FUJIFILMCCD-RAW".utf8)) {
            self = .raf
        } else if starts(Array("ftypcrx ".utf8), at: 4) {
            self = .cr3
        } else {
            return nil
        }
    }

    /// True when the file is a TIFF structure with its own magic number (ORF, RW2) or TIFF's: its IFD0 and EXIF
    /// directory are read as any photo's EXIF once the magic number says 42.
    var isTIFFStructure: Bool {
        switch self {
        case .tiff, .cr2, .orf, .rw2: return true
        case .raf, .cr3: return false
        }
    }

    /// The format's usual name when the bytes alone say it; nil for a plain TIFF header (the camera's maker says).
    var kind: String? {
        switch self {
        case .tiff: return nil
        case .cr2: return "CR2"
        case .orf: return "ORF"
        case .rw2: return "RW2"
        case .raf: return "RAF"
        case .cr3: return "CR3"
        }
    }

    /// The name of a raw of this signature from `make` and whether it is a DNG: "NEF" for a Nikon's TIFF.
    func kind(make: String, isDNG: Bool) -> String {
        if isDNG { return "DNG" }
        if let kind { return kind }
        let maker = make.lowercased()
        for (prefix, name) in [("nikon", "NEF"), ("sony", "ARW"), ("pentax", "PEF"), ("ricoh", "PEF"),
                               ("samsung", "SRW"), ("canon", "CR2"), ("kodak", "DCR"), ("leaf", "MOS"),
                               ("hasselblad", "3FR"), ("phase one", "IIQ"), ("epson", "ERF"), ("mamiya", "MEF")]
            where maker.hasPrefix(prefix) {
            return name
        }
        return "camera raw"
    }
}
