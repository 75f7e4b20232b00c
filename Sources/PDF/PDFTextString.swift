/// A Swift string made ready for libharu's info-dictionary strings (NUL-terminated C bytes).
struct PDFTextString {
    /// UTF-8 bytes with a terminating NUL.
    let cString: [CChar]
    /// True when the text is not plain ASCII and must be written as a UTF-16 text string.
    let needsUnicode: Bool

    init(_ text: String) {
        // Quirk: libharu's UTF-8 encoder maps to 16-bit code units only; characters outside the BMP (emoji)
        // come out mangled, so they become U+FFFD, and NUL would end the C string early.
        let scalars = text.unicodeScalars.map { scalar -> Unicode.Scalar in
            if scalar.value == 0 { return " " }
            return scalar.value > 0xFFFF ? "\u{FFFD}" : scalar
        }
        var cleaned = String.UnicodeScalarView()
        cleaned.append(contentsOf: scalars)
        cString = String(cleaned).utf8CString.map { $0 }
        needsUnicode = scalars.contains { !$0.isASCII || $0.value < 0x20 }
    }
}
