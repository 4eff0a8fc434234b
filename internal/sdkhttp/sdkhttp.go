package sdkhttp

import (
	"io"
	"net/http"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// Client is the SDK's default HTTP client (awshttp.NewBuildableClient)
// with request bodies that offer only Read and Close (see the package
// doc).
func Client() smithyhttp.ClientDo { return readOnlyBodies{awshttp.NewBuildableClient()} }

// readOnlyBodies gives next's requests bodies that offer only Read and
// Close.
type readOnlyBodies struct{ next smithyhttp.ClientDo }

func (c readOnlyBodies) Do(r *http.Request) (*http.Response, error) {
	if r.Body != nil && r.Body != http.NoBody {
		r.Body = readOnlyBody{r.Body}
	}
	return c.next.Do(r)
}

// readOnlyBody hides every method of the body but Read and Close (the
// method set of the embedded interface).
type readOnlyBody struct{ io.ReadCloser }
