// Combine's reflection for its subscribers: a playground shows the description, and a mirror shows what Combine's
// shows (nothing for a sink; the object, key path and status for an assign). All of it is computed when asked for,
// never on the delivery path.

extension Subscribers.Sink: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// A sink shows no children, as in Combine.
    public var customMirror: Mirror {
        Mirror(self, children: [])
    }

    /// The description ("Sink").
    public var playgroundDescription: Any {
        description
    }
}

extension Subscribers.Assign: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The object (nil once the subscription ended), the key path and the subscription status, as in Combine.
    public var customMirror: Mirror {
        Mirror(self, children: ["object": object as Any, "keyPath": keyPath, "status": reflectedStatus])
    }

    /// The description ("Assign Root.").
    public var playgroundDescription: Any {
        description
    }
}
