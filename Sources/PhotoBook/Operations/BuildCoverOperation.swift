import Foundation
import Geometry
import JPEG
import PDF
import Platform

/// Makes the wrap cover's one page from its plan and the rendered photos, and hands it to the commit. Runs after
/// every render has ended; does nothing unless all of them succeeded (a cover is not made without its photos).
final class BuildCoverOperation: BookOperation, @unchecked Sendable {
    /// A photo of the cover, and the render that makes its JPEG.
    struct Photo {
        var info: PhotoInfo
        var job: PhotoJob
        var render: ResizeCropOperation
    }

    let plan: CoverPlan
    /// The front photo first, then the back one if any.
    let photos: [Photo]
    let text: CoverText?
    let commit: BookCommit
    let hooks: BuildHooks
    let creationDate: Date?

    init(plan: CoverPlan, photos: [Photo], text: CoverText?, commit: BookCommit, session: BuildSession,
         hooks: BuildHooks, creationDate: Date? = nil) {
        self.creationDate = creationDate
        self.plan = plan
        self.photos = photos
        self.text = text
        self.commit = commit
        self.hooks = hooks
        super.init(session: session)
        name = "build cover \(commit.outputPath)"
        for photo in photos { addDependency(photo.render) }
    }

    override func run() -> Outcome {
        if let reason = reasonToSkip(inputs: photos.map { ("the photo \($0.info.file.path)", $0.render) }) {
            return .skipped(because: reason)
        }
        do {
            let document = try PDFDocument()
            try document.setInfo(producer: PhotoBookVersion.string, creator: PhotoBookVersion.string,
                                 title: text?.title, author: text?.author, subject: text?.subtitle,
                                 creationDate: creationDate ?? Date(), timeZone: creationDate == nil ? .current : .gmt)
            let font = try text.map { text throws(PDFError) in try document.loadFont(path: text.font.path) }
            hooks.pageStarted?(0, 1)
            let geometry = plan.geometry
            let media = geometry.mediaSize
            let page = try document.addPage(width: media.width, height: media.height)
            try page.setBoxes(PDFPage.Boxes(trim: geometry.trimBox,
                                            bleed: Rect(x: 0, y: 0, width: media.width, height: media.height),
                                            art: geometry.artBox))
            var shades: [Double] = plan.frontTexts.map { _ in 0 }
            for (index, photo) in photos.enumerated() {
                if shouldStop { return .cancelled }
                guard let path = photo.job.rendered.withLock({ $0 }) else {
                    return .failed("internal error: the photo \(photo.info.file.path) has no render")
                }
                let bytes: [UInt8]
                switch FileSystem.readFile(path) {
                case .failure(let failure): return .failed("cannot read temporary file \(path): \(failure)")
                case .success(let data): bytes = data
                }
                let drawn = try draw(bytes, of: photo, on: page, in: document)
                session.remove(temporaryFile: path)
                if index == 0 && !plan.frontTexts.isEmpty {
                    shades = frontShades(bytes, of: photo, drawn: drawn)
                }
            }
            if shouldStop { return .cancelled }
            if let font {
                for (text, gray) in zip(plan.frontTexts, shades) {
                    for (index, line) in text.lines.enumerated() {
                        let width = font.width(of: line, size: text.size)
                        try page.drawText(line, font: font, size: text.size, x: text.box.x + (text.box.width - width) / 2,
                                          y: text.baseline(of: index, ascent: font.ascent), gray: gray)
                    }
                }
                for line in plan.spineTexts {
                    try page.drawTextTopToBottom(line.text, font: font, size: line.size, x: line.baselineX, y: line.top)
                }
            }
            if shouldStop { return .cancelled }
            return commit.commit { path throws(PDFError) in try document.save(to: path) }
        } catch {
            return .failed(String(describing: error))
        }
    }

    /// Draws a rendered photo in its cell; returns where the whole image landed on the page.
    private func draw(_ bytes: [UInt8], of photo: Photo, on page: PDFPage, in document: PDFDocument) throws(PDFError) -> Rect {
        let placed = photo.job.placement
        let info = photo.info
        let profile = info.colorProfile?.bytes(forPassThrough: photo.job.passThrough)
        let image = try document.loadJPEG(bytes, iccProfile: profile)
        let cell = placed.placement
        guard photo.job.passThrough else {
            try page.draw(image, in: cell, orientation: 1)
            return cell
        }
        // The photo's own bytes: the page turns it upright and clips it to its cell.
        let whole = placed.wholePhotoRect(uprightWidth: info.uprightWidth, uprightHeight: info.uprightHeight)
        let cropped = !placed.usesWholePhoto(uprightWidth: info.uprightWidth, uprightHeight: info.uprightHeight)
        try page.draw(image, in: whole, orientation: info.orientation.rawValue, clip: cropped ? cell : nil)
        return whole
    }

    /// White or black for each of the front's texts, from the photo under it (decoded small: only its light matters).
    private func frontShades(_ bytes: [UInt8], of photo: Photo, drawn: Rect) -> [Double] {
        guard var image = try? JPEGDecoder.decode(bytes, minimumWidth: 64, minimumHeight: 64, maxPixels: Int.max,
                                                  shouldCancel: { [unowned self] in self.shouldStop }) else {
            return plan.frontTexts.map { _ in 0 }
        }
        if photo.job.passThrough { image = image.applying(photo.info.orientation) }
        return plan.frontTexts.map { TextShade.gray(for: $0.box, over: image, drawn: drawn) }
    }
}
