import StreamCore
import StreamTesting
import XCTest

private final class SearchModel: ObservableObject {
    @Published var query = ""
    @Published var results: [String] = []
    var plain = 0
}

private class BaseModel: ObservableObject {
    @Published var base = 0
}

private final class DerivedModel: BaseModel {
    @Published var derived = 0
}

private final class CustomPublisherModel: ObservableObject {
    let objectWillChange = ObservableObjectPublisher()
    @Published var value = 0
}

private class NonObservableBase {
    @Published var a = 0
}

private final class ObservableGeneric<A, B>: ObservableObject {
    @Published var first: A
    @Published var second: B

    init(_ first: A, _ second: B) {
        self.first = first
        self.second = second
    }
}

private final class ObservableOverNonObservableBase: NonObservableBase, ObservableObject {
    @Published var c = 0
}

/// A view model as SwiftUI code writes them: main-actor isolated, with @Published properties and a stored sink.
@MainActor
private final class MainActorModel: ObservableObject {
    @Published var text = ""
    @Published var counts: [Int] = []
    var cancellables = Set<AnyCancellable>()

    init() {
        $text.map(\.count).sink { [weak self] count in self?.counts.append(count) }.store(in: &cancellables)
    }
}

private final class NotObservable {
    @Published var value = 1
}

final class PublishedTests: XCTestCase {
    func testProjectedPublisherSendsCurrentThenNewValuesInWillSet() {
        let model = SearchModel()
        var seen: [(String, String)] = []
        let c = model.$query.sink { newValue in
            seen.append((newValue, model.query))
        }
        model.query = "swift"
        XCTAssertEqual(seen.map(\.0), ["", "swift"])
        XCTAssertEqual(seen.map(\.1), ["", ""], "the stored value changes after subscribers are told")
        XCTAssertEqual(model.query, "swift")
        _ = c
    }

    func testObjectWillChangeFiresBeforeTheChange() {
        let model = SearchModel()
        var snapshots: [String] = []
        let c = model.objectWillChange.sink { snapshots.append(model.query) }
        model.query = "a"
        model.results = ["x"]
        model.plain = 5
        XCTAssertEqual(snapshots, ["", "a"], "fires once per @Published change, before it")
        _ = c
    }

    func testObjectWillChangeIsTheSamePublisherEachTime() {
        let model = SearchModel()
        XCTAssertTrue(model.objectWillChange === model.objectWillChange)
        XCTAssertFalse(model.objectWillChange === SearchModel().objectWillChange)
    }

    func testObjectWillChangeOrderedBeforeProjectedPublisher() {
        let model = SearchModel()
        var log: [String] = []
        let a = model.$query.dropFirstForTest().sink { log.append("value \($0)") }
        let b = model.objectWillChange.sink { log.append("will change") }
        model.query = "q"
        XCTAssertEqual(log, ["will change", "value q"])
        _ = (a, b)
    }

    func testSubclassPropertiesShareTheObjectPublisher() {
        let model = DerivedModel()
        var count = 0
        let c = model.objectWillChange.sink { count += 1 }
        model.base = 1
        model.derived = 2
        XCTAssertEqual(count, 2)
        _ = c
    }

    /// As in Combine, only the synthesized `objectWillChange` is sent to by `@Published` properties: a class that
    /// declares its own publisher sends on it itself.
    func testDeclaredObservableObjectPublisherIsLeftToTheClass() {
        let model = CustomPublisherModel()
        var count = 0
        let c = model.objectWillChange.sink { count += 1 }
        model.value = 1
        XCTAssertEqual(count, 0)
        model.objectWillChange.send()
        XCTAssertEqual(count, 1)
        _ = c
    }

    func testGenericClassAssignsInInitAndAnnounces() {
        let model = ObservableGeneric(1, "x")
        var count = 0
        let c = model.objectWillChange.sink { count += 1 }
        model.first += 1
        model.second.append("y")
        XCTAssertEqual(count, 2, "a compound assignment announces once")
        XCTAssertEqual(model.first, 2)
        XCTAssertEqual(model.second, "xy")
        _ = c
    }

