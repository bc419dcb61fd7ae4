import Foundation
import StreamCore

/// Lets `encode(encoder: JSONEncoder())` work as in Combine.
extension JSONEncoder: TopLevelEncoder {}

/// Lets `decode(type:decoder: JSONDecoder())` work as in Combine.
extension JSONDecoder: TopLevelDecoder {}

/// Property lists are in Foundation on Linux too, so they get the same conformance as in Combine.
extension PropertyListEncoder: TopLevelEncoder {}

/// Property lists are in Foundation on Linux too, so they get the same conformance as in Combine.
extension PropertyListDecoder: TopLevelDecoder {}
