import Foundation
import StreamCore
import TweetKit
import XAPI

/// Finds the tweets the stream missed between two ids: a recent search for the active rules from `since` to
/// `until` (both exclusive). The shell's implementation searches the X API once per rule.
public typealias GapRecovery =
    @Sendable (_ since: TweetID, _ until: TweetID) -> AnyPublisher<[StreamedTweet], any Error>

/// The filtered stream as a publisher that never gives up on its own: each connection's lines become events, a
/// connection that ends or stalls is replaced after the wait `StreamBackoff` gives, and after a reconnect the gap
/// between the last tweet seen and the first one on the new connection is filled by `recovery`, concatenated into
/// the same output. Only a final failure (usage cap, refused request) ends it, with `.stopped` and then `.finished`.
///
/// All its timing (the 21 s heartbeat deadline, the waits and their once-a-second countdown) runs on `scheduler`, and
/// every connection event is moved onto it first, so under `TestScheduler` a whole day of disconnections runs in
/// virtual time. Cancelling the subscription closes the connection and ends any wait at once.
public struct ReconnectingStream<S: Scheduler>: Publisher {
    /// Events, in order.
    public typealias Output = StreamEvent
    /// It reports failures as events.
    public typealias Failure = Never

    /// Opens each connection.
    public let connector: any FilteredStreamConnector
    /// Runs the timers; must run its actions one at a time (a serial queue, or TestScheduler).
    public let scheduler: S
    /// How long without a byte means a dead connection: X's 20 s heartbeat plus a second of slack.
    public let heartbeatTimeout: Duration
    /// Fills the gap after a reconnect; nil turns gap recovery off.
    public let recovery: GapRecovery?
    /// How many recent ids are remembered to drop duplicates (a bound on memory).
    public let rememberedIDs: Int

    /// Creates the stream; nothing connects until a subscriber arrives.
    public init(
        connector: any FilteredStreamConnector, scheduler: S, heartbeatTimeout: Duration = .seconds(21),
        recovery: GapRecovery?, rememberedIDs: Int = 200_000
    ) {
        self.connector = connector
        self.scheduler = scheduler
        self.heartbeatTimeout = heartbeatTimeout
        self.recovery = recovery
        self.rememberedIDs = rememberedIDs
    }

    /// Starts the first connection for the subscriber.
    public func receive<Down: Subscriber>(subscriber: Down) where Down.Input == Output, Down.Failure == Never {
        let subscription = ReconnectingStreamSubscription(stream: self, downstream: AnySubscriber(subscriber))
        subscriber.receive(subscription: subscription)
        subscription.start()
    }
}

/// The state machine behind `ReconnectingStream`. State changes only in actions run on the scheduler; the lock guards
/// what `request` and `cancel` touch from other threads.
private final class ReconnectingStreamSubscription<S: Scheduler>: Subscription, @unchecked Sendable {
    private let stream: ReconnectingStream<S>
    private let lock = NSLock()
    private var downstream: AnySubscriber<StreamEvent, Never>?
    private var demand = Subscribers.Demand.none
    private var queued: [StreamEvent] = []
    private var finishQueued = false
    private var handle: (any FilteredStreamHandle)?
    private var recoveryCancellable: AnyCancellable?

    // Touched only on the scheduler.
    private var backoff = StreamBackoff()
    private var attempt = 0
    /// Bumped for each connection: events of an older one are ignored, and so are its heartbeat deadlines.
    private var connection = 0
    private var activity = 0
    private var established = false
    private var lastSeen: TweetID?
    /// The last id seen before the connection that ended, while the first tweet of the next one is awaited.
    private var gapStart: TweetID?
    private var seen = Set<TweetID>()
    private var seenOrder: [TweetID] = []
    private var seenHead = 0
    /// Bumped when a wait starts or is abandoned, so old countdown ticks do nothing.
    private var waitGeneration = 0

    init(stream: ReconnectingStream<S>, downstream: AnySubscriber<StreamEvent, Never>) {
        self.stream = stream
        self.downstream = downstream
    }

