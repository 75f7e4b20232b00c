import PhotoBook
public enum PhotoBookCLI { public static func main(_ arguments: [String]) -> Int32 { 0 } }
