package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/stacksim/stacksim/engine"
)

// What CloudFormation publishes of stack events, appended to files as JSON
// lines:
//
//   - --notifications FILE: the messages to the SNS topics of a stack's
//     NotificationARNs, one per stack event and topic, each as SNS delivers
//     it to a subscriber (engine.SNSEnvelope);
//   - --eventbridge FILE: the events to the account's default EventBridge
//     bus, one per stack event (engine.EventBridgeEvent).
//
// A command that changes the state appends those of the events it saved;
// stacksim serve those of every call; stacksim run those of its scenario.

// lineSink appends JSON lines to a file.
type lineSink struct {
	flag, path string
	f          *os.File
	err        error // the first write that failed
}

// openSink opens a sink's file for appending (made when missing), or
// returns nil when its flag is not given.
func openSink(flag, path string) (*lineSink, error) {
	if path == "" {
		return nil, nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, badInput(fmt.Errorf("--%s %s: a directory; give a file to append to (made when missing)", flag, path))
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, badInput(fmt.Errorf("--%s %s: cannot open it for appending: %w", flag, path, err))
	}
	return &lineSink{flag: flag, path: path, f: f}, nil
}

// write appends one value as a line of JSON.
func (s *lineSink) write(v any) {
	if s.err != nil {
		return
	}
	line, err := json.Marshal(v)
	if err == nil {
		_, err = s.f.Write(append(line, '\n'))
	}
	if err != nil {
		s.err = fmt.Errorf("--%s %s: %w", s.flag, s.path, err)
	}
}

// close closes the file and returns the first write that failed.
func (s *lineSink) close() error {
	if s == nil {
		return nil
	}
	cerr := s.f.Close()
	if s.err != nil {
		return s.err
	}
	if cerr != nil {
		return fmt.Errorf("--%s %s: %w", s.flag, s.path, cerr)
	}
	return nil
}

// publications are the sinks of --notifications and --eventbridge.
type publications struct {
	notes, bus *lineSink
}

// openPublications opens the sinks the flags name (none: both nil).
func (a *app) openPublications() (*publications, error) {
	notes, err := openSink("notifications", a.notifications)
	if err != nil {
		return nil, err
	}
	bus, err := openSink("eventbridge", a.eventBridge)
	if err != nil {
		_ = notes.close()
		return nil, err
	}
	return &publications{notes: notes, bus: bus}, nil
}

// notify writes a notification as SNS delivers it (nil without the flag).
func (p *publications) notify() func(engine.Notification) {
	if p.notes == nil {
		return nil
	}
	return func(n engine.Notification) { p.notes.write(n.Envelope()) }
}

// send writes an event of the default bus (nil without the flag).
func (p *publications) send() func(engine.EventBridgeEvent) {
	if p.bus == nil {
		return nil
	}
	return func(ev engine.EventBridgeEvent) { p.bus.write(ev) }
}

// subscribe connects the sinks to an engine.
func (p *publications) subscribe(e *engine.Engine) {
	if fn := p.notify(); fn != nil {
		e.SubscribeNotifications(fn)
	}
	if fn := p.send(); fn != nil {
		e.SubscribeEventBridge(fn)
	}
}

// close closes both files and returns the writes that failed.
func (p *publications) close() error {
	if p == nil {
		return nil
	}
	return errors.Join(p.notes.close(), p.bus.close())
}
