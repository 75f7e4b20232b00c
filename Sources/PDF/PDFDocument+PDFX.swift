import CHaru

/// The printing condition a PDF/X document is prepared for: its output intent (ISO 15930-7, the catalog's
/// /OutputIntents entry of subtype /GTS_PDFX).
public struct PDFXOutputIntent: Sendable, Equatable {
    /// A CMYK output ('prtr') ICC profile, embedded whole as the /DestOutputProfile.
    public var profile: [UInt8]
    /// /OutputConditionIdentifier: a name from the ICC's registry of characterisations (`FOGRA39`), else `Custom`.
    public var identifier: String
    /// /OutputCondition and /Info: the condition in words.
    public var condition: String
    /// /RegistryName: where `identifier` is registered (`http://www.color.org`); nil for `Custom`.
    public var registryName: String?

    public init(profile: [UInt8], identifier: String, condition: String, registryName: String?) {
        self.profile = profile
        self.identifier = identifier
        self.condition = condition
        self.registryName = registryName
    }
}

/// The PDF/X standards a document can be made to meet, by the version name its Info dictionary gives.
public enum PDFXStandard: String, Sendable, Equatable {
    /// PDF/X-4 (ISO 15930-7): PDF 1.6; colour may be ICC-based.
    case x4 = "PDF/X-4"
    /// PDF/X-1a:2003 (ISO 15930-4): PDF 1.4; only DeviceCMYK, DeviceGray (and spot) colour, no transparency.
    case x1a = "PDF/X-1a:2003"

    var pdfVersion: HPDF_PDFVer { self == .x4 ? HPDF_VER_16 : HPDF_VER_14 }
}

/// What `setInfo` wrote into the Info dictionary.
struct RecordedInfo {
    var producer: String
    var creator: String
    var title: String?
    var author: String?
    var subject: String?
    var date: PDFDate
}

/// What a PDF/X document's pages and images do differently (`setBoxes`, `attach`).
struct PDFXRules {
    /// The profile an RGB image without one of its own is given (sRGB); nil in PDF/X-1a, which has no RGB.
    var rgbProfile: [UInt8]?
}

/// A 16-byte digest (MD5, libharu's own `HPDF_MD5Init`/`Update`/`Final`) of whatever makes a document what it
/// is: the trailer's /ID of a PDF/X book, the same for the same book every time it is made.
public struct PDFDigest {
    private var context = HPDF_MD5_CTX()

    public init() { HPDF_MD5Init(&context) }

    public mutating func add(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { buffer in
            // libharu's signature takes a mutable pointer; it only reads.
            HPDF_MD5Update(&context, UnsafeMutablePointer(mutating: buffer.baseAddress!), HPDF_UINT32(buffer.count))
        }
    }

    /// The text and a separator, so that ("ab", "c") and ("a", "bc") differ.
    public mutating func add(_ text: String) { add(Array(text.utf8) + [0]) }

    public mutating func add(_ number: Double) { add(String(number.bitPattern, radix: 16)) }

    public mutating func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 16)
        HPDF_MD5Final(&digest, &context)
        return digest
    }
}

