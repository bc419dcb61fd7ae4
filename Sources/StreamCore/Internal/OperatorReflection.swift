// Combine's reflection of its operators' subscriptions: a playground shows the operator's name (the description), and
// a mirror shows the children Combine's shows for that operator. Everything here is computed when a debugger or a
// `Mirror` asks; nothing of it runs on the delivery path.

extension ReduceProducer: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The downstream, the result so far, the initial result and the upstream status; for collect, the number of
    /// values collected so far.
    internal var customMirror: Mirror {
        let state = reflected
        if description == "Collect" {
            return Mirror(self, children: ["count": ((result as Any) as? [Any])?.count ?? 0])
        }
        return Mirror(
            self,
            children: [
                "downstream": state.downstream, "result": result as Any, "initial": initial as Any,
                "status": state.status,
            ]
        )
    }

    /// The operator's name.
    internal var playgroundDescription: Any { description }
}

extension ElementFilterProducer: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// What Combine's mirror shows for the operator: nothing for drop(while:), tryMap and output; the downstream, whether
    /// it finished and the upstream subscription for encode and decode; the downstream otherwise.
    internal var customMirror: Mirror {
        let state = reflected
        switch description {
        case "DropWhile", "TryDropWhile", "TryMap", "Output":
            return Mirror(self, children: [])
        case "Encode", "Decode":
            return Mirror(
                self,
                children: [
                    "downstream": state.downstream, "finished": state.finished,
                    "upstreamSubscription": state.upstream as Any,
                ]
            )
        default:
            return Mirror(self, children: ["downstream": state.downstream])
        }
    }

    /// The operator's name.
    internal var playgroundDescription: Any { description }
}

extension MapSubscriber: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine.
    @usableFromInline internal var customMirror: Mirror { Mirror(self, children: []) }

    /// "Map".
    @usableFromInline internal var playgroundDescription: Any { description }
}

extension CompactMapSubscriber: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine.
    @usableFromInline internal var customMirror: Mirror { Mirror(self, children: []) }

    /// "CompactMap".
    @usableFromInline internal var playgroundDescription: Any { description }
}

extension FilterSubscriber: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine.
    @usableFromInline internal var customMirror: Mirror { Mirror(self, children: []) }

    /// "Filter".
    @usableFromInline internal var playgroundDescription: Any { description }
}

extension ScanSubscriber: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The downstream and the result so far, as in Combine.
    @usableFromInline internal var customMirror: Mirror {
        Mirror(self, children: ["downstream": downstream, "result": result])
    }

    /// "Scan".
    @usableFromInline internal var playgroundDescription: Any { description }
}

extension ScheduledForwarder: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine.
    internal var customMirror: Mirror { Mirror(self, children: []) }

    /// "ReceiveOn".
    internal var playgroundDescription: Any { description }
}

extension ReplacingInner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine's replaceError and replaceEmpty.
    var customMirror: Mirror { Mirror(self, children: []) }

    /// The operator's name.
    var playgroundDescription: Any { description }
}

extension ConcatenateCore: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine's concatenation.
    internal var customMirror: Mirror { Mirror(self, children: []) }

    /// The operator's name.
    internal var playgroundDescription: Any { description }
}

extension ConcatenatePrefixInput: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine's concatenation.
    internal var customMirror: Mirror { Mirror(self, children: []) }

    /// The operator's name.
    internal var playgroundDescription: Any { description }
}

extension ConcatenateSuffixInput: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine's concatenation.
    internal var customMirror: Mirror { Mirror(self, children: []) }

    /// The operator's name.
    internal var playgroundDescription: Any { description }
}

extension UntilOutputStorage: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine's drop(untilOutputFrom:).
    @usableFromInline internal var customMirror: Mirror { Mirror(self, children: []) }

    /// The operator's name.
    @usableFromInline internal var playgroundDescription: Any { description }
}

extension UntilOutputUpstream: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine's drop(untilOutputFrom:).
    @usableFromInline internal var customMirror: Mirror { Mirror(self, children: []) }

    /// The operator's name.
    @usableFromInline internal var playgroundDescription: Any { description }
}
