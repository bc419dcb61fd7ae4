extension Publisher {
    /// Delays delivery of every element, and of the completion, by `interval` on `scheduler`.
    ///
    /// The subscription itself is handed downstream at once, as Combine does.
    @inlinable
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        tolerance: S.SchedulerTimeType.Stride? = nil,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance,
            scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delays delivery of elements and completion to the downstream receiver.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// Upstream's output.
        public typealias Output = Upstream.Output
        /// Upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher this operator receives elements from.
        public let upstream: Upstream
        /// How long each event is held.
        public let interval: Context.SchedulerTimeType.Stride
        /// The tolerance passed to the scheduler.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// The scheduler that delivers the events.
        public let scheduler: Context
        /// Options for every schedule call.
        public let options: Context.SchedulerOptions?

        /// Creates the operator; prefer `delay(for:tolerance:scheduler:options:)`.
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes to upstream through a forwarder that schedules each event `interval` after it arrived.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let scheduler = self.scheduler
            let options = self.options
            let interval = self.interval
            let tolerance = self.tolerance
            upstream.subscribe(
                ScheduledForwarder<S, DelayForwarding>(
                    downstream: subscriber,
                    schedule: { action in
                        scheduler.schedule(
                            after: scheduler.now.advanced(by: interval), tolerance: tolerance,
                            options: options, action)
                    }))
        }
    }
}
