/// The name and version that go into `--version` and into every PDF's Producer and Creator.
public enum PhotoBookVersion {
    public static let name = "photobook"
    public static let number = "0.1.0"
    public static var string: String { "\(name) \(number)" }
}
