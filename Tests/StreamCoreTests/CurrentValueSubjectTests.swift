import StreamCore
import StreamTesting
import XCTest

final class CurrentValueSubjectTests: XCTestCase {
    func testSendsCurrentValueWhenDemandArrives() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let recorder = TrackingSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(recorder)
        XCTAssertEqual(recorder.values, [])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [1])
        subject.send(2)
        XCTAssertEqual(recorder.values, [1], "no demand left")
        XCTAssertEqual(subject.value, 2)
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [1, 2], "the latest value is delivered on the next request")
        subject.value = 3
        XCTAssertEqual(recorder.values, [1, 2])
        subject.value = 4
        recorder.request(.unlimited)
        XCTAssertEqual(recorder.values, [1, 2, 4], "intermediate values without demand are skipped")
        subject.send(5)
        XCTAssertEqual(recorder.values, [1, 2, 4, 5])
    }

    func testValueSetterSendsAndCompletionStops() {
        let subject = CurrentValueSubject<String, S1Error>("a")
        let recorder = TrackingSubscriber<String, S1Error>()
        subject.subscribe(recorder)
        subject.value = "b"
        subject.send(completion: .failure(S1Error(code: 4)))
        subject.send("c")
        XCTAssertEqual(recorder.values, ["a", "b"])
        XCTAssertEqual(recorder.failure, S1Error(code: 4))
        let late = TrackingSubscriber<String, S1Error>()
        subject.subscribe(late)
        XCTAssertEqual(late.values, [])
        XCTAssertEqual(late.failure, S1Error(code: 4))
    }

    func testOptionalValueType() {
        let subject = CurrentValueSubject<Int?, Never>(nil)
        var received: [Int?] = []
        let c = subject.sink { received.append($0) }
        subject.send(3)
        XCTAssertEqual(received, [nil, 3])
        XCTAssertEqual(subject.value, 3)
        _ = c
    }

    func testEachSubscriberGetsCurrentValueInOrder() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var log: [String] = []
        let a = subject.sink { log.append("a\($0)") }
        let b = subject.sink { log.append("b\($0)") }
        subject.send(1)
        XCTAssertEqual(log, ["a0", "b0", "a1", "b1"])
        _ = (a, b)
    }

    func testReentrantValueSetFromSinkDoesNotDeadlock() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var received: [Int] = []
        let c = subject.sink { value in
            received.append(value)
            if value < 3 { subject.value = value + 1 }
        }
        XCTAssertEqual(received, [0, 1, 2, 3])
        XCTAssertEqual(subject.value, 3)
        _ = c
    }
}
