import StreamCore
import StreamTesting
import Testing

/// zip's demand and failure handling as Combine records them.
@Suite struct ZipConformanceTests {
    @Test func sendsOneCombinationBeyondTheDemand() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        a.zip(b, +).subscribe(tracker)
        a.send(1)
        b.send(10)
        #expect(tracker.values == [11])
        a.send(2)
        a.send(3)
        b.send(20)
        #expect(tracker.values == [11, 22], "the surplus combination still goes out")
        b.send(30)
        #expect(tracker.values == [11, 22], "the next one waits for demand")
        tracker.request(.max(1))
        #expect(tracker.values == [11, 22, 33])
    }

    @Test func demandArrivingDuringADeliveryAnswersTheSendingUpstream() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(5), demandAfterValue: { _ in .max(3) })
        a.zip(b, +).subscribe(tracker)
        #expect(a.send(1) == .none)
        #expect(b.send(2) == .max(3), "the upstream whose value completed the pair gets the demand back")
        #expect(a.requests == [.max(5), .max(3)], "the other upstreams are asked")
        #expect(b.requests == [.max(5)])
    }

    @Test func aFailingUpstreamIsCancelledWithTheOthers() {
        let a = ManualPublisher<Int, S4Error>()
        let b = ManualPublisher<Int, S4Error>()
        let tracker = TrackingSubscriber<(Int, Int), S4Error>()
        a.zip(b).subscribe(tracker)
        a.send(completion: .failure(.boom))
        #expect(s4Failure(tracker) == .boom)
        #expect(a.cancelCount == 1)
        #expect(b.cancelCount == 1)
    }

    @Test func combineLatestLeavesItsFailingUpstreamAlone() {
        let a = ManualPublisher<Int, S4Error>()
        let b = ManualPublisher<Int, S4Error>()
        let tracker = TrackingSubscriber<(Int, Int), S4Error>()
        a.combineLatest(b).subscribe(tracker)
        a.send(completion: .failure(.boom))
        #expect(s4Failure(tracker) == .boom)
        #expect(a.cancelCount == 0)
        #expect(b.cancelCount == 1)
    }
}
