import Geometry

/// Where one photo goes and what pixels it needs.
public struct PlacedPhoto: Sendable, Equatable {
    /// Which photo.
    public var photo: PhotoID
    /// The cell the photo belongs to.
    public var cell: Rect
    /// Where the image is drawn: the cell itself for `.fill`, the fitted rectangle for `.fit`.
    public var placement: Rect
    /// The part of the upright photo that is shown, in its full-resolution pixels.
    public var crop: Rect
    /// Pixel size of the image embedded in the PDF: the target density, never more than the crop holds.
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// The share of the photo's area that the crop leaves out, 0 to 1.
    public var cropShare: Double
    /// Where the crop was placed from (`CropRule`), and whether a marked region had to be cut or left out.
    public var cropSource: CropSource = .centre
    public var cutsRegion = false
    /// Its caption as the page sets it, in a band at the bottom of its cell (on a spread, of the right-hand
    /// page's margins); nil when it has none or the cell has no room for one.
    public var caption: PlacedText?

    /// Pixels per inch the photo is printed at; below the target when the photo is small.
    public var effectiveDPI: Double { Double(pixelWidth) / (placement.width / 72) }

    /// The density the book for print has it at: `effectiveDPI`, or in a proof's plan (`LayoutOptions.printDPI`)
    /// the print build's: its crop's own pixels over the placement, at most that build's target.
    public func printedDPI(_ options: LayoutOptions) -> Double {
        printedDPI(target: options.printDPI, keepOriginals: options.keepOriginals)
    }

    func printedDPI(target: Double?, keepOriginals: Bool) -> Double {
        guard let target else { return effectiveDPI }
        let own = crop.width / (placement.width / 72)
        return keepOriginals ? own : min(target, own)
    }

    /// True when the embedded pixels are exactly the photo's own: nothing cropped, nothing resampled.
    public func usesWholePhoto(uprightWidth: Int, uprightHeight: Int) -> Bool {
        crop == Rect(x: 0, y: 0, width: Double(uprightWidth), height: Double(uprightHeight))
            && pixelWidth == uprightWidth && pixelHeight == uprightHeight
    }

    /// Where the whole upright photo lands on the page when it is drawn at the plan's scale, its crop exactly on
    /// `placement`; parts outside `placement` are to be clipped.
    public func wholePhotoRect(uprightWidth: Int, uprightHeight: Int) -> Rect {
        let scaleX = placement.width / crop.width, scaleY = placement.height / crop.height
        let top = placement.y + placement.height + crop.y * scaleY
        return Rect(x: placement.x - crop.x * scaleX, y: top - Double(uprightHeight) * scaleY,
                    width: Double(uprightWidth) * scaleX, height: Double(uprightHeight) * scaleY)
    }
}

extension PlacedPhoto {
    /// Moves the crop so that its centre is as near `point` as the photo allows; its size stays. A crop of whole
    /// pixels (a photo kept at its own density) stays on whole pixels.
    mutating func focus(on point: FocusPoint, width: Int, height: Int) {
        let photoWidth = Double(max(width, 1)), photoHeight = Double(max(height, 1))
        let whole = crop.width == Double(pixelWidth) && crop.height == Double(pixelHeight)
        func start(_ centre: Double, _ length: Double, _ limit: Double) -> Double {
            let value = max(0, min(limit - length, centre - length / 2))
            return whole ? max(0, min(limit - length, value.rounded())) : value
        }
        crop.x = start(point.x * photoWidth, crop.width, photoWidth)
        crop.y = start(point.y * photoHeight, crop.height, photoHeight)
    }
}

extension PlacedPhoto {
    /// True when the page shows the photo's own pixels, one for one: a crop of whole pixels exactly the planned
    /// pixel size, which nothing needs to resample (a photo with fewer pixels than the density asks for, or
    /// `--keep-originals`).
    var copiesPixels: Bool {
        crop.x == crop.x.rounded() && crop.y == crop.y.rounded()
            && crop.width == Double(pixelWidth) && crop.height == Double(pixelHeight)
    }

    /// Where a rectangle of the upright photo (full-resolution pixels) lands on the page when the photo is
    /// drawn at the plan's scale, its crop exactly on `placement`.
    func pageRect(ofUpright rect: Rect) -> Rect {
        let scaleX = placement.width / crop.width, scaleY = placement.height / crop.height
        let top = placement.y + placement.height + (crop.y - rect.y) * scaleY
        return Rect(x: placement.x + (rect.x - crop.x) * scaleX, y: top - rect.height * scaleY,
                    width: rect.width * scaleX, height: rect.height * scaleY)
    }
}
