import PhotoBook

/// Single paths found one at a time, each once however often it is asked for: the pages of a multi-page file that
/// a description lists one by one, or a cover's front and back alike, share the one read that counted them
/// (`PhotoFile.earlyRead`), which goes to the probe instead of the file being opened again (issue 32).
struct PathDiscovery {
    private var found: [String: Discovery] = [:]

    /// What `Discovery.discover` finds at `path` alone, pages counted; the first answer for a path asked again.
    mutating func discover(_ path: String) -> Discovery {
        if let known = found[path] { return known }
        let discovery = Discovery.discover([path], recursive: false)
        found[path] = discovery
        return discovery
    }
}
