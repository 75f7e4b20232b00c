/// The libheif in use, for the render cache's keys.
public enum HEIFLibrary {
    public static var version: String { "libheif \(HEIFFile.libraryVersion)" }
}
