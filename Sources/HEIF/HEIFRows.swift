import ImageCodec
import Imaging

/// A decoded HEIF picture handed out as rows of 8-bit RGB: libheif's planar RGB (HEIFPicture) or a decoder's
/// YCbCr planes converted as they are read (HEIFYCbCrPicture).
protocol HEIFRows: AnyObject {
    var width: Int { get }
    var height: Int { get }

    /// Row `y`'s columns `x ..< x + count` as RGB into `rgb`, composited over white when there is alpha.
    func row(_ y: Int, from x: Int, count: Int, into rgb: UnsafeMutableBufferPointer<UInt8>)
}

/// The decoded region of a HEIF picture, handed to the engine as rows read while it resamples
/// (`DecodeRequest.acceptsRows`): the picture's planes stay what is held (18 MB of YCbCr for 12 megapixels where
/// the region's RGB would be up to 36) and no RGB copy of the region is ever made.
/// @unchecked: the picture is only read, by one thread at a time (the decode hands it to the resize after it).
final class HEIFRegionRows: PixelRows, @unchecked Sendable {
    private let picture: any HEIFRows
    private let region: PixelRegion
    var width: Int { region.width }
    var height: Int { region.height }

    init(_ picture: any HEIFRows, region: PixelRegion) {
        self.picture = picture
        self.region = region
    }

    func row(_ y: Int, from x: Int, count: Int, into rgb: UnsafeMutableBufferPointer<UInt8>) {
        precondition(y >= 0 && y < region.height && x >= 0 && x + count <= region.width, "HEIF row out of range")
        picture.row(region.y + y, from: region.x + x, count: count, into: rgb)
    }
}
