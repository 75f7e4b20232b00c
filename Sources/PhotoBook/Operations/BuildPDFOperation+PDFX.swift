import Colour
import Foundation
import PDF

extension BuildPDFOperation {
    /// Makes `document` a PDF/X book of `request`'s standard for its printing condition (`PDFDocument.conformToPDFX`),
    /// its /ID a digest of what the book is made of, so that the same book made again has the same bytes.
    func conformToPDFX(_ document: PDFDocument, request: PDFXRequest) throws {
        let intent = PDFXOutputIntent(profile: request.profile.bytes, identifier: request.identifier,
                                      condition: request.conditionText, registryName: request.registryName)
        // PDF/X wants a title; a book without one is called by its file's name.
        let title = words?.title ?? URL(fileURLWithPath: commit.outputPath).deletingPathExtension().lastPathComponent
        try document.conformToPDFX(request.standard, intent: intent, title: title,
                                   documentID: documentID(request: request, title: title),
                                   rgbProfile: request.standard == .x4 ? Self.sRGBProfile : nil)
    }

    /// The digest of the book's words, dates, printing condition and pages: each page's size and boxes, its
    /// texts, and each photo's name, place, crop and rendered JPEG's size. The dates are in it: a book made
    /// without SOURCE_DATE_EPOCH is another document every time.
    private func documentID(request: PDFXRequest, title: String) -> [UInt8] {
        var digest = PDFDigest()
        digest.add(PhotoBookVersion.string)
        // An X-1a book's standard and intent are in it too (an X-4 book's ID stays what it was before X-1a came).
        let converted = request.intent.map { [request.standard.rawValue, $0.rawValue] } ?? []
        for text in [title, words?.subtitle ?? "", words?.author ?? "", request.identifier, request.conditionText] + converted {
            digest.add(text)
        }
        digest.add(contents.creationDate?.timeIntervalSince1970 ?? Date().timeIntervalSince1970)
        digest.add(request.profile.bytes)
        for page in pages {
            let plan = page.plan
            for rect in [plan.trimBox, plan.bleedBox] {
                [plan.size.width, plan.size.height, rect.x, rect.y, rect.width, rect.height].forEach { digest.add($0) }
            }
            for text in plan.texts {
                digest.add(text.lines.joined(separator: "\n"))
                digest.add(text.size)
            }
            for line in plan.spineTexts {
                digest.add(line.text)
                digest.add(line.size)
                if line.vertical { digest.add("vertical") }
            }
            for photo in page.photos {
                digest.add(URL(fileURLWithPath: photo.info.file.path).lastPathComponent)
                let placed = photo.placed
                for rect in [placed.placement, placed.crop] { [rect.x, rect.y, rect.width, rect.height].forEach { digest.add($0) } }
                let size = (try? FileManager.default.attributesOfItem(atPath: photo.path))?[.size] as? Int
                digest.add(String(size ?? 0))
            }
        }
        return digest.finish()
    }

    /// sRGB (IEC 61966-2.1) as Little CMS makes it: the profile of the RGB photos that carry none.
    static let sRGBProfile: [UInt8] = RGBProfile.make(primaries: .bt709, transfer: .sRGB,
                                                      description: "sRGB IEC61966-2.1") ?? []
}
