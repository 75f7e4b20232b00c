/// What photobook needs from a photo's EXIF block.
public struct EXIFMetadata: Sendable, Equatable {
    /// EXIF Orientation of the main image (IFD0), 1-8; 1 when absent or invalid.
    public var orientation: Int
    /// `DateTimeOriginal` as written, "YYYY:MM:DD HH:MM:SS", when present.
    public var dateTimeOriginal: String?
    /// `SubSecTimeOriginal` as written (fraction digits of DateTimeOriginal's second), when present.
    public var subSecTimeOriginal: String?
    /// `OffsetTimeOriginal` as written ("+02:00"), when present and not blank.
    public var offsetTimeOriginal: String?
    /// IFD0's `ImageDescription`, trimmed; nil when absent, blank, or a camera's stock text.
    public var imageDescription: String?
    /// IFD0's `Make` and `Model`, trimmed; nil when absent or blank. Two files of one shot (a phone's HEIC and
    /// its JPEG) share them and the capture time to the sub-second.
    public var make: String?
    public var model: String?

    public init(orientation: Int = 1, dateTimeOriginal: String? = nil, subSecTimeOriginal: String? = nil,
                offsetTimeOriginal: String? = nil, imageDescription: String? = nil) {
        self.orientation = orientation
        self.dateTimeOriginal = dateTimeOriginal
        self.subSecTimeOriginal = subSecTimeOriginal
        self.offsetTimeOriginal = offsetTimeOriginal
        self.imageDescription = imageDescription
    }

    /// The three date fields read together; nil when DateTimeOriginal is absent or not a real date and time.
    public var captureDate: CaptureDate? {
        dateTimeOriginal.flatMap {
            CaptureDate(exifDateTime: $0, subSeconds: subSecTimeOriginal, offset: offsetTimeOriginal)
        }
    }
}

public enum EXIFParser {
    /// Parses a TIFF-structured EXIF block (a leading "Exif\0\0" is accepted and skipped).
    /// Never throws and never traps: whatever cannot be read is reported as absent.
    ///
    /// Reads exactly two directories: IFD0 (for Orientation, tag 0x0112, ImageDescription, 0x010E, Make and Model,
    /// 0x010F and 0x0110) and the Exif sub-IFD it points to (tag 0x8769, for DateTimeOriginal 0x9003,
    /// SubSecTimeOriginal 0x9291 and OffsetTimeOriginal 0x9011). Next-IFD links are never followed, because nothing we
    /// need lives in IFD1 (the thumbnail's directory, whose Orientation must not count); so offset loops
    /// cannot make it loop, and the work is linear in the size of the input.
    public static func parse(_ bytes: [UInt8]) -> EXIFMetadata {
        var metadata = EXIFMetadata()
        guard let tiff = TIFFReader(exifBlock: bytes) else { return metadata }

        guard let ifd0 = tiff.directory(at: tiff.firstIFDOffset) else { return metadata }
        if let entry = ifd0.first(tag: Tag.orientation), let value = tiff.firstUnsignedInteger(of: entry),
           (1...8).contains(value) {
            metadata.orientation = value
        }
        metadata.imageDescription = ifd0.first(tag: Tag.imageDescription).flatMap(tiff.description(of:))
        func text(_ tag: UInt16) -> String? {
            ifd0.first(tag: tag).flatMap(tiff.dateTime(of:)).map { $0.trimmingSpaces }.flatMap { $0.isEmpty ? nil : $0 }
        }
        metadata.make = text(Tag.make)
        metadata.model = text(Tag.model)

        if let pointer = ifd0.first(tag: Tag.exifIFDPointer), let exifOffset = tiff.firstUnsignedInteger(of: pointer),
           let exifIFD = tiff.directory(at: exifOffset) {
            metadata.dateTimeOriginal = exifIFD.first(tag: Tag.dateTimeOriginal).flatMap(tiff.dateTime(of:))
            metadata.subSecTimeOriginal = exifIFD.first(tag: Tag.subSecTimeOriginal).flatMap(tiff.dateTime(of:))
            metadata.offsetTimeOriginal = exifIFD.first(tag: Tag.offsetTimeOriginal).flatMap(tiff.dateTime(of:))
        }
        return metadata
    }
}

