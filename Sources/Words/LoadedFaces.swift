import Synchronization
import Typeface

/// The faces fallback found, read once per process by their `PATH#INDEX`: a CJK collection is 20 MB and ten
/// faces to check, and every chain (one a book, several in the tests) would otherwise read it again.
enum LoadedFaces {
    private static let faces = Mutex<[String: FontFace?]>([:])

    /// The face at `location`; nil when it cannot be read (then never tried again).
    static func face(_ location: String) -> FontFace? {
        faces.withLock { faces in
            if let known = faces[location] { return known }
            let face = try? FontFace(path: location)
            faces[location] = .some(face)
            return face
        }
    }
}
