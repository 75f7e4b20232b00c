import CHaru

/// One bookmark of a `PDFDocument`'s outline, to hang further bookmarks under; keeps its document alive.
public final class PDFOutline {
    let handle: HPDF_Outline
    /// The document whose outline holds the bookmark.
    public let document: PDFDocument
    /// The title as given.
    public let title: String

    init(handle: HPDF_Outline, document: PDFDocument, title: String) {
        self.handle = handle
        self.document = document
        self.title = title
    }
}
