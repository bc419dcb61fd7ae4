import StreamCore
import StreamTesting
import XCTest

/// An error with an identity, for S2's failure tests.
struct S2Error: Error, Equatable {
    var code: Int
    init(_ code: Int = 1) { self.code = code }
}

extension TrackingSubscriber where Input: Equatable, Failure: Equatable {
    /// True when the subscriber saw exactly these values and this completion (nil: none yet).
    func saw(_ values: [Input], _ completion: Subscribers.Completion<Failure>?) -> Bool {
        self.values == values && self.completion == completion
    }
}
