import Foundation
import Geometry
import Imaging
import JPEG
import PDF
import Platform
import Synchronization
import TextBreaks
import Typeface
import Words

/// Makes one PDF page per planned page, with every photo of the page drawn in its place, and hands the document
/// to the build's commit. It depends on the render operations of the pages it draws (`draws(_:)`): it starts when
/// they have ended, and ends `skipped(because:)` when one of them did not succeed, for the orchestration to plan
/// the book again without the photo (docs/design.md §2).
final class BuildPDFOperation: BookOperation, @unchecked Sendable {
    /// A planned page and the photos on it, ready to draw.
    struct Page {
        var plan: PlannedPage
        var photos: [RenderedPhoto]
    }

    /// Everything the PDF is made of: its pages, its words, its dates, and where its JPEGs are embedded from.
    struct Contents {
        /// Known once the renders have ended (`pagesWhenDrawn`).
        var pages: [Page] = []
        var words: PDFWords?
        /// The first page is a title page: it gets a bookmark and the label "Title", and the numbers printed on the
        /// others start at 2, as their labels do.
        var hasTitlePage = false
        /// The document's CreationDate and ModDate (in UTC); nil for now, in the local time zone.
        var creationDate: Date?
        /// Embed each page's JPEG from memory, not from its file at the save (`BuildOptions.imagesInMemory`).
        var imagesInMemory = false
        /// A PDF/X book for this printing condition (`BuildOptions.pdfx`); nil for a plain PDF.
        var pdfx: PDFXRequest?
        /// A proof for the screen (`--proof`): its Keywords say "proof".
        var proof = false
    }

    /// Set once, when the body starts, from `pagesWhenDrawn`; read by the body and, after it, by the orchestration.
    private(set) var contents: Contents
    let commit: BookCommit
    /// The pages with the files of the renders they draw, asked for once every render has succeeded; nil when a
    /// planned photo has no render.
    private let pagesWhenDrawn: () -> [Page]?
    /// The render operations of this round that the pages draw (renders of earlier rounds and of the cache have
    /// ended before the round starts), with the photos they render, for a skip's reason.
    private var renders: [(name: String, operation: BookOperation)] = []
    /// Told when the body starts (the build's stage clock).
    var started: (() -> Void)?
    private let began = Mutex(false)
    /// The body went past its renders: they all succeeded, and this operation's outcome is the book's.
    var hasStarted: Bool { began.withLock { $0 } }

    var pages: [Page] { contents.pages }
    var words: PDFWords? { contents.words }

    init(_ contents: Contents, pages: @escaping () -> [Page]?, commit: BookCommit, context: Context) {
        self.contents = contents
        self.pagesWhenDrawn = pages
        self.commit = commit
        super.init(context)
        name = "build \(commit.outputPath)"
    }

    /// The book draws what `render` makes: this operation starts after it has ended. Call before queueing.
    func draws(_ render: ResizeCropOperation) {
        renders.append(("rendering \(render.job.info.file.path)", render))
        addDependency(render)
    }

    /// The pages of the committed book, 0 unless it was committed; derived from the recorded outcome, read under
    /// its lock, so it can never disagree with it.
    var pagesWritten: Int { outcome == .succeeded ? pages.count : 0 }

