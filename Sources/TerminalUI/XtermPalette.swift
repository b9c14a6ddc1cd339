/// The xterm 256-colour palette and nearest-colour searches in it.
///
/// Entries 0–15 are xterm's default system colours (terminals let users change them, so they
/// are only used as targets for 16- and 8-colour terminals), 16–231 the 6×6×6 cube and 232–255
/// the grey ramp.
public enum XtermPalette {
    /// The six levels of each axis of the colour cube.
    private static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    private static let systemColors: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
        (255, 255, 255),
    ]

    /// The red, green and blue of a palette entry.
    public static func rgb(ofIndex index: UInt8) -> (UInt8, UInt8, UInt8) {
        switch index {
        case 0..<16:
            return systemColors[Int(index)]
        case 16..<232:
            let cube = Int(index) - 16
            return (cubeLevels[cube / 36], cubeLevels[cube / 6 % 6], cubeLevels[cube % 6])
        default:
            let grey = 8 + 10 * (index - 232)
            return (grey, grey, grey)
        }
    }

    /// The entry of 16–255 (cube or grey ramp) closest to the colour, by squared distance in
    /// RGB. Never returns 0–15, whose real colours depend on the user's terminal settings.
    public static func nearestIndex(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let cubeIndex = 16 + 36 * nearestCubeLevel(red) + 6 * nearestCubeLevel(green) + nearestCubeLevel(blue)
        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let greyStep = average < 8 ? 0 : min(23, (average - 3) / 10)
        let greyIndex = 232 + greyStep
        let target = (red, green, blue)
        let cubeDistance = distance(target, rgb(ofIndex: UInt8(cubeIndex)))
        let greyDistance = distance(target, rgb(ofIndex: UInt8(greyIndex)))
        return UInt8(greyDistance < cubeDistance ? greyIndex : cubeIndex)
    }

    /// The index among the first `count` system colours (8 or 16) closest to the colour.
    public static func nearestBasicIndex(red: UInt8, green: UInt8, blue: UInt8, count: Int) -> Int {
        let target = (red, green, blue)
        var best = 0
        var bestDistance = Int.max
        for index in 0..<min(max(count, 1), 16) {
            let candidate = distance(target, systemColors[index])
            if candidate < bestDistance {
                best = index
                bestDistance = candidate
            }
        }
        return best
    }

    // MARK: - Private

    private static func nearestCubeLevel(_ value: UInt8) -> Int {
        switch value {
        case ..<48: return 0
        case ..<115: return 1
        default: return (Int(value) - 35) / 40
        }
    }

    private static func distance(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Int {
        let red = Int(a.0) - Int(b.0)
        let green = Int(a.1) - Int(b.1)
        let blue = Int(a.2) - Int(b.2)
        return red * red + green * green + blue * blue
    }
}
