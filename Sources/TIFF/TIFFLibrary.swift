import CTIFF

/// The libtiff in use, for the render cache's keys (its version text names the library and its copyright).
public enum TIFFLibrary {
    public static var version: String { String(cString: TIFFGetVersion()).split(separator: "\n").first.map(String.init) ?? "libtiff" }
}
