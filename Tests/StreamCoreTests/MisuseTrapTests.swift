import StreamCore
import StreamTesting
import Testing

/// Combine traps on these protocol violations, and so does StreamCore. Each runs in a child process (an exit test).
@Suite struct MisuseTrapTests {
    @Test func filteringOperatorsTrapOnAValueBeforeTheSubscription() async {
        await #expect(processExitsWith: .failure) {
            let upstream = MisbehavingPublisher<Int, Never>()
            upstream.removeDuplicates().subscribe(TrackingSubscriber<Int, Never>())
            upstream.send(1)
        }
        await #expect(processExitsWith: .failure) {
            let upstream = MisbehavingPublisher<Int, Never>()
            upstream.prefix { $0 < 3 }.subscribe(TrackingSubscriber<Int, Never>())
            upstream.send(completion: .finished)
        }
        await #expect(processExitsWith: .failure) {
            let upstream = MisbehavingPublisher<Int, Never>()
            upstream.tryFilter { _ in true }.subscribe(TrackingSubscriber<Int, any Error>(initialDemand: nil))
            upstream.subscriberAsSubscription?.request(.max(1))
        }
    }

    @Test func valuesTrapsOnAValueBeyondDemand() async {
        await #expect(processExitsWith: .failure) {
            let upstream = MisbehavingPublisher<Int, Never>()
            let iterator = upstream.values.makeAsyncIterator()
            upstream.send(subscription: RecordingSubscription())
            upstream.send(1)
            withExtendedLifetime(iterator) {}
        }
    }
}

/// catch's traps: a value beyond demand, and a second failure while recovering.
@Suite struct CatchTrapTests {
    @Test func catchTrapsOnAValueBeyondDemand() async {
        await #expect(processExitsWith: .failure) {
            let upstream = MisbehavingPublisher<Int, S4Error>()
            upstream.catch { _ in Just(0) }.subscribe(TrackingSubscriber<Int, Never>(initialDemand: nil))
            upstream.send(subscription: RecordingSubscription())
            upstream.send(1)
        }
    }

    @Test func catchTrapsWhenUpstreamFailsWhileRecovering() async {
        await #expect(processExitsWith: .failure) {
            let upstream = MisbehavingPublisher<Int, S4Error>()
            upstream.catch { _ -> Just<Int> in
                upstream.send(completion: .failure(.other))
                return Just(0)
            }.subscribe(TrackingSubscriber<Int, Never>())
            upstream.send(subscription: RecordingSubscription())
            upstream.send(completion: .failure(.boom))
        }
    }
}

/// replaceError traps on a value beyond the downstream's demand, as Combine's does.
@Suite struct ReplaceErrorTrapTests {
    @Test func replaceErrorTrapsOnAValueBeyondDemand() async {
        await #expect(processExitsWith: .failure) {
            let upstream = MisbehavingPublisher<Int, S4Error>()
            upstream.replaceError(with: 0).subscribe(TrackingSubscriber<Int, Never>(initialDemand: nil))
            upstream.send(subscription: RecordingSubscription())
            upstream.send(1)
        }
    }
}

/// retry traps on a value before its subscription and on one beyond the demand, as Combine's does.
@Suite struct RetryTrapTests {
    @Test func retryTrapsOnAValueBeyondDemand() async {
        await #expect(processExitsWith: .failure) {
            let upstream = MisbehavingPublisher<Int, S4Error>()
            upstream.retry(1).subscribe(TrackingSubscriber<Int, S4Error>(initialDemand: nil))
            upstream.send(subscription: RecordingSubscription())
            upstream.send(1)
        }
    }

    @Test func retryTrapsOnAValueBeforeItsSubscription() async {
        await #expect(processExitsWith: .failure) {
            let upstream = MisbehavingPublisher<Int, S4Error>()
            upstream.retry(1).subscribe(TrackingSubscriber<Int, S4Error>())
            upstream.send(1)
        }
    }
}

/// buffer's customError closure runs outside the lock; sending into the same buffer from it traps.
@Suite struct BufferTrapTests {
    @Test func aReentrantSendFromCustomErrorTraps() async {
        await #expect(processExitsWith: .failure) {
            let upstream = MisbehavingPublisher<Int, S4Error>()
            upstream.buffer(
                size: 0, prefetch: .byRequest,
                whenFull: .customError {
                    upstream.send(2)
                    return .boom
                }
            ).subscribe(TrackingSubscriber<Int, S4Error>(initialDemand: nil))
            upstream.send(subscription: RecordingSubscription())
            upstream.send(1)
        }
    }
}
