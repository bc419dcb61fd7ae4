/// Work a `Task` runs, seen through an existential so the task's closure names no generic parameter.
///
/// Swift 6.2 warns when an isolated task closure captures a generic type's metatype (it cannot know that the metatype
/// is Sendable); calling through this protocol keeps the generic types inside the conforming class.
internal protocol AsyncDriven: AnyObject, Sendable {
    /// The task's body.
    func drive() async
}

extension AsyncDriven {
    /// Starts `drive()` in a new task.
    func startTask(priority: TaskPriority? = nil) -> Task<Void, Never> {
        let driven: any AsyncDriven = self
        return Task(priority: priority) {
            await driven.drive()
        }
    }
}
