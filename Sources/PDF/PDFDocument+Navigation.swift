import CHaru

extension PDFDocument {
    /// Adds a bookmark titled `title` that opens `page` whole (`HPDF_CreateOutline`, `HPDF_Page_CreateDestination`,
    /// `HPDF_Outline_SetDestination`), at the end of the top level or of `parent`'s children.
    ///
    /// Top-level bookmarks are shown open (their children visible). Titles may be any Unicode; characters beyond
    /// U+FFFF become U+FFFD. `parent` and `page` must belong to this document.
    @discardableResult
    public func addOutline(title: String, parent: PDFOutline? = nil, page: PDFPage) throws(PDFError) -> PDFOutline {
        precondition(page.document === self, "PDFDocument.addOutline: the page belongs to another PDFDocument")
        precondition(parent.map { $0.document === self } ?? true, "PDFDocument.addOutline: parent from another PDFDocument")
        let handle = self.handle
        let encoded = PDFTextString(title)
        let encoder = encoded.needsUnicode ? try utf8Encoder() : nil
        let during = "adding the bookmark '\(title)'"
        let outline = try haruObject(during) {
            encoded.cString.withUnsafeBufferPointer {
                HPDF_CreateOutline(handle, parent?.handle, $0.baseAddress, encoder)
            }
        }
        // The default destination is /Fit: the whole page, whatever the viewer's window.
        let destination = try haruObject(during) { HPDF_Page_CreateDestination(page.handle) }
        try haruStatus(during) { HPDF_Outline_SetDestination(outline, destination) }
        if parent == nil {
            try haruStatus(during) { HPDF_Outline_SetOpened(outline, HPDF_TRUE) }
        }
        return PDFOutline(handle: outline, document: self, title: title)
    }

    /// Sets the labels a viewer shows for the pages (`HPDF_PageLabel_New`, `HPDF_Catalog_AddPageLabel`); once
    /// per document.
    ///
    /// The first label must start at page 0 and the others follow in increasing page order. Prefixes may be
    /// any Unicode.
    public func setPageLabels(_ labels: [PDFPageLabel]) throws(PDFError) {
        precondition(!hasPageLabels, "PDFDocument.setPageLabels: the page labels are already set")
        precondition(labels.first?.firstPage == 0, "PDFDocument.setPageLabels: the first label must start at page 0")
        precondition(
            zip(labels, labels.dropFirst()).allSatisfy { $0.firstPage < $1.firstPage },
            "PDFDocument.setPageLabels: labels must be in increasing page order")
        precondition(labels.allSatisfy { $0.firstNumber >= 1 }, "PDFDocument.setPageLabels: numbers start at 1 or more")
        hasPageLabels = true
        let handle = self.handle
        for label in labels {
            let during = "setting the page label from page \(label.firstPage + 1)"
            let style: HPDF_PageNumStyle
            switch label.style {
            case .none, .decimal: style = HPDF_PAGE_NUM_STYLE_DECIMAL
            case .upperRoman: style = HPDF_PAGE_NUM_STYLE_UPPER_ROMAN
            case .lowerRoman: style = HPDF_PAGE_NUM_STYLE_LOWER_ROMAN
            case .upperLetters: style = HPDF_PAGE_NUM_STYLE_UPPER_LETTERS
            case .lowerLetters: style = HPDF_PAGE_NUM_STYLE_LOWER_LETTERS
            }
            // Quirk: HPDF_PageLabel_New writes the prefix's UTF-8 bytes as they are, which readers take as
            // PDFDocEncoding ("TÃ­tle"); we add /P ourselves, through the UTF-8 encoder when it is not ASCII.
            let dictionary = try haruObject(during) {
                HPDF_PageLabel_New(handle, style, HPDF_INT(clamping: label.firstNumber), nil)
            }
            if !label.prefix.isEmpty {
                let encoded = PDFTextString(label.prefix)
                let encoder = encoded.needsUnicode ? try utf8Encoder() : nil
                let prefix = try haruObject(during) {
                    encoded.cString.withUnsafeBufferPointer { HPDF_String_New(handle.pointee.mmgr, $0.baseAddress, encoder) }
                }
                try haruStatus(during) { HPDF_Dict_Add(dictionary, "P", prefix) }
            }
            if label.style == .none {
                // libharu has no style for "prefix only"; a label without /S has no number (PDF 32000 12.4.2).
                try haruStatus(during) { HPDF_Dict_RemoveElement(dictionary, "S") }
                try haruStatus(during) { HPDF_Dict_RemoveElement(dictionary, "St") }
            }
            try haruStatus(during) {
                HPDF_Catalog_AddPageLabel(handle.pointee.catalog, HPDF_UINT(label.firstPage), dictionary)
            }
        }
    }

    /// libharu's "UTF-8" encoder, registered on first use.
    func utf8Encoder() throws(PDFError) -> HPDF_Encoder {
        try useUTF8Encoder()
        let handle = self.handle
        return try haruObject("selecting UTF-8 text") { HPDF_GetEncoder(handle, "UTF-8") }
    }
}
