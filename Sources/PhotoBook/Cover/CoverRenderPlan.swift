import Foundation

/// The words of a cover and the font they are set in.
public struct CoverText: Sendable {
    public var font: BookFont
    public var title: String
    public var subtitle: String?
    public var author: String?
    /// How the title goes along the spine (`--spine-text`).
    public var spineText: SpineTextMode = .auto

    public init(font: BookFont, title: String, subtitle: String? = nil, author: String? = nil) {
        self.font = font
        self.title = title
        self.subtitle = subtitle
        self.author = author
    }
}

/// Everything a cover needs besides its photos.
public struct CoverOptions: Sendable {
    public var geometry: CoverGeometry
    /// Target density of the photos, in pixels per inch; never upsampled.
    public var dpi = 300.0
    /// JPEG quality of the photos embedded, 1-100.
    public var quality = 90
    /// Images whose header declares more pixels than this are refused before decoding.
    public var maxPixels = 100_000_000
    /// Where the private working directory goes; `$TMPDIR` or /tmp when nil.
    public var temporaryDirectory: String?
    /// The title on the front and the spine; nil for a cover of photos alone.
    public var text: CoverText?
    /// The PDF's dates (`SOURCE_DATE_EPOCH`, for a reproducible cover); now, in the local zone, when nil.
    public var creationDate: Date?
    /// How the photos' crops are placed (`CropRule`).
    public var crop: CropMode = .auto
    /// Make a PDF/X-4 cover for this printing condition (`--pdfx 4`); nil for a plain PDF.
    public var pdfx: PDFXRequest?

    public init(geometry: CoverGeometry) { self.geometry = geometry }
}

/// A wrap cover as the render pipeline makes it: one page of its front photo, its back one if any, and its
/// words (`CoverPlanner`). A photo that cannot be used fails the cover: nothing is written.
struct CoverRenderPlan: RenderPlan {
    let options: CoverOptions

    var settings: RenderSettings {
        // Two photos at most: one worker each. The working folder goes in $TMPDIR: a cover's two photos are small.
        RenderSettings(jobs: 2, maxPixels: options.maxPixels, quality: options.quality,
                       measuresAttention: options.crop == .auto, creationDate: options.creationDate,
                       temporaryDirectory: options.temporaryDirectory ?? "/tmp", pdfx: options.pdfx)
    }

    var words: PDFWords? {
        options.text.map { PDFWords(font: $0.font, title: $0.title, subtitle: $0.subtitle, author: $0.author) }
    }

    var keepsWarningsWhenStopped: Bool { true }

    func refusal(usable: Int, of total: Int, afterRender: Bool) -> String? {
        usable < total ? "the cover needs every photo it names" : nil
    }

    func prepare(_ usable: [(id: PhotoID, info: PhotoInfo)]) -> Result<PreparedWords, PlanStop> {
        var missing = MissingCharacters()
        if let text = options.text {
            missing.add(title: text.title, subtitle: text.subtitle, author: text.author, font: text.font)
            text.font.guessLanguage(from: missing.texts)
        }
        let warnings = (missing.message.map { [BuildWarning(path: nil, message: $0)] } ?? []) + missing.markWarnings
        return .success(PreparedWords(photos: usable.map { PreparedPhoto(id: $0.id, info: $0.info) }, warnings: warnings))
    }

    func plan(_ prepared: PreparedBook, alive: [PhotoID]) -> Result<PlannedDocument, PlanStop> {
        let photos = alive.map { id in
            let info = prepared.photo(id).info
            return BookPhoto(id: id, width: info.uprightWidth, height: info.uprightHeight, regions: info.regions,
                             attention: info.attention)
        }
        let words = options.text.map { text in
            var words = CoverWords(measure: text.font, title: text.title, subtitle: text.subtitle, author: text.author)
            words.spineText = text.spineText
            return words
        }
        guard let cover = CoverPlanner.plan(geometry: options.geometry, front: photos[0],
                                            back: photos.count > 1 ? photos[1] : nil, dpi: options.dpi,
                                            crop: options.crop, words: words)
        else { return .failure(PlanStop(outcome: .failed(.refused("the cover's sizes cannot make a PDF page")))) }
        return .success(PlannedDocument(plan: BookPlan(pages: [cover.page]), photos: photos,
                                        warnings: cover.warnings.map { BuildWarning(path: nil, message: $0) }))
    }
}

extension RenderPipeline {
    /// The wrap cover of `front` (and `back`, if any), written to `outputPath`.
    public convenience init(front: PhotoFile, back: PhotoFile?, outputPath: String, options: CoverOptions,
                            hooks: BuildHooks = BuildHooks()) {
        self.init(files: [front] + (back.map { [$0] } ?? []), outputPath: outputPath,
                  plan: CoverRenderPlan(options: options), hooks: hooks)
    }
}
