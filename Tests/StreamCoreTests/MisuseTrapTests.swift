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
