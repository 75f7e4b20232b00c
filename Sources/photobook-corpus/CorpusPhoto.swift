/// One photo of the benchmark corpus: its name, how it is stored and what its EXIF says.
///
/// The corpus repeats a pattern of 24 so that the first 24 photos are a fair sample of all 96: per 24, 19
/// upright landscapes, 2 portraits stored sideways with orientation 6 (as phones write them), 1 with
/// orientation 8, 1 portrait stored upright (3000x4000) and 1 PNG (landscape in even groups, portrait in odd).
struct CorpusPhoto {
    enum Format { case jpeg, png }

    let index: Int
    let format: Format
    /// The scene as seen upright.
    let uprightWidth: Int
    let uprightHeight: Int
    /// EXIF orientation (1 = as stored).
    let orientation: Int

    init(index: Int, longSide: Int = 4000, shortSide: Int = 3000) {
        self.index = index
        let slot = index % 24
        let group = index / 24
        var format = Format.jpeg
        var portrait = false
        var orientation = 1
        switch slot {
        case 3, 15: portrait = true; orientation = 6
        case 9: portrait = true; orientation = 8
        case 21: portrait = true
        case 11: format = .png; portrait = group % 2 == 1
        default: break
        }
        self.format = format
        self.orientation = orientation
        (uprightWidth, uprightHeight) = portrait ? (shortSide, longSide) : (longSide, shortSide)
    }

    var name: String {
        let number = String(index + 1)
        let padded = String(repeating: "0", count: max(0, 4 - number.count)) + number
        return "IMG_\(padded).\(format == .png ? "png" : "jpg")"
    }

    /// The stored size: width and height exchanged when the orientation turns the photo a quarter.
    var storedSize: (width: Int, height: Int) {
        orientation >= 5 ? (uprightHeight, uprightWidth) : (uprightWidth, uprightHeight)
    }
}
