// Package scenario replays scripted sequences of stack operations, with
// faults and expectations, against an engine, and compares the event log
// with a golden file.
//
// It must not know about cobra or the command line.
package scenario
