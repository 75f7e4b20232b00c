/// Makes metadata text fit to print under a photo.
public enum CaptionText {
    /// `text` without control characters (a line break and a tab stay: a description may have lines; a CR or
    /// CR LF becomes one line break), without white space at either end (Unicode's, not only ASCII's: a
    /// no-break space pads as well as a space); nil when nothing is left.
    ///
    /// Controls come from writers that pad with them or from damaged bytes; printed, they would show as boxes.
    public static func clean(_ text: String) -> String? {
        var scalars = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            defer { previousWasCR = value == 0x0D }
            if value == 0x0D || (value == 0x0A && !previousWasCR) {
                scalars.append("\n")
            } else if value == 0x09 || !(value < 0x20 || (0x7F...0x9F).contains(value)) {
                scalars.append(scalar)
            }
        }
        let trimmed = String(scalars).drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }
}
