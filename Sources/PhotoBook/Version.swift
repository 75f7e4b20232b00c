public enum PhotoBookVersion { public static let string = "0.1.0" }