/// The tags photobook reads.
enum Tag {
    static let imageDescription: UInt16 = 0x010E
    static let make: UInt16 = 0x010F
    static let model: UInt16 = 0x0110
    static let orientation: UInt16 = 0x0112
    static let exifIFDPointer: UInt16 = 0x8769
    static let dateTimeOriginal: UInt16 = 0x9003
    static let offsetTimeOriginal: UInt16 = 0x9011
    static let subSecTimeOriginal: UInt16 = 0x9291
}

/// TIFF field types photobook understands (TIFF 6.0 §2, plus IFD from the TIFF/EP and EXIF 2.3 specifications).
enum FieldType: UInt16 {
    case byte = 1, ascii = 2, short = 3, long = 4
    case undefined = 7
    case ifd = 13

    var size: Int {
        switch self {
        case .byte, .ascii, .undefined: 1
        case .short: 2
        case .long, .ifd: 4
        }
    }
}

/// One 12-byte directory entry: tag, type, count, and the 4-byte field that holds the value or its offset.
struct DirectoryEntry {
    var tag: UInt16
    var type: UInt16
    var count: UInt32
    /// Position in the TIFF data of the entry's 4-byte value/offset field.
    var fieldPosition: Int
}

/// A bounds-checked view of a TIFF structure in one byte order.
struct TIFFReader {
    /// The TIFF data (after any "Exif\0\0" prefix); TIFF offsets are indices into it.
    let data: [UInt8]
    let bigEndian: Bool
    private(set) var firstIFDOffset = 0

    init?(exifBlock bytes: [UInt8]) {
        var data = bytes[...]
        let exifPrefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        if data.starts(with: exifPrefix) { data = data.dropFirst(exifPrefix.count) }
        self.data = Array(data)
        guard self.data.count >= 8 else { return nil }
        switch (self.data[0], self.data[1]) {
        case (0x4D, 0x4D): bigEndian = true     // "MM"
        case (0x49, 0x49): bigEndian = false    // "II"
        default: return nil
        }
        guard let magic = readUInt16(at: 2), magic == 42, let offset = readUInt32(at: 4) else { return nil }
        firstIFDOffset = Int(offset)
    }

