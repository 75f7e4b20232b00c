import CHaru

extension PDFDocument {
    /// Embeds a JPEG once, as `loadJPEG(_:)`, with `iccProfile` as its colour space when given: the image's
    /// /ColorSpace becomes `[/ICCBased stream]`, the stream holding the profile's bytes unchanged (Flate-compressed)
    /// with /N the JPEG's component count and /Alternate the device space libharu would have used.
    ///
    /// The caller vouches that the profile is one for the JPEG's colour space (grey, RGB or CMYK): its header is
    /// not read here. Equal profiles are embedded once per document and shared by their images.
    public func loadJPEG(_ bytes: [UInt8], iccProfile: [UInt8]?) throws(PDFError) -> PDFImage {
        try attach(iccProfile, to: try loadJPEG(bytes))
    }

    /// `image` with `iccProfile` as its colour space, as `loadJPEG(_:iccProfile:)` describes; `image` itself when nil.
    /// In a PDF/X document an RGB image without a profile of its own gets `PDFXRules.rgbProfile` (sRGB): PDF/X
    /// allows device colour only in the output intent's space, which is CMYK.
    func attach(_ iccProfile: [UInt8]?, to image: PDFImage) throws(PDFError) -> PDFImage {
        let fallback = image.colorSpace == "DeviceRGB" ? pdfx?.rgbProfile : nil
        guard let iccProfile = iccProfile ?? fallback else { return image }
        let components: Int
        switch image.colorSpace {
        case "DeviceGray": components = 1
        case "DeviceRGB": components = 3
        case "DeviceCMYK": components = 4
        default:
            throw .libharu(status: UInt(HPDF_INVALID_COLOR_SPACE), detail: 0,
                           during: "attaching an ICC profile to an image in \(image.colorSpace)")
        }
        let during = "attaching an ICC profile of \(iccProfile.count) bytes to an image"
        let stream = try iccStream(iccProfile, components: components, alternate: image.colorSpace, during: during)
        let handle = self.handle
        let space = try haruObject(during) { HPDF_Array_New(handle.pointee.mmgr) }
        try haruStatus(during) { HPDF_Array_AddName(space, "ICCBased") }
        try haruStatus(during) { HPDF_Array_Add(space, stream) }
        // Quirk: HPDF_Dict_Add replaces the /ColorSpace name libharu wrote; HPDF_Image_GetColorSpace reads that
        // name and would now fail, so `PDFImage.colorSpace` says ICCBased itself.
        try haruStatus(during) { HPDF_Dict_Add(image.handle, "ColorSpace", space) }
        return PDFImage(handle: image.handle, document: self, pixelWidth: image.pixelWidth,
                        pixelHeight: image.pixelHeight, colorSpace: "ICCBased")
    }

    /// The ICCBased stream for `profile` (`HPDF_DictStream_New`, `HPDF_Stream_Write`), made on first use.
    func iccStream(_ profile: [UInt8], components: Int, alternate: String,
                           during: String) throws(PDFError) -> HPDF_Dict {
        let key = ICCStreamKey(profile: profile, components: components)
        if let made = iccStreams[key] { return made }
        guard let length = HPDF_UINT(exactly: profile.count), length > 0 else {
            throw .libharu(status: UInt(HPDF_INVALID_PARAMETER), detail: 0, during: during + " (empty or too large)")
        }
        let handle = self.handle
        let stream = try haruObject(during) { HPDF_DictStream_New(handle.pointee.mmgr, handle.pointee.xref) }
        try haruStatus(during) { HPDF_Dict_AddNumber(stream, "N", HPDF_INT32(components)) }
        try haruStatus(during) { HPDF_Dict_AddName(stream, "Alternate", alternate) }
        try haruStatus(during) {
            profile.withUnsafeBufferPointer { HPDF_Stream_Write(stream.pointee.stream, $0.baseAddress, length) }
        }
        // Trap: a stream made by hand goes out uncompressed unless it asks for Flate itself.
        stream.pointee.filter = HPDF_UINT(HPDF_STREAM_FILTER_FLATE_DECODE)
        iccStreams[key] = stream
        return stream
    }
}

/// Equal profiles for the same component count share one stream in a document.
struct ICCStreamKey: Hashable {
    var profile: [UInt8]
    var components: Int
}
