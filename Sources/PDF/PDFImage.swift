import CHaru

/// A JPEG embedded once in a `PDFDocument`, to be drawn on any of its pages; keeps its document alive.
public final class PDFImage {
    let handle: HPDF_Image
    /// The document that holds the image stream; the image can only be drawn on its pages.
    public let document: PDFDocument
    /// The stored image's size in pixels, before any orientation is applied.
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// The PDF colour space libharu chose from the JPEG's components: "DeviceGray", "DeviceRGB" or "DeviceCMYK".
    public let colorSpace: String

    init(handle: HPDF_Image, document: PDFDocument, pixelWidth: Int, pixelHeight: Int, colorSpace: String) {
        self.handle = handle
        self.document = document
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.colorSpace = colorSpace
    }
}
