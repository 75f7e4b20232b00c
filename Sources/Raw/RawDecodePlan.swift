import ImageCodec

/// Which of a raw's three ways to its pixels serves a request: a pure function of what the probe read and the
/// request, so that tests pin it down without files.
enum RawDecodePlan: Equatable {
    /// The embedded JPEG preview: it has at least the pixels the region needs, and the raw's shape.
    case preview
    /// LibRaw at half size (`half_size`): the region needs at most half its pixels each way.
    case halfSize
    /// LibRaw at full size.
    case fullSize

    static func make(facts: RawFacts, region: PixelRegion, minimumWidth: Int, minimumHeight: Int) -> RawDecodePlan {
        if let preview = facts.preview, previewMatches(facts),
           preview.width * region.width >= minimumWidth * facts.width,
           preview.height * region.height >= minimumHeight * facts.height {
            return .preview
        }
        return halfSizeServes(facts: facts, region: region, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
            ? .halfSize : .fullSize
    }

    /// True when LibRaw's half-size rendering gives the region its pixels: only a colour filter array sensor is
    /// halved (a linear DNG comes out whole), and a side of N pixels comes out as N/2 rounded up.
    static func halfSizeServes(facts: RawFacts, region: PixelRegion, minimumWidth: Int, minimumHeight: Int) -> Bool {
        facts.hasFilters && minimumWidth * 2 <= region.width && minimumHeight * 2 <= region.height
    }

    /// True when the preview has the rendering's shape within 1%: it shows the whole picture, unturned, as the
    /// raw is stored. Trap: cameras store the preview unturned like the raw (the JPEG's own EXIF says the turn),
    /// but a preview turned already, or letterboxed to another shape, would be placed wrong: it is not used.
    static func previewMatches(_ facts: RawFacts) -> Bool {
        guard let preview = facts.preview, facts.width > 0, facts.height > 0 else { return false }
        let a = preview.width * facts.height, b = preview.height * facts.width
        return abs(a - b) * 100 <= max(a, b)
    }
}
