import ImageCodec
import Platform

/// A photo file found among the inputs.
public struct PhotoFile: Sendable, Equatable {
    /// The path as the user would recognise it (built from what they typed).
    public var path: String
    /// The format its name promises (`.jpg`, `.heic`: the probe checks it by the bytes it reads, and takes
    /// a misnamed photo for what its bytes are), else the format its first bytes are; nil for a file that
    /// should be a photo (named on the command line, or called like one) but that no name or byte says is one
    /// photobook reads: it is kept so that it fails with its reason like any other unreadable photo.
    public var format: ImageFormat?
    public var id: FileSystem.FileID
    /// Which of the file's pictures this photo is (a page of a multi-page TIFF); 0 for most files.
    public var picture = 0
    /// The file to read: `path` itself, but for a page of a multi-page file, whose `path` names the page
    /// ("scan.tif (page 2 of 3)") in messages, the report and the book's order.
    public var filePath: String
    /// The XMP sidecar beside the file (`IMG_1.jpg.xmp` or `IMG_1.xmp`), whose words and regions go ahead of the
    /// photo's own; nil when it has none.
    public var sidecar: String?
    /// The Google Photos Takeout JSON beside the file (`IMG_1.jpg.json`, `IMG_1.jpg.supplemental-metadata.json`,
    /// names cut short: `TakeoutNames`), whose date stands in for a photo without one and whose description is its
    /// owner's caption; nil when it has none.
    public var takeout: String?
    /// The caption sidecar beside the file (`IMG_1.jpg.txt`, else `IMG_1.txt`: `Captions.sidecarFile(of:)`), read
    /// by the probe; nil when there is none.
    public var captionFile: String?

    public init(path: String, format: ImageFormat?, id: FileSystem.FileID, inputGroup: Int = 0, isNamed: Bool = false,
                picture: Int = 0, filePath: String? = nil, sidecar: String? = nil, takeout: String? = nil,
                captionFile: String? = nil) {
        self.path = path
        self.format = format
        self.id = id
        self.inputGroup = inputGroup
        self.isNamed = isNamed
        self.picture = picture
        self.filePath = filePath ?? path
        self.sidecar = sidecar
        self.takeout = takeout
        self.captionFile = captionFile
    }
    /// The photos of one folder input share a group, and so do photos named one after another on the command
    /// line with no folder between them; groups are numbered in command-line order (`PhotoOrder` sorts by it).
    public var inputGroup = 0
    /// True for a photo named on the command line rather than found in a folder.
    public var isNamed = false
    /// The file may hold several pictures (a TIFF) and discovery left them to the probe to count
    /// (`Discovery.discover(countsPages: false)`): this one photo stands for them all until the probe gives each
    /// picture a photo of its own, named by its page (`Probe.probeAll`, `PhotoFile.pages(_:)`).
    public var countsPagesWhenProbed = false
    /// What discovery read of the file to count its pictures, and the file it opened, for the probe to take
    /// instead of opening it again (`Probe.EarlyRead`): shared by the photos of the file's pages; nil when
    /// discovery did not open the file. Photos compare without it.
    @Uncompared var earlyRead: Probe.EarlyRead? = nil

    /// The photos of the file's `count` pictures, as discovery would have named them: itself for one picture.
    func pages(_ count: Int) -> [PhotoFile] {
        guard countsPagesWhenProbed else { return [self] }
        var page = self
        page.countsPagesWhenProbed = false
        guard count > 1 else { return [page] }
        return (0..<count).map { picture in
            page.path = Discovery.pageName(filePath, picture: picture, of: count)
            page.picture = picture
            return page
        }
    }
}

