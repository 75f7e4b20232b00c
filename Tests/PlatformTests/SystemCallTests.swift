#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import Platform

/// The one place where EINTR is retried and errno becomes a failure.
struct SystemCallTests {
    /// A call that fails with `code` the first `failures` times it is made, then returns 7.
    final class Flaky {
        var calls = 0
        let failures: Int
        let code: Int32
        init(failing failures: Int, with code: Int32) { (self.failures, self.code) = (failures, code) }
        func call() -> Int32 {
            calls += 1
            if calls <= failures { errno = code; return -1 }
            return 7
        }
    }

    @Test func anInterruptedCallIsMadeAgainUntilItReturns() {
        let flaky = Flaky(failing: 3, with: EINTR)
        #expect(valueOrErrno { flaky.call() } == .success(7))
        #expect(flaky.calls == 4)
    }

    @Test func anInterruptedCallIsReportedWhenRetryingIsOff() {
        let flaky = Flaky(failing: 1, with: EINTR)
        #expect(valueOrErrno(retryOnInterrupt: false) { flaky.call() } == .failure(FileSystem.Failure(code: EINTR)))
        #expect(flaky.calls == 1)
    }

    @Test func anyOtherErrnoIsTheFailureAndIsNotRetried() {
        let flaky = Flaky(failing: 1, with: EACCES)
        let result = valueOrErrno { flaky.call() }
        #expect(result == .failure(FileSystem.Failure(code: EACCES)))
        #expect(flaky.calls == 1)
        if case .failure(let failure) = result { #expect(failure.description == "permission denied") }
    }

    @Test func aMissingFileIsNamedAsSuch() {
        let path = "/nonexistent-\(UUID().uuidString)"
        guard case .failure(let failure) = FileSystem.readFile(path) else {
            Issue.record("read a file that does not exist")
            return
        }
        #expect(failure.isNoSuchFile)
        #expect(failure.description == "no such file or directory")
    }

    @Test func aNullPointerCarriesErrno() {
        let result = pointerOrErrno { () -> OpaquePointer? in opendir("/nonexistent-\(UUID().uuidString)") }
        guard case .failure(let failure) = result else {
            Issue.record("opened a folder that does not exist")
            return
        }
        #expect(failure.isNoSuchFile)
    }
}

/// Descriptors are closed by `closeAfter` on every path.
struct FileDescriptorTests {
    struct Boom: Error, Equatable {}

    /// A pipe whose read end does not block: reading gives EOF (0) once every write end is closed, EAGAIN before.
    /// Asking the pipe, not the descriptor number, keeps the test right when another test reuses the number.
    static func pipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [0, 0]
        try #require(Glibc.pipe(&ends) == 0)
        try #require(fcntl(ends[0], F_SETFL, O_NONBLOCK) == 0)
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    static func writeEndIsClosed(_ read: FileDescriptor) -> Bool {
        var byte: UInt8 = 0
        return Glibc.read(read.rawValue, &byte, 1) == 0
    }

    @Test func closeAfterClosesWhenTheBodyThrows() throws {
        let (read, write) = try Self.pipe()
        defer { read.close() }
        #expect(!Self.writeEndIsClosed(read))
        #expect(throws: Boom()) {
            try write.closeAfter({ (_) throws(Boom) in throw Boom() }, closeFailure: { _ in Boom() })
        }
        #expect(Self.writeEndIsClosed(read))
    }

    @Test func closeAfterClosesWhenTheBodySucceedsAndHandsBackItsValue() throws {
        let (read, write) = try Self.pipe()
        defer { read.close() }
        let value = try write.closeAfter { (file) throws(FileSystem.Failure) in
            try file.writeAll(Array("hello".utf8))
            return 42
        }
        #expect(value == 42)
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = Glibc.read(read.rawValue, &bytes, bytes.count)
        #expect(Array(bytes.prefix(max(0, count))) == Array("hello".utf8))
        #expect(Self.writeEndIsClosed(read))
    }

    @Test func aFailingCloseIsReportedAfterASucceededBody() throws {
        // -1 is never a descriptor: the body succeeds and the close that follows fails with EBADF.
        let descriptor = FileDescriptor(rawValue: -1)
        #expect(throws: FileSystem.Failure(code: EBADF)) {
            try descriptor.closeAfter { (_) throws(FileSystem.Failure) in }
        }
    }

    @Test func writeAllWritesEveryByteOfALargeBuffer() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("platform-\(UUID().uuidString)").path
        defer { unlink(path) }
        let bytes = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let descriptor = try FileSystem.createNewFile(path).get()
        try descriptor.closeAfter { (file) throws(FileSystem.Failure) in try file.writeAll(bytes) }
        #expect(try FileSystem.readFile(path).get() == bytes)
        #expect(try FileSystem.readFile(path, limit: 10).get() == Array(bytes.prefix(10)))
    }

    @Test func aNewFileIsNeverOpenedOverAnExistingOne() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("platform-\(UUID().uuidString)").path
        defer { unlink(path) }
        try FileSystem.createNewFile(path).get().close().get()
        #expect(throws: FileSystem.Failure(code: EEXIST)) { try FileSystem.createNewFile(path).get() }
    }
}