    override func run() -> Outcome {
        if let reason = reasonToSkip(inputs: renders) { return .skipped(because: reason) }
        began.withLock { $0 = true }
        started?()
        guard let drawn = pagesWhenDrawn() else { return .failed(.internalError("internal error: a planned photo has no render")) }
        contents.pages = drawn
        if pages.isEmpty { return .skipped(because: .refused("no photo could be used")) }
        if let proofSheets = hooks.proofSheets { return handOver(to: proofSheets) }
        do {
            let document = try PDFDocument()
            try document.setInfo(producer: PhotoBookVersion.string, creator: PhotoBookVersion.string,
                                 title: words?.title, author: words?.author, subject: words?.subtitle,
                                 keywords: contents.proof ? "proof" : nil,
                                 creationDate: contents.creationDate ?? Date(),
                                 timeZone: contents.creationDate == nil ? .current : .gmt)
            if let request = contents.pdfx { try conformToPDFX(document, request: request) }
            let fonts = words.map { DocumentFonts(book: $0.font, document: document) }
            var titleOutline: PDFOutline?
            for (index, page) in pages.enumerated() {
                if shouldStop { return .cancelled }
                hooks.pageStarted?(index, pages.count)
                let planned = page.plan
                let pdfPage = try document.addPage(width: planned.size.width, height: planned.size.height)
                // Every page says where it is cut, so that a print shop's preflight finds a TrimBox on each.
                try pdfPage.setBoxes(PDFPage.Boxes(trim: planned.trimBox, bleed: planned.bleedBox, art: planned.artBox))
                // A reader's sidebar shows the book's structure: the title page, and under it each section.
                if index == 0, contents.hasTitlePage, let title = words?.title {
                    titleOutline = try document.addOutline(title: title, parent: nil, page: pdfPage)
                }
                if let heading = planned.heading {
                    _ = try document.addOutline(title: heading, parent: titleOutline, page: pdfPage)
                }
                var shades: [Double] = planned.texts.map { _ in 0 }
                for (number, photo) in page.photos.enumerated() {
                    if shouldStop { return .cancelled }
                    let shaded = number == 0 && planned.wordsTakeShadeFromPhoto && !planned.words.isEmpty
                    // A lossless crop keeps the photo's own components (grey stays grey): its profile fits as is.
                    // A PDF/X-1a book's photos were converted to CMYK from their profile: it describes them no longer.
                    // Trap: `attach` would still make it `[/ICCBased]` with /N 4, an RGB profile on CMYK samples,
                    // which pdfimages lists as "icc" and Ghostscript draws as stripes.
                    let profile = contents.pdfx?.intent != nil ? nil
                        : photo.info.colorProfile?.bytes(forPassThrough: photo.passThrough || photo.blocksShown != nil)
                    var bytes: [UInt8]?
                    if contents.imagesInMemory || shaded {
                        switch FileSystem.readFile(photo.path) {
                        case .failure(let failure): return .failed(.outputFailed("cannot read temporary file \(photo.path): \(failure)", failure))
                        case .success(let data): bytes = data
                        }
                    }
                    let image: PDFImage
                    if contents.imagesInMemory, let bytes {
                        image = try document.loadJPEG(bytes, iccProfile: profile)
                        // libharu holds its own copy now; the temporary file is no longer needed.
                        session.remove(temporaryFile: photo.path)
                    } else {
                        // The page's bytes stay in its file until the save copies them into the book, and the file
                        // goes as soon as they are copied: memory and disk do not grow with the number of pages.
                        image = try document.loadJPEG(file: photo.path, iccProfile: profile, removeWhenSaved: true)
                    }
                    let drawn = try draw(image, of: photo, on: pdfPage)
                    if shaded, let bytes {
                        shades = Self.shades(of: planned.words, over: bytes, of: photo, drawn: drawn, pool: pool,
                                             shouldStop: { [unowned self] in self.shouldStop }) + shades.dropFirst(planned.words.count)
                    }
                }
                if let fonts {
                    try draw(planned.texts, shades: shades, with: fonts, on: pdfPage)
                    for line in planned.spineTexts {
                        if line.vertical {
                            try fonts.drawColumn(line.text, size: line.size, centre: line.baselineX, top: line.top, on: pdfPage)
                        } else {
                            try fonts.draw(line.text, size: line.size, x: line.baselineX, y: line.top, on: pdfPage, turned: true)
                        }
                    }
                }
                try pdfPage.strokeLines(planned.cropMarks, width: CropMarks.lineWidth, color: .registration)
            }
            if contents.hasTitlePage {
                // The labels a reader's page box shows are the numbers printed on the pages.
                try document.setPageLabels([PDFPageLabel(firstPage: 0, style: .none, prefix: "Title", firstNumber: 1)]
                    + (pages.count > 1 ? [PDFPageLabel(firstPage: 1, style: .decimal, firstNumber: 2)] : []))
            }
            if shouldStop { return .cancelled }
            // Every page is rendered by now: the buffers kept for the next photo have no taker left.
            pool.removeAll()
            return commit.commit { path in try save(document, to: path) }
        } catch {
            return .failed(.outputFailed(String(describing: error)))
        }
    }

