import Dispatch
import Foundation
import StreamCore

/// One workload of the `stream` suite: `run` does the work once over `elements` elements and returns a checksum.
struct StreamWorkload: Sendable {
    var id: String
    var label: String
    var elements: Int
    var run: @Sendable () -> Int
}

/// The `stream` benchmark suite: StreamCore's hot paths, each reported as nanoseconds per element
/// (median of 5 runs after a warm-up), with the checksum that keeps the optimizer honest in the label.
///
/// `tweetsh-bench stream [ids…] [--tsv]` runs every workload, or only the ids given.
enum StreamSuite: BenchSuite {
    static let name = "stream"

    /// Every workload, in report order. To add one, append a line here and write its body in an extension below.
    static let workloads: [StreamWorkload] = [
        StreamWorkload(
            id: "a", label: "PassthroughSubject send → map → filter → sink", elements: 10_000_000,
            run: { subjectMapFilterSink(count: 10_000_000) }),
        StreamWorkload(
            id: "b", label: "CurrentValueSubject, 100 sinks, 1M sends (per delivery)", elements: 100_000_000,
            run: { currentValueFanOut(sinks: 100, sends: 1_000_000) }),
        StreamWorkload(
            id: "c", label: "(0..<10M).publisher → scan → sink", elements: 10_000_000,
            run: { sequenceScanSink(count: 10_000_000) }),
        StreamWorkload(
            id: "d", label: "subject → map{Just} → switchToLatest → sink", elements: 1_000_000,
            run: { switchToLatestJust(count: 1_000_000) }),
        StreamWorkload(
            id: "e", label: "subject → flatMap(.unlimited){Just} → sink", elements: 1_000_000,
            run: { flatMapJust(count: 1_000_000) }),
        StreamWorkload(
            id: "f", label: "plain loop through opaque closures (the floor for a)", elements: 10_000_000,
            run: { plainClosureLoop(count: 10_000_000) }),
        StreamWorkload(
            id: "x1", label: "Just(i).sink churn", elements: 1_000_000,
            run: { justSinkChurn(count: 1_000_000) }),
        StreamWorkload(
            id: "x2", label: "@Published write seen by $v.sink and objectWillChange.sink", elements: 1_000_000,
            run: { publishedWrites(count: 1_000_000) }),
        StreamWorkload(
            id: "x3", label: "for await over (0..<1M).publisher.values", elements: 1_000_000,
            run: { valuesForAwait(count: 1_000_000) }),
        StreamWorkload(
            id: "n1", label: "two subjects → merge → sink, 1M sends", elements: 1_000_000,
            run: { mergeTwo(sends: 1_000_000) }),
        StreamWorkload(
            id: "n2", label: "two subjects → combineLatest → sink, 1M sends", elements: 1_000_000,
            run: { combineLatestTwo(sends: 1_000_000) }),
        StreamWorkload(
            id: "n3", label: "two subjects → zip → sink, 1M sends (500k pairs)", elements: 1_000_000,
            run: { zipTwo(sends: 1_000_000) }),
    ]

    static func run(arguments: [String]) throws -> [Figure] {
        let selected = arguments.isEmpty ? workloads : workloads.filter { arguments.contains($0.id) }
        return selected.map { workload in
            // The figure is the wall-clock median; the label adds the process CPU time per element (mean over the
            // warm-up and the 5 runs), which stays meaningful when other processes load the machine.
            let cpuBefore = processCPUNanoseconds()
            let (median, checksum) = Measure.medianNanoseconds(runs: 5, workload.run)
            let cpu = (processCPUNanoseconds() - cpuBefore) / 6 / Double(workload.elements)
            let cpuText = cpu.formatted(.number.precision(.fractionLength(1)))
            return Figure(
                suite: name,
                id: workload.id,
                value: median / Double(workload.elements),
                unit: "ns/element",
                label: "\(workload.label) (checksum \(checksum); CPU \(cpuText) ns/element)"
            )
        }
    }

    /// CPU time used by this process so far, in nanoseconds.
    static func processCPUNanoseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }
}

/// The closures shared by `a` and `f`, handed out through a non-inlinable function so neither workload can see
/// through them: `f` is then the cost of the same calls with no stream around them.
enum BenchClosures {
    @inline(never)
    static func make() -> (map: (Int) -> Int, keep: (Int) -> Bool, consume: (Int) -> Void, total: () -> Int) {
        let box = Accumulator()
        return ({ $0 &+ 1 }, { $0 & 1 == 0 }, { box.sum &+= $0 }, { box.sum })
    }

    final class Accumulator {
        var sum = 0
    }
}

extension StreamSuite {
    static func subjectMapFilterSink(count: Int) -> Int {
        let closures = BenchClosures.make()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.map(closures.map).filter(closures.keep).sink(receiveValue: closures.consume)
        for i in 0..<count {
            subject.send(i)
        }
        cancellable.cancel()
        return closures.total()
    }

