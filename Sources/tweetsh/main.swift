import Foundation
import TweetShell

let status = await TweetshApp.main(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment)
exit(status)
