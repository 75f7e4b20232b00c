import CHaru

/// The last error libharu's error handler reported for one document; the handler only records.
///
/// libharu calls its handler from deep inside a failing call; unwinding from there (longjmp, exit, a Swift
/// throw) would leak and skip libharu's own clean-up, so we note the codes and read them after the call returns.
final class HaruErrorLog {
    var status: HPDF_STATUS = HPDF_STATUS(HPDF_OK)
    var detail: HPDF_STATUS = 0

    func clear() {
        status = HPDF_STATUS(HPDF_OK)
        detail = 0
    }
}

/// Installed with `HPDF_New`; `userData` is the document's unretained `HaruErrorLog`.
let haruErrorHandler: HPDF_Error_Handler = { status, detail, userData in
    guard let userData else { return }
    let log = Unmanaged<HaruErrorLog>.fromOpaque(userData).takeUnretainedValue()
    log.status = status
    log.detail = detail
}

extension PDFDocument {
    /// Runs one libharu call on this document and turns any failure into a `PDFError`; every C call goes here.
    ///
    /// The call failed when `succeeded(result)` is false or when the document's error slot is set afterwards
    /// (some calls report through the slot only). `silentStatus` names the failure when libharu gave no code
    /// at all. The slot is reset before throwing, so the document stays usable.
    @discardableResult
    func haru<Result>(
        _ during: @autoclosure () -> String,
        silentStatus: Int32 = HPDF_INVALID_OPERATION,
        _ call: () -> Result,
        succeeded: (Result) -> Bool
    ) throws(PDFError) -> Result {
        errorLog.clear()
        let result = call()
        let slot = HPDF_GetError(handle)
        if succeeded(result) && slot == HPDF_OK { return result }

        let status: HPDF_STATUS
        let detail: HPDF_STATUS
        if slot != HPDF_OK {
            status = slot
            detail = HPDF_GetErrorDetail(handle)
        } else if errorLog.status != HPDF_OK {
            status = errorLog.status
            detail = errorLog.detail
        } else if let returned = result as? HPDF_STATUS, returned != HPDF_OK {
            status = returned
            detail = 0
        } else {
            // Quirk: some libharu calls fail with NULL and leave no error at all (a PNG given as a JPEG).
            status = HPDF_STATUS(silentStatus)
            detail = 0
        }
        // Quirk: libharu errors are sticky; until reset, every later call on the document fails with 0x1025.
        HPDF_ResetError(handle)
        errorLog.clear()
        throw .libharu(status: UInt(status), detail: Int(truncatingIfNeeded: detail), during: during())
    }

    /// A libharu call that returns a status (`HPDF_OK` on success).
    func haruStatus(_ during: @autoclosure () -> String, _ call: () -> HPDF_STATUS) throws(PDFError) {
        _ = try haru(during(), call, succeeded: { $0 == HPDF_OK })
    }

    /// A libharu call that returns an object, or NULL on failure.
    func haruObject<Object>(
        _ during: @autoclosure () -> String,
        silentStatus: Int32 = HPDF_INVALID_OPERATION,
        _ call: () -> Object?
    ) throws(PDFError) -> Object {
        let object = try haru(during(), silentStatus: silentStatus, call, succeeded: { $0 != nil })
        return object!
    }
}
