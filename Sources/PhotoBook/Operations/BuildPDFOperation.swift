import PDF
import Platform

/// Adds the rendered photos to a PDF in plan order and hands the document to the build's commit.
final class BuildPDFOperation: BookOperation, @unchecked Sendable {
    struct Page {
        var job: PhotoJob
        var render: ResizeCropOperation
        var size: PageSize
    }

    let pages: [Page]
    let commit: BookCommit
    let strict: Bool
    let hooks: BuildHooks

    init(pages: [Page], commit: BookCommit, strict: Bool, session: BuildSession, hooks: BuildHooks) {
        self.pages = pages
        self.commit = commit
        self.strict = strict
        self.hooks = hooks
        super.init(session: session)
        name = "build \(commit.outputPath)"
        for page in pages { addDependency(page.render) }
    }

    /// The pages whose photo rendered, in plan order: the pages of the book. Stable once this operation runs,
    /// because every render has ended by then and one that never ran is only ever recorded as cancelled.
    private var usablePages: [Page] { pages.filter { $0.render.outcome == .succeeded } }

    /// The pages of the committed book, 0 unless it was committed. Derived from recorded outcomes, each read
    /// under its operation's lock, instead of a second variable beside the outcome that could disagree with it.
    var pagesWritten: Int { outcome == .succeeded ? usablePages.count : 0 }

    override func run() -> Outcome {
        let usable = usablePages
        let leftOut = pages.count - usable.count
        if usable.isEmpty { return .skipped(because: "no photo could be used") }
        if strict && leftOut > 0 {
            return .skipped(because: "\(leftOut) of \(pages.count) photos could not be used and --strict is set")
        }

        do {
            let document = try PDFDocument()
            try document.setInfo(producer: PhotoBookVersion.string, creator: PhotoBookVersion.string)
            for (index, page) in usable.enumerated() {
                if shouldStop { return .cancelled }
                hooks.pageStarted?(index)
                guard let path = page.job.rendered.withLock({ $0 }) else {
                    return .failed("internal error: page \(index + 1) has no rendered image")
                }
                let bytes: [UInt8]
                switch FileSystem.readFile(path) {
                case .failure(let failure): return .failed("cannot read temporary file \(path): \(failure)")
                case .success(let data): bytes = data
                }
                let pdfPage = try document.addPage(width: page.size.width, height: page.size.height)
                try draw(bytes, of: page.job, on: pdfPage, in: document)
                // libharu holds its own copy now; the temporary file is no longer needed.
                session.remove(temporaryFile: path)
            }
            if shouldStop { return .cancelled }
            return commit.commit { path throws(PDFError) in try document.save(to: path) }
        } catch {
            return .failed(String(describing: error))
        }
    }

    private func draw(_ bytes: [UInt8], of job: PhotoJob, on page: PDFPage, in document: PDFDocument) throws(PDFError) {
        let placement = job.placement.placement
        guard job.passThrough else {
            try page.drawJPEG(bytes, x: placement.x, y: placement.y, width: placement.width, height: placement.height)
            return
        }
        let info = job.info
        let whole = job.placement.wholePhotoRect(uprightWidth: info.uprightWidth, uprightHeight: info.uprightHeight)
        let cropped = !job.placement.usesWholePhoto(uprightWidth: info.uprightWidth, uprightHeight: info.uprightHeight)
        try page.draw(try document.loadJPEG(bytes), x: whole.x, y: whole.y, width: whole.width, height: whole.height,
                      orientation: info.orientation.rawValue,
                      clip: cropped ? (placement.x, placement.y, placement.width, placement.height) : nil)
    }
}
