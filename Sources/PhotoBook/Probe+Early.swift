import ImageCodec
import Platform
import Synchronization

extension Probe {
    /// The probe's one read of a file that may hold several pictures (a multi-page TIFF), done early by discovery
    /// when it must count them, and handed on with the file's photos (`PhotoFile.earlyRead`) to the probe phase,
    /// which takes it in place of opening the file again (`probeAll`).
    ///
    /// Issue 32, "read once": a build opens each photo at most twice, once for its headers, metadata, attention
    /// and content digest, once for its pixels. A build leaves a TIFF's pages to its probe to count
    /// (`Discovery.discover(countsPages: false)`), but a dry run, `init`, a book description and a cover photo
    /// name photos by their place in the list before the probe runs, so discovery counts them. It did so by
    /// opening the file for its headers, which the probe then opened again to read them once more: three opens
    /// with the decode's, two for a dry run that decodes nothing. Now discovery's open *is* the probe's: the
    /// read it counted from (every picture's header, the first bytes, the format the bytes are) and the open file
    /// itself, on which the probe's worker then measures attention and reads the content digest as for any photo.
    /// Only the open file is shared, never a second reading of it: the photos, their names ("scan.tif (page 2 of
    /// 3)"), their order and the book are what they were.
    ///
    /// The read holds the file open, and its first bytes (up to `HeaderReading.prefixLength`), from discovery to
    /// the probe. So that a folder of a thousand TIFFs cannot run out of file descriptors or memory, at most
    /// `mostHeld` reads are held at once (as `SharedFiles` keeps at most 64 files open): past it discovery only
    /// counts the pictures and the probe opens the file again, as before. A read is let go when the probe takes it,
    /// or when the photos carrying it are dropped unprobed (a build stopped by a usage error).
    final class EarlyRead: Sendable {
        /// The open file and what was read of it.
        struct Opened: Sendable {
            var file: FileSource
            var probed: ProbedFile
        }
        private let opened: Mutex<Opened?>
        /// Reads held now, by every discovery of the process (a description discovers each file on its own).
        private static let held = Atomic<Int>(0)
        static let mostHeld = 64

        /// Holds `opened` for the probe, unless `mostHeld` reads are held already.
        init?(_ opened: Opened) {
            guard Self.held.wrappingAdd(1, ordering: .relaxed).newValue <= Self.mostHeld else {
                Self.held.wrappingSubtract(1, ordering: .relaxed)
                return nil
            }
            self.opened = Mutex(opened)
        }

        deinit {
            if opened.withLock({ $0 != nil }) { Self.held.wrappingSubtract(1, ordering: .relaxed) }
        }

        /// The read, for the one probe that takes it; nil after that.
        func take() -> Opened? {
            let taken = opened.withLock { held in
                let taken = held
                held = nil
                return taken
            }
            if taken != nil { Self.held.wrappingSubtract(1, ordering: .relaxed) }
            return taken
        }
    }

    /// How many photos the file at `path` holds, for discovery, which took it for a `format` file: 1 unless its
    /// format may hold several pictures and the file's read finds them (a file whose read fails is one photo,
    /// which fails with its reason when the book is built); with the read to hand to the probe, when it is kept.
    static func countPictures(of path: String, format: ImageFormat) -> (count: Int, read: EarlyRead?) {
        guard format.codec.mayHoldSeveralPictures,
              let file = try? FileSource(path: path),
              let probed = try? read(format: format, source: file) else { return (1, nil) }
        // Counted by the format the name promised, as before: bytes of another format are one photo (the probe
        // reads them as what they are, its picture 0), whatever that format's read found.
        let count = probed.format == format ? probed.headers.count : 1
        return (max(1, count), EarlyRead(EarlyRead.Opened(file: file, probed: probed)))
    }
}

/// A value its owner's comparison leaves out: `PhotoFile.earlyRead`, since a read in hand, or none, does not make
/// another photo of the file (photos compare as they did before there was one).
@propertyWrapper
struct Uncompared<Value: Sendable>: Sendable, Equatable {
    var wrappedValue: Value
    static func == (_: Self, _: Self) -> Bool { true }
}
