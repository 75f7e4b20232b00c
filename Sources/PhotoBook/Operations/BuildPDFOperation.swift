import PDF
import Platform

/// Makes one PDF page per planned page, with every photo of the page drawn in its place, and hands the document
/// to the build's commit. Runs after every render has ended, on the pages planned from the photos that rendered.
final class BuildPDFOperation: BookOperation, @unchecked Sendable {
    /// A photo ready to draw: where the plan puts it, and the JPEG rendered for it in the build's private folder.
    struct Photo {
        var info: PhotoInfo
        var placement: PlacedPhoto
        /// The file holds the photo's own bytes: its orientation and crop are for the page to apply.
        var passThrough: Bool
        var path: String
    }

    struct Page {
        var size: PageSize
        var photos: [Photo]
    }

    let pages: [Page]
    let commit: BookCommit
    let hooks: BuildHooks

    init(pages: [Page], commit: BookCommit, session: BuildSession, hooks: BuildHooks) {
        self.pages = pages
        self.commit = commit
        self.hooks = hooks
        super.init(session: session)
        name = "build \(commit.outputPath)"
    }

    /// The pages of the committed book, 0 unless it was committed; derived from the recorded outcome, read under
    /// its lock, so it can never disagree with it.
    var pagesWritten: Int { outcome == .succeeded ? pages.count : 0 }

    override func run() -> Outcome {
        if pages.isEmpty { return .skipped(because: "no photo could be used") }
        do {
            let document = try PDFDocument()
            try document.setInfo(producer: PhotoBookVersion.string, creator: PhotoBookVersion.string)
            for (index, page) in pages.enumerated() {
                if shouldStop { return .cancelled }
                hooks.pageStarted?(index, pages.count)
                let pdfPage = try document.addPage(width: page.size.width, height: page.size.height)
                for photo in page.photos {
                    let bytes: [UInt8]
                    switch FileSystem.readFile(photo.path) {
                    case .failure(let failure): return .failed("cannot read temporary file \(photo.path): \(failure)")
                    case .success(let data): bytes = data
                    }
                    try draw(bytes, of: photo, on: pdfPage, in: document)
                    // libharu holds its own copy now; the temporary file is no longer needed.
                    session.remove(temporaryFile: photo.path)
                }
            }
            if shouldStop { return .cancelled }
            return commit.commit { path throws(PDFError) in try document.save(to: path) }
        } catch {
            return .failed(String(describing: error))
        }
    }

    private func draw(_ bytes: [UInt8], of photo: Photo, on page: PDFPage, in document: PDFDocument) throws(PDFError) {
        let placement = photo.placement.placement
        guard photo.passThrough else {
            try page.drawJPEG(bytes, x: placement.x, y: placement.y, width: placement.width, height: placement.height)
            return
        }
        let info = photo.info
        let whole = photo.placement.wholePhotoRect(uprightWidth: info.uprightWidth, uprightHeight: info.uprightHeight)
        let cropped = !photo.placement.usesWholePhoto(uprightWidth: info.uprightWidth, uprightHeight: info.uprightHeight)
        try page.draw(try document.loadJPEG(bytes), x: whole.x, y: whole.y, width: whole.width, height: whole.height,
                      orientation: info.orientation.rawValue,
                      clip: cropped ? (placement.x, placement.y, placement.width, placement.height) : nil)
    }
}