    /// The pages, each photo with its render's bytes, handed to `proofSheets` instead of a PDF.
    private func handOver(to proofSheets: @Sendable ([ProofSheet]) -> Void) -> Outcome {
        var sheets: [ProofSheet] = []
        for page in pages {
            var pictures: [ProofPicture] = []
            for photo in page.photos {
                if shouldStop { return .cancelled }
                guard case .success(let bytes) = FileSystem.readFile(photo.path) else {
                    return .failed(.outputFailed("cannot read temporary file \(photo.path)"))
                }
                let info = photo.info, placed = photo.placed
                let whole = Rect(x: 0, y: 0, width: Double(info.uprightWidth), height: Double(info.uprightHeight))
                pictures.append(ProofPicture(path: info.file.path, placed: placed, jpeg: bytes,
                                             shown: photo.passThrough ? whole : photo.blocksShown ?? placed.crop,
                                             passThrough: photo.passThrough,
                                             uprightWidth: info.uprightWidth, uprightHeight: info.uprightHeight))
            }
            sheets.append(ProofSheet(plan: page.plan, photos: pictures))
        }
        proofSheets(sheets)
        return .succeeded
    }

    /// Each line at its baseline, placed in its box as aligned, in its gray (0 black, 1 white).
    private func draw(_ texts: [PlacedText], shades: [Double], with fonts: DocumentFonts, on page: PDFPage) throws(PDFError) {
        for (text, gray) in zip(texts, shades) {
            // Every line of a paragraph in the paragraph's direction, which its first strong letter says.
            let base = Bidi.baseDirection(of: text.lines.joined(separator: " "))
            // The same placed lines, measured by the same fonts, that the preflight checks against the safety area
            // and the gutter.
            for line in text.drawnLines(measure: fonts.book) {
                try fonts.draw(line.text, size: text.size, x: line.x, y: line.baseline, gray: gray, on: page,
                               language: text.language, base: base)
            }
        }
    }

    /// Draws a photo in its cell; returns where the whole image landed on the page.
    private func draw(_ image: PDFImage, of photo: RenderedPhoto, on page: PDFPage) throws(PDFError) -> Rect {
        let placement = photo.placed.placement
        guard photo.passThrough else {
            let rect = photo.blocksShown.map { photo.placed.pageRect(ofUpright: $0) } ?? placement
            try page.draw(image, in: rect, orientation: 1, clip: photo.blocksShown == nil ? nil : placement)
            return rect
        }
        // The photo's own bytes: the page turns it upright and clips it to its cell.
        let info = photo.info
        let whole = photo.placed.wholePhotoRect(uprightWidth: info.uprightWidth, uprightHeight: info.uprightHeight)
        let cropped = !photo.placed.usesWholePhoto(uprightWidth: info.uprightWidth, uprightHeight: info.uprightHeight)
        try page.draw(image, in: whole, orientation: info.orientation.rawValue, clip: cropped ? placement : nil)
        return whole
    }

    /// White or black for each text, from the photo under it, drawn on `drawn` (decoded small: only its light
    /// matters); black for all when it cannot be decoded.
    private static func shades(of texts: [PlacedText], over bytes: [UInt8], of photo: RenderedPhoto, drawn: Rect,
                               pool: BufferPool, shouldStop: () -> Bool) -> [Double] {
        guard var image = try? JPEGDecoder.decode(bytes, minimumWidth: 64, minimumHeight: 64, maxPixels: Int.max,
                                                  pool: pool, shouldCancel: shouldStop) else {
            return texts.map { _ in 0 }
        }
        if photo.passThrough { image = image.applying(photo.info.orientation, pool: pool) }
        return texts.map { TextShade.gray(for: $0.box, over: image, drawn: drawn) }
    }

