import PhotoBook
import Words
import Foundation

/// What a harness around the command line may do to a run: stop it at a named point, hear its signals, and
/// choose the engine's ways that only a test or the benchmark compares. The shipped `photobook` passes the
/// default, which does nothing; `photobook-harness` (Sources/photobook-harness, built for `make test` and
/// `make bench`) reads its switches from the environment. No test switch is compiled into `photobook`.
public struct RunHarness: Sendable {
    /// The moments a harness hears of, in the order a build reaches them.
    public enum Point: String, Sendable, CaseIterable {
        /// The choice of photos (`--photos`, `--pages`) has started measuring a photo, before any render.
        case measure
        /// A photo's decode has started.
        case decode
        /// The PDF build is adding its second page, or its only one.
        case page
        /// The temporary PDF is being written; the first page's image is about to be copied into it.
        case save
        /// The temporary PDF is complete, just before the rename.
        case commit
        /// Just after the rename.
        case committed
    }

    /// Called at each point, on the thread that reached it; it may block there (a test's pause).
    public var reached: @Sendable (Point) -> Void = { _ in }
    /// Called for every signal the run hears, after the run has acted on it.
    public var heardSignal: @Sendable () -> Void = {}
    /// Called once the run's signal handlers are installed, just before its work starts.
    public var armed: @Sendable () -> Void = {}
    /// The pages are embedded from memory instead of from their files (`BuildOptions.imagesInMemory`).
    public var imagesInMemory = false
    /// Cropped JPEGs shown at their own resolution are cut from their DCT blocks (`BuildOptions.losslessCrops`);
    /// false renders them from pixels, as the benchmark's "(pixels)" case does.
    public var losslessCrops = true
    /// A preset's file-size limit, in bytes, in place of the one the service publishes: a test's tiny limit,
    /// so that a small book is over it. Only where the preset has a limit.
    public var fileSizeLimit: Int?

    public init() {}
}

/// What the command line takes from the environment, read once, in `PhotoBookCLI.main`.
struct RunEnvironment: Sendable {
    /// `SOURCE_DATE_EPOCH`, for reproducible dates (SourceDateEpoch.swift).
    var sourceDateEpoch: String?
    /// `TMPDIR`, where a cover's working folder goes (a book's goes beside it).
    var temporaryDirectory: String?
    /// The render cache's folder (`$XDG_CACHE_HOME/photobook`, else `~/.cache/photobook`).
    var cacheDirectory: String?
    /// The locale's language (LC_ALL, else LC_MESSAGES, else LANG): the words' when `--lang` is not given.
    var language: Language?
    /// `PHOTOBOOK_PROGRESS=1`: the progress line is written even when stderr is not a terminal (the editor's build).
    var progressAnyway = false

    init(_ variables: [String: String]) {
        progressAnyway = variables["PHOTOBOOK_PROGRESS"] == "1"
        language = Language.environment(variables)
        cacheDirectory = RenderCache.defaultDirectory(environment: variables)
        sourceDateEpoch = variables[SourceDateEpoch.variable]
        temporaryDirectory = variables["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// One run of the program: its harness and its environment, handed from `main` to the command that runs.
struct Run: Sendable {
    var harness: RunHarness
    var environment: RunEnvironment
}