    static func plainClosureLoop(count: Int) -> Int {
        let closures = BenchClosures.make()
        for i in 0..<count {
            let mapped = closures.map(i)
            if closures.keep(mapped) {
                closures.consume(mapped)
            }
        }
        return closures.total()
    }

    static func currentValueFanOut(sinks: Int, sends: Int) -> Int {
        let subject = CurrentValueSubject<Int, Never>(0)
        let accumulator = BenchClosures.Accumulator()
        var cancellables: [AnyCancellable] = []
        for _ in 0..<sinks {
            subject.sink { accumulator.sum &+= $0 }.store(in: &cancellables)
        }
        for i in 1...sends {
            subject.send(i)
        }
        cancellables.removeAll()
        return accumulator.sum
    }

    static func sequenceScanSink(count: Int) -> Int {
        let accumulator = BenchClosures.Accumulator()
        let cancellable = (0..<count).publisher
            .scan(0) { $0 &+ $1 }
            .sink { accumulator.sum &+= $0 }
        cancellable.cancel()
        return accumulator.sum
    }

    static func justSinkChurn(count: Int) -> Int {
        let accumulator = BenchClosures.Accumulator()
        for i in 0..<count {
            _ = Just(i).sink { accumulator.sum &+= $0 }
        }
        return accumulator.sum
    }

    /// A view model in the seeds' style: one published property, observed two ways.
    final class Counter: ObservableObject {
        @Published var value = 0
    }

    static func publishedWrites(count: Int) -> Int {
        let model = Counter()
        let accumulator = BenchClosures.Accumulator()
        let values = model.$value.sink { accumulator.sum &+= $0 }
        let changes = model.objectWillChange.sink { accumulator.sum &+= 1 }
        for i in 0..<count {
            model.value = i
        }
        values.cancel()
        changes.cancel()
        return accumulator.sum
    }
}

// MARK: - x3 (S3): the async bridge, `for await` over `.values`

extension StreamSuite {
    /// Sums `(0..<count).publisher.values` in a task; the bench's synchronous caller waits on a semaphore, which costs
    /// one task start per run, nothing per element.
    static func valuesForAwait(count: Int) -> Int {
        let result = AsyncResult()
        let done = DispatchSemaphore(value: 0)
        Task {
            var sum = 0
            for await value in (0..<count).publisher.values {
                sum &+= value
            }
            result.store(sum)
            done.signal()
        }
        done.wait()
        return result.value
    }

    /// Hands the task's sum to the waiting thread; the semaphore orders the write before the read.
    final class AsyncResult: @unchecked Sendable {
        private(set) var value = 0

        func store(_ value: Int) {
            self.value = value
        }
    }
}

// MARK: - S2 workloads (d, e): flattening. Each element makes and subscribes an inner `Just`, so these measure the
// per-inner cost of switchToLatest and flatMap: one child subscription, its demand, delivery and completion.

extension StreamSuite {
    static func switchToLatestJust(count: Int) -> Int {
        let accumulator = BenchClosures.Accumulator()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.map { Just($0) }.switchToLatest().sink { accumulator.sum &+= $0 }
        for i in 0..<count {
            subject.send(i)
        }
        cancellable.cancel()
        return accumulator.sum
    }

    static func flatMapJust(count: Int) -> Int {
        let accumulator = BenchClosures.Accumulator()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.flatMap(maxPublishers: .unlimited) { Just($0) }.sink { accumulator.sum &+= $0 }
        for i in 0..<count {
            subject.send(i)
        }
        cancellable.cancel()
        return accumulator.sum
    }
}

// MARK: - n1–n3: the N-ary operators. Two subjects take turns sending, so every send goes through the operator's
// shared core once: merge forwards it, combineLatest combines it with the other side's latest, zip pairs every second.

extension StreamSuite {
    static func mergeTwo(sends: Int) -> Int {
        let accumulator = BenchClosures.Accumulator()
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let cancellable = left.merge(with: right).sink { accumulator.sum &+= $0 }
        for i in 0..<sends {
            (i & 1 == 0 ? left : right).send(i)
        }
        cancellable.cancel()
        return accumulator.sum
    }

    static func combineLatestTwo(sends: Int) -> Int {
        let accumulator = BenchClosures.Accumulator()
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let cancellable = left.combineLatest(right).sink { accumulator.sum &+= $0.0 &- $0.1 }
        for i in 0..<sends {
            (i & 1 == 0 ? left : right).send(i)
        }
        cancellable.cancel()
        return accumulator.sum
    }

    static func zipTwo(sends: Int) -> Int {
        let accumulator = BenchClosures.Accumulator()
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let cancellable = left.zip(right).sink { accumulator.sum &+= $0.0 &+ $0.1 }
        for i in 0..<sends {
            (i & 1 == 0 ? left : right).send(i)
        }
        cancellable.cancel()
        return accumulator.sum
    }
}
