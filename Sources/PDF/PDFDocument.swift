import CHaru

public enum PDFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libharu reported an error: its status code and detail number, and what we were doing.
    case libharu(status: UInt, detail: Int, during: String)
    public var description: String {
        switch self {
        case .libharu(let status, let detail, let during):
            return "PDF library error 0x\(String(status, radix: 16, uppercase: true)) (detail \(detail)) while \(during)"
        }
    }
}

/// A PDF document being built in memory by libharu; one thread at a time.
public final class PDFDocument {
    public init() throws(PDFError) { fatalError("STUB: PDF helper implements this") }
    public func setInfo(producer: String, creator: String, title: String? = nil) throws(PDFError) {
        fatalError("STUB")
    }
    /// Adds a page of `width` x `height` points (1/72 inch) at the end of the document.
    public func addPage(width: Double, height: Double) throws(PDFError) -> PDFPage { fatalError("STUB") }
    /// Writes the whole document to `path` (give it a temporary path; the caller commits it).
    public func save(to path: String) throws(PDFError) { fatalError("STUB") }
}

public final class PDFPage {
    /// Places a JPEG (bytes embedded unchanged as DCTDecode) into the rectangle, in points from the bottom left.
    public func drawJPEG(_ bytes: [UInt8], x: Double, y: Double, width: Double, height: Double) throws(PDFError) {
        fatalError("STUB")
    }
}
