/// A scheduler action carried across the `@Sendable` boundary of Dispatch, Foundation timers and operation queues.
///
/// The `Scheduler` protocol hands over plain `() -> Void` closures (Combine's signature, which we must keep for source
/// compatibility), while Dispatch and Foundation demand `@Sendable` ones. Crossing is safe here because of how schedulers
/// use the closure: the scheduling thread gives the closure away and never calls it, the scheduler calls it on its own
/// context (once, or once per tick of one serial timer, never two calls at a time), and the StreamCore operators that
/// schedule work guard the state their closures touch with their own locks. That is the same contract Combine's
/// schedulers rely on.
struct UncheckedSendableAction: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) {
        self.run = run
    }
}
