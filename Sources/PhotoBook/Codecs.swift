import BMP
import GIF
import HEIF
import ImageCodec
import JPEG
import JPEG2000
import JXL
import PNG
import Raw
import TIFF
import WebP

/// The image formats photobook reads, one codec each, in the order their signatures are tried. Adding a
/// format is a module of its own and one line here: this is the only file of the engine that imports a format
/// module to read photos (the renders' pages are JPEGs: ResizeCropOperation and BuildPDFOperation use the JPEG
/// module's encoder and decoder for those, not as a codec of photos).
// TIFF before camera raw: a plain TIFF header is a TIFF unless its name promises a raw (IMG_1.NEF).
let codecs: [any ImageCodec] = [JPEGCodec(), PNGCodec(), HEIFCodec(), WebPCodec(), TIFFCodec(), RawCodec(), JXLCodec(),
                                JPEG2000Codec(), GIFCodec(), BMPCodec()]
