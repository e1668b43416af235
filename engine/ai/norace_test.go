//go:build !race

package ai_test

// raceDetector reports whether the tests run with the race detector, which
// slows the searches too much for their deadlines to be checked.
const raceDetector = false