    func testNonObservableBaseClassPropertiesAnnounceThroughDerivedObject() {
        let model = ObservableOverNonObservableBase()
        var count = 0
        let c = model.objectWillChange.sink { count += 1 }
        model.a += 1
        model.c += 1
        XCTAssertEqual(count, 2)
        _ = c
    }

    func testPublishedDemandIsHonoured() {
        let model = SearchModel()
        let recorder = TrackingSubscriber<String, Never>(initialDemand: .max(2))
        model.$query.subscribe(recorder)
        model.query = "a"
        model.query = "b"
        XCTAssertEqual(recorder.values, ["", "a"], "the current value counts against demand")
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, ["", "a", "b"], "the latest value is delivered on the next request")
    }

    func testDemandReturnedFromValuesIsAddedAsCombineDoes() {
        let object = NotObservable()
        object.value = 0
        let tracker = TrackingSubscriber<Int, Never>(
            initialDemand: .max(10),
            demandAfterValue: { [0, 10].contains($0) ? .max(1) : .none }
        )
        object.$value.subscribe(tracker)
        for i in 0..<100 { object.value = i }
        XCTAssertEqual(tracker.values.count, 13, "current value 0, then 0...11, as Combine delivers")
    }

    func testMainActorViewModelCompilesAndAnnounces() {
        // XCTest runs test methods on the main thread here; the model is main-actor isolated, as in SwiftUI code.
        MainActor.assumeIsolated {
            let model = MainActorModel()
            var changes = 0
            let c = model.objectWillChange.sink { changes += 1 }
            model.text = "abc"
            XCTAssertEqual(model.counts, [0, 3])
            XCTAssertEqual(changes, 2, "text, then counts from inside the $text sink")
            _ = c
        }
    }

    func testPublishedWorksInPlainClasses() {
        let object = NotObservable()
        var values: [Int] = []
        let c = object.$value.sink { values.append($0) }
        object.value = 2
        XCTAssertEqual(values, [1, 2])
        _ = c
    }

    func testAssignToPublishedRepublishesAndLivesWithTheProperty() {
        let model = SearchModel()
        let source = PassthroughSubject<[String], Never>()
        source.assign(to: &model.$results)
        var changes = 0
        let c = model.objectWillChange.sink { changes += 1 }
        source.send(["a"])
        XCTAssertEqual(model.results, ["a"])
        XCTAssertEqual(changes, 1, "values assigned through $property announce the change too")
        _ = c
    }

    func testAssignToPublishedEndsWhenTheObjectGoes() {
        let source = PassthroughSubject<[String], Never>()
        weak var weakModel: SearchModel?
        do {
            let model = SearchModel()
            weakModel = model
            source.assign(to: &model.$results)
            source.send(["x"])
            XCTAssertEqual(model.results, ["x"])
        }
        XCTAssertNil(weakModel, "the subscription does not keep the object alive")
        source.send(["y"])
    }

    func testAssignToOnRetainsObjectUntilCompletion() {
        final class Target {
            var value = 0
        }
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTarget: Target?
        var cancellable: AnyCancellable?
        do {
            let target = Target()
            weakTarget = target
            cancellable = subject.assign(to: \.value, on: target)
        }
        subject.send(5)
        XCTAssertEqual(weakTarget?.value, 5, "retained while subscribed")
        subject.send(completion: .finished)
        XCTAssertNil(weakTarget, "released at completion")
        _ = cancellable
    }

    func testAssignToOnReleasesObjectOnCancel() {
        final class Target {
            var value = 0
        }
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTarget: Target?
        var cancellable: AnyCancellable?
        do {
            let target = Target()
            weakTarget = target
            cancellable = subject.assign(to: \.value, on: target)
        }
        XCTAssertNotNil(weakTarget)
        cancellable?.cancel()
        XCTAssertNil(weakTarget)
        subject.send(1)
    }
}

extension Publisher {
    /// Skips the current value a CurrentValueSubject-like publisher sends on subscription.
    fileprivate func dropFirstForTest() -> Publishers.Filter<Self> {
        var first = true
        return filter { _ in
            defer { first = false }
            return !first
        }
    }
}
