import Geometry
import Imaging

/// Black or white, whichever reads better over the part of a photo a line of text covers.
enum TextShade {
    /// The fill (0 black, 1 white) for text in `box` over `image`, which is drawn on `drawn` (both in page
    /// points): white over a dark part, black over a light one; black where the box misses the photo (paper).
    static func gray(for box: Rect, over image: RGBImage, drawn: Rect) -> Double {
        guard let luma = meanLuma(of: box, in: image, drawn: drawn) else { return 0 }
        return luma < 0.55 ? 1 : 0
    }

    /// The mean Rec. 601 luma (0 to 1) of the pixels under `box`, or nil when it covers none.
    static func meanLuma(of box: Rect, in image: RGBImage, drawn: Rect) -> Double? {
        guard image.width > 0, image.height > 0, drawn.width > 0, drawn.height > 0 else { return nil }
        let scaleX = Double(image.width) / drawn.width, scaleY = Double(image.height) / drawn.height
        // Image rows run from the top of the drawn rectangle down; page y runs up.
        let x0 = max(0, Int(((box.x - drawn.x) * scaleX).rounded(.down)))
        let x1 = min(image.width, Int(((box.x + box.width - drawn.x) * scaleX).rounded(.up)))
        let y0 = max(0, Int(((drawn.y + drawn.height - box.y - box.height) * scaleY).rounded(.down)))
        let y1 = min(image.height, Int(((drawn.y + drawn.height - box.y) * scaleY).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return nil }
        var sum = 0.0
        for y in y0..<y1 {
            var i = (y * image.width + x0) * 3
            for _ in x0..<x1 {
                sum += 0.299 * Double(image.pixels[i]) + 0.587 * Double(image.pixels[i + 1]) + 0.114 * Double(image.pixels[i + 2])
                i += 3
            }
        }
        return sum / Double((x1 - x0) * (y1 - y0)) / 255
    }
}
