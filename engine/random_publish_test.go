package engine

// What the random worlds check of publications (notifications.go,
// eventbridge.go), from what their subscribers receive:
//
//   - every stack event reaches the bus exactly once, and each bus event and
//     each notification tells of an event the world saw;
//   - message ids are unique;
//   - at rest, the last event of every stack went to as many topics as the
//     stack has (an update that changed them and rolled back put the old
//     ones back before it ended);
//   - a world kept in a state file publishes the same notifications, and
//     the same bus events, each in the same order, as the same world in
//     memory (TestRandomWorldsPersisted).
//
// A world kept in a state file publishes on every save; finish saves once
// more first, so that nothing is left unpublished.

// publications records what a world's subscribers received.
type publications struct {
	events map[string]StackEvent // by stack and event id
	last   map[string]string     // the key of each stack's last event
	bus    map[string]int        // bus events by event key
	notes  map[string]int        // notifications by event key
	ids    map[string]bool       // message and bus event ids
	dup    string                // an id given twice
	// noteSeq and busSeq are the ids of the notifications and of the bus
	// events, in the order received: a world kept in a state file
	// (published on save) gives the same as in memory. (The order between
	// the two kinds is not kept: they go to different subscribers.)
	noteSeq, busSeq []string
}

func pubKey(ev StackEvent) string { return ev.StackId + " " + ev.EventId }

// subscribePublications connects the world's engine (again, after a
// reopen) to its publications.
func (w *world) subscribePublications() {
	if w.pubs == nil {
		w.pubs = &publications{events: map[string]StackEvent{}, last: map[string]string{}, bus: map[string]int{},
			notes: map[string]int{}, ids: map[string]bool{}}
	}
	p := w.pubs
	w.e.Subscribe(func(ev StackEvent) {
		k := pubKey(ev)
		p.events[k] = ev
		p.last[ev.StackId] = k
	})
	seen := func(id string) {
		if p.ids[id] && p.dup == "" {
			p.dup = id
		}
		p.ids[id] = true
	}
	w.e.SubscribeEventBridge(func(ev EventBridgeEvent) {
		seen(ev.ID)
		p.busSeq = append(p.busSeq, ev.ID)
		if ev.DetailType != DetailTypeDriftDetection {
			p.bus[pubKey(ev.Event)]++
		}
	})
	w.e.SubscribeNotifications(func(n Notification) {
		seen(n.MessageId)
		p.noteSeq = append(p.noteSeq, n.MessageId)
		p.notes[pubKey(n.Event)]++
	})
}

// checkPublications checks the world's publications at its end.
func (w *world) checkPublications() {
	w.t.Helper()
	if w.path != "" {
		if err := w.e.Save(); err != nil {
			w.t.Fatal(err)
		}
	}
	p := w.pubs
	if p.dup != "" {
		w.t.Fatalf("publication id %s given twice", p.dup)
	}
	for k := range p.events {
		if p.bus[k] != 1 {
			w.t.Fatalf("event %s reached the bus %d times", k, p.bus[k])
		}
	}
	for k := range p.notes {
		if _, ok := p.events[k]; !ok {
			w.t.Fatalf("a notification of event %s, which no subscriber saw", k)
		}
	}
	for stackID, k := range p.last {
		out, err := w.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: stackID})
		if err != nil {
			w.t.Fatal(err)
		}
		if topics := len(out.Stacks[0].NotificationARNs); p.notes[k] != topics {
			w.t.Fatalf("the last event of %s (%s %s) went to %d topics; the stack has %d",
				out.Stacks[0].StackName, p.events[k].LogicalResourceId, p.events[k].ResourceStatus, p.notes[k], topics)
		}
	}
}
