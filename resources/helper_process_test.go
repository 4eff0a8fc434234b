package resources

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
)

// The test binary doubles as the external programs the tests run (a custom
// resource command, a handler process): run with STACKSIM_HELPER=MODE and
// -test.run=^TestHelperProcess$, it acts as MODE says and exits.

const helperEnv = "STACKSIM_HELPER"

func helperArgv() []string { return []string{os.Args[0], "-test.run=^TestHelperProcess$"} }

func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return
	}
	if strings.HasPrefix(mode, "persistent-") {
		os.Exit(runPersistentHelper(mode))
	}
	in, _ := io.ReadAll(os.Stdin)
	code := runHelper(mode, in)
	os.Exit(code)
}

// runPersistentHelper is a long-lived handler: a request a line.
func runPersistentHelper(mode string) int {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		var req map[string]any
		json.Unmarshal(sc.Bytes(), &req) //nolint:errcheck
		model, _ := req["desiredResourceState"].(map[string]any)
		if model == nil {
			model = map[string]any{}
		}
		model["Id"] = fmt.Sprintf("proc-%d", n) // the count shows one process served them all
		answer, _ := json.Marshal(map[string]any{"status": "SUCCESS", "resourceModel": model})
		fmt.Fprintln(os.Stderr, "request", n, req["action"], os.Getenv("STACKSIM_HANDLER_MODE"))
		switch {
		case mode == "persistent-crash-2nd" && n == 2:
			fmt.Fprintln(os.Stderr, "Traceback (most recent call last):")
			fmt.Fprintln(os.Stderr, "KeyError: 'Colour'")
			return 1
		case mode == "persistent-hang" && n == 2:
			select {}
		case mode == "persistent-garbage" && n == 2:
			fmt.Println("starting up...")
			continue
		case mode == "persistent-big" && n == 2:
			fmt.Println(strings.Repeat("x", 4096))
			continue
		case mode == "persistent-exit" && n == 2:
			return 0
		}
		fmt.Println(string(answer))
	}
	return 0
}

func runHelper(mode string, in []byte) int {
	var creq CustomRequest
	var hreq map[string]any
	json.Unmarshal(in, &creq) //nolint:errcheck // the modes that need it check it
	json.Unmarshal(in, &hreq) //nolint:errcheck
	respond := func(r CustomResponse) []byte {
		r.StackID, r.RequestID, r.LogicalResourceID = creq.StackID, creq.RequestID, creq.LogicalResourceID
		b, _ := json.Marshal(r)
		return b
	}
	id := func() string {
		if creq.PhysicalResourceID != "" {
			return creq.PhysicalResourceID
		}
		return "exec-" + fmt.Sprint(creq.ResourceProperties["Name"])
	}
	switch mode {
	case "macro-echo":
		var m MacroRequest
		json.Unmarshal(in, &m) //nolint:errcheck
		b, _ := json.Marshal(map[string]any{"requestId": m.RequestID, "status": "success", "fragment": m.Fragment, "params": m.Params})
		os.Stdout.Write(b)
	case "custom-stdout":
		os.Stdout.Write(respond(CustomResponse{Status: "SUCCESS", PhysicalResourceID: id(), Data: map[string]any{"Echo": creq.ResourceProperties["Name"], "Type": creq.RequestType}}))
	case "custom-put":
		body := respond(CustomResponse{Status: "SUCCESS", PhysicalResourceID: id(), Data: map[string]any{"Via": "put"}})
		req, _ := http.NewRequest(http.MethodPut, creq.ResponseURL, bytes.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			fmt.Fprintln(os.Stderr, "PUT failed:", err)
			return 1
		}
	case "custom-fail-exit":
		fmt.Fprintln(os.Stderr, "cannot reach the database")
		return 3
	case "handler-ok":
		model, _ := hreq["desiredResourceState"].(map[string]any)
		if model == nil {
			model = map[string]any{}
		}
		model["Id"] = "proc-1"
		fmt.Fprintln(os.Stderr, "handling", hreq["action"], os.Getenv("STACKSIM_TYPE_NAME"), os.Getenv("STACKSIM_PHASE"), os.Getenv("STACKSIM_ATTEMPT"))
		json.NewEncoder(os.Stdout).Encode(map[string]any{"status": "SUCCESS", "resourceModel": model}) //nolint:errcheck
	case "handler-crash":
		fmt.Fprintln(os.Stderr, "panic: runtime error: index out of range [3] with length 3")
		return 2
	case "handler-garbage":
		fmt.Println("Traceback (most recent call last): oops")
	case "handler-status":
		fmt.Println(`{"status": "DONE"}`)
	case "handler-two":
		fmt.Println(`{"status": "SUCCESS"} {"status": "SUCCESS"}`)
	case "handler-big":
		fmt.Println(`{"status": "SUCCESS", "message": "` + strings.Repeat("x", 4096) + `"}`)
	case "handler-echo":
		// Answers the request it read, in the message: the tests check
		// each protocol's shape.
		b, _ := json.Marshal(map[string]any{"status": "SUCCESS", "message": string(in)})
		os.Stdout.Write(b)
	case "silent":
	case "hang":
		select {} // never answers; the caller's real-time cap kills it
	}
	return 0
}
