import PDF
import Platform

/// Adds the rendered photos to a PDF in plan order, writes it to a temporary file beside the output and
/// commits it by renaming it over the output, under the session's lock.
final class BuildPDFOperation: BookOperation, @unchecked Sendable {
    struct Page {
        var job: PhotoJob
        var render: ResizeCropOperation
        var size: PageSize
    }

    let pages: [Page]
    let outputPath: String
    let strict: Bool
    let hooks: BuildHooks
    private(set) var pagesWritten = 0

    init(pages: [Page], outputPath: String, strict: Bool, session: BuildSession, hooks: BuildHooks) {
        self.pages = pages
        self.outputPath = outputPath
        self.strict = strict
        self.hooks = hooks
        super.init(session: session)
        name = "build \(outputPath)"
        for page in pages { addDependency(page.render) }
    }

    override func run() -> Outcome {
        let usable = pages.filter { $0.render.outcome == .succeeded }
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
            return save(document, pageCount: usable.count)
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

    /// Writes the document beside the output, syncs it and commits it; removes it on every other path.
    private func save(_ document: PDFDocument, pageCount: Int) -> Outcome {
        let directory = FileSystem.directoryName(outputPath)
        let template = "\(directory)/.\(FileSystem.baseName(outputPath)).photobook-XXXXXX"
        let temporary: String, descriptor: FileDescriptor
        switch session.makeTemporaryFile(template: template) {
        case .failure(let failure): return .failed("cannot create a temporary file in \(directory): \(failure)")
        case .success(let file): (temporary, descriptor) = file
        }
        var committed = false
        defer {
            descriptor.close()
            if !committed { session.remove(temporaryFile: temporary) }
        }

        do {
            // libharu opens the file by name; through our descriptor's /proc link it writes into the file we
            // created, even if a second Ctrl-C has unlinked it meanwhile, so no stray file can reappear.
            try document.save(to: "/proc/self/fd/\(descriptor.rawValue)")
        } catch {
            return .failed("cannot write the book: \(error)")
        }
        do {
            try descriptor.setMode(FileSystem.modeForNewFile(replacing: outputPath))
        } catch {
            return .failed("cannot set the permissions of \(temporary): \(error)")
        }
        do {
            try descriptor.sync()
        } catch {
            return .failed("cannot write the book: \(error)")
        }
        hooks.beforeCommit?()
        switch session.commit(temporaryFile: temporary, { FileSystem.rename(temporary, to: outputPath) }) {
        case nil:
            return .cancelled
        case .failure(let failure)?:
            return .failed("cannot write the book: \(failure)")
        case .success?:
            committed = true
            pagesWritten = pageCount
            hooks.afterCommit?()
            // The rename is done; a failing directory sync cannot undo it, so it is not a failure of the build.
            _ = FileSystem.sync(directory, directory: true)
            return .succeeded
        }
    }
}
