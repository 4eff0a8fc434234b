//go:build race

package engine

// raceEnabled: the test binary is built with -race (slow tests sample).
const raceEnabled = true