/// What discovery found: photos in book order, and what it passed over.
public struct Discovery: Sendable {
    public var photos: [PhotoFile] = []
    /// Inputs that stop the build before any work: a path that does not exist or cannot be read.
    public var errors: [(path: String, reason: String)] = []
    /// Things worth a warning: a named file that is not an image, the same photo reached twice, a link loop.
    public var warnings: [(path: String, reason: String)] = []
    /// Things said only with `--verbose`: files in folders that are not images.
    public var notes: [(path: String, reason: String)] = []
    /// Identities of every input named on the command line and every photo (or would-be photo) found in a
    /// folder, so the output can be checked against them. A folder's other files (an old `book.pdf` in the
    /// photo folder, say) are not inputs: rebuilding the book in place must stay possible.
    public var inputIDs: Set<FileSystem.FileID> = []
    /// Folders already expanded, by identity: each is read once, so links that reach one folder by many paths
    /// cannot multiply the work (two links per level over twenty levels would be a million walks).
    private var expanded: [FileSystem.FileID: String] = [:]
    /// The Takeout JSON names of each folder that holds photos, listed once (`Discovery+Takeout.swift`).
    var takeoutFolders: [String: TakeoutNames] = [:]
    /// A file that may hold several pictures (a TIFF) is opened here to count them, by the probe's own read of it,
    /// handed on with its photos (`Probe.EarlyRead`); else the probe counts them.
    private var countsPages = true

    /// Expands `inputs` (folders, non-recursive unless `recursive`; and files) into photos, in natural name order
    /// within each folder and in command-line order across inputs. A multi-page TIFF is one photo per page; with
    /// `countsPages` false it is one photo that the build's probe turns into its pages, from the one read of the
    /// file that gives every page's header (`PhotoFile.countsPagesWhenProbed`): for a build whose photos nothing
    /// names by their place in the list before it runs. With `countsPages` it counts them by that same read, which
    /// its photos carry to the probe (`PhotoFile.earlyRead`): either way the file is opened once before its
    /// pixels.
    public static func discover(_ inputs: [String], recursive: Bool, countsPages: Bool = true) -> Discovery {
        var result = Discovery()
        result.countsPages = countsPages
        var seen: [FileSystem.FileID: String] = [:]
        var group = -1, afterNamedFile = false
        for input in inputs {
            let firstPhoto = result.photos.count
            defer {
                // Tagged after the fact: include() is shared by both kinds of input and need not know.
                for index in firstPhoto..<result.photos.count {
                    result.photos[index].inputGroup = group
                    result.photos[index].isNamed = afterNamedFile
                }
            }
            let inputStatus = FileSystem.status(input)
            let isFolder = (try? inputStatus.get())?.kind == .directory
            if isFolder || !afterNamedFile { group += 1 }
            afterNamedFile = !isFolder
            switch inputStatus {
            case .failure(let failure):
                result.errors.append((input, Self.describe(failure, at: input)))
            case .success(let status) where status.kind == .directory:
                result.inputIDs.insert(status.id)
                if let first = result.expanded[status.id] {
                    result.warnings.append((input, Self.sameFolder(input, first)))
                    continue
                }
                result.expanded[status.id] = input
                var visiting: Set<FileSystem.FileID> = [status.id]
                result.expand(folder: input, isInput: true, recursive: recursive, visiting: &visiting, seen: &seen)
            case .success(let status):
                result.inputIDs.insert(status.id)
                result.consider(file: input, status: status, named: true, seen: &seen)
            }
        }
        return result
    }

    /// `failure` in words, calling a dangling link what it is rather than a missing file.
    static func describe(_ failure: FileSystem.Failure, at path: String) -> String {
        failure.isNoSuchFile && FileSystem.isSymbolicLink(path)
            ? "broken symbolic link (its target does not exist)" : failure.description
    }

