import CRaw

/// The LibRaw in use, for the render cache's keys: another version may render other pixels.
public enum RawLibrary {
    public static var version: String { "LibRaw \(String(cString: libraw_version()))" }
}
