import StreamCore
import XCTest

final class SinkTests: XCTestCase {
    func testSinkRequestsUnlimitedOnSubscription() {
        let subscription = S1ManualSubscription()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        sink.receive(subscription: subscription)
        XCTAssertEqual(subscription.requests, [.unlimited])
    }

    func testSinkBothFormsReceiveValuesAndCompletion() {
        var values: [Int] = []
        var completions: [Subscribers.Completion<S1Error>] = []
        let c1 = Fail<Int, S1Error>(error: S1Error(code: 2))
            .sink(receiveCompletion: { completions.append($0) }, receiveValue: { values.append($0) })
        XCTAssertEqual(completions, [.failure(S1Error(code: 2))])
        let c2 = [1, 2, 3].publisher.sink { values.append($0) }
        XCTAssertEqual(values, [1, 2, 3])
        _ = (c1, c2)
    }

    func testClosureGettersReturnTheClosuresUntilTheSinkEnds() {
        var received: [Int] = []
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { received.append($0) })
        sink.receiveValue(1)
        sink.receive(subscription: S1ManualSubscription())
        sink.cancel()
        sink.receiveValue(2)
        XCTAssertEqual(received, [1], "after cancel the getter hands out an empty closure: the real one was released")
    }

    func testSecondSubscriptionIsCancelled() {
        let first = S1ManualSubscription()
        let second = S1ManualSubscription()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        sink.receive(subscription: first)
        sink.receive(subscription: second)
        XCTAssertEqual(second.cancels, 1)
        XCTAssertEqual(first.cancels, 0)
        sink.cancel()
        XCTAssertEqual(first.cancels, 1)
        sink.cancel()
        XCTAssertEqual(first.cancels, 1, "cancel cancels upstream once")
    }

    func testCompletionReleasesClosures() {
        weak var weakToken: S1Token?
        let subject = PassthroughSubject<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let token = S1Token()
            weakToken = token
            cancellable = subject.sink(receiveCompletion: { _ in _ = token }, receiveValue: { _ in _ = token })
        }
        XCTAssertNotNil(weakToken)
        subject.send(completion: .finished)
        XCTAssertNil(weakToken)
        _ = cancellable
    }

    func testReleasingTheCancellableCancels() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var cancellable: AnyCancellable? = subject.sink { received.append($0) }
        subject.send(1)
        cancellable = nil
        subject.send(2)
        XCTAssertEqual(received, [1])
        XCTAssertNil(cancellable)
    }
}
