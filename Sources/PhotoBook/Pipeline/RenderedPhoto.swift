import Geometry

/// A photo's JPEG in the build's working folder and how a page draws it: what a render (or the render cache)
/// hands the PDF. One render serves every cell with the same crop and pixel size (`RenderPipeline.RenderKey`);
/// each page that draws it puts it in its own cell (`drawn(in:)`).
struct RenderedPhoto {
    var info: PhotoInfo
    /// Where the page draws it: the plan's placement, its crop as the render aimed it (`PhotoJob.placed`).
    var placed: PlacedPhoto
    var path: String
    /// The file holds the photo's own bytes: its orientation and crop are for the page to apply.
    var passThrough: Bool
    /// A lossless crop (`DecodeOperation.losslessCrop`): the part of the upright photo its JPEG's whole blocks
    /// show (`PhotoJob.blocksShown`), to be clipped.
    var blocksShown: Rect?

    /// This render in `cell`, a planned cell of the same photo, crop and pixel size: the cell's place, with the
    /// crop the render aimed (`PhotoJob.aimsAtRender`), which the page and the report show.
    func drawn(in cell: PlacedPhoto) -> RenderedPhoto {
        var photo = self
        photo.placed = cell
        (photo.placed.crop, photo.placed.cropSource) = (placed.crop, placed.cropSource)
        return photo
    }
}
