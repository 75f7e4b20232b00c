/// A decoded HEIF picture handed out as rows of 8-bit RGB: libheif's planar RGB (HEIFPicture) or a decoder's
/// YCbCr planes converted as they are read (HEIFYCbCrPicture).
protocol HEIFRows: AnyObject {
    var width: Int { get }
    var height: Int { get }

    /// Row `y`'s columns `x ..< x + count` as RGB into `rgb`, composited over white when there is alpha.
    func row(_ y: Int, from x: Int, count: Int, into rgb: UnsafeMutableBufferPointer<UInt8>)
}
