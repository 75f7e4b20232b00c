/// Stops the program with `message` unless `condition` holds, in every build configuration.
///
/// Release builds compile this module with `-Ounchecked` (Package.swift), which removes `precondition`,
/// array bounds checks and overflow checks. The kernels index raw memory, so each one checks at its entry,
/// with this function, the sizes that keep every index in bounds; `fatalError` survives `-Ounchecked`.
@inline(__always)
func guarantee(_ condition: Bool, _ message: @autoclosure () -> String,
               file: StaticString = #fileID, line: UInt = #line) {
    if !condition { fatalError(message(), file: file, line: line) }
}
