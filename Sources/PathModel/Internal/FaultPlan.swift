// Fault injection: tests install a plan that makes chosen system calls fail, and a program
// says when an interrupted call should give up instead of being retried. The one door
// (Syscalls.swift) consults both before and after each call.

import Synchronization
import SystemPackage

/// The system calls PathModel makes, named so that tests can inject faults into one of them.
@_spi(FaultInjection)
public enum SyscallName: String, Sendable, CaseIterable {
    case open, close, read, write, fsync, stat, mkdir, unlink, rmdir, rename, symlink, readlink
    case link, chmod, chown, utimens, opendir, readdir, copyFileRange, mknod, access, sendfile
    case chdir, openat2, truncate, pipe, statfs, clone, seek
}

/// A plan of injected failures: which call fails, with which errno, for which paths.
@_spi(FaultInjection)
public struct FaultPlan: Sendable {
    /// Decides whether a call fails; `path` is the call's path argument, when it has one.
    public let decide: @Sendable (SyscallName, String?) -> Errno?

    /// A plan from a deciding closure.
    public init(_ decide: @escaping @Sendable (SyscallName, String?) -> Errno?) {
        self.decide = decide
        Self.anyMade.store(true, ordering: .relaxed)
    }

    /// The plan in force for the current task, if any.
    @TaskLocal public static var current: FaultPlan?

    /// Whether any plan was ever made in this process: until one is, no call looks for the plan
    /// in force (a task-local lookup costs more than many of the calls it would guard).
    static let anyMade = Atomic<Bool>(false)
}

/// Whether a system call that a signal interrupted (`EINTR`) should give up rather than be
/// retried. A program that catches SIGINT sets a check of its own flag here, once for the
/// process (signals are process-wide), so that Ctrl-C ends a read from a FIFO nobody writes to,
/// or an `open(2)` of one nobody opens for writing.
///
///     Interruption.isRequested = { interrupted }
public enum Interruption {
    /// The check in force; nil retries every `EINTR`.
    public static var isRequested: (@Sendable () -> Bool)? {
        get { check.withLock { $0 }?.isRequested }
        set { check.withLock { $0 = newValue.map(Check.init) } }
    }

    /// The check in a box of its own. A closure kept directly in a generic `Mutex` is wrapped in
    /// a conversion each time the lock hands it out and takes it back (`inout`), so every read
    /// made the next call one step deeper: after a copy's thousands of requests, asking cost
    /// more than the requests.
    private final class Check: Sendable {
        let isRequested: @Sendable () -> Bool
        init(_ isRequested: @escaping @Sendable () -> Bool) { self.isRequested = isRequested }
    }

    private static let check = Mutex<Check?>(nil)
}

/// The errno the plan in force injects into `call` on `path`, if any.
@inline(__always)
func injected(_ call: SyscallName, _ path: UnsafePointer<CChar>?) -> Errno? {
    guard FaultPlan.anyMade.load(ordering: .relaxed), let plan = FaultPlan.current else { return nil }
    return plan.decide(call, path.map { String(cString: $0) })
}
