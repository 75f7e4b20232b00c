import CRaw
import EXIF
import Glibc
import ImageCodec
import Imaging

/// What LibRaw reads of a raw file when it opens it, before any pixel: sizes, turn, camera, time, preview.
struct RawFacts: Equatable {
    /// The stored sensor data's size (the raw buffer LibRaw allocates at unpack).
    var rawWidth: Int, rawHeight: Int
    /// The size LibRaw's rendering has at full resolution, before the turn (`libraw_adjust_sizes_info_only`
    /// with user_flip 0: Fuji's 45° sensors and non-square pixels included).
    var width: Int, height: Int
    /// LibRaw's flip (bit 0 mirrors left-right, bit 1 top-bottom, bit 2 transposes), from the maker's notes or
    /// IFD0: the raw's own idea of upright.
    var flip: Int
    var make: String, model: String
    var isDNG: Bool
    /// True for a colour filter array sensor (Bayer, X-Trans), which `half_size` halves; a linear DNG is not.
    var hasFilters: Bool
    /// When the shot was taken as LibRaw read it (mktime of the EXIF text: local time).
    var timestamp: Int
    /// The largest embedded preview LibRaw chose, with its size as the raw says. Trap: LibRaw 0.20 knows its
    /// format (`tformat`) only after `libraw_unpack_thumb`, which reads it whole: whether it is a JPEG is found
    /// out when it is decoded (anything else falls back to the raw).
    var preview: (width: Int, height: Int, length: Int)?
    var xmp: [UInt8]?

    static func == (a: RawFacts, b: RawFacts) -> Bool {
        a.rawWidth == b.rawWidth && a.rawHeight == b.rawHeight && a.width == b.width && a.height == b.height
            && a.flip == b.flip && a.make == b.make && a.model == b.model && a.isDNG == b.isDNG
            && a.timestamp == b.timestamp && a.preview?.width == b.preview?.width
            && a.preview?.height == b.preview?.height
    }

    /// The orientation that turns LibRaw's unturned rendering upright (dcraw maps EXIF 1...8 to flips
    /// 0 1 3 2 4 6 7 5: this is its inverse).
    var orientation: Orientation {
        let exif = [1, 2, 4, 3, 5, 8, 6, 7]
        return Orientation(exifValue: exif[flip & 7])
    }

    /// Reads the facts of `source` with `handle`, which is left recycled (ready for another open).
    static func read(_ source: any ByteSource, kind signature: RawSignature?, handle: LibRawHandle)
        throws(CodecError) -> RawFacts {
        let opened = try handle.open(source)
        defer { handle.recycle() }
        guard opened == LIBRAW_SUCCESS.rawValue else {
            throw handle.failure(opened, kind: signature?.kind ?? "camera raw")
        }
        let image = handle.data.pointee
        let sizes = image.sizes
        var facts = RawFacts(rawWidth: Int(sizes.raw_width), rawHeight: Int(sizes.raw_height),
                             width: Int(sizes.width), height: Int(sizes.height), flip: Int(sizes.flip),
                             make: LibRawHandle.text(image.idata.make), model: LibRawHandle.text(image.idata.model),
                             isDNG: image.idata.dng_version != 0, hasFilters: image.idata.filters != 0,
                             timestamp: Int(image.other.timestamp), preview: nil, xmp: nil)
        let thumbnail = image.thumbnail
        if thumbnail.twidth > 0, thumbnail.theight > 0, thumbnail.tlength > 0 {
            facts.preview = (Int(thumbnail.twidth), Int(thumbnail.theight), Int(thumbnail.tlength))
        }
        if let xmp = image.idata.xmpdata, image.idata.xmplen > 0, image.idata.xmplen <= 4 << 20 {
            facts.xmp = Array(UnsafeRawBufferPointer(start: xmp, count: Int(image.idata.xmplen)))
        }
        if libraw_adjust_sizes_info_only(handle.data) == LIBRAW_SUCCESS.rawValue {
            facts.width = Int(handle.data.pointee.sizes.iwidth)
            facts.height = Int(handle.data.pointee.sizes.iheight)
        }
        return facts
    }

    /// The capture time LibRaw read, as the wall-clock time it was read from (LibRaw's `mktime` undone by
    /// `localtime_r`, in the same process's time zone); nil when it read none.
    var captureDate: CaptureDate? {
        guard timestamp > 0 else { return nil }
        var time = time_t(timestamp), parts = tm()
        guard localtime_r(&time, &parts) != nil else { return nil }
        return CaptureDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                           hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }
}
