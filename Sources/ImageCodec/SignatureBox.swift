/// The signature box a JPEG 2000 (`.jp2`) file and a JPEG XL container start with: 12 bytes, a box of size 12 and
/// its type, then `0D 0A 87 0A`, bytes that a copy which changed line ends or dropped the high bit would damage.
public enum SignatureBox {
    /// "corrupt `format` (damaged signature)" when `prefix` starts with the size and type of `box` (the format's
    /// signature box) but not its last four bytes: a file of the format damaged there, not some other kind of
    /// file. Nil otherwise.
    public static func damage(in prefix: [UInt8], box: [UInt8], format: String) -> String? {
        guard prefix.count >= 12, !prefix.starts(with: box), prefix[0..<8].elementsEqual(box[0..<8]) else { return nil }
        return "corrupt \(format) (damaged signature)"
    }
}
