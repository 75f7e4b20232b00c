#if canImport(Glibc)
import Glibc
#endif

/// Why a photo, a page or the book was not made: a kind that programs act on (the report's `failureKind`, the
/// tests), and the words for the person who owns the file ("corrupt JPEG (premature end of data)").
///
/// Every codec's own error keeps its kind when it crosses the codec interface (`CodecError.failed`), and an
/// `Outcome` that is not a success carries one: nothing downstream has to read the words to tell a damaged file
/// from one photobook does not read, or from a full disk.
public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// The file's data is damaged or cut short.
        case corrupt
        /// A format, or a feature of one, that photobook does not read (not an image, camera raw...).
        case unsupported
        /// More pixels or bytes than a limit allows (`--max-pixels`, a format's own limits).
        case tooLarge
        /// The file changed between two reads of it during the run.
        case changedOnDisk
        /// The file cannot be opened or read (`errno` says why).
        case unreadable
        /// Memory ran out.
        case outOfMemory
        /// A temporary file, a page or the book cannot be written (a full disk, a folder without permission).
        case outputFailed
        /// The run was asked to stop.
        case cancelled
        /// An input of this work failed or was skipped, so the work was not attempted.
        case inputFailed
        /// The same picture as another photo, left out for it (`Duplicates`).
        case duplicate
        /// Left out by the choice of the best photos (`--photos`, `--pages`).
        case notChosen
        /// The options refuse what the photos would make (`--strict`, `--min-dpi`, a page count, a cover that
        /// needs every photo): a decision, not a fault of a file.
        case refused
        /// A fault of photobook's own.
        case internalError
    }

    public var kind: Kind
    /// The system's error number, for `unreadable` and `outputFailed` when the system gave one.
    public var errno: Int32?
    public var message: String

    public init(_ kind: Kind, _ message: String, errno: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.errno = errno
    }

    public var description: String { message }

    public static func corrupt(_ message: String) -> Failure { Failure(.corrupt, message) }
    public static func unsupported(_ message: String) -> Failure { Failure(.unsupported, message) }
    public static func tooLarge(_ message: String) -> Failure { Failure(.tooLarge, message) }
    public static func changedOnDisk(_ message: String) -> Failure { Failure(.changedOnDisk, message) }
    public static func outOfMemory(_ message: String) -> Failure { Failure(.outOfMemory, message) }
    public static func internalError(_ message: String) -> Failure { Failure(.internalError, message) }
    public static func inputFailed(_ message: String) -> Failure { Failure(.inputFailed, message) }
    public static func refused(_ message: String) -> Failure { Failure(.refused, message) }

    /// A file that cannot be read: `message` names what, the system's failure says why.
    public static func unreadable(_ message: String, _ failure: FileSystem.Failure) -> Failure {
        Failure(failure.code == ECANCELED ? .cancelled : .unreadable, message, errno: failure.code)
    }

    /// Something photobook writes that cannot be written: `message` names what, the system's failure says why.
    public static func outputFailed(_ message: String, _ failure: FileSystem.Failure? = nil) -> Failure {
        Failure(failure?.code == ECANCELED ? .cancelled : .outputFailed, message, errno: failure?.code)
    }

    /// "the file changed while photobook ran", the one wording for every stage that finds it.
    public static let changed = Failure(.changedOnDisk, "the file changed while photobook ran")
}