    func start() { stream.scheduler.schedule { [self] in connect() } }

    func request(_ more: Subscribers.Demand) {
        lock.lock()
        demand += more
        lock.unlock()
        drain()
    }

    func cancel() {
        lock.lock()
        downstream = nil
        queued.removeAll()
        let open = handle
        handle = nil
        let recovering = recoveryCancellable
        recoveryCancellable = nil
        lock.unlock()
        open?.cancel()
        recovering?.cancel()
    }

    private var isCancelled: Bool { lock.withLock { downstream == nil } }

    // MARK: Delivering

    private func send(_ event: StreamEvent) {
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        queued.append(event)
        lock.unlock()
        drain()
    }

    private func finish() {
        lock.lock()
        finishQueued = true
        lock.unlock()
        drain()
    }

    /// Hands queued events to the subscriber as its demand allows; the store must get every tweet, so nothing is
    /// dropped here (the screen drops what it cannot draw, downstream).
    private func drain() {
        while true {
            lock.lock()
            guard let subscriber = downstream else { return lock.unlock() }
            if queued.isEmpty {
                if finishQueued {
                    downstream = nil
                    lock.unlock()
                    subscriber.receive(completion: .finished)
                    return
                }
                return lock.unlock()
            }
            guard demand > .none else { return lock.unlock() }
            let event = queued.removeFirst()
            demand -= 1
            lock.unlock()
            let more = subscriber.receive(event)
            if more > .none { lock.withLock { demand += more } }
        }
    }

    // MARK: Connecting

    private func connect() {
        guard !isCancelled else { return }
        attempt += 1
        connection += 1
        established = false
        let current = connection
        send(.connecting(attempt: attempt))
        let relay = ConnectionRelay { [weak self] event in self?.deliver(event, connection: current) }
        let opened = stream.connector.connect { event in relay.forward(event) }
        lock.lock()
        let cancelled = downstream == nil
        if !cancelled { handle = opened }
        lock.unlock()
        if cancelled {
            opened.cancel()
            return
        }
        armHeartbeat()
    }

    /// Called on the connection's thread: moves the event onto the scheduler, where all state changes happen.
    private func deliver(_ event: StreamConnectionEvent, connection current: Int) {
        stream.scheduler.schedule { [self] in handle(event, connection: current) }
    }

    private func handle(_ event: StreamConnectionEvent, connection current: Int) {
        guard current == connection, !isCancelled else { return }
        switch event {
        case .opened:
            send(.connected)
            armHeartbeat()
        case .message(let message):
            if !established {
                established = true
                backoff.connected()
            }
            armHeartbeat()
            switch message {
            case .heartbeat: send(.heartbeat)
            case .tweet(let tweet): receive(tweet)
            case .disconnect(let failure): end(failure)
            }
        case .unreadable(let problem):
            armHeartbeat()
            send(.unreadable(problem))
        case .ended(let failure):
            end(failure ?? .dropped(reason: "closed"))
        }
    }

    private func armHeartbeat() {
        activity += 1
        let expected = (connection, activity)
        let scheduler = stream.scheduler
        let timeout = stream.heartbeatTimeout
        scheduler.schedule(after: scheduler.now.advanced(by: Self.stride(timeout))) { [weak self] in
            guard let self, self.connection == expected.0, self.activity == expected.1 else { return }
            self.end(.stalled(seconds: Int(timeout.components.seconds)))
        }
    }

    /// The connection is over: close it, and either stop or wait and connect again.
    private func end(_ failure: StreamFailure) {
        connection += 1  // Ignore anything the old connection still says, and its heartbeat deadline.
        let open = lock.withLock { () -> (any FilteredStreamHandle)? in
            defer { handle = nil }
            return handle
        }
        open?.cancel()
        if gapStart == nil { gapStart = lastSeen }
        var failure = failure
        switch failure {
        case .stalled where !established, .dropped where !established:
            // Silence or an end before the first byte is not "an established connection dropped": no reconnect at once.
            failure = .network(reason: failure.explanation)
        default: break
        }
        send(.disconnected(failure))
        guard let delay = backoff.delay(after: failure) else {
            send(.stopped(failure))
            finish()
            return
        }
        wait(delay, failure: failure)
    }

