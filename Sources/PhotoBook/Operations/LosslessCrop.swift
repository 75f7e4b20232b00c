import Geometry
import ImageCodec
import Platform

// The third kind of render, beside the photo's own bytes (pass-through) and pixels (decode, resample, encode):
// a JPEG shown at its own resolution but cropped gets a new file of its own DCT blocks under the crop, turned
// upright, with no decode and no re-encode (`ImageCodec.losslessCrop`, `JPEGLosslessCrop`). The blocks come in whole iMCUs, so the file
// shows a little more than the plan's crop; the page draws it at the plan's scale and clips it to the cell.

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

extension DecodeOperation {
    /// The lossless render of a photo the page shows at its own resolution, or nil when the file cannot be
    /// copied block for block (CMYK, unusual sampling, a format without blocks): then its pixels are decoded as
    /// for any other photo. A corrupt or truncated file throws here as it would when decoded.
    func losslessCrop(_ source: any ByteSource, codec: any ImageCodec,
                      stop: () -> Bool) throws(CodecError) -> LosslessCrop? {
        let crop = job.storedCrop
        let region = PixelRegion(x: Int(crop.x.rounded()), y: Int(crop.y.rounded()),
                                 width: Int(crop.width.rounded()), height: Int(crop.height.rounded()))
        return try codec.losslessCrop(source, region: region, orientation: job.info.orientation, maxPixels: maxPixels,
                                      shouldCancel: stop)
    }
}
