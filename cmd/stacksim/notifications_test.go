package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"

	"github.com/stacksim/stacksim/engine"
)

// readNotifications reads a --notifications file: one SNS envelope per
// line.
func readNotifications(t *testing.T, path string) []engine.SNSEnvelope {
	t.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []engine.SNSEnvelope
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var env engine.SNSEnvelope
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&env); err != nil {
			t.Fatalf("%s: a line that is not an SNS envelope: %v\n%s", path, err, sc.Text())
		}
		if env.Type != "Notification" || env.Subject != engine.NotificationSubject || env.MessageId == "" || env.Timestamp == "" {
			t.Fatalf("%s: %+v", path, env)
		}
		out = append(out, env)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// readBusEvents reads an --eventbridge file: one event per line, each a
// CloudFormation status change.
func readBusEvents(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%s: %v\n%s", path, err, line)
		}
		if ev["source"] != "aws.cloudformation" || !strings.HasPrefix(fmt.Sprint(ev["detail-type"]), "CloudFormation ") {
			t.Fatalf("%s: %v", path, ev)
		}
		out = append(out, ev)
	}
	return out
}

// statusesOf lists the ResourceStatus of each message.
func statusesOf(envs []engine.SNSEnvelope) []string {
	var out []string
	for _, e := range envs {
		_, rest, _ := strings.Cut(e.Message, "\nResourceStatus='")
		status, _, _ := strings.Cut(rest, "'")
		out = append(out, status)
	}
	return out
}

// --notifications FILE: each command appends the messages of the events it
// saved; a refused command appends nothing; a directory is refused before
// anything is opened.
func TestNotificationsFile(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.jsonl")
	tmpl := filepath.Join(dir, "t.yaml")
	if err := os.WriteFile(tmpl, []byte(serveTemplate), 0o644); err != nil {
		t.Fatal(err)
	}
	topic := "arn:aws:sns:us-east-1:123456789012:ops"
	c.must(exitOK, "create-stack", "--stack-name", "app", "--template-body", "file://"+tmpl, "--notification-arns", topic, "--notifications", notes, "--quiet")
	got := readNotifications(t, notes)
	want := []string{"CREATE_IN_PROGRESS", "CREATE_IN_PROGRESS", "CREATE_IN_PROGRESS", "CREATE_COMPLETE", "CREATE_COMPLETE"}
	if strings.Join(statusesOf(got), " ") != strings.Join(want, " ") {
		t.Fatalf("after the create: %v, want %v", statusesOf(got), want)
	}
	for _, env := range got {
		if env.TopicArn != topic || !strings.HasPrefix(env.Message, "StackId='arn:aws:cloudformation:us-east-1:123456789012:stack/app/") {
			t.Fatalf("a message: %+v", env)
		}
	}
	// Refused: no update to perform; a bad template. Nothing appended.
	c.must(exitBadInput, "update-stack", "--stack-name", "app", "--template-body", "file://"+tmpl, "--notification-arns", topic, "--notifications", notes)
	c.must(exitBadInput, "create-stack", "--stack-name", "bad", "--template-body", "Resources: {}", "--notification-arns", topic, "--notifications", notes)
	if n := len(readNotifications(t, notes)); n != len(got) {
		t.Fatalf("refused commands appended %d messages", n-len(got))
	}
	// A stack without topics publishes nothing to SNS, and its events to
	// the default bus all the same; the delete of app does.
	bus := filepath.Join(dir, "bus.jsonl")
	c.must(exitOK, "create-stack", "--stack-name", "quiet", "--template-body", "file://"+tmpl, "--notifications", notes, "--eventbridge", bus, "--quiet")
	if n := len(readBusEvents(t, bus)); n != 5 {
		t.Fatalf("%d bus events of quiet's create, for 5 events", n)
	}
	c.must(exitOK, "delete-stack", "--stack-name", "app", "--notifications", notes, "--quiet")
	all := readNotifications(t, notes)
	if tail := strings.Join(statusesOf(all[len(got):]), " "); tail != "DELETE_IN_PROGRESS DELETE_IN_PROGRESS DELETE_COMPLETE DELETE_COMPLETE" {
		t.Fatalf("after the delete: %s", tail)
	}
	seen := map[string]bool{}
	for _, env := range all {
		if seen[env.MessageId] {
			t.Fatalf("message id %s twice", env.MessageId)
		}
		seen[env.MessageId] = true
	}

	fresh := newCLI(t)
	_, stderr := fresh.must(exitBadInput, "create-stack", "--stack-name", "app", "--template-body", "file://"+tmpl, "--notifications", dir)
	if !strings.Contains(stderr, "--notifications "+dir+": a directory") {
		t.Fatalf("a directory: %s", stderr)
	}
	_, stderr = fresh.must(exitBadInput, "create-stack", "--stack-name", "app", "--template-body", "file://"+tmpl, "--eventbridge", dir)
	if !strings.Contains(stderr, "--eventbridge "+dir+": a directory") {
		t.Fatalf("a directory: %s", stderr)
	}
	if _, err := os.Stat(fresh.state); !os.IsNotExist(err) {
		t.Fatalf("the refused command wrote the state: %v", err)
	}
}

// serve --notifications FILE --eventbridge FILE: a call's messages and bus
// events are in the files when its answer arrives.
func TestServeNotifications(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	s := startServe(t, bin, dir, "--notifications", "notes.jsonl", "--eventbridge", "bus.jsonl")
	c := sdkClient(s.url)
	ctx := context.Background()
	topics := []string{"arn:aws:sns:us-east-1:123456789012:ops", "arn:aws:sns:us-east-1:123456789012:audit"}
	if _, err := c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("app"), TemplateBody: aws.String(serveTemplate), NotificationARNs: topics}); err != nil {
		t.Fatal(err)
	}
	evs, err := c.DescribeStackEvents(ctx, &cfn.DescribeStackEventsInput{StackName: aws.String("app")})
	if err != nil {
		t.Fatal(err)
	}
	got := readNotifications(t, filepath.Join(dir, "notes.jsonl"))
	if len(got) != 2*len(evs.StackEvents) {
		t.Fatalf("%d messages for %d events and 2 topics", len(got), len(evs.StackEvents))
	}
	if n := len(readBusEvents(t, filepath.Join(dir, "bus.jsonl"))); n != len(evs.StackEvents) {
		t.Fatalf("%d bus events for %d events", n, len(evs.StackEvents))
	}
	last := evs.StackEvents[0] // newest first
	for i, topic := range topics {
		m := got[len(got)-2+i]
		if m.TopicArn != topic || !strings.Contains(m.Message, "EventId='"+aws.ToString(last.EventId)+"'\n") {
			t.Fatalf("the last event's message to %s: %+v", topic, m)
		}
	}
	_, err = c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("six"), TemplateBody: aws.String(serveTemplate),
		NotificationARNs: []string{"a", "b", "c", "d", "e", "f"}})
	if err == nil || !strings.Contains(err.Error(), "Member must have length less than or equal to 5") {
		t.Fatalf("six topics: %v", err)
	}
}
