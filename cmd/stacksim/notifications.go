package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/stacksim/stacksim/engine"
)

// --notifications FILE: the messages CloudFormation publishes to the SNS
// topics of a stack's NotificationARNs, one per stack event and topic,
// appended to FILE as JSON lines, each as SNS delivers it to a subscriber
// (engine.SNSEnvelope). A command that changes the state appends the
// messages of the events it saved; stacksim serve those of every call;
// stacksim run those of its scenario.

// notificationSink appends notifications to a file.
type notificationSink struct {
	path string
	f    *os.File
	err  error // the first write that failed
}

// openNotifications opens --notifications FILE for appending (made when
// missing), or returns nil when the flag is not given.
func (a *app) openNotifications() (*notificationSink, error) {
	if a.notifications == "" {
		return nil, nil
	}
	if st, err := os.Stat(a.notifications); err == nil && st.IsDir() {
		return nil, badInput(fmt.Errorf("--notifications %s: a directory; give a file to append the notifications to (made when missing)", a.notifications))
	}
	f, err := os.OpenFile(a.notifications, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, badInput(fmt.Errorf("--notifications %s: cannot open it for appending: %w", a.notifications, err))
	}
	return &notificationSink{path: a.notifications, f: f}, nil
}

// write appends one notification as a line of JSON.
func (s *notificationSink) write(n engine.Notification) {
	if s.err != nil {
		return
	}
	line, err := json.Marshal(n.Envelope())
	if err == nil {
		_, err = s.f.Write(append(line, '\n'))
	}
	if err != nil {
		s.err = fmt.Errorf("--notifications %s: %w", s.path, err)
	}
}

// close closes the file and returns the first write that failed.
func (s *notificationSink) close() error {
	if s == nil {
		return nil
	}
	cerr := s.f.Close()
	if s.err != nil {
		return s.err
	}
	if cerr != nil {
		return fmt.Errorf("--notifications %s: %w", s.path, cerr)
	}
	return nil
}
