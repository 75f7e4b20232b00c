import CHEIF
import Colour
import ImageCodec

/// A HEIF image's colour: its ICC profile (`colr` of type `prof` or `rICC`), else an ICC profile made from its
/// `nclx` description when that is not sRGB, else none (PDF readers take DeviceRGB as sRGB).
struct HEIFColour {
    var profile: EmbeddedProfile?
    var warnings: [String] = []
    var notes: [String] = []

    /// The largest ICC profile handed on, as for a JPEG's or a PNG's.
    static let maximumProfileSize = 4 << 20

    init(_ handle: OpaquePointer, kind: String) {
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        if size > Self.maximumProfileSize {
            profile = .unusable("ICC profile is larger than \(Self.maximumProfileSize >> 20) MB")
            return
        }
        if size > 0 {
            var bytes = [UInt8](repeating: 0, count: size)
            let error = bytes.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
            if error.code == heif_error_Ok {
                profile = .profile(bytes)
                return
            }
        }
        // libheif 1.15 returns only an nclx stored as a `colr` box, not one in the HEVC bitstream's VUI: an HEIC
        // whose colour is described only there is taken as sRGB.
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        let error = heif_image_handle_get_nclx_color_profile(handle, &nclx)
        // libheif 1.15 allocates the profile before it checks the codes: an error (primaries it does not know)
        // still hands one back, to be freed.
        defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
        guard let nclx else { return }
        guard error.code == heif_error_Ok else {
            notes.append("nclx colour description libheif cannot read: taken as sRGB")
            return
        }
        describe(nclx.pointee, kind: kind)
    }

    private mutating func describe(_ nclx: heif_color_profile_nclx, kind: String) {
        let primaries = Int(nclx.color_primaries.rawValue), transfer = Int(nclx.transfer_characteristics.rawValue)
        let curve: TransferCurve
        switch transfer {
        case 16, 18:
            // No profile makes PQ or HLG printable: libheif hands out the code values, shown as if SDR.
            warnings.append("\(kind) image is HDR (\(transfer == 16 ? "PQ" : "HLG") transfer): it is shown as SDR, "
                            + "its highlights flattened")
            return
        case 2, 13: curve = .sRGB
        case 1, 6, 14, 15: curve = .bt709
        case 4: curve = .gamma(2.2)
        case 5: curve = .gamma(2.8)
        case 8: curve = .linear
        default:
            notes.append("nclx transfer characteristics \(transfer) unknown to photobook: taken as sRGB")
            curve = .sRGB
        }
        let space: Chromaticities, name: String
        switch primaries {
        case 1, 2:
            if curve == .sRGB { return }  // sRGB itself: DeviceRGB already means it
            space = .bt709; name = "BT.709"
        case 9: space = .bt2020; name = "BT.2020"
        case 11: space = .dciP3; name = "DCI-P3"
        case 12: space = .displayP3; name = "Display P3"
        default:
            // libheif fills in the chromaticities of every primaries code it knows (H.273 table).
            let values = [nclx.color_primary_red_x, nclx.color_primary_red_y, nclx.color_primary_green_x,
                          nclx.color_primary_green_y, nclx.color_primary_blue_x, nclx.color_primary_blue_y,
                          nclx.color_primary_white_x, nclx.color_primary_white_y].map(Double.init)
            guard values.allSatisfy({ $0 > 0 && $0 < 1 }) else {
                notes.append("nclx colour primaries \(primaries) unknown to libheif: taken as sRGB")
                return
            }
            space = Chromaticities(red: (values[0], values[1]), green: (values[2], values[3]),
                                   blue: (values[4], values[5]), white: (values[6], values[7]))
            name = "primaries \(primaries)"
        }
        let description = "\(name), transfer \(transfer) (from the \(kind) nclx)"
        if let bytes = RGBProfile.make(primaries: space, transfer: curve, description: description) {
            profile = .profile(bytes)
        } else {
            profile = .unusable("Little CMS could not make a profile for \(description)")
        }
    }
}
