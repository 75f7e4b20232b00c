import Foundation
import Synchronization

/// A program started with `posix_spawn`, its stdout and stderr read to the end by threads of its own.
///
/// Trap: Foundation's `Process.run()` on Linux (Swift 6.3.1) crashes now and then with a bad pointer in memmove:
/// `findMaximumOpenFromProcSelfFD()` copies a whole 256-byte `d_name` out of a `dirent` that is shorter, and
/// reads past glibc's buffer (swift-corelibs-foundation pull request 5472, fixed after 6.3.1). A suite that starts
/// hundreds of programs hits it; this runner does not go through Foundation's Process at all.
package final class ChildProcess: @unchecked Sendable {
    package let pid: pid_t
    private let condition = NSCondition()
    private var output = [Data(), Data()]
    private var closed = [false, false]
    private var reaped: Int32?
    private let waited = Mutex(false)

    /// Starts `path` with `arguments`; `environment` is added to this process's own. The child gets /dev/null as
    /// stdin, every signal at its default action and none blocked.
    package init(_ path: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil)
        throws {
        var pipes: [[Int32]] = [[-1, -1], [-1, -1]]
        for i in 0..<2 {
            guard pipe(&pipes[i]) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            for fd in pipes[i] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipes[0][1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipes[1][1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        // A working directory through env(1) -C: posix_spawn_file_actions_addchdir_np is not in Swift's Glibc.
        let program = directory == nil ? path : "/usr/bin/env"
        let argv = directory.map { ["/usr/bin/env", "-C", $0, path] } ?? [path]
        var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // A test never shares the user's render cache, nor one with another test: without a folder of its own
        // (RenderCacheTests give one) the child's cache cannot be made under a file, so it builds without one.
        if environment["XDG_CACHE_HOME"] == nil { merged["XDG_CACHE_HOME"] = "/dev/null/photobook-tests" }
        let cArguments = (argv + arguments).map { strdup($0) } + [nil]
        let cEnvironment = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var child = pid_t()
        let status = posix_spawn(&child, program, &actions, &attributes, cArguments, cEnvironment)
        close(pipes[0][1])
        close(pipes[1][1])
        guard status == 0 else {
            close(pipes[0][0])
            close(pipes[1][0])
            throw POSIXError(.init(rawValue: status) ?? .EIO)
        }
        pid = child
        for stream in 0..<2 {
            let fd = pipes[stream][0]
            Thread.detachNewThread { [self] in
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    condition.lock()
                    if count > 0 { output[stream].append(contentsOf: buffer[..<count]) } else { closed[stream] = true }
                    condition.broadcast()
                    condition.unlock()
                    if count <= 0 { break }
                }
                close(fd)
            }
        }
    }

    package var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
    package var stderr: String { String(decoding: stderrBytes, as: UTF8.self) }
    package var stdoutBytes: [UInt8] { condition.lock(); defer { condition.unlock() }; return [UInt8](output[0]) }
    package var stderrBytes: [UInt8] { condition.lock(); defer { condition.unlock() }; return [UInt8](output[1]) }

    /// Waits until stderr holds `marker` or the process closed it; true when it holds it.
    package func waitForStderr(containing marker: String, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock(); defer { condition.unlock() }
        while !String(decoding: output[1], as: UTF8.self).contains(marker) {
            if closed[1] || !condition.wait(until: deadline) { return String(decoding: output[1], as: UTF8.self).contains(marker) }
        }
        return true
    }

    /// How the process ended: its exit status, or the signal that killed it.
    package struct Ending: Equatable {
        package var status: Int32
        package var signal: Int32?
    }

    /// Waits for the process to end and for its output to be read; kills it (SIGKILL) after `timeout` seconds,
    /// which the caller should treat as a failure (`timedOut`).
    package func wait(timeout: Double) -> (ending: Ending, timedOut: Bool) {
        // Wait for the exit without reaping (WNOWAIT): until it is reaped the pid cannot be reused, so the
        // watchdog's kill can only ever reach this child.
        let watch = Mutex((exited: false, timedOut: false))
        let pid = self.pid
        let watchdog = DispatchWorkItem {
            watch.withLock { state in
                guard !state.exited else { return }
                state.timedOut = true
                kill(pid, SIGKILL)
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        let timedOut = watch.withLock { state in state.exited = true; return state.timedOut }
        watchdog.cancel()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        condition.lock()
        let readDeadline = Date(timeIntervalSinceNow: 10)
        while !(closed[0] && closed[1]) { if !condition.wait(until: readDeadline) { break } }
        condition.unlock()
        let signal = status & 0x7F
        return (signal == 0 ? Ending(status: (status >> 8) & 0xFF, signal: nil) : Ending(status: 128 + signal, signal: signal),
                timedOut)
    }
}
