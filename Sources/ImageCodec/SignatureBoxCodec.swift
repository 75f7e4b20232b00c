/// A format whose file is a bare codestream or a container that starts with a signature box (JPEG 2000's `.jp2`,
/// JPEG XL's container): 12 bytes, a box of size 12 and its type, then `0D 0A 87 0A`, bytes that a copy which
/// changed line ends or dropped the high bit would damage. Recognised by either start; a file whose box is
/// damaged in those last bytes is named as a damaged file of the format.
public protocol SignatureBoxCodec: ImageCodec {
    /// The container's signature box, 12 bytes.
    var signatureBox: [UInt8] { get }
    /// True when `prefix` starts a bare codestream of the format.
    func startsCodestream(_ prefix: [UInt8]) -> Bool
}

extension SignatureBoxCodec {
    public func recognises(_ prefix: [UInt8]) -> Bool {
        prefix.starts(with: signatureBox) || startsCodestream(prefix)
    }

    /// "corrupt `name` (damaged signature)" when `prefix` starts with the size and type of the signature box but
    /// not its last four bytes: a file of the format damaged there, not some other kind of file. Nil otherwise.
    public func damageInSignature(_ prefix: [UInt8]) -> String? {
        guard prefix.count >= 12, !prefix.starts(with: signatureBox),
              prefix[0..<8].elementsEqual(signatureBox[0..<8]) else { return nil }
        return "corrupt \(name) (damaged signature)"
    }
}