extension PDFDocument {
    /// Makes the document a PDF/X file as far as the document itself goes: the standard's PDF version in the
    /// header (1.6 for X-4, 1.4 for X-1a:2003), the output intent with its profile, /Trapped /False and
    /// /GTS_PDFXVersion (and for X-1a /GTS_PDFXConformance) in the Info dictionary, an XMP packet in the catalog
    /// saying what the Info dictionary says, and a trailer /ID of two equal `documentID`s. From then on the pages
    /// get no ArtBox and RGB images without a profile get `rgbProfile` (sRGB; PDF/X-1a gives none: its caller
    /// hands in CMYK images only).
    ///
    /// Call after `setInfo` and before any page or image. PDF/X wants a title: `title` is written when `setInfo`
    /// was given none. What goes on the pages is the caller's to keep within PDF/X: fonts are always embedded,
    /// and text and marks are DeviceGray and DeviceCMYK, which a CMYK output intent allows.
    public func conformToPDFX(_ standard: PDFXStandard, intent: PDFXOutputIntent, title: String, documentID: [UInt8],
                              rgbProfile: [UInt8]?) throws(PDFError) {
        precondition(pdfx == nil, "PDFDocument.conformToPDFX: called twice")
        precondition(documentID.count == 16, "PDFDocument.conformToPDFX: the ID has 16 bytes, got \(documentID.count)")
        guard var recorded = info else { preconditionFailure("PDFDocument.conformToPDFX: call setInfo first") }
        let handle = self.handle
        let mmgr = handle.pointee.mmgr
        if recorded.title == nil {
            try setInfoText(HPDF_INFO_TITLE, title, name: "Title")
            recorded.title = title
            info = recorded
        }
        handle.pointee.pdf_version = standard.pdfVersion
        let during = "making the document \(standard.rawValue)"
        let infoDictionary = try haruObject(during) { handle.pointee.info }
        try haruStatus(during) { HPDF_Dict_AddName(infoDictionary, "Trapped", "False") }
        // ISO 15930-4 names the conformance level beside the version; ISO 15930-7 has the version alone.
        for key in ["GTS_PDFXVersion"] + (standard == .x1a ? ["GTS_PDFXConformance"] : []) {
            let version = try text(standard.rawValue)
            try haruStatus(during) { HPDF_Dict_Add(infoDictionary, key, version) }
        }

        let outputIntent = try haruObject(during) { HPDF_Dict_New(mmgr) }
        try haruStatus(during) { HPDF_Dict_AddName(outputIntent, "Type", "OutputIntent") }
        try haruStatus(during) { HPDF_Dict_AddName(outputIntent, "S", "GTS_PDFX") }
        let entries = [("OutputConditionIdentifier", intent.identifier), ("OutputCondition", intent.condition),
                       ("Info", intent.condition)] + (intent.registryName.map { [("RegistryName", $0)] } ?? [])
        for (key, value) in entries {
            let string = try text(value)
            try haruStatus("\(during): the output intent's \(key)") { HPDF_Dict_Add(outputIntent, key, string) }
        }
        let profile = try iccStream(intent.profile, components: 4, alternate: "DeviceCMYK",
                                    during: "\(during): embedding the output profile")
        try haruStatus(during) { HPDF_Dict_Add(outputIntent, "DestOutputProfile", profile) }
        try haruStatus(during) { HPDF_Xref_Add(handle.pointee.xref, outputIntent) }
        let intents = try haruObject(during) { HPDF_Array_New(mmgr) }
        try haruStatus(during) { HPDF_Array_Add(intents, outputIntent) }
        try haruStatus(during) { HPDF_Dict_Add(handle.pointee.catalog, "OutputIntents", intents) }

        let metadata = PDFXMetadata(title: recorded.title ?? title, author: recorded.author, subject: recorded.subject,
                                    producer: recorded.producer, creator: recorded.creator, date: recorded.date,
                                    documentID: documentID, version: standard.rawValue)
        try addMetadata(metadata.packet, during: "\(during): the XMP metadata")

        let ids = try haruObject(during) { HPDF_Array_New(mmgr) }
        for _ in 0..<2 {
            var bytes = documentID
            let binary = try haruObject(during) { HPDF_Binary_New(mmgr, &bytes, 16) }
            try haruStatus(during) { HPDF_Array_Add(ids, binary) }
        }
        // Without encryption libharu writes no /ID of its own; what the trailer dictionary holds is written as is.
        try haruStatus(during) { HPDF_Dict_Add(handle.pointee.trailer, "ID", ids) }
        pdfx = PDFXRules(rgbProfile: rgbProfile)
    }

    /// The catalog's /Metadata: `packet` as an uncompressed /Type /Metadata /Subtype /XML stream (PDF 32000-1
    /// 14.3.2: readers that do not decode PDF may still find it).
    private func addMetadata(_ packet: String, during: String) throws(PDFError) {
        let handle = self.handle
        let stream = try haruObject(during) { HPDF_DictStream_New(handle.pointee.mmgr, handle.pointee.xref) }
        try haruStatus(during) { HPDF_Dict_AddName(stream, "Type", "Metadata") }
        try haruStatus(during) { HPDF_Dict_AddName(stream, "Subtype", "XML") }
        let bytes = Array(packet.utf8)
        try haruStatus(during) {
            bytes.withUnsafeBufferPointer { HPDF_Stream_Write(stream.pointee.stream, $0.baseAddress, HPDF_UINT($0.count)) }
        }
        stream.pointee.filter = HPDF_UINT(HPDF_STREAM_FILTER_NONE)
        try haruStatus(during) { HPDF_Dict_Add(handle.pointee.catalog, "Metadata", stream) }
    }

    /// A PDF text string for a dictionary: PDFDocEncoding when ASCII, else UTF-16 through the UTF-8 encoder.
    private func text(_ value: String) throws(PDFError) -> HPDF_String {
        let handle = self.handle
        let encoded = PDFTextString(value)
        let encoder = encoded.needsUnicode ? try utf8Encoder() : nil
        return try haruObject("writing the text '\(value)'") {
            encoded.cString.withUnsafeBufferPointer { HPDF_String_New(handle.pointee.mmgr, $0.baseAddress, encoder) }
        }
    }
}