    private mutating func expand(folder: String, isInput: Bool, recursive: Bool,
                                 visiting: inout Set<FileSystem.FileID>, seen: inout [FileSystem.FileID: String]) {
        let names: [String]
        switch FileSystem.directoryEntries(folder) {
        case .failure(let failure):
            // A folder named on the command line must be readable; a subfolder that is not costs only its
            // own photos, like any photo that cannot be read.
            if isInput {
                errors.append((folder, failure.description))
            } else {
                warnings.append((folder, "cannot read this folder (\(failure)), its photos are left out"))
            }
            return
        case .success(let entries):
            names = entries.filter { !$0.hasPrefix(".") }.sorted(by: NaturalOrder.less)
        }
        for name in names {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            switch FileSystem.status(path) {
            case .failure(let failure):
                // A dangling link or a file that vanished. One named like a photo is a photo that cannot be
                // read (left out by name, or failing a --strict build); anything else is only mentioned.
                if ImageFormat.fileExtensions.contains(Self.fileExtension(path)),
                   case .success(let link) = FileSystem.status(path, followLinks: false) {
                    inputIDs.insert(link.id)
                    include(path, format: nil, id: link.id, seen: &seen)
                } else {
                    warnings.append((path, "\(Self.describe(failure, at: path)), skipped"))
                }
            case .success(let status) where status.kind == .directory:
                guard recursive else {
                    notes.append((path, "is a folder (use -r to include subfolders)"))
                    continue
                }
                guard !visiting.contains(status.id) else {
                    warnings.append((path, "symbolic link loop, not followed"))
                    continue
                }
                if let first = expanded[status.id] {
                    warnings.append((path, Self.sameFolder(path, first)))
                    continue
                }
                expanded[status.id] = path
                visiting.insert(status.id)
                expand(folder: path, isInput: false, recursive: recursive, visiting: &visiting, seen: &seen)
                visiting.remove(status.id)
            case .success(let status):
                consider(file: path, status: status, named: false, seen: &seen)
            }
        }
    }

    /// Photo formats photobook does not read; said once per file so nobody wonders where a photo went. (Names
    /// that promise a photo photobook reads are its codecs', `ImageFormat.fileExtensions`.)
    /// Camera raw files are the raw codec's: most (DNG, NEF, ARW, PEF, SRW) are TIFF structures, and their name
    /// sends them there (the TIFF codec would read their first directory, the camera's thumbnail).
    static let otherImageExtensions: Set<String> = ["psd"]

    static func sameFolder(_ path: String, _ first: String) -> String {
        path == first ? "listed twice, included once" : "same folder as \(first), included once"
    }

