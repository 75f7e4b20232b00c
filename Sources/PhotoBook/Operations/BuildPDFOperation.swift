import Foundation
import Geometry
import Imaging
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
        /// A lossless crop (`LosslessCrop.swift`): the part of the upright photo its JPEG shows, to be clipped.
        var cover: Rect? = nil
    }

    struct Page {
        var size: PageSize
        var photos: [Photo]
        var texts: [PlacedText] = []
        /// The heading of the section the page starts: it gets a bookmark.
        var heading: String?
        /// Trim, bleed and art boxes, written when the book has a bleed or a safety margin of its own.
        var boxes: PDFPage.Boxes?
        /// Trim marks outside the bleed, drawn in registration colour.
        var cropMarks: [LineSegment] = []
    }

    /// What the book says beyond its pages: the document's information, and the font its text is set in.
    struct Words {
        var fontPath: String
        var title: String?
        var subtitle: String?
        var author: String?
        /// The first page is a title page: it gets a bookmark and the label "Title", and the numbers printed on
        /// the others start at 2, as their labels do.
        var hasTitlePage: Bool
    }

    let pages: [Page]
    let words: Words?
    let commit: BookCommit
    let hooks: BuildHooks
    /// The document's CreationDate and ModDate (in UTC); nil for now, in the local time zone.
    let creationDate: Date?
    /// Embed each page's JPEG from memory, not from its file at the save (`BuildOptions.imagesInMemory`).
    let imagesInMemory: Bool

    init(pages: [Page], words: Words? = nil, commit: BookCommit, session: BuildSession, hooks: BuildHooks,
         creationDate: Date? = nil, imagesInMemory: Bool = false) {
        self.creationDate = creationDate
        self.pages = pages
        self.words = words
        self.commit = commit
        self.hooks = hooks
        self.imagesInMemory = imagesInMemory
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
            try document.setInfo(producer: PhotoBookVersion.string, creator: PhotoBookVersion.string,
                                 title: words?.title, author: words?.author, subject: words?.subtitle,
                                 creationDate: creationDate ?? Date(), timeZone: creationDate == nil ? .current : .gmt)
            let font = try words.map { words throws(PDFError) in try document.loadFont(path: words.fontPath) }
            var titleOutline: PDFOutline?
            for (index, page) in pages.enumerated() {
                if shouldStop { return .cancelled }
                hooks.pageStarted?(index, pages.count)
                let pdfPage = try document.addPage(width: page.size.width, height: page.size.height)
                if let boxes = page.boxes { try pdfPage.setBoxes(boxes) }
                // A reader's sidebar shows the book's structure: the title page, and under it each section.
                if index == 0, let words, words.hasTitlePage, let title = words.title {
                    titleOutline = try document.addOutline(title: title, parent: nil, page: pdfPage)
                }
                if let heading = page.heading {
                    _ = try document.addOutline(title: heading, parent: titleOutline, page: pdfPage)
                }
                for photo in page.photos {
                    // A lossless crop keeps the photo's own components (grey stays grey): its profile fits as is.
                    let profile = photo.info.colorProfile?.bytes(forPassThrough: photo.passThrough || photo.cover != nil)
                    let image: PDFImage
                    if imagesInMemory {
                        let bytes: [UInt8]
                        switch FileSystem.readFile(photo.path) {
                        case .failure(let failure): return .failed("cannot read temporary file \(photo.path): \(failure)")
                        case .success(let data): bytes = data
                        }
                        image = try document.loadJPEG(bytes, iccProfile: profile)
                        // libharu holds its own copy now; the temporary file is no longer needed.
                        session.remove(temporaryFile: photo.path)
                    } else {
                        // The page's bytes stay in its file until the save copies them into the book, and the file
                        // goes as soon as they are copied: memory and disk do not grow with the number of pages.
                        image = try document.loadJPEG(file: photo.path, iccProfile: profile, removeWhenSaved: true)
                    }
                    try draw(image, of: photo, on: pdfPage)
                }
                if let font { try draw(page.texts, with: font, on: pdfPage) }
                try pdfPage.strokeLines(page.cropMarks, width: CropMarks.lineWidth,
                                        color: .registration)
            }
            if let words, words.hasTitlePage {
                // The labels a reader's page box shows are the numbers printed on the pages.
                try document.setPageLabels([PDFPageLabel(firstPage: 0, style: .none, prefix: "Title", firstNumber: 1)]
                    + (pages.count > 1 ? [PDFPageLabel(firstPage: 1, style: .decimal, firstNumber: 2)] : []))
            }
            if shouldStop { return .cancelled }
            // Every page is rendered by now: the buffers kept for the next photo have no taker left.
            BufferPool.shared.removeAll()
            return commit.commit { path in try save(document, to: path) }
        } catch {
            return .failed(String(describing: error))
        }
    }

    /// Each line at its baseline, placed in its box as aligned.
    private func draw(_ texts: [PlacedText], with font: PDFFont, on page: PDFPage) throws(PDFError) {
        for text in texts {
            for (index, line) in text.lines.enumerated() {
                let width = font.width(of: line, size: text.size)
                let x: Double
                switch text.alignment {
                case .left: x = text.box.x
                case .center: x = text.box.x + (text.box.width - width) / 2
                case .right: x = text.box.x + text.box.width - width
                }
                try page.drawText(line, font: font, size: text.size, x: x, y: text.baseline(of: index, ascent: font.ascent))
            }
        }
    }

    private func draw(_ image: PDFImage, of photo: Photo, on page: PDFPage) throws(PDFError) {
        let placement = photo.placement.placement
        guard photo.passThrough else {
            let rect = photo.cover.map { photo.placement.pageRect(ofUpright: $0) } ?? placement
            try page.draw(image, in: rect, orientation: 1, clip: photo.cover == nil ? nil : placement)
            return
        }
        let info = photo.info
        let whole = photo.placement.wholePhotoRect(uprightWidth: info.uprightWidth, uprightHeight: info.uprightHeight)
        let cropped = !photo.placement.usesWholePhoto(uprightWidth: info.uprightWidth, uprightHeight: info.uprightHeight)
        try page.draw(image, in: whole, orientation: info.orientation.rawValue, clip: cropped ? placement : nil)
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
