import CLCMS

/// The Little CMS in use, for the render cache's keys.
public enum ColourLibrary {
    public static var version: String { "lcms \(cmsGetEncodedCMMversion())" }
}
