import EXIF
import Foundation
import Platform

/// What a Google Photos Takeout JSON beside a photo says (`PhotoFile.takeout`): when Google Photos says the photo
/// was taken and what its owner wrote under it there.
struct TakeoutSidecar {
    /// `photoTakenTime.timestamp`, a moment in UTC (Takeout writes the seconds as a string).
    var captureDate: CaptureDate?
    /// `description`, when not empty: typed by the owner in Google Photos.
    var caption: String?
    /// `favorited`: the owner starred the photo in Google Photos.
    var isFavourite = false

    /// The largest JSON read: Takeout's are under 2 KB; one of a megabyte is no photo's metadata.
    static let sizeLimit = 1 << 20

    /// The JSON at `path`; nil, with a warning naming it, when it cannot be read, is too large or is not a Takeout
    /// photo's JSON. The photo goes in either way, with its own metadata.
    static func read(_ path: String, warnings: inout [String]) -> TakeoutSidecar? {
        let name = FileSystem.baseName(path)
        let bytes: [UInt8]
        switch FileSystem.readFile(path, limit: sizeLimit + 1) {
        case .failure(let failure):
            warnings.append("its Takeout JSON \(name) cannot be read (\(failure)); the photo's own metadata is used")
            return nil
        case .success(let read) where read.count > sizeLimit:
            warnings.append("its Takeout JSON \(name) is larger than \(sizeLimit >> 20) MB and was not read")
            return nil
        case .success(let read):
            bytes = read
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)), let fields = object as? [String: Any]
        else {
            warnings.append("its Takeout JSON \(name) is not valid JSON; the photo's own metadata is used")
            return nil
        }
        var sidecar = TakeoutSidecar()
        if let taken = fields["photoTakenTime"] as? [String: Any] {
            // A string by Takeout's habit; a number is read too. 0 is what an unknown time is written as.
            let seconds = (taken["timestamp"] as? String).flatMap { Int64($0) }
                ?? (taken["timestamp"] as? NSNumber).map { $0.int64Value }
            if let seconds, seconds != 0 { sidecar.captureDate = CaptureDate(unixSeconds: seconds) }
        }
        sidecar.caption = (fields["description"] as? String).flatMap(CaptionText.clean)
        sidecar.isFavourite = (fields["favorited"] as? Bool) ?? false
        return sidecar
    }
}
