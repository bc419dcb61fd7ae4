import Foundation
import TweetShell

#if TWEETSH_JEMALLOC
    import CJemalloc

    // jemalloc replaces Glibc's malloc for the whole process just by being linked (see docs/architecture.md);
    // asking its version is the one reference that keeps the linker from dropping it.
    _ = cjemalloc_version()
#endif

let status = await TweetshApp.main(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment)
exit(status)
