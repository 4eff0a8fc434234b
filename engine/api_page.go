package engine

import (
	"encoding/base64"
	"strconv"
	"strings"
)

// Page sizes of the paginated read calls when Options.PageSize is 0. AWS
// documents a 1 MB response limit for DescribeStackEvents and 100 items for
// the others; stacksim pages every call at 100.
const defaultPageSize = 100

// describeStackResourcesLimit: "Only the first 100 resources will be
// returned. If your stack has more resources than this, you should use
// ListStackResources instead." (DescribeStackResources, API reference).
const describeStackResourcesLimit = 100

func (e *Engine) pageSize() int {
	if e.opts.PageSize > 0 {
		return e.opts.PageSize
	}
	return defaultPageSize
}

// A NextToken is an opaque cursor: the call it belongs to and where the next
// page starts, base64url-encoded. It is valid for the call and the stack it
// was given for only.

func encodeToken(call string, parts ...string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(call + "\x00" + strings.Join(parts, "\x00")))
}

// decodeToken returns the parts of a token of call, n of them; an error
// (ValidationError) when the token is not one.
func decodeToken(token, call string, n int) ([]string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err == nil {
		parts := strings.Split(string(raw), "\x00")
		if len(parts) == n+1 && parts[0] == call {
			return parts[1:], nil
		}
	}
	return nil, invalidToken()
}

// invalidToken is the answer to a NextToken that no earlier page of the same
// call gave. UNVERIFIED: AWS's wording for CloudFormation was not found.
func invalidToken() *APIError {
	return ValidationError("Invalid NextToken: pass the NextToken of the previous page of the same call, unchanged")
}

// pageOffset is where the page a NextToken of call names starts in a list
// of total items that owner (a stack, a change set) holds: 0 for no token;
// a ValidationError for a token of another call or owner, or out of range.
func pageOffset(token, call, owner string, total int) (int, error) {
	if token == "" {
		return 0, nil
	}
	parts, err := decodeToken(token, call, 2)
	if err != nil {
		return 0, err
	}
	n, perr := strconv.Atoi(parts[1])
	if perr != nil || parts[0] != owner || n < 0 || n > total {
		return 0, invalidToken()
	}
	return n, nil
}