    /// The lower-cased extension of a file name ("" when it has none).
    static func fileExtension(_ path: String) -> String {
        let name = FileSystem.baseName(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    private mutating func consider(file path: String, status: FileSystem.Status, named: Bool,
                                   seen: inout [FileSystem.FileID: String]) {
        let ext = Self.fileExtension(path)
        // A sidecar named on the command line came with its photo (`photos/*`): it is never a photo itself. Nor
        // is a JSON file: Takeout's sidecars and album files, which a Takeout folder holds as many as photos.
        let isSidecar = ext == "xmp" || ext == "json"
        // A file named on the command line or called like a photo is a photo its owner expects: if it cannot be
        // read it fails by name when the book is built (left out, or failing a --strict build), never silently.
        let promisesPhoto = named && !isSidecar || ImageFormat.fileExtensions.contains(ext)
        if promisesPhoto || Self.otherImageExtensions.contains(ext) { inputIDs.insert(status.id) }
        guard status.kind == .regular else {
            // A FIFO or device is never read here (reading one could block for ever): the probe refuses it.
            if promisesPhoto {
                include(path, format: nil, id: status.id, seen: &seen)
            } else {
                notes.append((path, "not a regular file, skipped"))
            }
            return
        }
        // A name that promises a format photobook reads is taken at its word, and the file is not opened here:
        // the probe reads its header anyway and checks the promise against those bytes (a misnamed photo is read
        // as what its bytes are). Only a file whose name says nothing is opened here, for its first bytes.
        if let named = ImageFormat(fileExtension: ext) {
            include(path, format: named, id: status.id, seen: &seen)
            return
        }
        let prefix: [UInt8]
        switch FileSystem.readFile(path, limit: ImageFormat.signatureLength) {
        case .failure(let failure):
            if promisesPhoto {
                include(path, format: nil, id: status.id, seen: &seen)
            } else {
                warnings.append((path, "\(failure), skipped"))
            }
            return
        case .success(let bytes):
            prefix = bytes
        }
        let format = ImageFormat(sniffing: prefix)
        if format != nil { inputIDs.insert(status.id) }
        if format == nil && !promisesPhoto {
            if ext == "json" {
                notes.append((path, "JSON file, not a photo (a Google Takeout photo's JSON is read with its photo)"))
            } else if isSidecar {
                notes.append((path, Self.sidecarNote(path)))
            } else if Self.otherImageExtensions.contains(ext) {
                warnings.append((path, "\(ext.uppercased()) images are not supported (photobook reads \(ImageFormat.names)), skipped"))
            } else {
                notes.append((path, (OtherFileKind(sniffing: prefix).map { "\($0)" } ?? "not an image photobook reads")
                              + ", skipped"))
            }
            return
        }
        include(path, format: format, id: status.id, seen: &seen)
    }

    /// Adds a photo, unless the same file was already included.
    private mutating func include(_ path: String, format: ImageFormat?, id: FileSystem.FileID,
                                  seen: inout [FileSystem.FileID: String]) {
        if let first = seen[id] {
            warnings.append((path, first == path ? "listed twice, included once" : "same file as \(first), included once"))
            return
        }
        seen[id] = path
        let severalPictures = format?.codec.mayHoldSeveralPictures == true
        let counted = countsPages ? format.map { Probe.countPictures(of: path, format: $0) } : nil
        let pictures = counted?.count ?? 1, read = counted?.read
        // Every sidecar is found here and read by the probe: planning reads no file.
        let sidecar = Self.sidecar(of: path), takeout = takeoutSidecar(of: path), captionFile = Captions.sidecarFile(of: path)
        guard pictures > 1 else {
            var photo = PhotoFile(path: path, format: format, id: id, sidecar: sidecar, takeout: takeout,
                                  captionFile: captionFile)
            photo.countsPagesWhenProbed = severalPictures && !countsPages
            photo.earlyRead = read
            photos.append(photo)
            return
        }
        // A multi-page TIFF: one photo per page, in page order, each named by its page.
        for picture in 0..<pictures {
            var page = PhotoFile(path: Self.pageName(path, picture: picture, of: pictures), format: format, id: id,
                                 picture: picture, filePath: path, sidecar: sidecar, takeout: takeout,
                                 captionFile: captionFile)
            page.earlyRead = read
            photos.append(page)
        }
    }

    /// The name of one picture of a multi-page file in messages, the report and a book description:
    /// "scan.tif (page 2 of 3)" (`picture` counts from 0).
    public static func pageName(_ path: String, picture: Int, of count: Int) -> String {
        "\(path) (page \(picture + 1) of \(count))"
    }

    /// The file, the picture (from 0) and the count a `pageName` names; nil for any other name.
    public static func pageName(_ name: String) -> (file: String, picture: Int, count: Int)? {
        guard name.hasSuffix(")"), let open = name.range(of: " (page ", options: .backwards) else { return nil }
        let words = name[open.upperBound..<name.index(before: name.endIndex)].split(separator: " ")
        guard words.count == 3, words[1] == "of", let page = Int(words[0]), let count = Int(words[2]),
              page >= 1, page <= count else { return nil }
        return (String(name[..<open.lowerBound]), page - 1, count)
    }
}

/// Name order as people expect it: `img2.jpg` before `img10.jpg`, case folded.
public enum NaturalOrder {
    public static func less(_ a: String, _ b: String) -> Bool {
        let order = compare(a, b)
        return order != 0 ? order < 0 : a < b
    }

    /// Negative, zero or positive as `a` sorts before, with, or after `b`.
    static func compare(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased().unicodeScalars), y = Array(b.lowercased().unicodeScalars)
        var i = 0, j = 0
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                let startI = i, startJ = j
                while i < x.count && isDigit(x[i]) { i += 1 }
                while j < y.count && isDigit(y[j]) { j += 1 }
                let runA = x[startI..<i].drop(while: { $0 == "0" }), runB = y[startJ..<j].drop(while: { $0 == "0" })
                if runA.count != runB.count { return runA.count - runB.count }
                for (p, q) in zip(runA, runB) where p != q { return p.value < q.value ? -1 : 1 }
                let zerosA = i - startI, zerosB = j - startJ
                if zerosA != zerosB { return zerosA - zerosB }  // "01" after "1", stably
            } else {
                if x[i] != y[j] { return x[i].value < y[j].value ? -1 : 1 }
                i += 1; j += 1
            }
        }
        return (x.count - i) - (y.count - j)
    }

    private static func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }
}