    private func wait(_ delay: Duration, failure: StreamFailure) {
        waitGeneration += 1
        let generation = waitGeneration
        let scheduler = stream.scheduler
        guard delay > .zero else {
            scheduler.schedule { [weak self] in self?.connect() }
            return
        }
        let start = scheduler.now
        let total = Self.seconds(delay)
        func tick(_ elapsed: Int) {
            guard generation == waitGeneration, !isCancelled else { return }
            let left = Int((total - Double(elapsed)).rounded(.up))
            send(.waiting(StreamWaitNotice(failure: failure, total: delay, secondsLeft: max(0, left))))
            if Double(elapsed + 1) < total {
                scheduler.schedule(after: start.advanced(by: .seconds(elapsed + 1))) { [weak self] in
                    guard self != nil else { return }
                    tick(elapsed + 1)
                }
            }
        }
        tick(0)
        scheduler.schedule(after: start.advanced(by: Self.stride(delay))) { [weak self] in
            guard let self, generation == self.waitGeneration, !self.isCancelled else { return }
            self.send(.waiting(StreamWaitNotice(failure: failure, total: delay, secondsLeft: 0)))
            self.connect()
        }
    }

    // MARK: Tweets and gap recovery

    private func receive(_ tweet: StreamedTweet) {
        guard remember(tweet.id) else { return }
        if let since = gapStart {
            gapStart = nil
            if tweet.id > since { recover(since: since, until: tweet.id) }
        }
        if lastSeen.map({ tweet.id > $0 }) ?? true { lastSeen = tweet.id }
        send(.tweet(tweet))
    }

    /// Adds an id to the bounded memory of ids seen; false when it was already there (a duplicate).
    private func remember(_ id: TweetID) -> Bool {
        guard seen.insert(id).inserted else { return false }
        if seenOrder.count < stream.rememberedIDs {
            seenOrder.append(id)
        } else {
            seen.remove(seenOrder[seenHead])
            seenOrder[seenHead] = id
            seenHead = (seenHead + 1) % seenOrder.count
        }
        return true
    }

    private func recover(since: TweetID, until: TweetID) {
        guard let recovery = stream.recovery else { return }
        send(.recovering(since: since, until: until))
        let gap: Duration
        if let from = since.snowflakeDate, let to = until.snowflakeDate {
            gap = .milliseconds(Int64(max(0, to.timeIntervalSince(from)) * 1000))
        } else {
            gap = .zero
        }
        let scheduler = stream.scheduler
        let cancellable = recovery(since, until)
            .reduce([StreamedTweet]()) { $0 + $1 }
            .sink(
                receiveCompletion: { [weak self] completion in
                    guard case .failure(let error) = completion else { return }
                    let message = ErrorText.describe(error)
                    scheduler.schedule { self?.send(.recoveryFailed(message)) }
                },
                receiveValue: { [weak self] tweets in
                    scheduler.schedule {
                        guard let self else { return }
                        var count = 0
                        for var tweet in tweets.sorted(by: { $0.id < $1.id }) where self.remember(tweet.id) {
                            tweet.recovered = true
                            count += 1
                            self.send(.tweet(tweet))
                        }
                        self.send(.recovered(count: count, gap: gap))
                    }
                })
        lock.withLock { recoveryCancellable = cancellable }
    }

    // MARK: Time

    private static func stride(_ duration: Duration) -> S.SchedulerTimeType.Stride {
        let parts = duration.components
        return .nanoseconds(Int(parts.seconds) * 1_000_000_000 + Int(parts.attoseconds / 1_000_000_000))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

/// Carries a connection's events out of its `@Sendable` handler without capturing the generic subscription's type
/// there; `forward` only schedules the event on the stream's scheduler.
private final class ConnectionRelay: @unchecked Sendable {
    let forward: (StreamConnectionEvent) -> Void

    init(_ forward: @escaping (StreamConnectionEvent) -> Void) {
        self.forward = forward
    }
}
