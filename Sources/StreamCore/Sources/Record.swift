/// A publisher that allows for recording a series of inputs and a completion, for later playback to each subscriber.
///
/// Playback honours demand exactly: values go out only as requested, and the completion follows the last value
/// without waiting for more demand. An empty recording completes at once with `Subscriptions.empty`, as in Combine.
public struct Record<Output, Failure: Error>: Publisher {
    /// The recorded output and completion.
    public let recording: Recording

    /// Creates a publisher by filling a new recording in `record`.
    ///
    /// A recording the closure leaves open plays back as finished.
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.recording = recording
    }

    /// Creates a record publisher from an existing recording.
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Creates a record publisher to publish the provided output and completion.
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        self.recording = Recording(output: output, completion: completion)
    }

    /// Plays the recording back to the subscriber.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        if recording.output.isEmpty {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: recording.completion)
            return
        }
        subscriber.receive(subscription: Playback(downstream: subscriber, recording: recording))
    }
}

extension Record {
    /// A recorded sequence of outputs, followed by a completion.
    ///
    /// Recording anything after the completion is a programmer error and traps, as in Combine.
    public struct Recording {
        /// Values are recorded with `receive(_:)`, like a subscriber's input.
        public typealias Input = Output

        /// The output recorded so far.
        public private(set) var output: [Output]
        private var recordedCompletion: Subscribers.Completion<Failure>?

        /// The completion; `.finished` while none has been recorded.
        public var completion: Subscribers.Completion<Failure> {
            recordedCompletion ?? .finished
        }

        /// Creates an empty, open recording.
        public init() {
            output = []
        }

        /// Creates a closed recording with the given output and completion.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.recordedCompletion = completion
        }

        /// Records a value.
        public mutating func receive(_ input: Input) {
            precondition(recordedCompletion == nil, "Record.Recording received a value after its completion")
            output.append(input)
        }

        /// Records the completion; nothing can be recorded after it.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            precondition(recordedCompletion == nil, "Record.Recording received a second completion")
            recordedCompletion = completion
        }
    }
}

private enum RecordCodingKeys: String, CodingKey {
    case recording
}

private enum RecordingCodingKeys: String, CodingKey {
    case output
    case completion
}

extension Record: Codable where Output: Codable, Failure: Codable {
    /// Decodes a record from its `recording` key.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: RecordCodingKeys.self)
        self.init(recording: try container.decode(Recording.self, forKey: .recording))
    }

    /// Encodes the record under the `recording` key, as Combine does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: RecordCodingKeys.self)
        try container.encode(recording, forKey: .recording)
    }
}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    /// Decodes a closed recording from its `output` and `completion` keys.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: RecordingCodingKeys.self)
        self.init(
            output: try container.decode([Output].self, forKey: .output),
            completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion)
        )
    }

    /// Encodes `output` then `completion`, as Combine does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: RecordingCodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }
}

extension Record {
    /// Plays a recording back: a loop that delivers while there is demand, entered by one caller at a time so a
    /// request made from inside `receive(_:)` only adds demand instead of recursing.
    fileprivate final class Playback<Downstream: Subscriber>: Subscription, CustomStringConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        private let lock = Lock()
        private var downstream: Downstream?
        private var values: [Output]
        private var index = 0
        private let completion: Subscribers.Completion<Failure>
        private var demand = Subscribers.Demand.none
        private var delivering = false

        init(downstream: Downstream, recording: Recording) {
            self.downstream = downstream
            self.values = recording.output
            self.completion = recording.completion
        }

        /// The recorded output while it plays, "Cancelled Events" once finished or cancelled, as in Combine.
        var description: String {
            lock.lock()
            defer { lock.unlock() }
            return downstream == nil ? "Cancelled Events" : String(describing: values)
        }

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            guard downstream != nil else {
                lock.unlock()
                return
            }
            self.demand += demand
            guard !delivering else {
                lock.unlock()
                return
            }
            delivering = true
            while let target = downstream {
                if index == values.count {
                    downstream = nil
                    values = []
                    lock.unlock()
                    target.receive(completion: completion)
                    return
                }
                guard self.demand > 0 else { break }
                self.demand -= 1
                let value = values[index]
                index += 1
                lock.unlock()
                let more = target.receive(value)
                lock.lock()
                self.demand += more
            }
            delivering = false
            lock.unlock()
        }

        func cancel() {
            lock.lock()
            let dropped = (downstream, values)
            downstream = nil
            values = []
            lock.unlock()
            // Released outside the lock: the subscriber's or a value's deinit may be user code.
            withExtendedLifetime(dropped) {}
        }
    }
}

extension Record.Playback: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The recorded output (none once finished or cancelled) and the completion, as in Combine.
    var customMirror: Mirror {
        lock.lock()
        let remaining = values
        lock.unlock()
        return Mirror(self, children: ["sequence": remaining, "completion": completion])
    }

    /// The description.
    var playgroundDescription: Any { description }
}
