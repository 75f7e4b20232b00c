import Platform

/// Google Photos Takeout's JSON sidecars: each photo of an export comes with a JSON file of what Google Photos
/// knew of it (when it was taken, the words its owner typed). Each belongs to its photo (`PhotoFile.takeout`, read
/// by the probe); none is a photo. How Takeout names them: docs/research/takeout.md.
extension Discovery {
    /// The `.json` names of `folder`, read once per folder however many of its photos ask.
    mutating func takeoutNames(in folder: String) -> TakeoutNames {
        if let known = takeoutFolders[folder] { return known }
        let names = (try? FileSystem.directoryEntries(folder).get()) ?? []
        let found = TakeoutNames(names.filter { $0.hasSuffix(".json") })
        takeoutFolders[folder] = found
        return found
    }

    /// The Takeout JSON of the photo at `path`, nil when its folder holds none for it.
    mutating func takeoutSidecar(of path: String) -> String? {
        let folder = FileSystem.directoryName(path)
        let names = takeoutNames(in: folder)
        guard !names.isEmpty, let json = names.sidecar(ofPhotoNamed: FileSystem.baseName(path)) else { return nil }
        let sidecar = folder == "." && !path.hasPrefix("./") ? json : folder + (folder.hasSuffix("/") ? "" : "/") + json
        guard case .success(let status) = FileSystem.status(sidecar), status.kind == .regular else { return nil }
        return sidecar
    }
}

/// The JSON names of one folder of a Takeout export, and the rule that pairs a photo's name with its JSON's.
///
/// Takeout names the JSON of `IMG.jpg` `IMG.jpg.json` (exports before late 2024) or
/// `IMG.jpg.supplemental-metadata.json` (since), the part before `.json` cut to its first 46 characters, so that
/// the whole name is at most 51. A copy's counter moves: `IMG(1).jpg` is paired with `IMG.jpg(1).json`, or
/// `IMG.jpg.supplemental-metadata(1).json`, the counter never cut. An edited copy (`IMG-edited.jpg`, the suffix
/// in the owner's language) has no JSON of its own and shares its original's.
struct TakeoutNames {
    /// The JSON names by the first characters of their stem (the name without `.json` and a counter): the
    /// photos of a folder look for theirs there, not through every JSON of a folder of thousands.
    private var byStart: [String: [(name: String, stem: String, counter: String)]] = [:]
    private var names: Set<String>

    /// How much of the name before `.json` Takeout keeps (unicode scalars, as immich-go counts them).
    static let keptLength = 46
    static let supplemental = ".supplemental-metadata"
    /// Google Photos' "edited" suffix in the languages exports were seen in (gpth's `extraFormats`), lower case.
    static let editedSuffixes = ["-edited", "-edytowane", "-bearbeitet", "-bewerkt", "-編集済み", "-modificato",
                                 "-modifié", "-ha editado", "-editat", "-editado"]
    /// Characters of a stem that index it: at least the shortest photo name worth pairing ("a.jp").
    static let startLength = 4

    init(_ jsonNames: [String]) {
        names = Set(jsonNames)
        for name in jsonNames {
            let (stem, counter) = Self.splitCounter(String(name.dropLast(5)))
            guard stem.unicodeScalars.count >= Self.startLength else { continue }
            byStart[Self.start(stem), default: []].append((name, stem, counter))
        }
    }

    var isEmpty: Bool { names.isEmpty }

    /// The JSON of the photo named `photo`: the name Takeout's rule gives, else the JSON whose stem is the
    /// longest start of the photo's JSON stem that is still the whole photo name or was cut where Takeout cuts
    /// (between 40 and 51 characters are reported: the rule is read from exports, not documented by Google).
    func sidecar(ofPhotoNamed photo: String) -> String? {
        let (original, counter) = Self.original(ofPhotoNamed: photo)
        for candidate in [original + Self.supplemental, original] {
            let name = Self.cut(candidate) + counter + ".json"
            if names.contains(name) { return name }
        }
        // A photo whose own name ends in a counter ("scan(2).jpg" as it was uploaded).
        if !counter.isEmpty {
            for candidate in [photo + Self.supplemental, photo] where names.contains(Self.cut(candidate) + ".json") {
                return Self.cut(candidate) + ".json"
            }
        }
        // A photo uploaded without an extension, which Takeout gave one: `20030616.jpg` and `20030616.json`.
        if let dot = original.lastIndex(of: "."), dot != original.startIndex,
           names.contains(Self.cut(String(original[..<dot])) + counter + ".json") {
            return Self.cut(String(original[..<dot])) + counter + ".json"
        }
        guard original.unicodeScalars.count >= Self.startLength else { return nil }
        let full = original + Self.supplemental
        let fits = byStart[Self.start(original), default: []].filter { entry in
            entry.counter == counter && full.hasPrefix(entry.stem)
                && (entry.stem.hasPrefix(original + ".") || entry.stem == original
                    || entry.stem.unicodeScalars.count >= 40)
        }
        return fits.max { $0.stem.unicodeScalars.count < $1.stem.unicodeScalars.count }?.name
    }

    /// The name of the upload a photo of the export comes from, and its copy's counter ("(1)", or ""):
    /// `IMG(1).jpg` is `IMG.jpg` and "(1)", `IMG-edited.jpg` is `IMG.jpg`.
    static func original(ofPhotoNamed photo: String) -> (name: String, counter: String) {
        var stem = photo, ext = ""
        if let dot = photo.lastIndex(of: "."), dot != photo.startIndex {
            stem = String(photo[..<dot])
            ext = String(photo[dot...])
        }
        let (bare, counter) = splitCounter(stem)
        stem = bare
        let lowered = stem.lowercased()
        if let edited = editedSuffixes.first(where: { lowered.hasSuffix($0) && lowered.count > $0.count }) {
            stem = String(stem.dropLast(edited.count))
        }
        return (stem + ext, counter)
    }

    /// `text` without a trailing copy counter "(N)", and the counter.
    static func splitCounter(_ text: String) -> (String, String) {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "("), open != text.startIndex else { return (text, "") }
        let digits = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return (text, "") }
        return (String(text[..<open]), String(text[open...]))
    }

    /// The first `keptLength` unicode scalars of `name`.
    static func cut(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.prefix(keptLength)))
    }

    static func start(_ stem: String) -> String {
        String(String.UnicodeScalarView(stem.unicodeScalars.prefix(startLength)))
    }
}