    /// Saves the book, stopping between two pages' images when the build is asked to stop. A page file that
    /// cannot be read by then fails the save naming it and the photo it was made from.
    private func save(_ document: PDFDocument, to path: String) throws {
        do {
            try document.save(to: path, beforeImageFile: { index, count in
                self.hooks.savingImage?(index, count)
                return !self.shouldStop
            })
        } catch {
            // Trap: `catch .imageFile(let file, let reason)` here crashed the Swift 6.3.1 compiler ("Found ownership error").
            guard case .imageFile(let file, let reason) = error else { throw error }
            let photo = pages.flatMap(\.photos).first { $0.path == file }
            throw PageFileUnreadable(file: file, photo: photo?.info.file.path, reason: reason)
        }
    }
}

/// A rendered page's file could not be read when the book was saved (gone, or changed, since it was rendered).
struct PageFileUnreadable: Error, CustomStringConvertible {
    var file: String
    var photo: String?
    var reason: String

    var description: String {
        "the page file \(file)" + (photo.map { " rendered from \($0)" } ?? "") + " cannot be read: \(reason)"
    }
}

/// The book's fonts in one PDF document: a line is drawn as the runs the planner measured (`BookFont.runs`), each in
/// its face, loaded into the document on first use, one after another along the line. A run of the colour emoji
/// face is drawn as pictures, with its text over them for copying (`PDFPage.drawColourGlyphs`).
struct DocumentFonts {
    let book: BookFont
    let document: PDFDocument

    /// `text` as a column of upright characters whose top centre is (centre, top).
    func drawColumn(_ text: String, size: Double, centre: Double, top: Double, on page: PDFPage) throws(PDFError) {
        var along = 0.0
        for piece in book.columnPieces(of: text) {
            if piece.face.drawsInColour {
                try page.drawColourGlyphs(piece.run, face: piece.face, size: size, x: centre, y: top - along,
                                          turned: piece.run.direction != .topToBottom,
                                          textFont: try document.loadFont(face: book.chain.primary))
                along += PDFPage.colourRunWidth(piece.run, face: piece.face, size: size)
                continue
            }
            let font = try document.loadFont(face: piece.face)
            if piece.run.direction == .topToBottom {
                try page.drawGlyphs(piece.run, font: font, size: size, x: centre, y: top - along)
            } else {
                // A Latin word turned sideways, its letters centred across the column (descent is negative).
                let baseline = centre - (font.ascent + font.descent) * size / 2
                try page.drawGlyphs(piece.run, font: font, size: size, x: baseline, y: top - along, turned: true)
            }
            along += font.width(of: piece.run, size: size)
        }
    }

    /// `text` from (x, y) along its baseline; `turned`: down the page, as on a spine (`drawTextTopToBottom`).
    func draw(_ text: String, size: Double, x: Double, y: Double, gray: Double = 0, on page: PDFPage,
              turned: Bool = false, language: Language? = nil, base: ParagraphDirection? = nil) throws(PDFError) {
        // Placed in visual order, written in logical order (docs/research/words.md §3.5: MuPDF reads the content
        // stream's order, and a right-to-left line written left to right came out word by word backwards).
        // A face of outlines is loaded once per piece (nil: a colour face, drawn as pictures).
        var along = 0.0
        var placed: [(piece: (face: FontFace, run: PDFGlyphRun, start: Int), font: PDFFont?, along: Double)] = []
        for piece in book.pieces(of: text, language: language, base: base) {
            let font = piece.face.drawsInColour ? nil : try document.loadFont(face: piece.face)
            placed.append((piece, font, along))
            along += font?.width(of: piece.run, size: size) ?? PDFPage.colourRunWidth(piece.run, face: piece.face, size: size)
        }
        for (piece, font, along) in placed.sorted(by: { $0.piece.start < $1.piece.start }) {
            let (px, py) = turned ? (x, y - along) : (x + along, y)
            if let font {
                try page.drawGlyphs(piece.run, font: font, size: size, x: px, y: py, gray: gray, turned: turned)
            } else {
                try page.drawColourGlyphs(piece.run, face: piece.face, size: size, x: px, y: py, turned: turned,
                                          textFont: try document.loadFont(face: book.chain.primary))
            }
        }
    }
}
