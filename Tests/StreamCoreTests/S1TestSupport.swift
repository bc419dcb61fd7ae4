import Foundation
import StreamCore
import XCTest

/// A small recording subscriber for S1's tests: records every event and lets a test drive demand by hand.
/// (StreamTesting's TrackingSubscriber serves the same purpose for the rest of the suite.)
final class S1Recorder<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    enum Event {
        case subscription
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    private(set) var events: [Event] = []
    private(set) var subscription: (any Subscription)?
    private let initialDemand: Subscribers.Demand
    private let demandPerValue: Subscribers.Demand
    var onValue: ((Input) -> Void)?

    init(initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
    }

    func receive(subscription: any Subscription) {
        events.append(.subscription)
        self.subscription = subscription
        if initialDemand != .none { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        events.append(.value(input))
        onValue?(input)
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        events.append(.completion(completion))
    }

    var values: [Input] {
        events.compactMap { if case .value(let v) = $0 { return v } else { return nil } }
    }

    var completions: [Subscribers.Completion<Failure>] {
        events.compactMap { if case .completion(let c) = $0 { return c } else { return nil } }
    }

    var subscriptionCount: Int {
        events.filter { if case .subscription = $0 { return true } else { return false } }.count
    }

    var isFinished: Bool {
        completions.count == 1 && { if case .finished = completions[0] { return true } else { return false } }()
    }

    func failure() -> Failure? {
        for c in completions { if case .failure(let e) = c { return e } }
        return nil
    }

    func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }
    func cancel() { subscription?.cancel() }
}

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

    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    var maxConcurrent: Int { lock.lock(); defer { lock.unlock() }; return peak }
}