    func readUInt16(at position: Int) -> UInt16? {
        guard position >= 0, position <= data.count - 2 else { return nil }
        let a = UInt16(data[position]), b = UInt16(data[position + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func readUInt32(at position: Int) -> UInt32? {
        guard position >= 0, position <= data.count - 4 else { return nil }
        let b0 = UInt32(data[position]), b1 = UInt32(data[position + 1])
        let b2 = UInt32(data[position + 2]), b3 = UInt32(data[position + 3])
        return bigEndian ? b0 << 24 | b1 << 16 | b2 << 8 | b3 : b3 << 24 | b2 << 16 | b1 << 8 | b0
    }

    /// The entries of the directory at `offset`, or nil when not even its entry count is readable.
    ///
    /// A directory that claims more entries than the data holds yields the complete entries that are
    /// there: a writer that got the count wrong should not cost the photo its orientation, and the work
    /// stays bounded by the size of the input, not by the claimed count.
    func directory(at offset: Int) -> [DirectoryEntry]? {
        guard let claimed = readUInt16(at: offset) else { return nil }
        let firstEntry = offset + 2
        let available = (data.count - firstEntry) / 12
        let count = min(Int(claimed), max(available, 0))
        var entries: [DirectoryEntry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            let position = firstEntry + index * 12
            guard let tag = readUInt16(at: position), let type = readUInt16(at: position + 2),
                  let valueCount = readUInt32(at: position + 4) else { break }
            entries.append(DirectoryEntry(tag: tag, type: type, count: valueCount, fieldPosition: position + 8))
        }
        return entries
    }

    /// Where the entry's values start, once its whole value (count * type size) is known to lie inside the
    /// data; nil for unknown types, a zero count, or values that would run past the end.
    func valuePosition(of entry: DirectoryEntry, type: FieldType) -> Int? {
        guard entry.count >= 1 else { return nil }
        // Int is 64-bit on every platform we build for, but say what we mean on narrower ones too.
        let (byteCount, overflow) = Int(entry.count).multipliedReportingOverflow(by: type.size)
        guard !overflow else { return nil }
        if byteCount <= 4 { return entry.fieldPosition }
        guard let offset = readUInt32(at: entry.fieldPosition) else { return nil }
        let start = Int(offset)
        guard start <= data.count, byteCount <= data.count - start else { return nil }
        return start
    }

    /// The first value of a SHORT or LONG entry (or an IFD pointer), as a non-negative integer.
    ///
    /// Orientation is specified as SHORT, but LONG is accepted too: a writer that widened the type
    /// still meant the same number, and the value is range-checked (1-8) by the caller anyway.
    func firstUnsignedInteger(of entry: DirectoryEntry) -> Int? {
        guard let type = FieldType(rawValue: entry.type) else { return nil }
        switch type {
        case .short:
            guard let position = valuePosition(of: entry, type: type) else { return nil }
            return readUInt16(at: position).map(Int.init)
        case .long, .ifd:
            guard let position = valuePosition(of: entry, type: type) else { return nil }
            return readUInt32(at: position).map(Int.init)
        case .byte, .ascii, .undefined:
            return nil
        }
    }

    /// An ImageDescription as the person who wrote it meant it; nil when unreadable, blank, or a stock text.
    ///
    /// The field is ASCII by the standard, but editors write UTF-8 into it (the Metadata Working Group's
    /// guidelines say to read it so), and older Windows software Latin-1: UTF-8 when the bytes are valid
    /// UTF-8, Latin-1 otherwise, which never fails. BYTE and UNDEFINED types are read the same way, since
    /// some writers use them for text. The text ends at the first NUL, and is cleaned as `CaptionText.clean` says.
    func description(of entry: DirectoryEntry) -> String? {
        guard let type = FieldType(rawValue: entry.type), [.ascii, .byte, .undefined].contains(type),
              let position = valuePosition(of: entry, type: type) else { return nil }
        let bytes = data[position..<(position + Int(entry.count))].prefix { $0 != 0 }
        let decoded = String(validating: bytes, as: UTF8.self)
            ?? String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        guard let text = CaptionText.clean(decoded) else { return nil }
        return Self.stockDescriptions.contains(text.uppercased()) ? nil : text
    }

    /// What cameras write into ImageDescription by themselves: not a description anyone would print under
    /// their photo (compared in capitals).
    static let stockDescriptions: Set<String> = [
        "OLYMPUS DIGITAL CAMERA", "SONY DSC", "DIGITAL CAMERA", "KONICA MINOLTA DIGITAL CAMERA",
        "MINOLTA DIGITAL CAMERA", "SAMSUNG DIGITAL CAMERA", "DCIM\\PICT", "EXIF_JPEG_PICTURE", "DEFAULT",
    ]

    /// The text of an ASCII date entry, up to its first NUL; nil when unreadable, not printable ASCII, or
    /// blank (EXIF writes an unknown date as spaces, optionally with the colons kept).
    func dateTime(of entry: DirectoryEntry) -> String? {
        guard entry.type == FieldType.ascii.rawValue,
              let position = valuePosition(of: entry, type: .ascii) else { return nil }
        var text: [UInt8] = []
        for byte in data[position..<(position + Int(entry.count))] {
            if byte == 0 { break }
            guard (0x20...0x7E).contains(byte) else { return nil }
            text.append(byte)
        }
        guard text.contains(where: { $0 != 0x20 && $0 != 0x3A }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }
}

extension Array where Element == DirectoryEntry {
    /// The first entry with `tag`; a repeated tag is a writer's error, and the first one is what readers
    /// that stop at the first match (most of them) would use.
    func first(tag: UInt16) -> DirectoryEntry? {
        first { $0.tag == tag }
    }
}
