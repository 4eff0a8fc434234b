//go:build !race

package resources

// raceEnabled: the test binary is built with -race (slow tests sample).
const raceEnabled = false
