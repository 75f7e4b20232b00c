/// Points where a caller (the progress display, or a test ordering events) hears what the build is doing.
/// Each is called on a worker thread; none may block for long.
public struct BuildHooks: Sendable {
    /// A photo's decode body has started (before it reads the file).
    public var decodeStarted: (@Sendable (_ path: String) -> Void)?
    /// A photo's render body has ended, however it ended.
    public var photoFinished: (@Sendable (_ path: String) -> Void)?
    /// The PDF build is about to add page `index` (0-based).
    public var pageStarted: (@Sendable (_ index: Int) -> Void)?
    /// The temporary PDF is written and synced; the commit comes next.
    public var beforeCommit: (@Sendable () -> Void)?

    public init(decodeStarted: (@Sendable (String) -> Void)? = nil,
                photoFinished: (@Sendable (String) -> Void)? = nil,
                pageStarted: (@Sendable (Int) -> Void)? = nil,
                beforeCommit: (@Sendable () -> Void)? = nil) {
        self.decodeStarted = decodeStarted
        self.photoFinished = photoFinished
        self.pageStarted = pageStarted
        self.beforeCommit = beforeCommit
    }
}
