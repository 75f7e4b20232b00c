import Geometry

/// Points where a caller (the progress display, or a test ordering events) hears what the build is doing.
/// Each is called on a worker thread; none may block for long.
public struct BuildHooks: Sendable {
    /// A photo's decode body has started (before it reads the file).
    public var decodeStarted: (@Sendable (_ path: String) -> Void)?
    /// The choice of photos has started measuring a photo (`PhotoTraits`), in the probe phase.
    public var measureStarted: (@Sendable (_ path: String) -> Void)?
    /// A photo is done with, however it ended: its render body has ended, or its probe already failed.
    public var photoFinished: (@Sendable (_ path: String) -> Void)?
    /// The probe counted the pages of a multi-page file that discovery did not count
    /// (`PhotoFile.countsPagesWhenProbed`): the book has `total` photos to finish, not one per file given.
    public var photosCounted: (@Sendable (_ total: Int) -> Void)?
    /// The PDF build is about to add page `index` (0-based) of `count`.
    public var pageStarted: (@Sendable (_ index: Int, _ count: Int) -> Void)?
    /// The save is about to copy image `index` (0-based) of `count` from its page file into the temporary PDF.
    public var savingImage: (@Sendable (_ index: Int, _ count: Int) -> Void)?
    /// The temporary PDF is written and synced; the commit comes next.
    public var beforeCommit: (@Sendable () -> Void)?
    /// The rename happened: the book exists.
    public var afterCommit: (@Sendable () -> Void)?
    /// Every operation of the first round of renders is in the queue, which has not started any of them yet.
    public var graphReady: (@Sendable () -> Void)?
    /// The build is over and every temporary file is gone; called exactly once per `run()`.
    public var finished: (@Sendable (BuildReport) -> Void)?
    /// When set, the PDF operation hands its pages here, each photo with its render's bytes, and writes no PDF
    /// (its outcome is `succeeded`, nothing is committed): the pages `photobook edit` shows.
    public var proofSheets: (@Sendable ([ProofSheet]) -> Void)?

    public init(decodeStarted: (@Sendable (String) -> Void)? = nil,
                photoFinished: (@Sendable (String) -> Void)? = nil,
                pageStarted: (@Sendable (Int, Int) -> Void)? = nil,
                beforeCommit: (@Sendable () -> Void)? = nil,
                afterCommit: (@Sendable () -> Void)? = nil,
                graphReady: (@Sendable () -> Void)? = nil,
                finished: (@Sendable (BuildReport) -> Void)? = nil,
                savingImage: (@Sendable (Int, Int) -> Void)? = nil) {
        self.decodeStarted = decodeStarted
        self.photoFinished = photoFinished
        self.pageStarted = pageStarted
        self.beforeCommit = beforeCommit
        self.afterCommit = afterCommit
        self.graphReady = graphReady
        self.finished = finished
        self.savingImage = savingImage
    }
}

/// A page as the book would print it, with each photo's render in memory (`BuildHooks.proofSheets`).
public struct ProofSheet: Sendable {
    public var plan: PlannedPage
    public var photos: [ProofPicture]
}

/// One photo of a `ProofSheet`: where the page draws it and the JPEG it draws.
public struct ProofPicture: Sendable {
    /// The photo's file (`PhotoFile.path`).
    public var path: String
    /// Where the page draws it; `placed.crop` is the crop the render aimed, when it aimed one.
    public var placed: PlacedPhoto
    /// The JPEG's bytes: an upright render of `shown`, except for `passThrough`.
    public var jpeg: [UInt8]
    /// The part of the upright photo the JPEG shows, in the photo's pixels: the crop, the whole blocks of a lossless
    /// crop, or the whole photo for the photo's own bytes (whose EXIF orientation a browser applies, as the page does).
    public var shown: Rect
    public var passThrough: Bool
    /// The upright photo's size, in pixels.
    public var uprightWidth: Int, uprightHeight: Int
}
