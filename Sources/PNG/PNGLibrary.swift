import CPNG

/// The libpng in use, for the render cache's keys.
public enum PNGLibrary {
    public static var version: String { "libpng " + String(cString: png_get_libpng_ver(nil)) }
}
