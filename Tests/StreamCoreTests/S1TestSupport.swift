import Foundation
import StreamCore
import XCTest

struct S1Error: Error, Equatable {
    var code = 1
}

/// Holds a reference weakly, to check that something was released.
final class S1Token: @unchecked Sendable {}

/// Counts calls from many threads and records the most calls ever in progress at once.
final class S1Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var inside = 0
    private var peak = 0

    func increment() {
        lock.lock()
        inside += 1
        peak = max(peak, inside)
        lock.unlock()
        lock.lock()
        count += 1
        inside -= 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
    var maxConcurrent: Int {
        lock.lock()
        defer { lock.unlock() }
        return peak
    }
}
