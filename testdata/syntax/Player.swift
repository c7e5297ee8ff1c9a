import Foundation

public let maxVolume = 11
var sessionCount = 0

/// Something that can be played.
public protocol Playable {
    var title: String { get }
    func play() throws
}

public typealias Seconds = Double

public enum State {
    case idle
    case playing(Seconds)

    var isActive: Bool {
        if case .playing = self { return true }
        return false
    }
}

@available(macOS 12, *)
open class Player: Playable {
    public private(set) var title: String
    private var state: State = .idle

    public init(title: String) {
        self.title = title
    }

    deinit {
        print("bye")
    }

    public func play() throws {
        state = .playing(0)
    }

    func pause() { state = .idle }

    fileprivate func reset() {
        state = .idle
    }
}

struct Track {
    let name: String
    public var length: Seconds
}

extension Player {
    public func describe() -> String {
        return title
    }
}

func helper() -> Int {
    return 1
}
