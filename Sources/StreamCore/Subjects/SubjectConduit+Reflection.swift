// What a debugger or a `Mirror` shows of a subscription to a subject, with Combine's children. Computed when asked,
// under the subscription's lock; nothing of it runs on the delivery path.

extension SubjectConduit: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The subject (as "parent" and as "subject"), the subscriber and the demand still owed, as in Combine; an
    /// `ObservableObjectPublisher` subscription shows its subscriber only. Once the subscription has ended the subject
    /// and the subscriber show as `nil`.
    @usableFromInline
    internal var customMirror: Mirror {
        lock.lock()
        let subject = owner
        let subscriber = handlers?.takeUnretainedValue().downstream
        let owed = demand
        lock.unlock()
        if kind == .observableObject {
            return Mirror(self, children: ["downstream": subscriber as Any])
        }
        return Mirror(
            self,
            children: [
                "parent": subject as Any, "downstream": subscriber as Any, "demand": owed, "subject": subject as Any,
            ]
        )
    }

    /// The subject's name.
    @usableFromInline
    internal var playgroundDescription: Any { description }
}
