import Foundation
import StreamCore
import TweetKit
import XAPI

/// The view model behind `stream`, in the seeds' pattern: the reconnecting stream's events come in, `state` and
/// `tweets` go out, and a `stop` input ends it.
///
/// `events ─prefix(untilOutputFrom: stop)─receive(on: scheduler)─sink(apply)`: every tweet goes to the store writer
/// first (it never blocks), then into the bounded state the screen draws and out through `tweets` (the JSONL printer
/// subscribes there). `--limit` and `--for` end it from inside; `stop` (Ctrl-C, q) from outside. `finished()` returns
/// once it has ended.
public final class StreamViewModel: @unchecked Sendable {
    /// Ends the stream; the last batch is committed by the writer's `finish()`.
    public let stop = PassthroughSubject<Void, Never>()
    /// The screen's state, published on the scheduler.
    @Published public private(set) var state = StreamState()
    /// Each tweet as it is received (stream and recovery), for the JSONL output.
    public let tweets = PassthroughSubject<StreamedTweet, Never>()
    /// Each notice (a disconnection, a wait, a recovery) as it happens, for the plain output's standard error.
    public let notices = PassthroughSubject<String, Never>()

    /// The writer every tweet goes to.
    public let writer: StreamStoreWriter
    private let limit: Int?
    private let now: @Sendable () -> Date
    private let lock = NSLock()
    private var snapshot = StreamState()
    private var perSecond = [Int](repeating: 0, count: 60)
    private var perSecondStamp = [Int](repeating: -1, count: 60)
    private var ended = false
    private var waiters: [CheckedContinuation<StreamState, Never>] = []
    private var subscriptions = Set<AnyCancellable>()

    /// Binds the pipeline and starts the stream.
    ///
    /// - Parameters:
    ///   - events: the reconnecting stream (or anything publishing its events).
    ///   - duration: `--for`: stop after this long, timed on `scheduler`.
    ///   - limit: `--limit`: stop after this many tweets.
    public init<S: Scheduler>(
        events: some Publisher<StreamEvent, Never>, writer: StreamStoreWriter, scheduler: S,
        duration: Duration? = nil, limit: Int? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.writer = writer
        self.limit = limit
        self.now = now
        let ending = stop.merge(with: endSignal)
        events
            .prefix(untilOutputFrom: ending)
            .receive(on: scheduler)
            .sink(
                receiveCompletion: { [weak self] _ in self?.end(reason: nil) },
                receiveValue: { [weak self] event in self?.apply(event) }
            )
            .store(in: &subscriptions)
        if let duration {
            let parts = duration.components
            let stride = S.SchedulerTimeType.Stride.nanoseconds(
                Int(parts.seconds) * 1_000_000_000 + Int(parts.attoseconds / 1_000_000_000))
            scheduler.schedule(after: scheduler.now.advanced(by: stride)) { [weak self] in
                self?.endSignal.send(())
            }
        }
    }

    /// Fired from inside (limit reached, time up).
    private let endSignal = PassthroughSubject<Void, Never>()

    /// Waits until the stream has ended (limit, duration, stop, or a final failure) and returns the last state.
    public func finished() async -> StreamState {
        await withCheckedContinuation { continuation in
            lock.lock()
            if ended {
                let last = snapshot
                lock.unlock()
                continuation.resume(returning: last)
                return
            }
            waiters.append(continuation)
            lock.unlock()
        }
    }

    /// Cancels everything at once (used when the command's task is cancelled).
    public func cancel() {
        stop.send(())
        lock.lock()
        let running = subscriptions
        subscriptions.removeAll()
        lock.unlock()
        for subscription in running { subscription.cancel() }
        end(reason: nil)
    }

    private func apply(_ event: StreamEvent) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        var next = snapshot
        var emitted: StreamedTweet?
        var reachedLimit = false
        var said: [String] = []
        func say(_ text: String) {
            next.note(text)
            said.append(text)
        }
        let time = now()
        switch event {
        case .connecting(let attempt):
            next.phase = .connecting(attempt: attempt)
            if attempt > 1 { next.reconnects += 1 }
        case .connected:
            next.phase = .connected
            next.lastHeartbeat = time
        case .heartbeat:
            next.phase = .connected
            next.lastHeartbeat = time
        case .tweet(let tweet):
            guard limit.map({ next.received < $0 }) ?? true else { break }
            writer.add(tweet)
            next.received += 1
            if tweet.recovered {
                next.recovered += 1
            } else {
                next.phase = .connected
                next.lastHeartbeat = time
            }
            next.keep(tweet)
            next.tweetsPerMinute = count(at: time)
            emitted = tweet
            reachedLimit = limit.map { next.received >= $0 } ?? false
        case .unreadable(let problem):
            say("an unreadable line was skipped: \(problem)")
        case .disconnected(let failure):
            say("disconnected: \(failure.explanation)")
        case .waiting(let notice):
            next.phase = .waiting(notice)
            if notice.secondsLeft > 0, notice.total.components.seconds == Int64(notice.secondsLeft) {
                say("reconnecting in \(StreamState.describe(notice.total)) (\(notice.failure.explanation))")
            }
        case .recovering:
            break
        case .recovered(let count, let gap):
            say(StreamState.recoveryNotice(count: count, gap: gap))
        case .recoveryFailed(let message):
            say("gap recovery failed: \(message)")
        case .stopped(let failure):
            next.phase = .stopped(failure.explanation)
            say("stopped: \(failure.explanation)")
        }
        snapshot = next
        lock.unlock()
        state = next
        for text in said { notices.send(text) }
        if let emitted { tweets.send(emitted) }
        if reachedLimit { endSignal.send(()) }
    }

    /// Counts a tweet in its second and returns the tweets of the last 60 seconds.
    private func count(at time: Date) -> Int {
        let second = Int(time.timeIntervalSince1970)
        let slot = second % 60
        if perSecondStamp[slot] != second {
            perSecondStamp[slot] = second
            perSecond[slot] = 0
        }
        perSecond[slot] += 1
        var total = 0
        for index in 0..<60 where second - perSecondStamp[index] < 60 { total += perSecond[index] }
        return total
    }

    private func end(reason: String?) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        ended = true
        if case .stopped = snapshot.phase {} else { snapshot.phase = .stopped(reason) }
        let last = snapshot
        let waiting = waiters
        waiters.removeAll()
        lock.unlock()
        state = last
        for waiter in waiting { waiter.resume(returning: last) }
    }
}
